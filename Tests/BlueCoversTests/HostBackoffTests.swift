import Foundation
import Testing

@testable import BlueCovers

/// The back-off shared by every request to a busy host (issue 39).
@Suite struct HostBackoffTests {
  @Test(arguments: [
    ("2", 2_000), (" 120 ", 120_000), ("0", 0), ("Fri, 27 Nov 2026 12:00:10 GMT", 10_000),
    ("Fri, 27 Nov 2026 11:59:00 GMT", 0),
  ])
  func retryAfterReadsSecondsAndHTTPDates(value: String, milliseconds: Int) throws {
    let now = try #require(ISO8601DateFormatter().date(from: "2026-11-27T12:00:00Z"))
    #expect(HostBackoff.retryAfter(value, now: now) == .milliseconds(milliseconds))
  }

  @Test(arguments: [nil, "", "soon", "-5", "27 Nov 2026"])
  func aRetryAfterThatIsNeitherIsIgnored(value: String?) {
    #expect(HostBackoff.retryAfter(value) == nil)
  }

  /// Without `Retry-After` the wait doubles with each busy answer in a row, up to 32 s; an
  /// answer that is not busy starts it over (a wait already set stands), and a
  /// `Retry-After` is honoured up to 120 s.
  @Test func theWaitDoublesThenStartsOver() {
    let backoff = HostBackoff()
    let host = "http://127.0.0.1:9"
    var waits: [Duration] = []
    for _ in 0..<7 {
      let now = ContinuousClock.now
      waits.append(now.duration(to: backoff.slowDown(host, retryAfter: nil)))
    }
    for (wait, expected) in zip(waits, [1, 2, 4, 8, 16, 32, 32]) {
      #expect(abs((wait - .seconds(expected)) / .milliseconds(1)) < 200, "\(waits)")
    }
    backoff.recovered(host)
    #expect(backoff.turn(of: host) > .now + .seconds(31), "a wait already set stands")
    let fresh = HostBackoff()
    fresh.slowDown(host, retryAfter: .zero)
    fresh.recovered(host)
    let restarted = ContinuousClock.now
    #expect(abs((restarted.duration(to: fresh.slowDown(host, retryAfter: nil)) - .seconds(1)) / .milliseconds(1)) < 200)
    let other = "http://127.0.0.1:10"
    let asked = ContinuousClock.now.duration(to: backoff.slowDown(other, retryAfter: .seconds(600)))
    #expect(asked < .seconds(121) && asked > .seconds(119))
    #expect(backoff.turn(of: "http://elsewhere:80") <= .now)
  }
}
