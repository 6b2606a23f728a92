import Foundation
import LoopbackHTTPServer
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
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

    /// A shell at its prompt in a real pseudo-terminal (100 by 30, no colour), on `runner`'s
    /// library with ``music(in:)`` imported; `environment` is added to the runner's.
    static func shellWithMusic(in runner: BinaryRunner, environment: [String: String]) throws -> PseudoTerminal {
      let music = try Self.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path],
        environment: runner.environment(environment.merging(["NO_COLOR": "1"]) { $1 }), columns: 100, rows: 30)
      #expect(terminal.waitFor("bluelib> "))
      return terminal
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
    /// skipped with a line naming it, as `queue` adds it: the noise does not start as an MP3
    /// file does (round 4, G4: mpv was handed whatever was there); `queue` appends and `play`
    /// alone starts the queue. A file mpv itself cannot play is skipped as it comes
    /// (`playFetchesNothingThatWasNotAskedFor`).
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
        result.stdout == """
          queued 1 album (1 track); 1 track in the queue
          ✗ cannot play 1.mp3: no readable audio; skipped
            1. Queen — Innuendo — 02 Headlong (0:01)
          1 track in the queue
          playing the queue (1 track)
          ▶ Queen — Innuendo — 02 Headlong (0:01)
          ■ end of the queue

          """, "\(result.stderr)")
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
      let terminal = try Self.shellWithMusic(in: runner, environment: ["BLUELIB_AUDIO_OUTPUT": "null"])
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

    /// At a prompt, an album played is recorded as its play is told, above the prompt,
    /// before any other command: another shell's query finds it (before, the shell asked
    /// the player what was played after each command, and an album played while nobody
    /// typed was not in the file).
    @Test(.timeLimit(.minutes(1)))
    func anAlbumPlayedAtAPromptIsRecordedWithoutAnotherCommand() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try Self.shellWithMusic(in: runner, environment: ["BLUELIB_AUDIO_OUTPUT": "null"])
      let mark = terminal.mark
      terminal.type("play 1\r")
      #expect(terminal.waitFor("■ end of the queue", after: mark, timeout: 20))
      let listed = try runner.run(["-c", "list -f '$played $title' played:1.."])
      #expect(listed.stdout == "1 The Wall\n", "\(listed.stderr)")
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    /// ReplayGain through mpv (issue 38, item 4): the tags of a FLAC (written by mutagen)
    /// as mpv reads them, album or track as chosen, the fallback for an untagged file, the
    /// choice kept in the library file; and `repeat on` plays the one-second album again.
    @Test(.timeLimit(.minutes(1)))
    func replayGainComesFromTheTagsAsChosenAndRepeatPlaysTheQueueAgain() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try MusicFolderFixture(in: runner.home)
      let tagged = try music.track(
        "Loud/Gained/1.flac", TagEdit(album: "Gained", artist: "Loud", title: "Tagged", trackNumber: "1"))
      _ = try Mutagen.run(
        """
        import sys, mutagen.flac
        f = mutagen.flac.FLAC(sys.argv[1])
        f['REPLAYGAIN_TRACK_GAIN'] = '-7.30 dB'; f['REPLAYGAIN_TRACK_PEAK'] = '0.5'
        f['REPLAYGAIN_ALBUM_GAIN'] = '-5.10 dB'; f['REPLAYGAIN_ALBUM_PEAK'] = '0.5'
        f.save()
        """, [tagged])
      try music.track(
        "Quiet/Plain/1.mp3", TagEdit(album: "Plain", artist: "Quiet", title: "Untagged", trackNumber: "1"))
      _ = try runner.run(["-c", "import '\(music.root)'"])
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path],
        environment: runner.environment(["NO_COLOR": "1", "BLUELIB_AUDIO_OUTPUT": "null"]), columns: 120, rows: 30)
      #expect(terminal.waitFor("bluelib> "))
      var mark = terminal.mark
      terminal.type("repeat on; play Gained\r")
      #expect(terminal.waitFor("▶ Loud — Gained — 01 Tagged", after: mark, timeout: 10))
      // One second later it starts again: the queue repeats.
      let first = try #require(terminal.transcript.range(of: "▶ Loud — Gained", range: mark..<terminal.mark))
      #expect(terminal.waitFor("▶ Loud — Gained — 01 Tagged", after: first.upperBound, timeout: 10))
      for (command, expected) in [
        ("now", "ReplayGain album −5.10 dB; the queue repeats"),
        ("replaygain track; now", "ReplayGain track −7.30 dB; the queue repeats"),
        ("replaygain off; now", "ReplayGain off; the queue repeats"),
      ] {
        mark = terminal.mark
        terminal.type(command + "\r")
        #expect(terminal.waitFor(expected, after: mark, timeout: 10), "\(command)")
      }
      mark = terminal.mark
      terminal.type("replaygain album; play Plain\r")
      #expect(terminal.waitFor("▶ Quiet — Plain — 01 Untagged", after: mark, timeout: 10))
      mark = terminal.mark
      terminal.type("now\r")
      #expect(terminal.waitFor("ReplayGain −6.00 dB (the file has no ReplayGain tags)", after: mark, timeout: 10))
      mark = terminal.mark
      terminal.type("repeat off\r")
      #expect(terminal.waitFor("■ end of the queue", after: mark, timeout: 10))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)

      // The untagged file's fallback, and the mode the first shell chose.
      _ = try runner.run(["-c", "replaygain track"])
      let result = try runner.run(["-c", "replaygain"])
      #expect(result.stdout == "replaygain track: by each track's tags; untagged files −6 dB\n")
    }

    /// ReplayGain never clips (issue 46, H8), measured on what mpv's `pcm` output wrote: a
    /// tone at −6 dBFS whose tags ask +60 dB with a peak of 0.001 (mpv trusts the peak: it
    /// came out as a full-scale square wave) is raised by the ceiling's 15 dB at most and
    /// kept under full scale; a quiet one at −30 dBFS asking +10 dB within its peak gets its
    /// 10 dB; `now` says which was held and why; and `replaygain off` plays an untagged
    /// file as it is (mpv gave it its −6 dB fallback even with `replaygain=no`).
    @Test(.timeLimit(.minutes(1)))
    func aReplayGainPastItsPeakOrTheCeilingIsHeldAndNeverClips() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try MusicFolderFixture(in: runner.home)
      let lying = music.path("Loud/Lie/1.flac")
      let honest = music.path("Soft/True/1.flac")
      let untagged = music.path("Bare/Plain/1.flac")
      for (path, peak) in [(lying, -6.0), (honest, -30.0), (untagged, -20.0)] {
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Loudness.tone(at: path, seconds: 2, peak: peak)
      }
      _ = try Mutagen.run(
        """
        import sys, mutagen.flac
        for path, album, artist, gain, peak in [sys.argv[1:6], sys.argv[6:11], sys.argv[11:16]]:
            f = mutagen.flac.FLAC(path)
            f['ALBUM'] = album; f['ARTIST'] = artist; f['TITLE'] = album; f['TRACKNUMBER'] = '1'
            for kind in ('TRACK', 'ALBUM'):
                if gain: f['REPLAYGAIN_%s_GAIN' % kind] = gain; f['REPLAYGAIN_%s_PEAK' % kind] = peak
            f.save()
        """,
        [
          lying, "Lie", "Loud", "+60.00 dB", "0.001", honest, "True", "Soft", "+10.00 dB", "0.0316", untagged, "Plain",
          "Bare", "", "",
        ])
      _ = try runner.run(["-c", "import '\(music.root)'"])

      func played(_ album: String, gain: String = "album") throws -> Loudness.Levels {
        // The `pcm` output writes `audiodump.wav` in the working directory.
        let directory = runner.home.appendingPathComponent("pcm-\(album)-\(gain)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var inDirectory = runner
        inDirectory.workingDirectory = directory.path
        let result = try inDirectory.run(
          ["-c", "replaygain \(gain); play \(album)"], environment: ["BLUELIB_AUDIO_OUTPUT": "pcm"])
        #expect(result.status == 0, "\(result.stderr)")
        return try Loudness.levels(of: directory.appendingPathComponent("audiodump.wav").path)
      }
      let (source, lie) = (try Loudness.levels(of: lying), try played("Lie"))
      #expect(lie.max <= -0.3, "clipped: \(lie)")
      #expect(lie.mean <= source.mean + 15.1, "raised past the ceiling: \(source) → \(lie)")
      let (quiet, soft) = (try Loudness.levels(of: honest), try played("True"))
      #expect(abs(soft.mean - (quiet.mean + 10)) < 0.3, "\(quiet) → \(soft)")
      let bare = try Loudness.levels(of: untagged)
      let (evened, asItIs) = (try played("Plain"), try played("Plain", gain: "off"))
      #expect(abs(evened.mean - (bare.mean - 6)) < 0.3, "\(bare) → \(evened)")
      #expect(abs(asItIs.mean - bare.mean) < 0.3, "\(bare) → \(asItIs)")

      _ = try runner.run(["-c", "replaygain album"])
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path],
        environment: runner.environment(["NO_COLOR": "1", "BLUELIB_AUDIO_OUTPUT": "null"]), columns: 120, rows: 30)
      #expect(terminal.waitFor("bluelib> "))
      for (album, expected) in [
        ("Lie", "ReplayGain album +15.00 dB (the tags ask +60.00 dB: held at the ceiling)"),
        ("True", "ReplayGain album +10.00 dB"),
      ] {
        var mark = terminal.mark
        terminal.type("play \(album)\r")
        #expect(terminal.waitFor("▶ ", after: mark, timeout: 10))
        mark = terminal.mark
        terminal.type("now\r")
        #expect(terminal.waitFor(expected, after: mark, timeout: 10), "\(album): \(terminal.transcript[mark...])")
      }
      terminal.type("stop; quit\r")
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

    /// Nothing is fetched that was not asked for (round 4, G4). A real loopback server sees no
    /// connection while bluelib plays a music file replaced since the import by an M3U playlist
    /// naming a URL (refused by its magic, as the scanner refuses it), a WAV file holding a PLS
    /// playlist (WAV has no magic the scanner checks: mpv itself is told to follow no
    /// references), and a track whose path in the library file is a URL (a library made before
    /// import checked them); a JSON library whose tracks are a URL and an mpv protocol is
    /// refused by `import`.
    @Test(.timeLimit(.minutes(1)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func playFetchesNothingThatWasNotAskedFor() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try MusicFolderFixture(in: runner.home)
      for (number, name) in [(1, "1.mp3"), (2, "2.wav"), (3, "3.ogg"), (4, "4.flac")] {
        try music.track(
          "X/Remote/\(name)", TagEdit(album: "Remote", artist: "X", title: "Track \(number)", trackNumber: "\(number)"))
      }
      _ = try runner.run(["-c", "import '\(music.root)'"])
      try "#EXTM3U\n\(server.url("/from-an-m3u.mp3"))\n".write(
        toFile: music.path("X/Remote/1.mp3"), atomically: false, encoding: .utf8)
      try "[playlist]\nFile1=\(server.url("/from-a-pls.mp3"))\nNumberOfEntries=1\n".write(
        toFile: music.path("X/Remote/2.wav"), atomically: false, encoding: .utf8)
      let sqlite = Process()
      sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
      sqlite.arguments = [
        runner.home.appendingPathComponent("library.sqlite").path,
        "UPDATE track SET path = '\(server.url("/from-the-library.ogg"))' WHERE path LIKE '%/3.ogg'",
      ]
      try sqlite.run()
      sqlite.waitUntilExit()
      try #require(sqlite.terminationStatus == 0)

      let played = try runner.run(["-c", "play 1"], environment: Self.silent)
      #expect(played.status == 0, "\(played.stderr)")
      #expect(
        played.stdout == """
          playing "Remote" (2 tracks)
          ✗ cannot play 1.mp3: no readable audio; skipped
          ✗ cannot play from-the-library.ogg: not a local file; skipped
          ✗ cannot play 2.wav: unrecognized file format; skipped
          ▶ X — Remote — 04 Track 4 (0:01)
          ■ end of the queue

          """, "\(played.stderr)")

      let json = runner.home.appendingPathComponent("remote.json").path
      try """
      [{"title": "Remote", "artist": "X", "folder": "/music/Remote", "duration": 2, "tracks": [
        {"path": "\(server.url("/from-json.mp3"))", "number": 1, "title": "one", "length": 1},
        {"path": "av://lavfi:sine=frequency=440:duration=1", "number": 2, "title": "two", "length": 1}]}]
      """.write(toFile: json, atomically: false, encoding: .utf8)
      let imported = try runner.run(["-c", "import '\(json)'", "-c", "play 2"], environment: Self.silent)
      #expect(
        imported.stderr.hasPrefix(
          "bluelib: -c:1: import: \(json):2: element 1: track 1: 'path' must be an absolute path, got '\(server.url("/from-json.mp3"))'\n"
        ), "\(imported.stderr)")
      #expect(!imported.stdout.contains("▶"), "\(imported.stdout)")
      usleep(300_000)
      #expect(server.peakConnections == 0, "\(server.requests.map(\.path))")
    }

    /// A track that is a FIFO since the import (or a device, or anything whose `open` would
    /// block) is skipped with a line saying so, without opening it to read: it stalled
    /// playback for good, and a script never ended (round 4, G11).
    @Test(.timeLimit(.minutes(1)))
    func aFIFOInTheQueueIsSkippedAndTheScriptEnds() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try Self.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      let fifo = music.path("Queen/Innuendo/1.mp3")
      try FileManager.default.removeItem(atPath: fifo)
      #expect(mkfifo(fifo, 0o644) == 0)
      let shell = try LiveShell(runner, arguments: ["-c", "play 2"], environment: Self.silent)
      let status = shell.waitForExit(timeout: 15)
      #expect(status == 0, "\(shell.output)\(shell.errors)")
      #expect(
        shell.output == """
          playing "Innuendo" (1 track)
          ✗ cannot play 1.mp3: not a regular file; skipped
          ▶ Queen — Innuendo — 02 Headlong (0:01)
          ■ end of the queue

          """, "\(shell.errors)")
    }

    /// An album whose files are all gone since the import is one error naming the first
    /// missing file and how to find them again, and a failure in a script (round 4, G25: each
    /// track said "loading failed" and the script exited 0); one file gone of several is
    /// skipped with a line, and the rest plays.
    @Test(.timeLimit(.minutes(1)))
    func playingAnAlbumWhoseFilesAreGoneSaysSoOnce() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try Self.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      try FileManager.default.removeItem(atPath: music.path("Queen/Innuendo/2.flac"))
      let one = try runner.run(["-c", "play 2"], environment: Self.silent)
      #expect(one.status == 0, "\(one.stderr)")
      #expect(
        one.stdout == """
          playing "Innuendo" (1 track)
          ✗ cannot play 2.flac: no such file; skipped
          ▶ Queen — Innuendo — 01 Innuendo (0:01)
          ■ end of the queue

          """, "\(one.stderr)")

      try FileManager.default.removeItem(atPath: music.path("Queen"))
      let gone = try runner.run(["-c", "play 2"], environment: Self.silent)
      #expect(gone.status == 1)
      #expect(gone.stdout == "")
      #expect(
        gone.stderr == """
          bluelib: -c:1: play: the files of "Innuendo" are gone (\(music.path("Queen/Innuendo/1.mp3")): no such file); \
          'import DIR' finds them if they moved

          """)
    }

    /// SIGTERM, SIGHUP and SIGINT end a script at once while another player (BLUELIB_PLAYER)
    /// plays, with 143, 129 and 130, and reach every process of the player's own process
    /// group; the rest of the line does not run (round 4, G9: bluelib waited for the player
    /// and ignored all three).
    @Test(.timeLimit(.minutes(1)), arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGINT, 130)] as [(Int32, Int32)])
    func aSignalEndsTheShellWhileAnotherPlayerPlaysAndReachesThePlayer(signal: Int32, status: Int32) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try Self.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      let record = runner.home.appendingPathComponent("player-pid").path
      // The shell waits for a sleep of its own: both must end.
      let shell = try LiveShell(
        runner, arguments: ["-c", "play 1; add After", "-c", "add After"],
        environment: ["BLUELIB_PLAYER": "echo $$ > '\(record)'; sleep 1000; true #"])
      defer { shell.closeInput() }
      var player: pid_t?
      let deadline = ContinuousClock.now + .seconds(10)
      while player == nil && ContinuousClock.now < deadline {
        player = fileContents(record).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        if player == nil { usleep(10_000) }
      }
      let group = try #require(player)
      try #require(group > 1)
      defer {
        kill(-group, SIGKILL)
        kill(group, SIGKILL)
      }
      #expect(Self.processes(inGroup: group).count == 2, "the player's sh and its sleep, in a group of their own")
      usleep(100_000)
      let start = ContinuousClock.now
      kill(shell.processIdentifier, signal)
      while shell.isRunning && ContinuousClock.now - start < .seconds(3) { usleep(5_000) }
      let took = ContinuousClock.now - start
      // A shell that waits for the player ends when the player does (and its output ends
      // when the player's sleep does, which has it too).
      if shell.isRunning {
        for pid in Self.processes(where: { pid, parent, _ in pid == group || parent == group }) { kill(pid, SIGKILL) }
      }
      let exit = shell.waitForExit(timeout: 10)
      #expect(exit == status, "\(shell.errors)")
      #expect(took < .seconds(1), "ended \(took) after the signal")
      #expect(!shell.diedOfSignal)
      #expect(!shell.output.contains("After") && !shell.output.contains("played"), "\(shell.output)")
      var left = Self.processes(inGroup: group)
      let reaped = ContinuousClock.now + .seconds(5)
      while !left.isEmpty && ContinuousClock.now < reaped {
        usleep(20_000)
        left = Self.processes(inGroup: group)
      }
      #expect(left.isEmpty, "the player's processes \(left) are still running")
      #expect(try runner.run(["-c", "list -f '$title'"]).stdout == "The Wall\nInnuendo\n")
    }

    /// The live processes (not zombies) whose process group is `group`, from `/proc`.
    static func processes(inGroup group: pid_t) -> [pid_t] {
      processes { _, _, processGroup in processGroup == group }
    }

    /// The live processes (not zombies) for which `include(pid, parent, group)` is true.
    static func processes(where include: (pid_t, pid_t, pid_t) -> Bool) -> [pid_t] {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
      return entries.compactMap { entry -> pid_t? in
        guard let pid = pid_t(entry), let stat = fileContents("/proc/\(entry)/stat"),
          let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the name in parentheses: state, parent, process group.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, fields[0] != "Z", let parent = pid_t(fields[1]), let group = pid_t(fields[2]),
          include(pid, parent, group)
        else { return nil }
        return pid
      }
    }

    /// A player killed by a signal is a failure that names the signal, not "played" (round 4, G9).
    @Test func aPlayerKilledByASignalIsAFailure() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try Self.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      let result = try runner.run(["-c", "play 1"], environment: ["BLUELIB_PLAYER": "kill -9 $$"])
      #expect(result.status == 1)
      #expect(result.stdout == "")
      #expect(result.stderr == "bluelib: -c:1: play: the player 'kill -9 $$' was killed by signal 9\n")
    }

    /// At a prompt, another player has the terminal while it runs, in its process group of
    /// its own: it reads what is typed (without the terminal it would be stopped reading it),
    /// Ctrl-C reaches it and not the shell, and the prompt comes back when it ends.
    @Test(.timeLimit(.minutes(1)))
    func anotherPlayerAtThePromptHasTheTerminal() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let player = "printf 'player> '; read answer; [ \"$answer\" = wait ] && sleep 1000; echo \"player got $answer\" #"
      let terminal = try Self.shellWithMusic(in: runner, environment: ["BLUELIB_PLAYER": player])
      let shellGroup = terminal.foregroundProcessGroup()
      var mark = terminal.mark
      terminal.type("play 1\r")
      #expect(terminal.waitFor("player> ", after: mark))
      let handed = ContinuousClock.now + .seconds(5)
      while terminal.foregroundProcessGroup() == shellGroup && ContinuousClock.now < handed { usleep(10_000) }
      #expect(terminal.foregroundProcessGroup() != shellGroup, "the player does not have the terminal")
      terminal.type("yes\r")
      #expect(terminal.waitFor("player got yes", after: mark))
      #expect(terminal.waitFor("played \"The Wall\" with", after: mark))
      #expect(terminal.waitFor("bluelib> ", after: terminal.transcript.range(of: "played \"The Wall\"")?.upperBound))
      #expect(terminal.foregroundProcessGroup() == shellGroup)

      // Ctrl-C stops the player, not the shell, and is no failure.
      mark = terminal.mark
      terminal.type("play 1\r")
      #expect(terminal.waitFor("player> ", after: mark))
      terminal.type("wait\r")
      // Once sleep runs: a Ctrl-C before would reach sh alone (or its child before the exec),
      // which catches it and waits on.
      let sleeping = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < sleeping
        && !Self.processes(inGroup: terminal.foregroundProcessGroup()).contains(where: {
          fileContents("/proc/\($0)/comm") == "sleep\n"
        })
      {
        usleep(10_000)
      }
      terminal.type("\u{03}")
      #expect(
        terminal.waitFor("bluelib> ", after: mark, timeout: 5), "\(terminal.transcript[mark...].debugDescription)")
      #expect(!terminal.transcript[mark...].contains("error:"), "\(terminal.transcript[mark...])")
      #expect(!terminal.transcript[mark...].contains("played"), "\(terminal.transcript[mark...])")
      #expect(terminal.foregroundProcessGroup() == shellGroup)
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    /// Without a working audio output, `play` says so in one line, once, plays nothing and
    /// fails the script; what the sound libraries print on standard error stays off it (round
    /// 4, G13: each track said "▶" and then "✗ … audio output initialization failed", ALSA wrote
    /// 18 lines a track, and the script exited 0). ALSA with an empty configuration has no
    /// device on any machine.
    @Test(.timeLimit(.minutes(1)))
    func withoutAnAudioOutputPlaySaysSoOnceAndFails() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try Self.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      let empty = runner.home.appendingPathComponent("empty-alsa.conf").path
      #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
      let result = try runner.run(
        ["-c", "play 1", "-c", "queue"],
        environment: ["BLUELIB_AUDIO_OUTPUT": "alsa", "ALSA_CONFIG_PATH": empty])
      #expect(result.status == 1)
      #expect(
        result.stderr == """
          bluelib: -c:1: play: no audio output 'alsa' (mpv: audio output initialization failed); \
          set BLUELIB_AUDIO_OUTPUT to another

          """)
      #expect(result.stdout == "the queue is empty ('queue ALBUM' adds an album)\n")

      // The output that opened (null, once ALSA failed) is the one every track uses: ALSA is
      // not tried again, so nothing more reaches standard error, and the album plays.
      let fallback = try runner.run(
        ["-c", "play 1"], environment: ["BLUELIB_AUDIO_OUTPUT": "alsa,null", "ALSA_CONFIG_PATH": empty])
      #expect(fallback.status == 0)
      #expect(fallback.stderr == "")
      #expect(
        fallback.stdout == """
          playing "The Wall" (3 tracks)
          ▶ Pink Floyd — The Wall — 1-01 In the Flesh? (0:01)
          ▶ Pink Floyd — The Wall — 1-02 The Thin Ice (0:01)
          ▶ Pink Floyd — The Wall — 2-01 Hey You (0:01)
          ■ end of the queue

          """)
    }

    /// An audio output that does not open — mpv's `pcm` output writing to a FIFO nobody reads,
    /// as a sound server that never answers — is given up after 5 s with one line, and SIGTERM
    /// while it waits ends the run at once (before, the first track's line came and then the
    /// script never ended).
    @Test(.timeLimit(.minutes(1)))
    func anAudioOutputThatDoesNotOpenIsGivenUpAndASignalEndsTheWait() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try Self.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      // The `pcm` output writes `audiodump.wav` in the current directory.
      let directory = runner.home.appendingPathComponent("stuck")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      #expect(mkfifo(directory.appendingPathComponent("audiodump.wav").path, 0o644) == 0)
      func start() throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = BinaryRunner.executable
        process.arguments = ["--home", runner.home.path, "-c", "play 1"]
        process.environment = runner.environment(["BLUELIB_AUDIO_OUTPUT": "pcm"])
        process.currentDirectoryURL = directory
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
      }

      /// Ends `process` if it still runs: SIGTERM, and SIGKILL (recorded as a failure) when
      /// that did not end it within 5 s — a run that ignored it (it did, once: a read of
      /// mpv's `current-ao` waited for an output that never opens) must not hang the tests.
      func end(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let sent = ContinuousClock.now
        while process.isRunning && ContinuousClock.now - sent < .seconds(5) { usleep(10_000) }
        if process.isRunning {
          Issue.record("bluelib did not end within 5 s of SIGTERM")
          kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
      }

      let (waited, output, errors) = try start()
      let started = ContinuousClock.now
      while waited.isRunning && ContinuousClock.now - started < .seconds(15) { usleep(10_000) }
      end(waited)
      #expect(waited.terminationStatus == 1)
      #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "")
      #expect(
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == """
          bluelib: -c:1: play: no audio output 'pcm' (mpv: the audio output did not open within 5 s); \
          set BLUELIB_AUDIO_OUTPUT to another

          """)

      let (signalled, _, _) = try start()
      usleep(1_000_000)
      let sent = ContinuousClock.now
      kill(signalled.processIdentifier, SIGTERM)
      while signalled.isRunning && ContinuousClock.now - sent < .seconds(10) { usleep(5_000) }
      let took = ContinuousClock.now - sent
      end(signalled)
      #expect(took < .seconds(1), "ended \(took) after SIGTERM")
      #expect(signalled.terminationStatus == 143)
    }

    /// A repeating queue has no end (issue 49, item 4), through libmpv: `next` at the last
    /// track plays the first, `prev` at the first plays the last (before, "no next track").
    @Test(.timeLimit(.minutes(1)))
    func aRepeatingQueueWrapsAroundBothWaysInMPV() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try MusicFolderFixture(in: runner.home)
      for (number, title) in [(1, "Innuendo"), (2, "Headlong")] {
        try MPDFixture.silence(
          30, at: "Queen/Innuendo/\(number).ogg", in: music,
          TagEdit(album: "Innuendo", artist: "Queen", title: title, trackNumber: "\(number)"))
      }
      _ = try runner.run(["-c", "import '\(music.root)'"])
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path],
        environment: runner.environment(["NO_COLOR": "1"].merging(Self.silent) { $1 }),
        columns: 100, rows: 30)
      #expect(terminal.waitFor("bluelib> "))
      for (line, track) in [
        ("repeat on; play Innuendo", "01 Innuendo"), ("next", "02 Headlong"), ("next", "01 Innuendo"),
        ("prev", "02 Headlong"),
      ] {
        terminal.settle()
        let mark = terminal.mark
        terminal.type(line + "\r")
        #expect(
          terminal.waitFor("▶ Queen — Innuendo — \(track)", after: mark, timeout: 10),
          "\(line): \(terminal.transcript[mark...].debugDescription)")
      }
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }
  }
}
