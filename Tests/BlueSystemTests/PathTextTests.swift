import Foundation
import TestSupport
import Testing

@testable import BlueSystem

/// Paths as text and folders listed without Foundation (issue 47, item 6): what NSString's
/// path methods and FileManager's listing answered, compared with Foundation itself here.
@Suite struct PathTextTests {
  @Test(arguments: [
    "/music/a.m3u", "/music//b/", "/a", "/", "name", "", "a/b", "//x//y//", "relative/dir/",
  ])
  func theFolderOfAPathIsWhatNSStringSaid(path: String) {
    #expect(PathText.directory(of: path) == (path as NSString).deletingLastPathComponent)
  }

  @Test(arguments: [
    "/music/./a/../b.flac", "/a/b/../../c", "/../x", "/x/./y/", "/music//Artist/Album/../../B/t.mp3",
    "/Музыка/./Альбом/../трек.flac",
  ])
  func aPathWithoutLinksIsStandardizedAsNSStringDid(path: String) {
    #expect(PathText.standardized(path) == (path as NSString).standardizingPath)
  }

  @Test func aRelativePathStaysRelative() {
    #expect(PathText.standardized("a/./b/../c") == "a/c")
    #expect(PathText.standardized("../a") == "../a")
    #expect(PathText.standardized("./") == ".")
  }

  @Test func aFolderListsItsNamesAndAMissingOneIsNil() throws {
    let directory = try TemporaryDirectory()
    for name in ["one.jpg", "Ünïcödé.png", ".hidden"] {
      _ = FileManager.default.createFile(atPath: directory.file(name), contents: Data([1]))
    }
    try FileManager.default.createDirectory(atPath: directory.file("sub"), withIntermediateDirectories: false)
    let names = try #require(directoryEntries(atPath: directory.path))
    #expect(Set(names) == Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)))
    #expect(Set(names) == [".hidden", "one.jpg", "sub", "Ünïcödé.png"])
    #expect(directoryEntries(atPath: directory.file("missing")) == nil)
    #expect(directoryEntries(atPath: directory.file("one.jpg")) == nil)
  }

  @Test func aFileIsReadWhole() throws {
    let directory = try TemporaryDirectory()
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
    _ = FileManager.default.createFile(atPath: directory.file("blob"), contents: Data(bytes))
    #expect(try readFile(atPath: directory.file("blob")) == bytes)
    #expect(try readFile(atPath: directory.file("blob"), atMost: 10).count == 11)
    #expect(throws: SystemError.self) { try readFile(atPath: directory.file("missing")) }
  }
}
