import BluePlayback
import PlaybackTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The player against the scripted engine: what it tells its observer.
@Suite struct PlayerTests {
  let engine = ScriptedAudioEngine()
  let player: Player
  let told = Shared<[Player.Event]>([])

  init() {
    let engine = self.engine
    player = Player { () throws(PlaybackError) -> any AudioEngine in engine }
    let told = told
    player.observe { event in told.value.withLock { $0.append(event) } }
  }

  /// The albums told as played, and when.
  var played: [(albumID: Int64, time: Int64)] {
    told.value.withLock { events in
      events.compactMap {
        guard case .played(let albumID, let time) = $0 else { return nil }
        return (albumID, time)
      }
    }
  }

  /// The tracks told as listened to, with when each started.
  var listened: [(title: String, startedAt: Int64)] {
    told.value.withLock { events in
      events.compactMap {
        guard case .listened(let track, let startedAt) = $0 else { return nil }
        return (track.title, startedAt)
      }
    }
  }

  /// A track is listened to (ListenBrainz's listen, issue 49 item 2) once it played half
  /// its length or four minutes, whichever comes first: told once, with the time it
  /// started; a track skipped before its mark is not; one played to its end is.
  @Test func aTrackIsListenedToAtHalfItsLengthOrFourMinutesOnceWithItsStart() throws {
    let start = Int64(time(nil))
    var tracks = PlayerWaitTests.tracks(4, album: 7)
    for (index, length) in [(1, 1_000.0), (2, 600.0)] {
      tracks[index].duration = length
      engine.setDuration(length, of: tracks[index].path)
    }
    try player.play(tracks)
    // Track 1 (3:00): its mark is 1:30.
    engine.advance(by: 60)
    #expect(player.checkListened() == 30)
    #expect(listened.isEmpty)
    engine.advance(by: 31)
    #expect(player.checkListened() == nil)
    #expect(player.checkListened() == nil)
    #expect(listened.map(\.title) == ["T1"])
    let when = try #require(listened.first?.startedAt)
    #expect(when >= start && when <= Int64(time(nil)))
    // Track 2 (16:40): four minutes, not half; listened to at 4:00 while it plays on.
    #expect(player.skip(by: 1))
    engine.advance(by: 239)
    #expect(player.checkListened() == 1)
    engine.advance(by: 1)
    #expect(player.checkListened() == nil)
    #expect(listened.map(\.title) == ["T1", "T2"])
    // Track 3 (10:00): skipped at 3:00, before its mark: not listened to.
    #expect(player.skip(by: 1))
    engine.advance(by: 180)
    #expect(player.skip(by: 1))
    #expect(listened.map(\.title) == ["T1", "T2"])
    // Track 4: played to its end without anyone asking: listened to.
    engine.finishCurrent()
    #expect(listened.map(\.title) == ["T1", "T2", "T4"])
  }

  /// An album counts once per queue when a track of it plays past half (to its end, or
  /// before a skip or a stop), told as an event that names it and the time: nobody asks
  /// the player what was played.
  @Test func aPlayIsToldOnceForEachQueueWithItsAlbumAndTime() throws {
    let start = Int64(time(nil))
    let alpha = PlayerWaitTests.tracks(2, album: 7)
    let beta = PlayerWaitTests.tracks(1, album: 8).map { track in
      var track = track
      track.path = "/m/beta.flac"
      return track
    }
    try player.play(alpha + beta)
    // Skipped at its start: not counted.
    #expect(player.skip(by: 1))
    #expect(played.isEmpty)
    // Played to its end: Alpha counted, once, though its next track also ends.
    engine.finishCurrent()
    #expect(played.map(\.albumID) == [7])
    let when = try #require(played.first?.time)
    #expect(when >= start && when <= Int64(time(nil)))
    // Past half of Beta's track, then stopped: Beta counted.
    engine.advance(by: 100)
    player.stop()
    #expect(played.map(\.albumID) == [7, 8])
    // The same queue again is a new queue: counted again.
    try player.playQueue()
    engine.finishCurrent()
    #expect(played.map(\.albumID) == [7, 8, 7])
    // A track of no album of the library counts nothing.
    try player.play(PlayerWaitTests.tracks(1))
    engine.finishCurrent()
    #expect(played.map(\.albumID) == [7, 8, 7])
    #expect(player.isIdle)
  }
}
