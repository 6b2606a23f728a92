internal import CCurl
import Synchronization

/// libcurl's multi loop of one HTTP user (the cover source, the package's GET), made at its
/// first request — loading libcurl then — and ended by ``shutDown()`` or when the last owner
/// goes.
final class CurlClient: Sendable {
  private enum State {
    case notStarted
    case running(CurlMulti)
    case shutDown
  }

  private let state = Mutex(State.notStarted)

  init() {}

  deinit {
    // The last owner may be anywhere, so this must not block: the thread ends every
    // transfer, closes the connections and ends on its own.
    guard case .running(let multi) = state.withLock({ $0 }) else { return }
    multi.stop()
  }

  /// The loop, made on first use; ``CoverFailure/cancelled`` once shut down,
  /// ``CoverFailure/httpUnavailable(_:)`` where libcurl cannot be loaded.
  func started() throws(CoverFailure) -> CurlMulti {
    try state.withLock { state throws(CoverFailure) -> CurlMulti in
      switch state {
      case .running(let multi):
        return multi
      case .shutDown:
        throw .cancelled
      case .notStarted:
        if let reason = ccurl_unavailable() { throw .httpUnavailable(String(cString: reason)) }
        let multi = try CurlMulti()
        state = .running(multi)
        return multi
      }
    }
  }

  /// Ends every transfer in flight and the loop's thread, and waits for it (milliseconds);
  /// later requests fail with ``CoverFailure/cancelled``. Safe to call more than once.
  func shutDown() {
    let running = state.withLock { state -> CurlMulti? in
      defer { state = .shutDown }
      guard case .running(let multi) = state else { return nil }
      return multi
    }
    running?.stopAndWait()
  }

  /// Whether libcurl's thread exists (a user that never fetched has none).
  var hasStarted: Bool {
    state.withLock { state in
      if case .notStarted = state { return false }
      return true
    }
  }
}
