import AlbumModel
import BlueLibrary
import Foundation
import Testing

@testable import BlueShell

/// `play FILE` and `queue FILE` (issue 50, item 6): an M3U, M3U8 or PLS playlist's tracks
/// that the library holds are played or queued in its order; the others are named once, in
/// one line.
@Suite struct PlaylistFileTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  /// Writes `text` as `name` in the music folder; returns its path.
  private func playlist(_ name: String, _ text: String) throws -> String {
    try fixture.folder.file(name, Array(text.utf8))
  }

  @Test func anM3U8PlaysTheTracksTheLibraryHoldsAndNamesTheOthersOnce() throws {
    // Relative to its folder, absolute, a file:// URL (percent-encoded), and two the
    // library lacks.
    let path = try playlist(
      "Lists/mix é.m3u8",
      """
      \u{FEFF}#EXTM3U
      #EXTINF:1,Y - B1
      ../Y/Beta/01.mp3
      #EXTINF:1,Gone
      ../Gone/a.flac

      \(fixture.path("X/Alpha/02.mp3"))
      file://\(fixture.folder.root.replacingOccurrences(of: " ", with: "%20"))/X/Alpha/01.mp3
      http://example.org/stream.mp3

      """)
    #expect(shell.run("play '\(path)'") == [])
    #expect(
      shell.lines() == [
        "playing mix é.m3u8 (3 tracks)", "2 of 5 tracks are not in the library: a.flac, stream.mp3",
      ])
    #expect(fixture.player.queue.map(\.title) == ["B1", "A2", "A1"])
    #expect(fixture.loaded()?.hasPrefix("load 0 of [\(fixture.path("Y/Beta/01.mp3")), ") == true)
  }

  @Test func aPLSIsQueuedInTheOrderOfItsNumbers() throws {
    let path = try playlist(
      "road.pls",
      """
      [playlist]
      NumberOfEntries=3
      File2=X/Alpha/01.mp3
      Title2=A1
      File1=\(fixture.path("Y/Beta/01.mp3"))
      File3=X/Alpha/02.mp3
      Version=2

      """)
    #expect(shell.run("queue Alpha; queue '\(path)'") == [])
    #expect(shell.lines().last == "queued road.pls (3 tracks); 5 tracks in the queue")
    #expect(fixture.player.queue.map(\.title) == ["A1", "A2", "B1", "A1", "A2"])
    #expect(fixture.player.isIdle)
  }

  /// A Latin-1 M3U (older players) that starts with a UTF-8 byte-order mark: the mark is
  /// no part of the first line, which stays a comment, and its entries are read as Latin-1
  /// (`é` is one byte). The mark was decoded as Latin-1 too: `ï»¿#EXTM3U` became an entry,
  /// named as not in the library.
  @Test func aLatin1M3UThatStartsWithAByteOrderMarkReadsItsFirstLine() throws {
    let text = "#EXTM3U\n#EXTINF:1,Caf\u{E9}\nX/Alpha/01.mp3\n/elsewhere/caf\u{E9}.flac\n"
    let latin1 = text.unicodeScalars.map { UInt8($0.value) }
    let path = try fixture.folder.file("old.m3u", [0xEF, 0xBB, 0xBF] + latin1)

    #expect(
      try PlaylistFile.entries(at: path) == [fixture.path("X/Alpha/01.mp3"), "/elsewhere/caf\u{E9}.flac"])
    #expect(shell.run("play '\(path)'") == [])
    #expect(
      shell.lines() == ["playing old.m3u (1 track)", "1 of 2 tracks is not in the library: caf\u{E9}.flac"])
  }

  @Test func aPlaylistOfNothingTheLibraryHoldsOrNoFileIsOneLine() throws {
    let path = try playlist("none.m3u", "#EXTM3U\n/elsewhere/a.flac\n/elsewhere/b.flac\n")
    #expect(
      shell.run("play '\(path)'") == [
        "play: none of the 2 tracks of none.m3u is in the library: a.flac, b.flac"
      ])
    let empty = try playlist("empty.m3u", "#EXTM3U\n")
    #expect(
      shell.run("queue '\(empty)'") == [
        "queue: cannot read '\(empty)': it lists no tracks (an M3U or PLS playlist?)"
      ])
    #expect(
      shell.run("play '\(fixture.folder.root)/missing.pls'") == [
        "play: cannot read '\(fixture.folder.root)/missing.pls': no such file or directory"
      ])
  }
}
