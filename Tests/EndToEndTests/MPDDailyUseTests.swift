import Foundation
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// `bluelib --mpd` in daily use, as a new user meets it (issue 47, item 3): a server that
  /// goes away, a rating made in another shell, albums without art, the cards' covers, the
  /// server's ReplayGain — against a real MPD on 127.0.0.1 (a fake one where it counts what
  /// was asked), from the built binary in a real pseudo-terminal.
  @Suite(.serialized)
  struct MPDDailyUseTests {
    /// MPD with the sample music (The Wall's cover a file of its folder, Innuendo's in its
    /// songs, Hits with none), Innuendo's two songs thirty seconds long, started.
    private func server() throws -> MPDFixture {
      let mpd = try MPDFixture { music in
        try MPDFixture.sampleMusicWithLongInnuendo(
          music, picture: (bytes: TestPicture.jpeg(TestPicture.red), mimeType: "image/jpeg"))
      }
      try mpd.start()
      return mpd
    }

    private func terminal(_ runner: BinaryRunner, _ address: String) throws -> PseudoTerminal {
      try PseudoTerminal(
        arguments: ["--home", runner.home.path, "--mpd", address],
        environment: runner.environment(["NO_COLOR": "1"]), columns: 100, rows: 30)
    }

    /// Types `line` at the prompt and waits for `text` after it; what the line printed.
    @discardableResult
    private func run(_ line: String, in terminal: PseudoTerminal, until text: String) -> Substring {
      terminal.settle()
      let mark = terminal.mark
      terminal.type(line + "\r")
      let found = terminal.waitFor(text, after: mark)
      #expect(found, "\(line): no \(text) in \(terminal.transcript[mark...].debugDescription)")
      return terminal.transcript[mark...]
    }

    // MARK: - 1. The server gone

    /// The server stopped while it plays: one line above the prompt says so as the shell
    /// loses it (not again while it stays away), and every verb of the player says the server
    /// is gone rather than that nothing plays, the queue as it was, or a volume of 100.
    @Test(.timeLimit(.minutes(1)))
    func aServerGoneMidPlayIsSaidOnceAndEveryVerbOfThePlayerSaysSo() throws {
      let mpd = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try terminal(runner, mpd.address)
      #expect(terminal.waitFor("bluelib> "))
      run("play 2", in: terminal, until: "playing \"Innuendo\" (2 tracks)")
      terminal.settle()
      let stopped = terminal.mark
      mpd.stop()
      let gone = "MPD at \(mpd.address) is gone (the server closed the connection); reconnecting when it is back"
      #expect(terminal.waitFor(gone, after: stopped))
      // The listener tries again and again meanwhile (0.1 s, then up to 2 s apart).
      let deadline = Date().addingTimeInterval(3)
      while Date() < deadline { terminal.readAvailable(timeout: 0.2) }
      #expect(terminal.transcript[stopped...].components(separatedBy: "is gone").count - 1 == 1)
      // Each verb fails with the server's refusal (a `volume 40` that set nothing says so:
      // its line is that error, not `volume 40`, which the line editor may echo again).
      let refused = "MPD at \(mpd.address): cannot connect: connection refused"
      for verb in ["now", "next", "prev", "queue", "pause", "volume", "volume 40"] {
        let said = run(verb, in: terminal, until: "\(verb.split(separator: " ")[0]): \(refused)")
        for wrong in ["nothing is playing", "no next track", "no previous track", "in the queue", "volume 100"] {
          #expect(!said.contains(wrong), "\(verb): \(said.debugDescription)")
        }
      }
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - 2. Ratings from another shell

    /// A rating given in another home (another bluelib of the same server) reaches an open
    /// shell without a restart: MPD tells it (`idle sticker`), the shell syncs and says so
    /// above the prompt. The shell's own rating is not told back to it.
    @Test(.timeLimit(.minutes(1)))
    func aRatingMadeInAnotherShellShowsWithoutARestart() throws {
      let mpd = try server()
      let (runner, other) = (BinaryRunner(), BinaryRunner())
      defer {
        runner.cleanUp()
        other.cleanUp()
      }
      let terminal = try terminal(runner, mpd.address)
      #expect(terminal.waitFor("bluelib> "))
      let own = run("rate 1 2", in: terminal, until: "rated \"The Wall\" ★★☆☆☆").startIndex
      // Its own rating comes back from the server as it was given: nothing to say of it.
      let deadline = Date().addingTimeInterval(1)
      while Date() < deadline { terminal.readAvailable(timeout: 0.2) }
      #expect(!terminal.transcript[own...].contains("synced with"), "\(terminal.transcript[own...])")
      let mark = terminal.mark
      let rated = try other.run(["--mpd", mpd.address, "-c", "rate 2 4", "-c", "fav 2"])
      #expect(rated.status == 0 && rated.stderr.isEmpty, "\(rated.stderr)")
      #expect(terminal.waitFor("synced with MPD at \(mpd.address): 1 updated", after: mark))
      // The rating and the mark may come in two syncs, one after the other.
      var shown = run("show 2", in: terminal, until: "Folder:")
      for _ in 0..<20 where !shown.contains("Favourite: ♥ yes") {
        usleep(250_000)
        shown = run("show 2", in: terminal, until: "Folder:")
      }
      #expect(shown.contains("Rating: ★★★★☆"), "\(shown)")
      #expect(shown.contains("Favourite: ♥ yes"), "\(shown)")
      #expect(!terminal.transcript[own...].contains("had not reached"), "\(terminal.transcript[own...])")
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - 3. Albums without art

    /// An album whose songs have no picture on the server and no cover file beside them is
    /// an answer, as an album the Cover Art Archive has none of: said as none, remembered,
    /// left out of `download all` for 30 days, asked again by `download --retry`.
    @Test func anAlbumWithoutArtOnTheServerIsRememberedAsNone() throws {
      let mpd = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let first = try runner.run(["--mpd", mpd.address, "-c", "download all", "-c", "wait"])
      #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
      #expect(
        first.stdout.contains(
          "cover of \"Hits\": none on MPD at \(mpd.address) (no picture in 01.ogg, no cover file in its folder)"),
        "\(first.stdout)")
      #expect(first.stdout.contains("2 covers downloaded, 1 album has none on the server, 0 failed"), "\(first.stdout)")
      let again = try runner.run(["--mpd", mpd.address, "-c", "download all", "-c", "wait"])
      #expect(
        again.stdout.contains(
          "2 already cached, 1 album has none on the server (asked in the last 30 days; 'download --retry' asks again)"
        ), "\(again.stdout)")
      #expect(!again.stdout.contains("downloading"), "\(again.stdout)")
      let retried = try runner.run(["--mpd", mpd.address, "-c", "download --retry all", "-c", "wait"])
      #expect(retried.stdout.contains("downloading 1 cover, 2 already cached"), "\(retried.stdout)")
      #expect(retried.stdout.contains("cover of \"Hits\": none on MPD at"), "\(retried.stdout)")
    }

    // MARK: - 4. The cards' covers

    /// The cards fetch their covers from the server without `download all`: drawn first with
    /// the covers on their way, drawn again above the prompt once they are in, with no
    /// status line; the album without art is then known as none and not asked again.
    @Test(.timeLimit(.minutes(1)))
    func theCardsFetchTheServersCoversAndAreDrawnAgainWhenTheyLand() throws {
      let mpd = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try terminal(runner, mpd.address)
      #expect(terminal.waitFor("bluelib> "))
      // The first card (The Wall) and its neighbour (Innuendo) were asked for; Hits, the
      // third, is further right.
      #expect(terminal.waitFor("✓ cover", timeout: 10), "\(terminal.transcript)")
      terminal.settle()
      let drawings = terminal.transcript.components(separatedBy: "1 of 3").count - 1
      #expect(drawings == 2, "\(terminal.transcript)")
      #expect(!terminal.transcript.contains("cover of "), "no status line: \(terminal.transcript)")
      // In the cache: `download` has nothing to fetch.
      run("download 1-2", in: terminal, until: "2 already cached")
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    /// A fake MPD counts what is asked: the cards ask for the covers of the albums they show
    /// once; the album without art is then remembered as none, and the cards of the next
    /// shell do not ask for it again.
    @Test(.timeLimit(.minutes(1)))
    func aCoverTheServerHasNoneOfIsAskedForOnceByTheCards() throws {
      let fake = try FakeMPD([.scripted { FakeMPD.album($0) }])
      defer { fake.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      func pictureRequests() -> Int { fake.commands.filter { $0.hasPrefix("readpicture") }.count }
      for start in 1...2 {
        let terminal = try terminal(runner, fake.address)
        #expect(terminal.waitFor("bluelib> "))
        if start == 1 {
          #expect(terminal.waitFor("✗ failed", timeout: 10), "\(terminal.transcript)")
        }
        terminal.settle()
        terminal.type("quit\r")
        #expect(terminal.waitForExit() == 0)
        #expect(pictureRequests() == 1, "start \(start): \(fake.commands)")
      }
    }

    /// A library of this machine's folders asks for nothing in the background to draw its
    /// cards: the cards of an album whose cover is to be downloaded say so, as before.
    @Test(.timeLimit(.minutes(1)))
    func cardsOfALocalLibraryDownloadNothing() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1"]), columns: 100,
        rows: 30)
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      run("downloads", in: terminal, until: "no downloads yet")
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - 5. The server's ReplayGain

    /// `now` names the ReplayGain mode the server applies (`replay_gain_mode`), which it
    /// keeps whoever set it, rather than "off".
    @Test(.timeLimit(.minutes(1)))
    func nowNamesTheServersReplayGainMode() throws {
      let mpd = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      try mpd.mpc("replaygain", "album")
      let album = try runner.run(["--mpd", mpd.address, "-c", "play 2", "-c", "now"])
      #expect(album.status == 0, "\(album.stderr)")
      #expect(album.stdout.contains("  ReplayGain album (the server's)\n"), "\(album.stdout)")
      try mpd.mpc("replaygain", "off")
      let off = try runner.run(["--mpd", mpd.address, "-c", "now"])
      #expect(off.stdout.contains("  ReplayGain off\n"), "\(off.stdout)")
    }

    // MARK: - 6. A repeating queue

    /// A repeating queue has no end (issue 49, item 4), on the server: `next` at its last
    /// song plays the first, `prev` at its first plays the last (before, "no next track").
    @Test(.timeLimit(.minutes(1)))
    func aRepeatingQueueWrapsAroundBothWaysOnTheServer() throws {
      let mpd = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try terminal(runner, mpd.address)
      #expect(terminal.waitFor("bluelib> "))
      run("repeat on; play 2", in: terminal, until: "▶ Queen — Innuendo — 01 Innuendo")
      run("next", in: terminal, until: "▶ Queen — Innuendo — 02 Headlong")
      run("next", in: terminal, until: "▶ Queen — Innuendo — 01 Innuendo")
      run("prev", in: terminal, until: "▶ Queen — Innuendo — 02 Headlong")
      #expect(try mpd.mpc("current").contains("Headlong"))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - 7. The server's outputs

    /// `audio` on a music server says its outputs are the server's, rather than taking a
    /// device or an equalizer it cannot apply (issue 49, item 3).
    @Test(.timeLimit(.minutes(1)))
    func audioSaysTheServerPlaysOnItsOwnOutputs() throws {
      let mpd = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      for line in ["audio device", "audio eq 0 0 0 0 0 0 0 0 0 3"] {
        let result = try runner.run(["--mpd", mpd.address, "-c", line])
        #expect(result.status != 0)
        #expect(
          result.stderr.contains("audio: the music server plays on its own outputs (its configuration chooses them)"),
          "\(line): \(result.stderr)")
      }
    }
  }
}
