import Foundation
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `play` and the queue from the built binary, with real libmpv on its null audio output
/// (issue "Play it"): the tracks in disc order, a file that cannot be played skipped with a
/// line naming it, the end of the queue said, and a script that plays to the end and exits 0,
/// or stops at once on SIGTERM.
@Suite(.serialized)
struct PlaybackTests {
  static let silent = ["BLUELIB_AUDIO_OUTPUT": "null"]

  /// A two-disc album (`CD1/`, `CD2/`) and a one-disc one.
  static func music(in runner: BinaryRunner) throws -> MusicFolderFixture {
    let music = try MusicFolderFixture(in: runner.home)
    for (folder, disc, number, title) in [
      ("CD2", 2, 1, "Hey You"), ("CD1", 1, 2, "The Thin Ice"), ("CD1", 1, 1, "In the Flesh?"),
    ] {
      try music.track(
        "Pink Floyd/The Wall/\(folder)/\(number).ogg",
        TagEdit(
          album: "The Wall", artist: "Pink Floyd", title: title, trackNumber: "\(number)", discNumber: "\(disc)"))
    }
    try music.track(
      "Queen/Innuendo/1.mp3", TagEdit(album: "Innuendo", artist: "Queen", title: "Innuendo", trackNumber: "1"))
    try music.track(
      "Queen/Innuendo/2.flac", TagEdit(album: "Innuendo", artist: "Queen", title: "Headlong", trackNumber: "2"))
    return music
  }

  @Test(.timeLimit(.minutes(1)))
  func aScriptPlaysTheAlbumInDiscOrderToTheEndOfTheQueueAndExits() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.music(in: runner)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    let result = try runner.run(["-c", "play 1"], environment: Self.silent)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        playing "The Wall" (3 tracks)
        ▶ Pink Floyd — The Wall — 1-01 In the Flesh? (0:01)
        ▶ Pink Floyd — The Wall — 1-02 The Thin Ice (0:01)
        ▶ Pink Floyd — The Wall — 2-01 Hey You (0:01)
        ■ end of the queue

        """, "\(result.stderr)")
  }

  /// What you played: an album played to its end counts once per queue; `played` and
  /// `last_played` are fields of queries, kept in the library file, not undone by `undo`.
  @Test(.timeLimit(.minutes(1)))
  func aPlayedAlbumIsCountedAndFoundByPlayedAndLastPlayed() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.music(in: runner)
    _ = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 genre=Prog"])
    #expect(try runner.run(["-c", "play 1"], environment: Self.silent).status == 0)
    #expect(try runner.run(["-c", "play 1"], environment: Self.silent).status == 0)
    let listed = try runner.run([
      "-c", "list -f '$played $title' played:1..", "-c", "list -f '$title' ^last_played:-1d..", "-c", "undo",
      "-c", "list -f '$played' played:2",
    ])
    let today = try runner.run(["-c", "list -f '$last_played' played:2"]).stdout
    #expect(
      listed.stdout.hasPrefix(
        """
        2 The Wall
        Innuendo

        """), "\(listed.stdout)\(listed.stderr)")
    // Playing is not a step: undo takes back the edit before it, and the count stays.
    #expect(listed.stdout.contains("undid edit \"The Wall\""))
    #expect(listed.stdout.hasSuffix("2\n"), "\(listed.stdout)")
    #expect(today.count == "2026-11-25\n".count && today.hasPrefix("20"), "\(today)")
  }

  /// A file that cannot be played (its audio replaced by noise since the import) is
  /// skipped with a line naming it; `queue` appends and `play` alone starts the queue.
  @Test(.timeLimit(.minutes(1)))
  func aFileThatCannotBePlayedIsSkippedAndTheQueueGoesOn() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.music(in: runner)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: music.path("Queen/Innuendo/1.mp3")))
    let result = try runner.run(["-c", "queue 2", "-c", "queue", "-c", "play"], environment: Self.silent)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        """
        queued 1 album (2 tracks); 2 tracks in the queue
          1. Queen — Innuendo — 01 Innuendo (0:01)
          2. Queen — Innuendo — 02 Headlong (0:01)
        2 tracks in the queue
        playing the queue (2 tracks)

