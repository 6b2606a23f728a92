import Synchronization

/// One clock for many deadlines: each fetch registers its deadline and what to do when it
/// passes, and lets go of it when it ends. A `Task.sleep` per fetch kept its timer (some
/// 300 bytes) until the deadline even when the fetch ended in a millisecond: `download
/// all` on a million covers that failed at once held 400,000 of them.
///
/// One task ticks every ``tick`` while any deadline is watched, and stops when none is;
/// a deadline fires at most a tick late.
final class DeadlineWatch: Sendable {
  /// How often the watch looks at the clock.
  static let tick: Duration = .milliseconds(50)

  private struct Watched {
    var deadlines: [UInt64: (at: ContinuousClock.Instant, fire: @Sendable () -> Void)] = [:]
    var nextID: UInt64 = 0
    var ticking = false
  }

  private let watched = Mutex(Watched())

  /// Calls `fire` (once, on another thread) when `deadline` passes, unless ``cancel(_:)``
  /// comes first; returns the id to cancel it by.
  func watch(until deadline: ContinuousClock.Instant, fire: @escaping @Sendable () -> Void) -> UInt64 {
    let (id, start) = watched.withLock { watched in
      watched.nextID += 1
      watched.deadlines[watched.nextID] = (deadline, fire)
      defer { watched.ticking = true }
      return (watched.nextID, !watched.ticking)
    }
    if start { Task.detached { await self.tickUntilIdle() } }
    return id
  }

  /// Stops watching the deadline `id` (nothing happens if it fired already).
  func cancel(_ id: UInt64) {
    _ = watched.withLock { $0.deadlines.removeValue(forKey: id) }
  }

  /// Fires the deadlines that passed, every tick, until none is watched.
  private func tickUntilIdle() async {
    while true {
      try? await Task.sleep(for: Self.tick)
      let now = ContinuousClock.now
      let (due, idle) = watched.withLock { watched -> ([@Sendable () -> Void], Bool) in
        let passed = watched.deadlines.filter { $0.value.at <= now }
        for id in passed.keys { watched.deadlines[id] = nil }
        if watched.deadlines.isEmpty { watched.ticking = false }
        return (passed.values.map(\.fire), watched.deadlines.isEmpty)
      }
      for fire in due { fire() }
      if idle { return }
    }
  }
}
