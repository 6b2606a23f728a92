import Foundation
import TestSupport
import Testing

/// Twins and fields (issue 50, item 4), from the built binary on the twin folder: one release
/// as FLAC and as MP3 in two folders (and the MP3s once more in a backup folder). `list` and
/// the cards tell them apart, `format`, `bitrate`, `samplerate` and `composer` are fields of
/// `list -f`, of queries and of `show`, and `duplicate:true` lists the copies, the format
/// twins marked.
@Suite(.serialized)
struct TwinFieldsTests {
  /// A home with the twin folder imported: the runner and the folder's real path.
  private func imported() throws -> (BinaryRunner, String) {
    let runner = BinaryRunner()
    let music = runner.home.appendingPathComponent("Music")
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    let root = music.resolvingSymlinksInPath().path
    try TwinFolder.make(in: root)
    let result = try runner.run(["-c", "import '\(root)'"])
    #expect(result.status == 0 && result.stderr == "", "\(result.stderr)")
    return (runner, root)
  }

  @Test func listTellsTheTwinsApartByFormatAndByFolder() throws {
    let (runner, _) = try imported()
    defer { runner.cleanUp() }
    let result = try runner.run(["-c", "list"])
    #expect(
      result.stdout == """
        * 1. Kind of Blue — Miles Davis (1959, Jazz) · MP3 in Kind of Blue · cover: no cover
          2. Blue Train — John Coltrane (1957, Jazz) · cover: no cover
          3. Kind of Blue — Miles Davis (1959, Jazz) · FLAC · cover: no cover
          4. Kind of Blue — Miles Davis (1959, Jazz) · MP3 in Miles Davis - Kind of Blue · cover: no cover
        4 albums

        """)
  }

  @Test func theFieldsAreQueriedListedAndShown() throws {
    let (runner, _) = try imported()
    defer { runner.cleanUp() }
    let fields = try runner.run(["-c", "list -f '$index|$title|$format|$bitrate|$samplerate|$composer'"])
    let rows = fields.stdout.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false) }
    try #require(rows.count == 4 && rows.allSatisfy { $0.count == 6 }, "\(fields.stdout)\(fields.stderr)")
    #expect(
      rows.map { "\($0[0]) \($0[2]) \($0[4]) \($0[5])" } == [
        "1 MP3 44100 Miles Davis; Bill Evans", "2 FLAC 44100 John Coltrane", "3 FLAC 48000 Miles Davis; Bill Evans",
        "4 MP3 44100 Miles Davis; Bill Evans",
      ])
    // A 320 kb/s MP3 (TagLib counts its tags in: 328); a second of noise in FLAC is hardly
    // smaller than PCM.
    #expect([rows[0][3], rows[3][3]].allSatisfy { Int($0).map { (320...340).contains($0) } == true }, "\(rows)")
    #expect(rows[1...2].allSatisfy { Int($0[3]).map { $0 > 1000 } == true }, "\(rows)")

    let queries = try runner.run([
      "-c", "list format:flac", "-c", "list bitrate:>256 bitrate:<1000", "-c", "list samplerate:48000",
      "-c", "list composer:evans", "-c", "list composer:coltrane format:mp3",
    ])
    #expect(
      queries.stdout == """
          2. Blue Train — John Coltrane (1957, Jazz) · cover: no cover
          3. Kind of Blue — Miles Davis (1959, Jazz) · FLAC · cover: no cover
        2 of 4 albums match 'format:flac'
        * 1. Kind of Blue — Miles Davis (1959, Jazz) · MP3 in Kind of Blue · cover: no cover
          4. Kind of Blue — Miles Davis (1959, Jazz) · MP3 in Miles Davis - Kind of Blue · cover: no cover
        2 of 4 albums match 'bitrate:>256 bitrate:<1000'
          3. Kind of Blue — Miles Davis (1959, Jazz) · FLAC · cover: no cover
        1 of 4 albums match 'samplerate:48000'
        * 1. Kind of Blue — Miles Davis (1959, Jazz) · MP3 in Kind of Blue · cover: no cover
          3. Kind of Blue — Miles Davis (1959, Jazz) · FLAC · cover: no cover
          4. Kind of Blue — Miles Davis (1959, Jazz) · MP3 in Miles Davis - Kind of Blue · cover: no cover
        3 of 4 albums match 'composer:evans'
        0 of 4 albums match 'composer:coltrane format:mp3'

        """)

    let shown = try runner.run(["-c", "show 1"])
    #expect(shown.stdout.contains("\nFormat: MP3\nBitrate: 328 kb/s\nSample rate: 44.1 kHz\n"), "\(shown.stdout)")
    #expect(shown.stdout.contains("\nComposer: Miles Davis; Bill Evans\n"))
    #expect(shown.stdout.contains("\nTwin: MP3 in Kind of Blue (another album has its artist and title)\n"))
    let other = try runner.run(["-c", "show 2"])
    #expect(other.stdout.contains("\nSample rate: 44.1 kHz\nComposer: John Coltrane\n"), "\(other.stdout)")
    #expect(!other.stdout.contains("Twin:"))
  }

  @Test func duplicatesAreListedWithTheFormatTwinsMarked() throws {
    let (runner, _) = try imported()
    defer { runner.cleanUp() }
    let result = try runner.run(["-c", "list duplicate:true", "-c", "list -f '$index $duplicate'", "-c", "list dupes"])
    #expect(
      result.stdout == """
        * 1. Kind of Blue — Miles Davis (1959, Jazz) · MP3 in Kind of Blue (format twin) · cover: no cover
          3. Kind of Blue — Miles Davis (1959, Jazz) · FLAC (format twin) · cover: no cover
          4. Kind of Blue — Miles Davis (1959, Jazz) · MP3 in Miles Davis - Kind of Blue (format twin) · cover: no cover
        3 of 4 albums match 'duplicate:true'
        1 true
        2 false
        3 true
        4 true
        0 of 4 albums match 'dupes' (did you mean 'duplicate:true'?)

        """)
  }

  /// The card of a twin says which one it is in its bottom border, on a terminal.
  @Test func theCardsSayWhichTwinIsWhich() throws {
    let (runner, _) = try imported()
    defer { runner.cleanUp() }
    let terminal = try PseudoTerminal(
      arguments: ["--home", runner.home.path, "--graphics", "none"],
      environment: runner.environment(["NO_COLOR": "1"]), columns: 120, rows: 30)
    #expect(terminal.waitFor("> "))
    terminal.settle()
    let mark = terminal.mark
    terminal.type("tap 3\r")
    #expect(terminal.waitFor("Album: Kind of Blue", after: mark))
    terminal.settle()
    let drawn = terminal.transcript[mark...]
    // The current card (heavy) is the FLAC; the MP3s' folders are cut at the front to fit.
    #expect(drawn.contains("┗━ FLAC ━"), "\(drawn)")
    #expect(drawn.contains("└─ … in Kind of Blue ┘"), "\(drawn)")
    #expect(drawn.contains("└─ …s - Kind of Blue ┘"), "\(drawn)")
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }
}
