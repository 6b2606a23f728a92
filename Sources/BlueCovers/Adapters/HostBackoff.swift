import Foundation
import Synchronization

/// One back-off for every request to a host: when a host answers 503 (busy) or 429 (too
/// many requests), every request to it waits — for as long as its `Retry-After` says, else
/// 1 s, doubling with each busy answer in a row up to 32 s — and the request that was told
/// so is asked again. An answer that is not busy starts the doubling over.
///
/// As Picard does for the Cover Art Archive (its `ratecontrol.py`): the archive has no
/// rate limit of its own, so requests to it are not spaced out, but a host that says it
/// is busy is given room by all of them at once, not by each in turn walking into it.
final class HostBackoff: Sendable {
  /// The longest wait without a `Retry-After`, and the longest one honoured.
  static let longestWait: Duration = .seconds(32)
  static let longestRetryAfter: Duration = .seconds(120)

  private struct Host {
    /// No request before this.
    var notBefore: ContinuousClock.Instant
    /// The wait after the next busy answer without a `Retry-After`.
    var nextWait: Duration
  }

  private let hosts = Mutex<[String: Host]>([:])

  /// A back-off of its own (each cover source has one; the tests make theirs).
  init() {}

  /// When a request to `host` may go: now, or when its back-off ends.
  func turn(of host: String) -> ContinuousClock.Instant {
    hosts.withLock { $0[host]?.notBefore } ?? .now
  }

  /// `host` answered busy: requests to it wait `retryAfter` (capped at
  /// ``longestRetryAfter``), or the next doubling wait. Returns when the next may go.
  @discardableResult
  func slowDown(_ host: String, retryAfter: Duration?) -> ContinuousClock.Instant {
    hosts.withLock { hosts in
      let now = ContinuousClock.now
      var state = hosts[host] ?? Host(notBefore: now, nextWait: .seconds(1))
      let wait = retryAfter.map { min(max($0, .zero), Self.longestRetryAfter) } ?? state.nextWait
      state.nextWait = min(state.nextWait * 2, Self.longestWait)
      state.notBefore = max(state.notBefore, now + wait)
      hosts[host] = state
      return state.notBefore
    }
  }

  /// `host` answered, not busy: the next busy answer waits from 1 s again. A wait already
  /// set stands: this answer may be to a request sent before the host said it was busy.
  func recovered(_ host: String) {
    hosts.withLock { hosts in
      guard let state = hosts[host] else { return }
      if state.notBefore <= .now {
        hosts[host] = nil
      } else {
        hosts[host]?.nextWait = .seconds(1)
      }
    }
  }

  /// A `Retry-After` value: whole seconds, or an HTTP date (RFC 9110 §10.2.3); nil when it
  /// is neither.
  static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: value) else { return nil }
    return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
  }
}
