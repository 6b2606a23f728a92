import Synchronization

/// Spaces requests at least `interval` apart, in the order they ask.
final class RequestGate: Sendable {
  private let interval: Duration
  private let next = Mutex<ContinuousClock.Instant?>(nil)

  init(interval: Duration) { self.interval = interval }

  /// Waits for this request's turn.
  func wait() async throws(CoverFailure) {
    let slot = next.withLock { next -> ContinuousClock.Instant in
      let now = ContinuousClock.now
      let slot = max(now, next ?? now)
      next = slot + interval
      return slot
    }
    do { try await Task.sleep(until: slot) } catch { throw .cancelled }
  }
}