        """), "\(result.stdout)")
    #expect(
      result.stdout.hasSuffix(
        """
        playing the queue (2 tracks)
        ✗ cannot play 1.mp3: unrecognized file format; skipped
        ▶ Queen — Innuendo — 02 Headlong (0:01)
        ■ end of the queue

        """), "\(result.stdout)")
  }

  /// SIGTERM while a script plays stops it at once, with the status of SIGTERM.
  @Test(.timeLimit(.minutes(1)))
  func sigtermStopsAPlayingScriptAtOnce() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.music(in: runner)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    // A long queue: the album forty times over.
    let process = Process()
    process.executableURL = BinaryRunner.executable
    process.arguments =
      ["--home", runner.home.path] + Array(repeating: ["-c", "queue 1"], count: 40).flatMap { $0 }
      + ["-c", "play"]
    process.environment = runner.environment(Self.silent)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Until the first track has started.
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("▶") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen += chunk
    }
    let start = ContinuousClock.now
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(ContinuousClock.now - start < .seconds(2))
    #expect(process.terminationStatus == 143)
  }

  /// In a real pseudo-terminal: a track that starts while a line is half typed prints its
  /// line above the prompt, and the half-typed line is drawn again below it, intact; the
  /// playing album's card says `▶ playing`.
  @Test(.timeLimit(.minutes(1)))
  func aNowPlayingLineAppearsAboveAHalfTypedLine() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.music(in: runner)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    let terminal = try PseudoTerminal(
      arguments: ["--home", runner.home.path],
      environment: runner.environment(["NO_COLOR": "1", "BLUELIB_AUDIO_OUTPUT": "null"]), columns: 100, rows: 30)
    #expect(terminal.waitFor("bluelib> "))
    var mark = terminal.mark
    // The album ten times over: thirty one-second tracks.
    terminal.type(Array(repeating: "queue 1", count: 10).joined(separator: "; ") + "; play\r")
    #expect(terminal.waitFor("▶ Pink Floyd — The Wall — 1-01 In the Flesh? (0:01)", after: mark, timeout: 10))
    #expect(
      terminal.waitFor(
        "bluelib> ", after: terminal.transcript.range(of: "▶ Pink Floyd", range: mark..<terminal.mark)?.upperBound))
    terminal.settle()

    // Half a line, no Enter; the next track starts within a second.
    mark = terminal.mark
    terminal.type("tap 3")
    #expect(terminal.waitFor("tap 3", after: mark))
    let typed = terminal.mark
    #expect(terminal.waitFor("▶ Pink Floyd — The Wall — ", after: typed, timeout: 5))
    let status = try #require(terminal.transcript.range(of: "▶ Pink Floyd", range: typed..<terminal.mark))
    let before = terminal.transcript[typed..<status.lowerBound]
    #expect(before.contains("\r") && before.contains("\u{1B}[J"), "not cleared: \(before.debugDescription)")
    #expect(terminal.waitFor("bluelib> ", after: status.upperBound))
    let prompt = terminal.transcript.range(of: "bluelib> ", range: status.upperBound..<terminal.mark)
    #expect(terminal.waitFor("tap 3", after: prompt?.upperBound ?? terminal.mark))

    // The line runs as typed; going to The Wall shows its card marked.
    mark = terminal.mark
    terminal.type(String(repeating: "\u{7F}", count: 5) + "tap 1\r")
    #expect(terminal.waitFor("━ ▶ playing ━", after: mark, timeout: 5))
    mark = terminal.mark
    terminal.type("stop\r")
    #expect(terminal.waitFor("stopped", after: mark))
    mark = terminal.mark
    terminal.type("tap 1\r")
    #expect(terminal.waitFor("1 of 2", after: mark))
    terminal.settle()
    #expect(!terminal.transcript[mark...].contains("▶ playing"), "a stopped album is still marked")
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  /// `export FILE.m3u QUERY` writes an extended M3U of the matching albums' tracks, in
  /// album order, read back here line by line.
  @Test func exportToAnM3UFileWritesThePlaylistOfTheQuery() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.music(in: runner)
    let file = runner.home.appendingPathComponent("wall.m3u8").path
    let result = try runner.run(["-c", "import '\(music.root)'", "-c", "export '\(file)' artist:floyd"])
    #expect(result.stdout.hasSuffix("exported 1 album to \(file) as an M3U playlist\n"), "\(result.stdout)")
    #expect(
      try String(contentsOfFile: file, encoding: .utf8) == """
        #EXTM3U
        #EXTINF:1,Pink Floyd - In the Flesh?
        \(music.path("Pink Floyd/The Wall/CD1/1.ogg"))
        #EXTINF:1,Pink Floyd - The Thin Ice
        \(music.path("Pink Floyd/The Wall/CD1/2.ogg"))
        #EXTINF:1,Pink Floyd - Hey You
        \(music.path("Pink Floyd/The Wall/CD2/1.ogg"))

