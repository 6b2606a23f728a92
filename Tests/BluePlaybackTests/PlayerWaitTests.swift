import BluePlayback
import BlueSystem
import Foundation
import PlaybackTestSupport
import Synchronization
import Testing

/// `Player.waitUntilIdle`, the wait of a script that plays to the end of its queue, against
/// the scripted engine: it sleeps until the queue ends or a pipe it is given is written to
/// (the shell's, for a status line or a play told), and calls `every` only then.
@Suite struct PlayerWaitTests {
  let engine = ScriptedAudioEngine()
  let player: Player

  init() {
    let engine = self.engine
    player = Player { () throws(PlaybackError) -> any AudioEngine in engine }
  }

  static func tracks(_ count: Int, album: Int64? = nil) -> [Player.Track] {
    (1...count).map {
      Player.Track(
        albumID: album, album: "Alpha", artist: "Ann", number: $0, title: "T\($0)", duration: 180, path: "/m/\($0).flac"
      )
    }
  }

  @Test func anIdlePlayerReturnsAtOnceAfterOneCall() {
    let calls = Shared(0)
    player.waitUntilIdle(isCancelled: { false }, every: { calls.value.withLock { $0 += 1 } })
    #expect(calls.value.withLock { $0 } == 1)
  }

  // Before the wait slept on a pipe, it woke twenty times a second to ask whether the
  // player was idle: about 20 calls of `every` for this second of playing.
  @Test func theWaitSleepsUntilTheQueueEnds() async throws {
    try player.play(Self.tracks(2))
    let calls = Shared(0)
    let waiting = Task.detached { [player] in
      await onThread { player.waitUntilIdle(isCancelled: { false }, every: { calls.value.withLock { $0 += 1 } }) }
    }
    try await Task.sleep(for: .seconds(1))
    engine.finishCurrent()
    #expect(!player.isIdle)
    engine.finishCurrent()
    #expect(player.isIdle)
    await waiting.value
    // Once before it slept, once as it ended.
    #expect(calls.value.withLock { $0 } == 2)
  }

  // A script prints `■ end of the queue` in the wait's last call: the player went idle
  // (waking the wait) before it told the observer, so the line came after the wait ended.
  @Test func theQueuesEndIsToldBeforeTheWaitEnds() async throws {
    let told = Shared<[Player.Event]>([])
    player.observe { event in
      // An observer slower than the wait's thread: the order, not the timing, decides.
      usleep(100_000)
      told.value.withLock { $0.append(event) }
    }
    try player.play(Self.tracks(1))
    let seen = Shared<[Player.Event]>([])
    let waiting = Task.detached { [player] in
      await onThread {
        player.waitUntilIdle(
          timeout: 60, isCancelled: { false }, every: { seen.value.withLock { $0 = told.value.withLock { $0 } } })
      }
    }
    try await Task.sleep(for: .milliseconds(200))
    engine.finishCurrent()
    await waiting.value
    #expect(seen.value.withLock { $0.last } == .endOfQueue)
  }

  /// A play counted is told to the observer as it is counted; the shell's observer queues
  /// it and writes to the shell's pipe, which wakes the wait to record it while the queue
  /// plays on.
  @Test func aPlayToldWakesTheWaitThroughTheObserversPipe() async throws {
    let pipe = WakeUpPipe()
    defer { pipe.close() }
    let told = Shared<[Int64]>([])
    player.observe { event in
      guard case .played(let albumID, _) = event else { return }
      told.value.withLock { $0.append(albumID) }
      pipe.wake()
    }
    try player.play(Self.tracks(2, album: 7))
    let recorded = Shared<[Int64]>([])
    let waiting = Task.detached { [player] in
      await onThread {
        player.waitUntilIdle(
          wakingOn: pipe, timeout: 60, isCancelled: { false },
          every: {
            let taken = told.value.withLock { told in
              defer { told = [] }
              return told
            }
            recorded.value.withLock { $0 += taken }
          })
      }
    }
    try await Task.sleep(for: .milliseconds(200))
    engine.finishCurrent()
    // Recorded while the second track plays, not when the queue ends.
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while recorded.value.withLock({ $0 }).isEmpty && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(recorded.value.withLock { $0 } == [7])
    #expect(!player.isIdle)
    player.stop()
    await waiting.value
    #expect(recorded.value.withLock { $0 } == [7])
  }

  @Test func aWriteToTheGivenPipeCallsEveryThenAsksWhetherToStop() async throws {
    try player.play(Self.tracks(1))
    let pipe = WakeUpPipe()
    defer { pipe.close() }
    let (calls, cancelled) = (Shared(0), Shared(false))
    let waiting = Task.detached { [player] in
      await onThread {
        player.waitUntilIdle(
          wakingOn: pipe, timeout: 60, isCancelled: { cancelled.value.withLock { $0 } },
          every: { calls.value.withLock { $0 += 1 } }
        )
      }
    }
    try await Task.sleep(for: .milliseconds(200))
    pipe.wake()
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while calls.value.withLock({ $0 }) < 2 && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(calls.value.withLock { $0 } == 2)
    cancelled.value.withLock { $0 = true }
    pipe.wake()
    await waiting.value
    // Woken twice, then once as it ended; the player still plays.
    #expect(calls.value.withLock { $0 } == 4)
    #expect(!player.isIdle)
  }

  @Test func theWaitEndsAfterItsTimeout() async throws {
    try player.play(Self.tracks(1))
    let start = ContinuousClock.now
    await onThread { [player] in player.waitUntilIdle(timeout: 0.2, isCancelled: { false }, every: {}) }
    #expect(ContinuousClock.now - start >= .milliseconds(200))
    #expect(!player.isIdle)
  }
}

/// Runs `body` on a new thread (not a Swift concurrency one): the wait blocks its thread.
func onThread(_ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread {
      body()
      continuation.resume()
    }
  }
}

/// A value the test and the waiting thread share.
final class Shared<Value: Sendable>: Sendable {
  let value: Mutex<Value>

  init(_ value: Value) {
    self.value = Mutex(value)
  }
}
