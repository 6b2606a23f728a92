import Foundation
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// ``TagEdit/writeSafely(to:shouldStop:)`` on real files: what the copy renamed over the
/// original keeps (holes, extended attributes, the set-user-id bit), and a stop mid-copy.
@Suite struct TagEditSafelyTests {
  /// A WAV of `hole` bytes of silence that take no room: the fixture's header with its
  /// sizes grown, then the file extended past it without writing.
  static func sparseWAV(at path: String, hole: Int) throws {
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: AudioFormat.fixtures + "/silence.wav")))
    let marker = Array("data".utf8)
    guard let index = (0..<(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == marker }) else {
      Issue.record("the WAV fixture has no data chunk")
      return
    }
    func put(_ value: Int, at offset: Int) {
      for byte in 0..<4 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
    }
    put(hole, at: index + 4)
    put(index + hole, at: 4)
    try Data(bytes[..<(index + 8)]).write(to: URL(fileURLWithPath: path))
    #expect(truncate(path, off_t(index + 8 + hole)) == 0)
  }

  static func blocks(_ path: String) -> Int64 {
    var info = stat()
    return stat(path, &info) == 0 ? Int64(info.st_blocks) : -1
  }

  /// A sparse file stays sparse: the copy holds its data only (round 4, G19: a sparse 2 GB
  /// WAV that used 4 KB took 2 GB after `write`).
  @Test func aSparseFileStaysSparse() throws {
    let music = try MusicFolderFixture()
    let path = music.path("sparse.wav")
    try Self.sparseWAV(at: path, hole: 64 << 20)
    let before = Self.blocks(path)
    #expect(before >= 0 && before < 2048, "the fixture is not sparse: \(before) blocks")
    try TagEdit(genre: "Huge").writeSafely(to: path)
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("the written file does not read as audio")
      return
    }
    #expect(tags.genre == "Huge")
    // 64 MiB would be 131,072 blocks of 512 bytes.
    #expect(Self.blocks(path) < 4096, "\(Self.blocks(path)) blocks")
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_size > 64 << 20)
  }

  /// Extended attributes (a desktop's note, an ACL) and the set-user-id bit stay (G17: the
  /// copy was given no attributes, and its owner after its mode, which cleared the bit).
  @Test func extendedAttributesAndTheSetUserIDBitStay() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("01.mp3", TagEdit(album: "A"))
    // Set and read by Python: Glibc's module leaves out <sys/xattr.h>.
    guard try Self.python("import os, sys; os.setxattr(sys.argv[1], 'user.note', b'keep me')", path) == "" else {
      Issue.record("this file system takes no user attributes")
      return
    }
    #expect(chmod(path, 0o4755) == 0)
    try TagEdit(genre: "X").writeSafely(to: path)
    #expect(try Self.python("import os, sys; print(os.getxattr(sys.argv[1], 'user.note'))", path) == "b'keep me'\n")
    var info = stat()
    #expect(
      stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o4755, "mode \(String(info.st_mode & 0o7777, radix: 8))")
  }

  /// Runs `script` with python3 on `argument`: its output, "" on a failure (recorded).
  static func python(_ script: String, _ argument: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, argument]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "python3 failed: \(script)")
    return String(decoding: data, as: UTF8.self)
  }

  /// Asked to stop while it copies, it removes its copy and leaves the file as it was.
  @Test func aStopDuringTheCopyLeavesTheFileAndNoCopy() throws {
    let music = try MusicFolderFixture()
    let path = music.path("big.wav")
    try Self.sparseWAV(at: path, hole: 8 << 20)
    // Data the copy must read (a dense file), so that it has blocks to stop between.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seek(toOffset: 4096)
    try handle.write(contentsOf: Data(count: 4 << 20))
    try handle.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    var asked = 0
    #expect(throws: TagWriteError.stopped(path)) {
      try TagEdit(genre: "X").writeSafely(to: path) {
        asked += 1
        return asked > 1
      }
    }
    #expect(asked == 2)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: music.root) == ["big.wav"])
  }
}
