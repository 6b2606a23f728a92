import Synchronization
import Testing

@testable import BlueCovers

extension RunsAlone {
  /// The one clock every fetch's deadline is on (round 3, F15): a deadline fires once when it
  /// passes, a cancelled one never does, and the watch stops ticking when it has none.
  struct DeadlineWatchTests {
    @Test func deadlinesFireOnceWhenTheyPassUnlessCancelled() async throws {
      let watch = DeadlineWatch()
      let fired = Mutex<[String]>([])
      let now = ContinuousClock.now
      _ = watch.watch(until: now + .milliseconds(100)) { fired.withLock { $0.append("soon") } }
      let cancelled = watch.watch(until: now + .milliseconds(150)) { fired.withLock { $0.append("cancelled") } }
      _ = watch.watch(until: now + .milliseconds(300)) { fired.withLock { $0.append("later") } }
      watch.cancel(cancelled)
      try await Task.sleep(for: .milliseconds(200))
      #expect(fired.withLock { $0 } == ["soon"])
      try await Task.sleep(for: .milliseconds(400))
      #expect(fired.withLock { $0 } == ["soon", "later"])
      // Idle, then watched again: the clock starts again.
      _ = watch.watch(until: ContinuousClock.now) { fired.withLock { $0.append("again") } }
      try await Task.sleep(for: .milliseconds(300))
      #expect(fired.withLock { $0 } == ["soon", "later", "again"])
    }
  }
}
