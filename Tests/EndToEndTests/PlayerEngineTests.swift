import BlueLibrary
import BluePlayback
import Foundation
import MPVAudio
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// The queue's controls on real libmpv with its null audio output, in-process: `pause`
  /// stops the clock and resumes it, `seek` lands where it is told (absolute and relative),
  /// `next` and `prev` move through the queue and stop at its ends, `stop` ends playing
  /// without announcing the end of the queue, and a track played past half of it before a
  /// skip counts its album as played.
  @Suite(.serialized)
  struct PlayerEngineTests {
    /// A WAV file of `seconds` of silence (8 kHz, mono, 16-bit): long enough to seek in.
    static func silence(seconds: Int, at path: String) throws {
      let rate = 8000
      let dataSize = rate * 2 * seconds
      var bytes: [UInt8] = []
      func word(_ value: Int, _ size: Int) {
        for shift in 0..<size { bytes.append(UInt8((value >> (8 * shift)) & 0xFF)) }
      }
      bytes += Array("RIFF".utf8)
      word(36 + dataSize, 4)
      bytes += Array("WAVEfmt ".utf8)
      word(16, 4)
      word(1, 2)  // PCM
      word(1, 2)  // mono
      word(rate, 4)
      word(rate * 2, 4)
      word(2, 2)
      word(16, 2)
      bytes += Array("data".utf8)
      word(dataSize, 4)
      bytes += [UInt8](repeating: 0, count: dataSize)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A player on mpv's null output and the events it tells, over three six-second tracks.
    final class Fixture: Sendable {
      let directory: TemporaryDirectory
      let player = Player { () throws(PlaybackError) -> any AudioEngine in try MPVEngine(audioOutput: "null") }
      let events = LockedBox<[Player.Event]>([])
      let tracks: [Player.Track]

      init() throws {
        directory = try TemporaryDirectory()
        var tracks: [Player.Track] = []
        for number in 1...3 {
          let path = directory.file("\(number).wav")
          try PlayerEngineTests.silence(seconds: 6, at: path)
          tracks.append(
            Player.Track(
              albumID: number == 3 ? 43 : 42, album: "Six Seconds", artist: "Nobody", number: number,
              title: "Track \(number)",
              duration: 6, path: path))
        }
        self.tracks = tracks
        player.observe { [events] event in events.update { $0.append(event) } }
      }

      /// The albums told as played so far, in order.
      var played: [Int64] {
        events.value.compactMap {
          if case .played(let albumID, _) = $0 { return albumID }
          return nil
        }
      }

      /// The titles of the tracks started so far, in order.
      var started: [String] {
        events.value.compactMap {
          if case .started(let track, _, _) = $0 { return track.title }
          return nil
        }
      }
    }

    /// Waits (up to five seconds) for `condition`; whether it came true.
    static func eventually(_ condition: () -> Bool) -> Bool {
      let deadline = ContinuousClock.now + .seconds(5)
      while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(10_000)
      }
      return condition()
    }

    @Test(.timeLimit(.minutes(1)))
    func pauseStopsTheClockAndResumesIt() throws {
      let fixture = try Fixture()
      try fixture.player.play(fixture.tracks)
      #expect(Self.eventually { (fixture.player.status()?.time ?? 0) > 0.2 })
      #expect(fixture.player.togglePause() == true)
      #expect(Self.eventually { fixture.player.status()?.paused == true })
      let pausedAt = try #require(fixture.player.status()).time
      usleep(500_000)
      let later = try #require(fixture.player.status())
      #expect(
        later.paused && abs(later.time - pausedAt) < 0.05, "the clock ran while paused: \(pausedAt) → \(later.time)")
      #expect(fixture.player.togglePause() == false)
      #expect(Self.eventually { (fixture.player.status()?.time ?? 0) > pausedAt + 0.2 })
      #expect(fixture.player.status()?.paused == false)
      fixture.player.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func seekLandsWhereItIsToldAbsoluteAndRelative() throws {
      let fixture = try Fixture()
      try fixture.player.play(fixture.tracks)
      #expect(Self.eventually { fixture.started == ["Track 1"] })
      fixture.player.seek(4, relative: false)
      #expect(Self.eventually { (fixture.player.status()?.time ?? 0) >= 4 })
      #expect(fixture.player.status()?.place == 1)
      let before = try #require(fixture.player.status()).time
      fixture.player.seek(-3, relative: true)
      #expect(Self.eventually { (fixture.player.status()?.time ?? 9) < before - 2 })
      #expect(fixture.player.status()?.place == 1)
      fixture.player.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func nextAndPrevMoveThroughTheQueueAndStopAtItsEnds() throws {
      let fixture = try Fixture()
      try fixture.player.play(fixture.tracks)
      #expect(Self.eventually { fixture.started == ["Track 1"] })
      #expect(fixture.player.skip(by: -1) == false, "prev on the first track")
      // Each skip waits for the track to start: one skipped while loading never starts.
      #expect(fixture.player.skip(by: 1))
      #expect(Self.eventually { fixture.started.last == "Track 2" && fixture.player.status()?.place == 2 })
      #expect(fixture.player.skip(by: 1))
      #expect(Self.eventually { fixture.started.last == "Track 3" && fixture.player.status()?.place == 3 })
      #expect(fixture.player.skip(by: 1) == false, "next on the last track")
      #expect(fixture.player.skip(by: -1))
      #expect(Self.eventually { fixture.started.count == 4 && fixture.player.status()?.place == 2 })
      #expect(fixture.started == ["Track 1", "Track 2", "Track 3", "Track 2"], "\(fixture.started)")
      #expect(fixture.player.status()?.track.title == "Track 2")
      fixture.player.stop()
    }

    /// `stop` ends playing at once and is not the end of the queue; the queue stays, and
    /// `play` alone starts it again from its first track.
    @Test(.timeLimit(.minutes(1)))
    func stopEndsPlayingWithoutEndingTheQueue() throws {
      let fixture = try Fixture()
      try fixture.player.play(fixture.tracks)
      #expect(Self.eventually { fixture.started == ["Track 1"] })
      fixture.player.stop()
      #expect(fixture.player.isIdle)
      #expect(Self.eventually { fixture.player.status() == nil })
      usleep(300_000)
      #expect(!fixture.events.value.contains(.endOfQueue), "\(fixture.events.value)")
      #expect(fixture.player.queue.count == 3)
      try fixture.player.playQueue()
      #expect(!fixture.player.isIdle)
      #expect(Self.eventually { fixture.started == ["Track 1", "Track 1"] }, "\(fixture.started)")
      // The last track to its end: the end of the queue is told, and the player is idle.
      #expect(fixture.player.skip(by: 2))
      #expect(Self.eventually { fixture.started.last == "Track 3" && fixture.player.status()?.place == 3 })
      fixture.player.seek(5.5, relative: false)
      #expect(Self.eventually { fixture.events.value.last == .endOfQueue }, "\(fixture.events.value)")
      #expect(fixture.player.isIdle)
    }

    /// `stop` straight after `play` or `next`, over and over: a start mpv sent just before the
    /// stop and read after it is late news — never the end of the queue, never an album left
    /// marked as playing (the review's race).
    @Test(.timeLimit(.minutes(1)))
    func stopRightAfterPlayOrNextNeverEndsTheQueueNorLeavesAnAlbumPlaying() throws {
      let fixture = try Fixture()
      for round in 0..<30 {
        try fixture.player.play(fixture.tracks)
        if round % 2 == 1 { _ = fixture.player.skip(by: 1) }
        fixture.player.stop()
      }
      usleep(500_000)
      #expect(!fixture.events.value.contains(.endOfQueue), "\(fixture.events.value.suffix(4))")
      #expect(fixture.player.playingAlbumID == nil)
      #expect(fixture.player.status() == nil)
      #expect(fixture.player.isIdle)
    }

    /// A track the engine refuses before it is queued — a FIFO (mpv waited in `open` for
    /// good), a file gone, a path that is not a local file — is told as failed and left out
    /// of the queue, and the rest plays (round 4, G4 and G11); when nothing asked for can
    /// play, nothing changes and the error names the first refused track asked for.
    @Test(.timeLimit(.minutes(1)))
    func tracksTheEngineRefusesAreToldAsFailedAndLeftOutOfTheQueue() throws {
      let fixture = try Fixture()
      let fifo = fixture.directory.file("fifo.wav")
      #expect(mkfifo(fifo, 0o644) == 0)
      let odd = [("FIFO", fifo), ("Gone", fixture.directory.file("gone.wav")), ("URL", "http://127.0.0.1:9/x.wav")].map
      {
        Player.Track(albumID: 7, album: "Odd", artist: "", number: nil, title: $0.0, duration: 6, path: $0.1)
      }
      try fixture.player.play(odd + [fixture.tracks[0]], from: 1)
      #expect(Self.eventually { fixture.started == ["Track 1"] })
      #expect(
        Array(fixture.events.value.prefix(3)) == [
          .failed(odd[0], reason: "not a regular file"), .failed(odd[1], reason: "no such file"),
          .failed(odd[2], reason: "not a local file"),
        ])
      #expect(fixture.player.queue == [fixture.tracks[0]])
      #expect(fixture.player.status()?.place == 1)
      let refused = PlaybackError(
        "cannot play gone.wav: no such file", refusal: Player.Refusal(track: odd[1], problem: .gone))
      #expect(throws: refused) { try fixture.player.play(odd, from: 1) }
      #expect(fixture.player.queue == [fixture.tracks[0]])
      fixture.player.stop()
    }

    /// libmpv is given only absolute paths, whoever calls it: a URL reaches no `loadfile`.
    @Test func theEngineTakesOnlyAbsolutePaths() throws {
      let engine = try MPVEngine(audioOutput: "null")
      #expect(throws: PlaybackError("mpv is given only absolute paths of files, not 'http://127.0.0.1:9/x.mp3'")) {
        try engine.append(["http://127.0.0.1:9/x.mp3"], start: true)
      }
      #expect(engine.problem(playing: "av://lavfi:sine=frequency=440") == .notLocal)
      #expect(engine.status() == nil)
    }

    /// A track played past half of it counts its album once for the queue, even when `next`
    /// cuts it short; one stopped before half does not.
    @Test(.timeLimit(.minutes(1)))
    func aTrackPastHalfCountsItsAlbumOnce() throws {
      let fixture = try Fixture()
      try fixture.player.play(fixture.tracks)
      #expect(Self.eventually { fixture.started == ["Track 1"] })
      #expect(fixture.player.skip(by: 1))
      #expect(Self.eventually { fixture.started.last == "Track 2" })
      #expect(fixture.played == [], "a track skipped at its start counted")
      fixture.player.seek(4, relative: false)
      #expect(Self.eventually { (fixture.player.status()?.time ?? 0) >= 4 })
      #expect(fixture.player.skip(by: 1))
      #expect(Self.eventually { fixture.started.last == "Track 3" })
      fixture.player.seek(4, relative: false)
      #expect(Self.eventually { (fixture.player.status()?.time ?? 0) >= 4 })
      fixture.player.stop()
      // Track 2 counted its album at the skip, track 3 (another album here) at the stop.
      #expect(fixture.played == [42, 43])
    }
  }
}
