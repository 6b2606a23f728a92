import Foundation
import MusicFolder
import TestSupport
import Testing

/// Lyrics embedded in each format (issue 38, item 5), written by mutagen as other taggers do
/// and read through TagLib.
@Suite struct EmbeddedLyricsTests {
  struct Case: Sendable, CustomStringConvertible {
    var format: AudioFormat
    var script: String
    var expected: EmbeddedLyrics?
    var description: String { "\(format): \(script)" }
  }

  static let cases: [Case] = [
    Case(
      format: .mp3, script: "t.add(USLT(encoding=3, lang='eng', desc='', text='First line\\nSecond line'))",
      expected: EmbeddedLyrics(text: "First line\nSecond line", synced: [])),
    Case(
      format: .mp3,
      script: "t.add(SYLT(encoding=3, lang='eng', format=2, type=1, text=[('Hello', 1500), ('World', 4250)]))",
      expected: EmbeddedLyrics(
        text: nil, synced: [.init(milliseconds: 1500, text: "Hello"), .init(milliseconds: 4250, text: "World")])),
    Case(
      format: .flac, script: "t['LYRICS'] = 'Über alles\\nzwei'",
      expected: EmbeddedLyrics(text: "Über alles\nzwei", synced: [])),
    Case(
      format: .ogg, script: "t['UNSYNCEDLYRICS'] = 'Ogg words'", expected: EmbeddedLyrics(text: "Ogg words", synced: [])
    ),
    Case(
      format: .opus, script: "t['LYRICS'] = '[00:01.00]Opus line'",
      expected: EmbeddedLyrics(text: "[00:01.00]Opus line", synced: [])),
    Case(
      format: .m4a, script: "t['\\xa9lyr'] = ['MP4 words']", expected: EmbeddedLyrics(text: "MP4 words", synced: [])),
    Case(format: .flac, script: "t['TITLE'] = 'No lyrics'", expected: nil),
  ]

  @Test(arguments: cases)
  func lyricsEmbeddedInEachFormatAreRead(_ test: Case) throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.\(test.format)", TagEdit(title: "River"))
    let script = """
      import sys, mutagen
      from mutagen.id3 import USLT, SYLT
      f = mutagen.File(sys.argv[1])
      if f.tags is None:
          f.add_tags()
      t = f.tags
      \(test.script)
      f.save()
      """
    _ = try Mutagen.run(script, [path])
    #expect(EmbeddedLyrics.read(path) == test.expected)
  }

  @Test func aFileThatIsNotAudioHasNoLyrics() throws {
    let music = try MusicFolderFixture()
    let path = try music.file("noise.mp3", [UInt8](repeating: 0, count: 4096))
    #expect(EmbeddedLyrics.read(path) == nil)
    #expect(EmbeddedLyrics.read(music.path("missing.mp3")) == nil)
  }
}
