import Foundation
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// `bluelib --mpd` against a real Mopidy on 127.0.0.1 (``MopidyFixture``: a free port, a
  /// `fakesink` that keeps time, Mopidy-Local's scan of a music folder), as a person sees it
  /// from the built binary: its albums, a rating kept here, covers it does not give, its
  /// player, a rescan seen at the next start.
  @Suite(.serialized, .enabled(if: MopidyFixture.isInstalled, Comment(rawValue: MopidyFixture.unavailable)))
  struct MopidyEndToEndTests {
    /// Mopidy with the sample music, Innuendo's two songs thirty seconds long (playing
    /// while a test looks), started.
    private func server() throws -> MopidyFixture {
      let mopidy = try MopidyFixture { music in
        try MPDFixture.sampleMusicWithLongInnuendo(music)
      }
      try mopidy.start()
      return mopidy
    }

    @Test func listAndShowHoldMopidysAlbumsUnderTheirDecodedFolders() throws {
      let mopidy = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run([
        "--mpd", mopidy.address, "-c", "list", "-c", "show 1", "-c", "find folder:'Pink Floyd'",
      ])
      #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
      #expect(result.stdout.contains("1. The Wall — Pink Floyd"), "\(result.stdout)")
      #expect(result.stdout.contains("2. Innuendo — Queen (1991, Rock)"))
      #expect(result.stdout.contains("3. Hits — Various Artists"))
      #expect(result.stdout.contains("Folder: mpd://\(mopidy.address)/local:track:/Pink Floyd/The Wall"))
      #expect(result.stdout.contains("Disc 1") && result.stdout.contains("In the Flesh?"))
      #expect(result.stdout.contains("Disc 2") && result.stdout.contains("Hey You"))
      #expect(result.stdout.contains("1 of 3 albums match"), "\(result.stdout)")
    }

    @Test func aRatingOnMopidyIsKeptInThisLibraryWithOneNote() throws {
      let mopidy = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let rated = try runner.run(["--mpd", mopidy.address, "-c", "rate 2 4"])
      #expect(rated.status == 0 && rated.stderr.isEmpty, "\(rated.stderr)")
      let note =
        "MPD at \(mopidy.address) keeps no stickers, where ratings and favourites are shared (kept in this library only)"
      #expect(rated.stdout.components(separatedBy: note).count == 2, "said once: \(rated.stdout)")
      let shown = try runner.run(["--mpd", mopidy.address, "-c", "show 2"])
      #expect(shown.stdout.contains("Rating: ★★★★☆"), "\(shown.stdout)")
    }

    @Test func downloadFromMopidySaysInOneLineThatItGivesNoCovers() throws {
      let mopidy = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", mopidy.address, "-c", "download all", "-c", "wait"])
      #expect(
        result.stderr
          == "bluelib: -c:1: download: MPD at \(mopidy.address) gives no covers (it has neither 'readpicture' nor "
          + "'albumart') (3 albums not asked for)\n")
      #expect(!result.stdout.contains("cover of"), "no album's own line: \(result.stdout)")
    }

    @Test(.timeLimit(.minutes(1)))
    func playNowAndNextOnMopidySayWhatPlays() throws {
      let mopidy = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", mopidy.address, "-c", "play 2", "-c", "now", "-c", "next", "-c", "now"])
      #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
      #expect(result.stdout.contains("playing \"Innuendo\" (2 tracks)"), "\(result.stdout)")
      // Right after `play` (Mopidy starts a moment later), with the song's length, which
      // its status gives only as `time: E:T`.
      #expect(result.stdout.contains("▶ Queen — Innuendo — 01 Innuendo (0:30), 0:0"), "\(result.stdout)")
      #expect(result.stdout.contains("of 0:30, track 1 of 2"), "\(result.stdout)")
      #expect(result.stdout.contains("track 2 of 2"), "\(result.stdout)")
      #expect(try mopidy.request("status").contains("state: play"))
      _ = try mopidy.request("stop")
    }

    @Test func aRescanOfMopidyShowsAtTheNextStart() throws {
      let mopidy = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let first = try runner.run(["--mpd", mopidy.address, "-c", "list"])
      #expect(first.status == 0 && !first.stdout.contains("Made in Heaven"), "\(first.stderr)")
      try MPDFixture.silence(
        1, at: "Queen/Made in Heaven/01 Heaven.ogg", in: mopidy.music,
        TagEdit(album: "Made in Heaven", artist: "Queen", title: "Heaven", trackNumber: "1"))
      try mopidy.scan()
      let second = try runner.run(["--mpd", mopidy.address, "-c", "list"])
      #expect(second.status == 0 && second.stdout.contains("Made in Heaven — Queen"), "\(second.stdout)")
    }
  }
}
