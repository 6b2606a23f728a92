import Foundation
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// What you play sent to ListenBrainz (issue 49, item 2), by the built binary playing real
  /// four-second files through libmpv on its null output, to a look-alike on 127.0.0.1 that
  /// enforces the API's rules: playing now at each start, one listen for each track played
  /// past half, with when it started; listens kept in the library file across a `kill -9`
  /// and sent by the next shell; the token kept 0600 and out of the history.
  @Suite(.serialized)
  struct ListenBrainzEndToEndTests {
    static let recording = "8b6c4a0e-3b55-4c4b-9b43-2f1e9c1ad7f5"

    /// Wish You Were Here in two four-second tracks, imported into `runner`'s library; the
    /// first tagged with its MusicBrainz recording id, the second with an artist of its own.
    static func importMusic(in runner: BinaryRunner) throws {
      let music = try MusicFolderFixture(in: runner.home)
      for (number, title, artist) in [(1, "Shine On", "Pink Floyd"), (2, "Have a Cigar", "Roy Harper")] {
        try MPDFixture.silence(
          4, at: "Pink Floyd/Wish You Were Here/\(number).mp3", in: music,
          TagEdit(
            album: "Wish You Were Here", artist: artist, albumArtist: "Pink Floyd", title: title,
            trackNumber: "\(number)", musicBrainzTrackID: number == 1 ? recording : nil))
      }
      let imported = try runner.run(["-c", "import '\(music.root)'"])
      #expect(imported.status == 0, "\(imported.stderr)")
    }

    /// Ends the shell in `terminal` with SIGKILL (as `kill -9`), if it still runs: its
    /// process group, never the tests' own.
    static func kill(_ terminal: PseudoTerminal) {
      let group = terminal.foregroundProcessGroup()
      guard terminal.process.isRunning, group > 1, group != getpgrp() else { return }
      _ = Glibc.kill(-group, SIGKILL)
    }

    static func environment(_ server: ListenBrainzLookalike, token: String? = nil) -> [String: String] {
      [
        "BLUELIB_AUDIO_OUTPUT": "null", "NO_COLOR": "1", "BLUELIB_LISTENBRAINZ_URL": server.url,
        "BLUELIB_LISTENBRAINZ_TOKEN": token ?? server.token,
      ]
    }

    @Test(.timeLimit(.minutes(1)))
    func aScriptsTracksArePlayingNowThenOneListenEachWithTheLibrarysMetadata() throws {
      let server = try ListenBrainzLookalike()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      try Self.importMusic(in: runner)
      let result = try runner.run(["-c", "play 1"], environment: Self.environment(server))
      #expect(result.status == 0, "\(result.stderr)")
      // Sent before the script left.
      #expect(server.playingNow.map(\.track) == ["Shine On", "Have a Cigar"])
      let listens = server.listens
      #expect(listens.map(\.track) == ["Shine On", "Have a Cigar"], "\(result.stdout)")
      #expect(listens.map(\.artist) == ["Pink Floyd", "Roy Harper"])
      #expect(listens.allSatisfy { $0.release == "Wish You Were Here" })
      #expect(listens.first?.info["recording_mbid"] == Self.recording)
      #expect(listens.map { $0.info["tracknumber"] } == ["1", "2"])
      let lengths = listens.compactMap { $0.info["duration_ms"].flatMap(Int.init) }
      #expect(lengths.count == 2 && lengths.allSatisfy { (3_500...4_500).contains($0) }, "\(lengths)")
      // When each started: the second after the first had played.
      let starts = listens.compactMap(\.listenedAt)
      #expect(starts.count == 2 && starts[1] - starts[0] >= 3, "\(starts)")
      #expect(server.invalid.isEmpty && server.tooManyRequests == 0 && server.unauthorized == 0)
      let status = try runner.run(["-c", "listenbrainz"], environment: Self.environment(server))
      #expect(status.stdout.contains("no listen waits"), "\(status.stdout)")
      #expect(status.stdout.contains("token …" + server.token.suffix(4)), "\(status.stdout)")
      #expect(!status.stdout.contains(server.token))
    }

    /// Half its length: a track skipped long before its half (a minute long, skipped as it
    /// starts) is playing now, not a listen; the next, played to its end, is one.
    @Test(.timeLimit(.minutes(1)))
    func aTrackSkippedBeforeHalfItsLengthIsNoListen() throws {
      let server = try ListenBrainzLookalike()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try MusicFolderFixture(in: runner.home)
      for (number, title, seconds) in [(1, "Long", 60), (2, "Short", 4)] {
        try MPDFixture.silence(
          seconds, at: "A/B/\(number).mp3", in: music,
          TagEdit(album: "B", artist: "A", title: title, trackNumber: "\(number)"))
      }
      _ = try runner.run(["-c", "import '\(music.root)'"])
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(Self.environment(server)),
        columns: 200, rows: 30)
      defer { Self.kill(terminal) }
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      terminal.type("play 1\r")
      #expect(terminal.waitFor("01 Long (1:00)"), "\(terminal.transcript)")
      terminal.type("next\r")
      #expect(terminal.waitFor("■ end of the queue", timeout: 20), "\(terminal.transcript)")
      #expect(server.waitUntil { $0.listens.count == 1 })
      #expect(server.listens.map(\.track) == ["Short"])
      #expect(server.playingNow.map(\.track) == ["Long", "Short"])
    }

    /// A Subsonic server's streams are sent too, from the server's library file, and the
    /// server still gets its own `scrobble` of each.
    @Test(.timeLimit(.minutes(1)))
    func aSubsonicServersStreamsAreListensAndTheServerStillHearsItsScrobbles() throws {
      let server = try ListenBrainzLookalike()
      defer { server.stop() }
      let (http, directory) = try SubsonicPlayTests.server()
      defer { http.stop() }
      _ = directory
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      var environment = Self.environment(server)
      environment["BLUELIB_SUBSONIC_PASSWORD"] = "secret"
      let result = try runner.run(
        ["--subsonic", "http://admin@127.0.0.1:\(http.port)", "-c", "play 1"], environment: environment)
      #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
      #expect(server.playingNow.map(\.track) == ["First", "Second"])
      #expect(server.listens.map(\.track) == ["First", "Second"], "\(result.stdout)")
      #expect(server.listens.allSatisfy { $0.artist == "A" && $0.release == "One" })
      #expect(server.invalid.isEmpty)
      let scrobbles = SubsonicPlayTests.playRequests(http).filter { $0.hasPrefix("scrobble") }
      #expect(scrobbles.filter { $0.hasSuffix("true") } == ["scrobble s-1 true", "scrobble s-2 true"], "\(scrobbles)")
    }

    /// Without a token nothing is sent, and nothing is said.
    @Test(.timeLimit(.minutes(1)))
    func withoutATokenNothingIsSent() throws {
      let server = try ListenBrainzLookalike()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      try Self.importMusic(in: runner)
      var environment = Self.environment(server)
      environment["BLUELIB_LISTENBRAINZ_TOKEN"] = nil
      let result = try runner.run(["-c", "play 1", "-c", "listenbrainz"], environment: environment)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(server.requests == 0)
      #expect(result.stdout.contains("ListenBrainz: no token set"), "\(result.stdout)")
    }

    /// Listens made while the server is down wait in the library file; a shell killed with
    /// SIGKILL loses none of them, and the next shell sends each once.
    @Test(.timeLimit(.minutes(2)))
    func listensLeftByAShellKilledWhileOfflineAreSentOnceByTheNext() throws {
      let reserved = try ListenBrainzLookalike()
      let port = reserved.port
      reserved.stop()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      try Self.importMusic(in: runner)
      let down = try ListenBrainzLookalike(port: port)
      down.stop()
      let first = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(Self.environment(down)),
        columns: 200, rows: 30)
      #expect(first.waitFor("bluelib> "))
      first.settle()
      first.type("play 1\r")
      #expect(first.waitFor("cannot be reached", timeout: 20), "\(first.transcript)")
      #expect(first.waitFor("■ end of the queue", timeout: 20), "\(first.transcript)")
      // Both listens are in the library file (the last one at the end of its track).
      let waiting = try runner.run(["-c", "listenbrainz"], environment: Self.environment(down))
      #expect(waiting.stdout.contains("2 listens wait in the library file"), "\(waiting.stdout)")
      Self.kill(first)
      _ = first.waitForExit()
      // The server is up again: the next shell sends what waits, at its start.
      let up = try ListenBrainzLookalike(port: port)
      defer { up.stop() }
      let second = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(Self.environment(up)),
        columns: 200, rows: 30)
      defer { Self.kill(second) }
      #expect(second.waitFor("bluelib> "))
      #expect(up.waitUntil { $0.listens.count == 2 })
      second.settle()
      second.type("listenbrainz\r")
      #expect(second.waitFor("no listen waits", timeout: 20), "\(second.transcript)")
      #expect(up.listens.map(\.track) == ["Shine On", "Have a Cigar"])
      #expect(Set(up.listens.compactMap(\.listenedAt)).count == 2)
      #expect(up.invalid.isEmpty && up.tooManyRequests == 0)
    }

    /// `listenbrainz token TOKEN` checks the token, keeps it readable by the user alone,
    /// never shows it whole and keeps the line out of the history; what the server says of
    /// the user reaches the terminal escaped.
    @Test(.timeLimit(.minutes(1)))
    func aTokenIsCheckedKeptPrivateMaskedAndOutOfTheHistory() throws {
      let server = try ListenBrainzLookalike(userName: "rj\u{1B}]0;owned\u{07}")
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path],
        environment: runner.environment(["NO_COLOR": "1", "BLUELIB_LISTENBRAINZ_URL": server.url]), columns: 200,
        rows: 30)
      defer { Self.kill(terminal) }
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      terminal.type("listenbrainz token not-the-token-1234\r")
      #expect(terminal.waitFor("nothing kept"), "\(terminal.transcript)")
      terminal.type("listenbrainz token \(server.token)\r")
      #expect(terminal.waitFor("(mode 0600)"), "\(terminal.transcript)")
      #expect(terminal.transcript.contains("knows the token as rj\\e]0;owned\\x07"), "\(terminal.transcript)")
      #expect(!terminal.transcript.contains("\u{1B}]0;owned"))
      let file = runner.home.path + "/listenbrainz-token"
      var info = stat()
      #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
      #expect(try String(contentsOfFile: file, encoding: .utf8) == server.token + "\n")
      let mark = terminal.mark
      terminal.type("listenbrainz token\r")
      #expect(terminal.waitFor("ListenBrainz token …" + server.token.suffix(4), after: mark), "\(terminal.transcript)")
      terminal.type("history\r")
      terminal.type("listenbrainz forget\r")
      #expect(terminal.waitFor("forgot the ListenBrainz token", after: mark), "\(terminal.transcript)")
      #expect(access(file, F_OK) != 0)
      terminal.type("quit\r")
      _ = terminal.waitForExit()
      // The token is shown nowhere but where it was typed, and is not in the history file.
      let history = (try? String(contentsOfFile: runner.home.path + "/history", encoding: .utf8)) ?? ""
      #expect(history.contains("listenbrainz forget"), "\(history)")
      #expect(!history.contains("listenbrainz token ") && !history.contains(server.token), "\(history)")
      let shown = terminal.transcript.components(separatedBy: "\n").filter { $0.contains(server.token) }
      #expect(shown.allSatisfy { $0.contains("bluelib> listenbrainz token " + server.token) }, "\(shown)")
    }
  }
}
