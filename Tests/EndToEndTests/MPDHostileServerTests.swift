import Foundation
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// `bluelib --mpd` against servers that misbehave on purpose (a fake MPD on 127.0.0.1 that
  /// sends what the round-5 findings' hostile server sent), and against a real MPD that
  /// refuses: what a person sees from the built binary, its exit status and its memory.
  @Suite(.serialized)
  struct MPDHostileServerTests {
    /// A fake MPD answering every connection with `answer`.
    private func fake(
      greeting: String = "OK MPD 0.23.5\n", _ answer: @escaping @Sendable (String) -> FakeMPD.Answer
    ) throws -> FakeMPD {
      try FakeMPD([.scripted(greeting: greeting, answer)])
    }

    /// The control characters (C0 but a line's end, DEL, C1) in `text`, which a terminal
    /// would act on.
    private func controls(_ text: String) -> [UInt32] {
      text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A) || (0x7F..<0xA0).contains($0) }
    }

    /// What the findings' hostile server sent: a clipboard write (OSC 52), a window title
    /// (OSC 0), a clear screen, a bell, a carriage return, a NUL and a C1 CSI.
    private static let attack = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;PWNED\u{07}\u{1B}[2J\r\u{0}\u{9B}"
    private static let attackEscaped = #"\e]52;c;cHduZWQ=\x07\e]0;PWNED\x07\e[2J\r\x00\u{9b}"#

    // MARK: - H2: the server's words are escaped

    @Test func aGreetingThatIsNotMPDsIsQuotedEscaped() throws {
      let server = try fake(greeting: Self.attack + "\n") { _ in .hangUp }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          "bluelib: MPD at \(server.address) is not an MPD server (it said '\(Self.attackEscaped)')"),
        "\(result.stderr)")
    }

    @Test func anAcknowledgementsCommandAndMessageAreEscaped() throws {
      let server = try fake { _ in .send("ACK [5@0] {st\u{1B}]0;X\u{07}ats} \(Self.attack)\n") }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          #"bluelib: MPD at \#(server.address) refused 'st\e]0;X\x07ats': \#(Self.attackEscaped) (error 5)"#),
        "\(result.stderr)")
    }

    @Test func aPermissionRefusalNamesTheCommandEscaped() throws {
      let server = try fake { _ in .send("ACK [4@0] {\u{1B}[2Jstats} you have no permission\n") }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stderr)")
      #expect(result.stderr.contains(#"'\e[2Jstats' needs a password"#), "\(result.stderr)")
    }

    @Test(arguments: [
      (Self.attack, Self.attackEscaped), ("OK\r", #"OK\r"#), ("\u{0}OK", #"\x00OK"#),
    ])
    func aStrayLineIsQuotedEscaped(line: String, escaped: String) throws {
      let server = try fake { _ in .send(line + "\n") }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          "bluelib: MPD at \(server.address): an answer that is not MPD's protocol ('\(escaped)')"),
        "\(result.stderr)")
    }

    @Test func aCoverRefusalIsEscapedInItsStatusLine() throws {
      let server = try fake { command in
        command.hasPrefix("readpicture") || command.hasPrefix("albumart")
          ? .send("ACK [5@0] {readpicture} \(Self.attack)\n") : FakeMPD.album(command)
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "download 1", "-c", "wait"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stdout)")
      #expect(result.stdout.contains(Self.attackEscaped), "\(result.stdout)")
    }

    // MARK: - H3, H5, H22: binary chunks

    @Test func aBinaryChunkOfIntMaxBytesIsRefusedWithoutATrap() throws {
      let server = try fake { command in
        command.hasPrefix("readpicture")
          ? .send("size: 1000\nbinary: 9223372036854775807\n0123456789") : FakeMPD.album(command)
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "download 1", "-c", "wait", "-c", "list"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        result.stdout.contains(
          "an answer that is not MPD's protocol (a binary chunk of 9223372036854775807 bytes, more than the 1 MiB asked for)"
        ), "\(result.stdout)")
      #expect(result.stdout.contains("1. Album — R"))
    }

    @Test(.enabled(if: StreamedImportTests.hasProc))
    func aBinaryChunkAnnouncedAtAGigabyteAllocatesNothing() throws {
      let server = try fake { command in
        command.hasPrefix("readpicture") ? .send("size: 1000\nbinary: 999999999\n0123456789") : FakeMPD.album(command)
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let (result, peak) = try runner.runMeasuringPeakMemory(
        script: "download 1\nwait\nlist zzzz\n", until: "match 'zzzz'\n", ["--mpd", server.address])
      #expect(result.stdout.contains("(a binary chunk of 999999999 bytes, more than the 1 MiB asked for)"))
      let kib = try #require(peak, "\(result.stderr)")
      #expect(kib < 100_000, "peak \(kib) KiB")
    }

    // MARK: - H4, H5: lines and answers without end

    @Test(.enabled(if: StreamedImportTests.hasProc))
    func aLineThatNeverEndsIsCutAtEightMebibytes() throws {
      let server = try fake { command in
        command.hasPrefix("find")
          ? .endless(
            first: Array("file: A/1.flac\nTitle: ".utf8), repeating: [UInt8](repeating: 0x61, count: 1 << 16),
            limit: 300 << 20)
          : FakeMPD.album(command)
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let (result, peak) = try runner.runMeasuringPeakMemory(
        script: "list zzzz\n", until: "match 'zzzz'\n", ["--mpd", server.address])
      #expect(
        result.stderr == "bluelib: MPD at \(server.address): an answer that is not MPD's protocol "
          + "(an answer line longer than 8 MiB)\n")
      let kib = try #require(peak, "\(result.stderr)")
      #expect(kib < 100_000, "peak \(kib) KiB")
    }

    @Test(.enabled(if: StreamedImportTests.hasProc))
    func aSongListingThatNeverEndsStopsAtTheWindowAskedFor() throws {
      let song = Array("file: A/x.flac\nduration: 1\nAlbum: X\n".utf8)
      let server = try fake { command in
        // New songs for ever (each a new name), never OK.
        command.hasPrefix("find")
          ? .endless(first: [], repeating: (0..<100).flatMap { _ in song }, limit: 300 << 20)
          : FakeMPD.album(command, count: 4)
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let (result, peak) = try runner.runMeasuringPeakMemory(
        script: "list zzzz\n", until: "match 'zzzz'\n", ["--mpd", server.address])
      #expect(result.stderr.contains("more than the 4000 songs asked for"), "\(result.stderr)")
      let kib = try #require(peak, "\(result.stderr)")
      #expect(kib < 100_000, "peak \(kib) KiB")
    }

    // MARK: - H24: a server that ignores `window`

    /// `(songs in each answer, songs its stats count, whether the line is said)`.
    @Test(arguments: [(4500, 4500, true), (4000, 8000, true), (4000, 4000, false)])
    func aServerThatIgnoresWindowIsAskedAFewTimesAndItsSongsAreKept(songs: Int, counted: Int, said: Bool) throws {
      let finds = LockedBox(0)
      let server = try fake { command in
        guard command.hasPrefix("find") else { return FakeMPD.album(command, count: counted) }
        finds.update { $0 += 1 }
        // The same songs, whatever the window; a test of the code before the fix ends after 50.
        return finds.value > 50 ? .hangUp : .send(FakeMPD.songs(songs) + "OK\n")
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list", "-c", "stats"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(finds.value <= 2, "asked \(finds.value) times")
      #expect(result.stdout.contains("1. Album — R"), "\(result.stdout)")
      #expect(result.stdout.contains("Tracks:  \(songs == 4000 ? "4,000" : "4,500")"), "\(result.stdout)")
      let lines = (result.stdout + result.stderr).split(separator: "\n").filter { $0.contains("ignores 'window'") }
      #expect(lines.count == (said ? 1 : 0), "\(result.stdout)\(result.stderr)")
      if songs == 4500 {
        #expect(lines.first == "MPD at \(server.address): the server ignores 'window' (it sent 4,500 songs at once)")
      } else if said {
        let expected =
          "MPD at \(server.address): the server ignores 'window' (it sent the same songs again); "
          + "4,000 of the 8,000 songs of its stats were read"
        #expect(lines.first.map(String.init) == expected)
      }
    }

    // MARK: - H26, H28: song lengths

    @Test(arguments: ["1e19", "1e308", "99999999999999999999", "nan", "-5", "inf"])
    func aSongsLengthIsClampedAtTheSync(duration: String) throws {
      let server = try fake { FakeMPD.album($0, count: 8, duration: duration) }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let playlist = runner.home.path + "/x.m3u"
      let result = try runner.run(
        [
          "--mpd", server.address, "-c", "list", "-c", "show 1", "-c", "export \(playlist)", "-c", "queue 1", "-c",
          "queue",
        ]
      )
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("1. Album — R"), "\(result.stdout)")
      #expect(result.stdout.contains("Song 8"), "\(result.stdout)")
      let lengths = try sqliteOutput(
        runner.home.path + "/servers/mpd-\(server.address).sqlite", "SELECT DISTINCT length FROM track")
      let seconds = try #require(Double(lengths.trimmingCharacters(in: .whitespacesAndNewlines)), "\(lengths)")
      #expect(seconds >= 0 && seconds <= 366 * 86_400)
    }

    @Test func aLibraryFileHoldingAHugeTrackLengthShowsExportsAndQueuesIt() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try MusicFolderFixture(in: runner.home)
      try music.track("R/Album/01.flac", TagEdit(album: "Album", artist: "R", title: "Song 1", trackNumber: "1"))
      #expect(try runner.run(["-c", "import \(music.root)"]).status == 0)
      for length in ["1e19", "1e308", "-1e308"] {
        _ = try sqliteOutput(runner.home.path + "/library.sqlite", "UPDATE track SET length = \(length)")
        let playlist = runner.home.path + "/x.m3u"
        let result = try runner.run(
          ["-c", "show 1", "-c", "export \(playlist)", "-c", "queue 1", "-c", "queue"],
          environment: ["BLUELIB_AUDIO_OUTPUT": "null"])
        #expect(result.status == 0, "\(length): \(result.stderr)")
        #expect(result.stdout.contains("Song 1"), "\(result.stdout)")
        #expect(fileContents(playlist)?.contains("#EXTINF:") == true)
      }
    }

    @Test func aRatingStickerOfIntMaxIsFiveStars() throws {
      let server = try fake { command in
        guard command.hasPrefix("sticker \"find\"") else { return FakeMPD.album(command) }
        let sticker = command.contains("rating") ? "rating=9223372036854775807" : "like=2"
        return .send(["01", "02"].map { "file: A/Album/\($0).flac\nsticker: \(sticker)\n" }.joined() + "OK\n")
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "show 1"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("Rating: ★★★★★"), "\(result.stdout)")
    }

    // MARK: - H27: the player's status

    @Test(arguments: [
      "elapsed: 1e308", "elapsed: 9.3e18", "elapsed: nan", "song: 9223372036854775807", "song: -1", "song: 5000",
      "playlistlength: 100000000000000000000", "duration: 1e308",
    ])
    func aStatusWithHugeNumbersNeverTraps(field: String) throws {
      let (name, value) = (field.prefix { $0 != ":" }, field.drop { $0 != " " }.dropFirst())
      let server = try fake { command in
        switch command.prefix(while: { $0 != " " }) {
        case "status":
          var pairs = [
            ("state", "play"), ("song", "0"), ("songid", "1"), ("playlist", "5"), ("playlistlength", "2"),
            ("elapsed", "5"), ("duration", "180"),
          ]
          for index in pairs.indices where pairs[index].0 == name { pairs[index].1 = String(value) }
          return .send(pairs.map { "\($0.0): \($0.1)\n" }.joined() + "OK\n")
        case "currentsong": return .send(FakeMPD.songs(1) + "OK\n")
        default: return FakeMPD.album(command)
        }
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(
        ["--mpd", server.address, "-c", "now", "-c", "play 1", "-c", "now", "-c", "next", "-c", "prev", "-c", "now"])
      #expect(result.status == 0 || result.status == 1, "\(field): status \(result.status): \(result.stderr)")
      #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
    }

    // MARK: - H7: a server that refuses idle

    /// CPU ticks (user and system) the process `pid` has used so far.
    private func ticks(_ pid: pid_t) -> Int? {
      guard let stat = fileContents("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      // After the name: state is field 3, utime 14 and stime 15.
      guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
      return user + system
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerThatRefusesIdleIsAskedAgainAfterLongerAndLongerPauses() throws {
      let server = try fake { command in
        command.hasPrefix("idle") ? .send("ACK [5@0] {idle} unknown command \"idle\"\n") : FakeMPD.album(command)
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path, "--mpd", server.address],
        environment: runner.environment(["NO_COLOR": "1"]))
      #expect(terminal.waitFor("bluelib> "))
      let pid = terminal.foregroundProcessGroup()
      let (before, connected) = (ticks(pid), server.connections)
      // Long enough for pauses of 1, 2 and 4 s; the old listener connected thousands of times.
      terminal.readAvailable(timeout: 0)
      let deadline = Date().addingTimeInterval(4)
      while Date() < deadline { terminal.readAvailable(timeout: 0.2) }
      let idles = server.commands.filter { $0.hasPrefix("idle") }.count
      #expect(idles <= 5, "\(idles) idle requests, \(server.connections - connected) connections in 4 s")
      if let before, let after = ticks(pid) { #expect(after - before < 100, "\(after - before) ticks in 4 s") }
      let said = terminal.transcript.components(separatedBy: "refused 'idle'").count - 1
      #expect(said == 1, "\(terminal.transcript)")
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerThatNeedsAPasswordSaysSoInOneLine() throws {
      let mpd = try MPDFixture(password: "secret", prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path, "--mpd", mpd.address],
        environment: runner.environment(["NO_COLOR": "1"]))
      #expect(terminal.waitFor("bluelib> "))
      let pid = terminal.foregroundProcessGroup()
      let before = ticks(pid)
      let deadline = Date().addingTimeInterval(4)
      while Date() < deadline { terminal.readAvailable(timeout: 0.2) }
      if let before, let after = ticks(pid) { #expect(after - before < 100, "\(after - before) ticks in 4 s") }
      let said = terminal.transcript.components(separatedBy: "needs a password").count - 1
      #expect(said == 1, "\(terminal.transcript)")
      #expect(!terminal.transcript.contains("is back; reconnected"), "\(terminal.transcript)")
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - H15: the server gone

    @Test(.timeLimit(.minutes(1)))
    func nowAndNextSayTheServerIsGone() throws {
      let mpd = try MPDFixture { music in
        for number in 1...2 {
          try MPDFixture.silence(
            30, at: "A/Album/0\(number).flac", in: music,
            TagEdit(album: "Album", artist: "A", title: "T\(number)", trackNumber: String(number)))
        }
      }
      try mpd.start()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path, "--mpd", mpd.address],
        environment: runner.environment(["NO_COLOR": "1"]))
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      var mark = terminal.mark
      terminal.type("play 1\r")
      #expect(terminal.waitFor("playing \"Album\" (2 tracks)", after: mark))
      terminal.settle()
      mpd.stop()
      mark = terminal.mark
      terminal.type("now\r")
      #expect(terminal.waitFor("now: MPD at \(mpd.address): cannot connect: connection refused", after: mark))
      #expect(!terminal.transcript[mark...].contains("nothing is playing"))
      mark = terminal.mark
      terminal.type("next\r")
      #expect(terminal.waitFor("next: MPD at \(mpd.address): cannot connect: connection refused", after: mark))
      #expect(!terminal.transcript[mark...].contains("no next track"))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - H19: MPD_HOST and MPD_PORT

    @Test(arguments: [
      (["MPD_HOST": "127.0.0.1", "MPD_PORT": "abc"], "bluelib: MPD_PORT 'abc': not a port (1-65535)\n"),
      (["MPD_HOST": "127.0.0.1", "MPD_PORT": "99999"], "bluelib: MPD_PORT '99999': not a port (1-65535)\n"),
      (
        ["MPD_HOST": String(repeating: "a", count: 5000)],
        "bluelib: MPD_HOST '\(String(repeating: "a", count: 59))…': a host name is at most 253 bytes\n"
      ),
    ])
    func aBadMPDHostOrPortIsNamedInOneLine(environment: [String: String], said: String) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      for arguments in [["-c", "list", "--mpd"], ["--mpd", "-c", "list"]] {
        let result = try runner.run(arguments, environment: environment)
        #expect(result.stderr == said)
        #expect(result.status == 1)
      }
    }

    // MARK: - H23: lyrics

    @Test func lyricsOfAServersSongNeverOpenALocalFile() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let work = try TemporaryDirectory()
      let server = try fake { command in
        guard command.hasPrefix("find") else { return FakeMPD.album(command) }
        let first = command.contains("\"0:")
        return .send((first ? "file: ../../secret/01.mp3\nTitle: S\nAlbum: S\nArtist: S\n" : "") + "OK\n")
      }
      // Where the song's path, read as a local one from this directory, would lead.
      try FileManager.default.createDirectory(
        atPath: work.path + "/mpd:/\(server.address)", withIntermediateDirectories: true)
      try FileManager.default.createDirectory(atPath: work.path + "/secret", withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: AudioFormat.mp3.fixture, toPath: work.path + "/secret/01.mp3")
      try writeFile(work.path + "/secret/01.lrc", "[00:01.00]the local secret\n")
      var inWork = runner
      inWork.workingDirectory = work.path
      let result = try inWork.run(["--mpd", server.address, "-c", "lyrics 1"])
      #expect(!result.stdout.contains("the local secret"), "\(result.stdout)")
      #expect(
        result.stderr
          == "bluelib: -c:1: lyrics: lyrics are not read from MPD yet (\"S\" is on MPD at \(server.address))\n")
    }

    // MARK: - Issue 47, item 1: a refused share is a note of the change

    /// A server that refuses a rating (MPD without a sticker database, Mopidy) leaves the
    /// change made, and says so as a note after it: the command succeeds (it failed after
    /// the change was made).
    @Test func aRatingTheServerRefusesIsANoteAndTheChangeStands() throws {
      let server = try fake { FakeMPD.album($0) }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "rate 1 4", "-c", "list -f '$rating $title'"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr == "")
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(lines.first?.hasPrefix("rated \"") == true, "\(result.stdout)")
      #expect(
        lines.dropFirst().first
          == "MPD at \(server.address) refused 'sticker': no such sticker (error 50) (kept in this library only)",
        "\(result.stdout)")
      #expect(lines.last?.hasPrefix("4 ") == true, "\(result.stdout)")
    }
  }
}

/// Runs `sqlite3 path sql` and returns what it printed.
private func sqliteOutput(_ path: String, _ sql: String) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
  process.arguments = [path, sql]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}
