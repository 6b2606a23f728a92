import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import AlbumModel

#if canImport(Glibc)
  import Glibc
#endif

/// Lyrics (issue 38, item 5): LRC read without its timestamps, the line sung at a time, and
/// where a track's lyrics are found (an `.lrc` beside it first, then its own tags).
@Suite struct LyricsTests {
  static let lrc = """
    [ti:Airbag]
    [ar:Radiohead]
    [offset:+500]
    [00:12.50]In the next world war
    [00:15.00][01:02.00]In a jackknifed juggernaut
    [00:18.20]I am <00:18.50>born <00:19.00>again

    [00:21:50]In the neon sign
    """

  @Test func anLRCIsReadInTimeOrderWithoutItsTagsAndStamps() {
    let lyrics = Lyrics(lrc: Self.lrc, source: .sidecar("/m/01.lrc"))
    #expect(lyrics.isSynced)
    #expect(
      lyrics.text == [
        "In the next world war", "In a jackknifed juggernaut", "I am born again", "In the neon sign",
        "In a jackknifed juggernaut",
      ])
    // The offset moves every line half a second earlier; `[mm:ss:xx]` counts hundredths.
    #expect(lyrics.lines.map(\.time) == [12, 14.5, 17.7, 21, 61.5])
  }

  @Test(
    arguments: [
      (0.0, nil), (11.99, nil), (12.0, "In the next world war"), (14.0, "In the next world war"),
      (14.5, "In a jackknifed juggernaut"), (20.0, "I am born again"), (60.0, "In the neon sign"),
      (3600.0, "In a jackknifed juggernaut"),
    ] as [(Double, String?)])
  func theLineSungAtATimeIsTheLastOneStartedByThen(seconds: Double, line: String?) {
    let lyrics = Lyrics(lrc: Self.lrc, source: .sidecar("/m/01.lrc"))
    #expect(lyrics.line(at: seconds) == line)
  }

  @Test func plainTextIsItsLinesAndHasNoCurrentLine() {
    let lyrics = Lyrics(lrc: "\n\nFirst verse\r\nstill first\n\nSecond verse\n\n", source: .embedded("/m/1.mp3"))
    #expect(!lyrics.isSynced)
    #expect(lyrics.text == ["First verse", "still first", "", "Second verse"])
    #expect(lyrics.line(at: 10) == nil)
    // A bracket that is not a stamp or a tag is text.
    #expect(Lyrics(lrc: "[Chorus]\nLa la", source: .embedded("")).text == ["[Chorus]", "La la"])
  }

  @Test func aSidecarLRCIsReadBeforeTheEmbeddedLyrics() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("A/01 Airbag.mp3", TagEdit(title: "Airbag"))
    _ = try Mutagen.run(
      """
      import sys, mutagen
      from mutagen.id3 import USLT
      f = mutagen.File(sys.argv[1])
      f.tags.add(USLT(encoding=3, lang='eng', desc='', text='Embedded words'))
      f.save()
      """, [path])
    #expect(
      Lyrics.read(forTrack: path) == Lyrics(lines: [.init(time: nil, text: "Embedded words")], source: .embedded(path)))

    // An .LRC in Latin-1, with a byte-order mark nowhere: decoded as Latin-1.
    let upper = music.path("A/01 Airbag.LRC")
    try Data([0x5B, 0x30, 0x30, 0x3A, 0x30, 0x31, 0x2E, 0x30, 0x30, 0x5D] + Array("Caf".utf8) + [0xE9])
      .write(to: URL(fileURLWithPath: upper))
    #expect(Lyrics.read(forTrack: path) == Lyrics(lines: [.init(time: 1, text: "Café")], source: .sidecar(upper)))

    // The lower-case one first, UTF-8 with a byte-order mark.
    let lower = music.path("A/01 Airbag.lrc")
    try Data([0xEF, 0xBB, 0xBF] + Array("[00:02.00]Ünïcode".utf8)).write(to: URL(fileURLWithPath: lower))
    #expect(Lyrics.read(forTrack: path)?.lines == [.init(time: 2, text: "Ünïcode")])

    // A FIFO put where the .lrc is does not block: the next place is read.
    try FileManager.default.removeItem(atPath: lower)
    try FileManager.default.removeItem(atPath: upper)
    #expect(mkfifo(lower, 0o644) == 0)
    #expect(Lyrics.read(forTrack: path)?.source == .embedded(path))
  }

  @Test func syncedEmbeddedLyricsKeepTheirTimes() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("A/01.mp3", TagEdit(title: "Airbag"))
    _ = try Mutagen.run(
      """
      import sys, mutagen
      from mutagen.id3 import SYLT
      f = mutagen.File(sys.argv[1])
      f.tags.add(SYLT(encoding=3, lang='eng', format=2, type=1, text=[('Later', 9000), ('Sooner', 1000)]))
      f.save()
      """, [path])
    let lyrics = try #require(Lyrics.read(forTrack: path))
    #expect(lyrics.lines == [.init(time: 1, text: "Sooner"), .init(time: 9, text: "Later")])
    #expect(lyrics.line(at: 5) == "Sooner")
    #expect(Lyrics.read(forTrack: music.path("A/none.mp3")) == nil)
  }

  /// A chorus needs a handful of stamps (issue 46, H20): a line keeps its first 64, and a file
  /// at most 10,000 timed lines.
  @Test func stampsAreBoundedPerLineAndPerFile() {
    let one = Lyrics(lrc: String(repeating: "[00:01]", count: 100_000) + "x", source: .sidecar("a.lrc"))
    #expect(one.lines.count == Lyrics.stampsPerLine)
    let many = Lyrics(
      lrc: (0..<20_000).map { "[00:\(String(format: "%02d", $0 % 60))]line \($0)" }.joined(separator: "\n"),
      source: .sidecar("a.lrc"))
    #expect(many.lines.count == Lyrics.timedLines)
  }

  @Test(arguments: [
    ([UInt8]("[00:01.00]la\n".utf8), true), ([UInt8]("tab\there\r\n".utf8), true), ([0x61, 0x00, 0x62], false),
    ((0..<100).map { UInt8($0 % 32) }, false),
    // A stray escape sequence in a line of lyrics is still text (printed escaped).
    ([UInt8]("[00:00.50]first line\n[00:01.00]\u{1B}]0;PWNED\u{07}second line\n".utf8), true),
  ])
  func textIsToldFromOtherBytes(bytes: [UInt8], isText: Bool) {
    #expect(Lyrics.looksLikeText(bytes) == isText)
  }
}
