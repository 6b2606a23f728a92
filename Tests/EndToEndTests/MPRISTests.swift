import Foundation
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// bluelib as the desktop's media keys and player widgets see it (issue 49, item 1): an
  /// MPRIS player on a session bus of the test's own, asked and driven by Debian's
  /// `playerctl`, the shell running the built binary in a real pseudo-terminal with libmpv on
  /// its null output.
  @Suite(.serialized)
  struct MPRISTests {
    /// An album of two one-minute tracks with a cover beside them: its album artist is
    /// Pink Floyd, its second track's own artist Roy Harper.
    static func music(in runner: BinaryRunner) throws -> MusicFolderFixture {
      let music = try MusicFolderFixture(in: runner.home)
      try fill(music)
      return music
    }

    /// Writes ``music(in:)``'s album into `music`.
    static func fill(_ music: MusicFolderFixture) throws {
      for (number, title, artist) in [(1, "Shine On", "Pink Floyd"), (2, "Have a Cigar", "Roy Harper")] {
        try MPDFixture.silence(
          60, at: "Pink Floyd/Wish You Were Here/\(number).mp3", in: music,
          TagEdit(
            album: "Wish You Were Here", artist: artist, albumArtist: "Pink Floyd", title: title,
            trackNumber: "\(number)"))
      }
      try music.file("Pink Floyd/Wish You Were Here/cover.jpg", TestPicture.jpeg(TestPicture.red))
    }

    /// A shell at its prompt on ``music(in:)``, playing nothing, on `bus` (none: no
    /// `DBUS_SESSION_BUS_ADDRESS`, or `address` when given).
    static func shell(in runner: BinaryRunner, bus: SessionBus?, address: String? = nil) throws -> PseudoTerminal {
      let music = try Self.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      var environment = ["BLUELIB_AUDIO_OUTPUT": "null", "NO_COLOR": "1"]
      if let address = address ?? bus?.address { environment["DBUS_SESSION_BUS_ADDRESS"] = address }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(environment), columns: 120, rows: 30)
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      return terminal
    }

    /// ``shell(in:bus:address:)`` playing the album's first track, listed on `bus`.
    static func playingShell(in runner: BinaryRunner, bus: SessionBus) throws -> PseudoTerminal {
      let terminal = try shell(in: runner, bus: bus)
      let mark = terminal.mark
      terminal.type("play 1\r")
      #expect(terminal.waitFor("▶ Pink Floyd — Wish You Were Here — 01 Shine On (1:00)", after: mark))
      #expect(try SessionBus.waitUntil { try bus.playerctl("-l").output.split(separator: "\n").contains("bluelib") })
      return terminal
    }

    /// `playerctl metadata`'s lines (`bluelib KEY VALUE`) as a dictionary.
    static func metadata(on bus: SessionBus) throws -> [String: String] {
      var fields: [String: String] = [:]
      for line in try bus.playerctl("-p", "bluelib", "metadata").output.split(separator: "\n") {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count == 3, words[0] == "bluelib" else { continue }
        fields[String(words[1])] = words[2].trimmingCharacters(in: .whitespaces)
      }
      return fields
    }

    static func status(on bus: SessionBus) throws -> String {
      try bus.playerctl("-p", "bluelib", "status").output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.timeLimit(.minutes(1)))
    func theDesktopSeesWhatPlaysWithTheLibrarysArtistsAndCover() throws {
      let bus = try SessionBus()
      defer { bus.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try Self.playingShell(in: runner, bus: bus)
      defer { terminal.type("quit\r") }
      #expect(try Self.status(on: bus) == "Playing")
      let first = try Self.metadata(on: bus)
      #expect(first["xesam:title"] == "Shine On")
      #expect(first["xesam:album"] == "Wish You Were Here")
      #expect(first["xesam:artist"] == "Pink Floyd")
      #expect(first["xesam:albumArtist"] == "Pink Floyd")
      #expect(first["xesam:trackNumber"] == "1")
      #expect(first["mpris:trackid"] == "'/org/bluelib/track/1'")
      let length = Int(first["mpris:length"] ?? "") ?? 0
      #expect((59_000_000...61_000_000).contains(length), "\(first)")
      // The cover: a file the widget can read, the red picture beside the tracks.
      let art = first["mpris:artUrl"] ?? ""
      #expect(art.hasPrefix("file:///"), "\(first)")
      let artFile = String(art.dropFirst("file://".count)).removingPercentEncoding ?? ""
      #expect(FileManager.default.contents(atPath: artFile) == Data(TestPicture.jpeg(TestPicture.red)), "\(art)")
      // The second track: its own artist, the album's still the album artist.
      terminal.type("next\r")
      #expect(try SessionBus.waitUntil { try Self.metadata(on: bus)["xesam:title"] == "Have a Cigar" })
      let second = try Self.metadata(on: bus)
      #expect(second["xesam:artist"] == "Roy Harper")
      #expect(second["xesam:albumArtist"] == "Pink Floyd")
      #expect(second["mpris:trackid"] == "'/org/bluelib/track/2'")
      #expect(second["xesam:trackNumber"] == "2")
      // Identity and what the player can do.
      let identity = try Self.busctl(bus, "org.mpris.MediaPlayer2", "Identity")
      #expect(identity == "'bluelib'", "\(identity)")
      #expect(try Self.busctl(bus, "org.mpris.MediaPlayer2.Player", "CanGoNext") == "true")
      #expect(try Self.busctl(bus, "org.mpris.MediaPlayer2", "CanQuit") == "false")
    }

    /// A property of bluelib's object, as `gdbus call … Get` prints its value (`'bluelib'`).
    static func busctl(_ bus: SessionBus, _ interface: String, _ property: String) throws -> String {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
      process.arguments = [
        "call", "--session", "--dest", "org.mpris.MediaPlayer2.bluelib", "--object-path", "/org/mpris/MediaPlayer2",
        "--method", "org.freedesktop.DBus.Properties.Get", interface, property,
      ]
      process.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      // `(<'bluelib'>,)`
      return text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "(<", with: "")
        .replacingOccurrences(of: ">,)", with: "")
    }

    @Test(.timeLimit(.minutes(1)))
    func theDesktopsPausePlayAndNextAreObeyedAndShownAboveThePrompt() throws {
      let bus = try SessionBus()
      defer { bus.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try Self.playingShell(in: runner, bus: bus)
      defer { terminal.type("quit\r") }
      var mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "pause").status == 0)
      #expect(try Self.status(on: bus) == "Paused")
      #expect(terminal.waitFor("paused (asked by the desktop)", after: mark))
      mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "play").status == 0)
      #expect(try Self.status(on: bus) == "Playing")
      #expect(terminal.waitFor("playing (asked by the desktop)", after: mark))
      mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "next").status == 0)
      #expect(terminal.waitFor("next track (asked by the desktop)", after: mark))
      #expect(terminal.waitFor("▶ Pink Floyd — Wish You Were Here — 02 Have a Cigar (1:00)", after: mark))
      #expect(try SessionBus.waitUntil { try Self.metadata(on: bus)["xesam:title"] == "Have a Cigar" })
      mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "play-pause").status == 0)
      #expect(try Self.status(on: bus) == "Paused")
      #expect(terminal.waitFor("paused (asked by the desktop)", after: mark))
      mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "stop").status == 0)
      #expect(try Self.status(on: bus) == "Stopped")
      #expect(terminal.waitFor("stopped (asked by the desktop)", after: mark))
    }

    /// What the shell's own verbs change reaches the desktop as it happens (PropertiesChanged):
    /// `playerctl --follow` prints each status and title as it is signalled.
    @Test(.timeLimit(.minutes(1)))
    func theShellsOwnChangesAreSignalledToTheDesktop() throws {
      let bus = try SessionBus()
      defer { bus.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try Self.playingShell(in: runner, bus: bus)
      defer { terminal.type("quit\r") }
      let log = runner.home.appendingPathComponent("follow.log")
      try Data().write(to: log)
      let follower = Process()
      follower.executableURL = URL(fileURLWithPath: "/usr/bin/playerctl")
      follower.arguments = ["-p", "bluelib", "--follow", "metadata", "--format", "{{status}} {{xesam:title}}"]
      follower.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
      follower.standardOutput = try FileHandle(forWritingTo: log)
      follower.standardError = FileHandle.nullDevice
      try follower.run()
      defer {
        // SIGKILL: the test's threads block SIGTERM, and their children inherit the mask.
        kill(follower.processIdentifier, SIGKILL)
        follower.waitUntilExit()
      }
      func followed() -> [String] {
        // Each signal is a line; empty when the metadata is (nothing plays).
        (try? String(contentsOf: log, encoding: .utf8))?.components(separatedBy: "\n").dropLast() ?? []
      }
      // The follower prints what it found at its start.
      #expect(SessionBus.waitUntil { followed().last == "Playing Shine On" }, "\(followed())")
      terminal.type("pause\r")
      #expect(SessionBus.waitUntil { followed().last == "Paused Shine On" }, "\(followed())")
      terminal.type("pause\r")
      #expect(SessionBus.waitUntil { followed().last == "Playing Shine On" }, "\(followed())")
      terminal.type("next\r")
      #expect(SessionBus.waitUntil { followed().last == "Playing Have a Cigar" }, "\(followed())")
      terminal.type("stop\r")
      #expect(SessionBus.waitUntil { ["", "Stopped "].contains(followed().last) }, "\(followed())")
    }

    /// `playerctl position` as a number of seconds.
    static func position(on bus: SessionBus) throws -> Double {
      Double(try bus.playerctl("-p", "bluelib", "position").output.trimmingCharacters(in: .whitespacesAndNewlines))
        ?? -1
    }

    static func playerctl(_ bus: SessionBus, _ arguments: String...) throws -> String {
      var all = ["-p", "bluelib"]
      all += arguments
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/playerctl")
      process.arguments = all
      process.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Seek and SetPosition move in the track, Volume and LoopStatus are the shell's `volume`
    /// and `repeat` both ways; Shuffle stays off and Rate 1 (bluelib has neither).
    @Test(.timeLimit(.minutes(1)))
    func positionVolumeAndRepeatGoBothWays() throws {
      let bus = try SessionBus()
      defer { bus.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try Self.playingShell(in: runner, bus: bus)
      defer { terminal.type("quit\r") }
      // Paused, the time stands still where the desktop put it.
      #expect(try bus.playerctl("-p", "bluelib", "pause").status == 0)
      var mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "position", "20").status == 0)
      #expect(terminal.waitFor("at 0:20 (asked by the desktop)", after: mark))
      // mpv lands on an MP3 frame near it.
      #expect(try SessionBus.waitUntil { (19.0...21.0).contains(try Self.position(on: bus)) })
      mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "position", "5+").status == 0)
      #expect(terminal.waitFor("at 0:2", after: mark))
      #expect(try SessionBus.waitUntil { (24.0...26.0).contains(try Self.position(on: bus)) })
      terminal.type("now\r")
      #expect(terminal.waitFor(" of 1:00, track 1 of 2", after: mark))
      // The volume: the desktop's 0.3 is the shell's 30, the shell's 70 the desktop's 0.7.
      mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "volume", "0.3").status == 0)
      #expect(terminal.waitFor("volume 30% (asked by the desktop)", after: mark))
      mark = terminal.mark
      terminal.type("volume\r")
      #expect(terminal.waitFor("volume 30\r\n", after: mark))
      mark = terminal.mark
      terminal.type("volume 70\r")
      #expect(terminal.waitFor("volume 70\r\n", after: mark))
      #expect(try Self.playerctl(bus, "volume") == "0.700000")
      // Repeat: Playlist is `repeat on`, None `repeat off`; one track alone is refused.
      mark = terminal.mark
      #expect(try Self.playerctl(bus, "loop") == "None")
      #expect(try bus.playerctl("-p", "bluelib", "loop", "Playlist").status == 0)
      #expect(terminal.waitFor("repeat on (asked by the desktop)", after: mark))
      terminal.type("repeat\r")
      #expect(terminal.waitFor("repeat on: the queue plays again after its end", after: mark))
      mark = terminal.mark
      terminal.type("repeat off\r")
      #expect(terminal.waitFor("repeat off\r\n", after: mark))
      #expect(try Self.playerctl(bus, "loop") == "None")
      _ = try bus.playerctl("-p", "bluelib", "loop", "Track")
      #expect(try Self.playerctl(bus, "loop") == "None")
      // No shuffle, one rate.
      _ = try bus.playerctl("-p", "bluelib", "shuffle", "On")
      #expect(try Self.playerctl(bus, "shuffle") == "Off")
      #expect(try Self.busctl(bus, "org.mpris.MediaPlayer2.Player", "Rate") == "1.0")
      #expect(try Self.busctl(bus, "org.mpris.MediaPlayer2.Player", "MaximumRate") == "1.0")
    }

    /// With `--mpd` the bus follows the server's player: what it plays, from bluelib's library
    /// of the server, and the desktop's pause and next obeyed by the server.
    @Test(.timeLimit(.minutes(1)))
    func onAMusicServerTheDesktopSeesAndDrivesWhatTheServerPlays() throws {
      let mpd = try MPDFixture { try Self.fill($0) }
      try mpd.start()
      defer { mpd.stop() }
      let bus = try SessionBus()
      defer { bus.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path, "--mpd", mpd.address],
        environment: runner.environment(["NO_COLOR": "1", "DBUS_SESSION_BUS_ADDRESS": bus.address]), columns: 120,
        rows: 30)
      defer { terminal.type("quit\r") }
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      var mark = terminal.mark
      terminal.type("play 1\r")
      #expect(terminal.waitFor("▶ Pink Floyd — Wish You Were Here — 01 Shine On", after: mark))
      #expect(try SessionBus.waitUntil { try bus.playerctl("-l").output.split(separator: "\n").contains("bluelib") })
      let first = try Self.metadata(on: bus)
      #expect(first["xesam:title"] == "Shine On", "\(first)")
      #expect(first["xesam:album"] == "Wish You Were Here")
      #expect(first["xesam:albumArtist"] == "Pink Floyd")
      #expect(try Self.status(on: bus) == "Playing")
      mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "pause").status == 0)
      #expect(terminal.waitFor("paused (asked by the desktop)", after: mark))
      #expect(try SessionBus.waitUntil { try mpd.value("state", of: "status") == "pause" })
      #expect(try Self.status(on: bus) == "Paused")
      mark = terminal.mark
      #expect(try bus.playerctl("-p", "bluelib", "next").status == 0)
      #expect(terminal.waitFor("▶ Pink Floyd — Wish You Were Here — 02 Have a Cigar", after: mark))
      #expect(try SessionBus.waitUntil { try Self.metadata(on: bus)["xesam:title"] == "Have a Cigar" })
    }

    /// Until music plays, bluelib is not on the bus and has not loaded libsystemd (a start,
    /// browsing, a script that plays nothing cost nothing of it).
    @Test(.timeLimit(.minutes(1)))
    func nothingIsOnTheBusBeforeMusicFirstPlays() throws {
      let bus = try SessionBus()
      defer { bus.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try Self.shell(in: runner, bus: bus)
      defer { terminal.type("quit\r") }
      let mark = terminal.mark
      terminal.type("list\r")
      #expect(terminal.waitFor("Wish You Were Here", after: mark))
      let maps = try String(contentsOfFile: "/proc/\(terminal.foregroundProcessGroup())/maps", encoding: .utf8)
      #expect(maps.contains("bluelib") && !maps.contains("libsystemd"))
      #expect(try bus.playerctl("-l").output.split(separator: "\n").contains("bluelib") == false)
      terminal.type("play 1\r")
      #expect(try SessionBus.waitUntil { try bus.playerctl("-l").output.split(separator: "\n").contains("bluelib") })
    }

    @Test(.timeLimit(.minutes(1)))
    func withoutASessionBusNothingIsSaidOfIt() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try Self.shell(in: runner, bus: nil)
      defer { terminal.type("quit\r") }
      let mark = terminal.mark
      terminal.type("play 1\r")
      #expect(terminal.waitFor("▶ Pink Floyd — Wish You Were Here — 01 Shine On (1:00)", after: mark))
      let paused = terminal.mark
      terminal.type("pause\r")
      #expect(terminal.waitFor("paused", after: paused))
      terminal.type("now\r")
      #expect(terminal.waitFor("track 1 of 2", after: mark))
      for word in ["MPRIS", "bus", "desktop", "systemd"] {
        #expect(!terminal.transcript.contains(word), "\(terminal.transcript)")
      }
    }

    /// A session bus named but not there (its daemon gone): one line when music first plays,
    /// and playback goes on.
    @Test(.timeLimit(.minutes(1)))
    func aSessionBusThatIsNotThereIsSaidOnceAndPlaybackGoesOn() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let gone = "unix:path=" + runner.home.appendingPathComponent("no-bus").path
      let terminal = try Self.shell(in: runner, bus: nil, address: gone)
      defer { terminal.type("quit\r") }
      let mark = terminal.mark
      terminal.type("play 1\r")
      #expect(terminal.waitFor("MPRIS is off: cannot connect to the session bus (", after: mark))
      #expect(terminal.waitFor("▶ Pink Floyd — Wish You Were Here — 01 Shine On (1:00)", after: mark))
      for command in ["pause", "pause", "next", "now"] { terminal.type(command + "\r") }
      #expect(terminal.waitFor("track 2 of 2", after: mark))
      #expect(terminal.transcript.components(separatedBy: "MPRIS").count == 2, "\(terminal.transcript)")
    }
  }
}
