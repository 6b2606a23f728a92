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