        """)
  }

  /// With `BLUELIB_PLAYER`, `play` runs that command with the album's files in order (a
  /// stub records its arguments); a missing command is an error naming it.
  @Test func anotherPlayerGetsTheAlbumsFilesInOrder() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.music(in: runner)
    let stub = runner.home.appendingPathComponent("stub-player").path
    let record = runner.home.appendingPathComponent("arguments").path
    try "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record)'\n".write(toFile: stub, atomically: true, encoding: .utf8)
    #expect(chmod(stub, 0o755) == 0)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    let played = try runner.run(["-c", "play 1 2"], environment: ["BLUELIB_PLAYER": "'\(stub)' --no-video"])
    #expect(played.stdout == "played \"The Wall\" with ''\(stub)' --no-video'\n", "\(played.stderr)")
    #expect(
      try String(contentsOfFile: record, encoding: .utf8)
        == "--no-video\n\(music.path("Pink Floyd/The Wall/CD1/2.ogg"))\n\(music.path("Pink Floyd/The Wall/CD2/1.ogg"))\n"
    )
    let missing = try runner.run(["-c", "play 1"], environment: ["BLUELIB_PLAYER": "no-such-player-here"])
    #expect(
      missing.stderr.hasSuffix(
        "bluelib: -c:1: play: cannot run the player 'no-such-player-here' (BLUELIB_PLAYER): not found\n"),
      "\(missing.stderr)")
  }

  /// A track number outside the album, the smallest and largest integers included, is an
  /// error naming it, on libmpv's path and on BLUELIB_PLAYER's (round 4, G12: `Int.min - 1`
  /// trapped).
  @Test func aTrackNumberOutsideTheAlbumIsAnErrorEvenAtTheEndsOfInt() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.music(in: runner)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    for environment in [Self.silent, ["BLUELIB_PLAYER": "true"]] {
      let result = try runner.run(
        ["-c", "play 1 -9223372036854775808", "-c", "play 1 9223372036854775807", "-c", "play 1 0", "-c", "play 1 4"],
        environment: environment)
      #expect(result.status == 1, "\(environment): \(result.stderr)")
      #expect(
        result.stderr == """
          bluelib: -c:1: play: "The Wall" has no track -9223372036854775808 (it has 3)
          bluelib: -c:2: play: "The Wall" has no track 9223372036854775807 (it has 3)
          bluelib: -c:3: play: "The Wall" has no track 0 (it has 3)
          bluelib: -c:4: play: "The Wall" has no track 4 (it has 3)

          """, "\(environment)")
      #expect(result.stdout == "", "\(environment)")
    }
  }

  /// The verbs without a player or without anything playing say so.
  @Test func verbsSayWhatIsWrong() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      ["-c", "play 1", "-c", "pause", "-c", "now", "-c", "seek 1:75", "-c", "volume 101", "-c", "queue"],
      environment: Self.silent)
    #expect(
      result.stderr == """
        bluelib: -c:1: play: "Best of Bowie" has no music files to play (it did not come from a music folder)
        bluelib: -c:2: pause: nothing is playing
        bluelib: -c:4: seek: '1:75' is not a time (like 90, 1:30, +10 or -0:30)
        bluelib: -c:5: volume: volume is 0 to 100, got '101'

        """)
    #expect(result.stdout == "nothing is playing\nthe queue is empty ('queue ALBUM' adds an album)\n")
  }
}
