import Foundation
import TestSupport
import Testing

@testable import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct AtomicFileTests {
  @Test func aWriteReplacesTheContentAndLeavesNoTemporaryFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("notes.txt")
    try AtomicFile.write(Array("old".utf8), to: path)
    try AtomicFile.write(Array("new content".utf8), to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new content")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
  }

  @Test func aNewFileGetsTheModeAndAnExistingOneKeepsItsOwn() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("history")
    try AtomicFile.write(Array("a".utf8), to: path, mode: 0o600)
    #expect(try permissions(path) == 0o600)
    #expect(chmod(path, 0o640) == 0)
    try AtomicFile.write(Array("b".utf8), to: path, mode: 0o600)
    #expect(try permissions(path) == 0o640)
    try AtomicFile.write(Array("c".utf8), to: path, mode: 0o600, keepingExistingMode: false)
    #expect(try permissions(path) == 0o600)
  }

  @Test func aWriteIntoAMissingDirectoryNamesThePathAndCreatesNothing() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("no/such/dir/export.json")
    #expect(throws: AtomicFileError(path: path, reason: "no such file or directory")) {
      try AtomicFile.write([1, 2, 3], to: path)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }

  @Test func aWriteBelowARegularFileFailsAndLeavesThatFileIntact() throws {
    let directory = try TemporaryDirectory()
    let blocker = directory.file("blocker")
    try Data("old".utf8).write(to: URL(fileURLWithPath: blocker))
    let path = blocker + "/export.json"
    #expect(throws: AtomicFileError(path: path, reason: "not a directory")) {
      try AtomicFile.write([1], to: path)
    }
    #expect(try String(contentsOfFile: blocker, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["blocker"])
  }

  @Test func aWriteOverADirectoryFailsAndLeavesItAlone() throws {
    let directory = try TemporaryDirectory()
    let target = directory.file("albums")
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
    #expect(throws: AtomicFileError(path: target, reason: "it is a directory")) {
      try AtomicFile.write([1], to: target)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["albums"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: target) == [])
  }

  @Test(.enabled(if: geteuid() != 0, "root writes into read-only directories"))
  func aWriteIntoAReadOnlyDirectoryFailsAndLeavesTheOldFileIntact() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("export.json")
    try AtomicFile.write(Array("old".utf8), to: path)
    #expect(chmod(directory.path, 0o500) == 0)
    defer { chmod(directory.path, 0o700) }
    #expect(throws: AtomicFileError.self) { try AtomicFile.write(Array("new".utf8), to: path) }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["export.json"])
  }

  @Test func aStagedFileIsInvisibleUntilCommittedAndDiscardRemovesIt() throws {
    let directory = try TemporaryDirectory()
    let target = directory.file("entry")
    let staged = try Array("cover".utf8).withUnsafeBytes { bytes in
      Result { () throws(AtomicFileError) in try AtomicFile.stage(bytes, in: directory.path) }
    }.get()
    #expect(staged.path.hasPrefix(directory.path + "/."), "a dot file, never taken for an entry")
    #expect(!FileManager.default.fileExists(atPath: target))
    try staged.commit(to: target)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "cover")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["entry"])

    let unused = try [UInt8(1)].withUnsafeBytes { bytes in
      Result { () throws(AtomicFileError) in try AtomicFile.stage(bytes, in: directory.path) }
    }.get()
    unused.discard()
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["entry"])
  }

  @Test func aFailedCommitNamesTheTargetAndRemovesTheStagedFile() throws {
    let directory = try TemporaryDirectory()
    let staged = try [UInt8(1)].withUnsafeBytes { bytes in
      Result { () throws(AtomicFileError) in try AtomicFile.stage(bytes, in: directory.path) }
    }.get()
    let target = directory.file("missing/entry")
    #expect(throws: AtomicFileError(path: target, reason: "no such file or directory")) {
      try staged.commit(to: target)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }

  private func permissions(_ path: String) throws -> Int? {
    try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
  }
}
