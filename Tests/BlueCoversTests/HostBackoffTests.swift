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

/// An HTTP date is read by hand as DateFormatter read it (issue 47: no Foundation in bluelib),
/// which the tests still link to compare.
@Suite struct HTTPDateTests {
  private static let formatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    return formatter
  }()

  @Test(arguments: [
    "Fri, 27 Nov 2026 12:00:10 GMT", "Sat, 27 Nov 2026 12:00:10 GMT", "fri, 27 nov 2026 12:00:10 gmt",
    "Fri, 7 Nov 2026 12:00:10 GMT", "Fri, 27 Nov 2026 12:00:10 UTC", "Fri, 27 Nov 2026 12:00:10 +0100",
    "Fri, 27 Nov 2026 12:00:10 GMT+01:00", "Fri, 27 Nov 2026 12:00:10 GMT-1", "Fri, 27 Nov 2026 12:00:10 Z",
    "Fri,  27 Nov 2026 12:00:10 GMT", "Fri 27 Nov 2026 12:00:10 GMT", "Fri, 27 November 2026 12:00:10 GMT",
    "Fri, 27 Nov 2026 12:0:10 GMT", "Thu, 29 Feb 2024 23:59:59 GMT", "Sun, 06 Nov 1994 08:49:37 GMT",
    "Fri, 27 Nov 2026 12:00:10", "Fri, 27 Nov 2026 24:00:10 GMT", "Fri, 31 Nov 2026 12:00:10 GMT",
    "Fri, 29 Feb 2026 12:00:10 GMT", "Fri, 27 Nov 2026 12:00:60 GMT", "Fri, 00 Nov 2026 12:00:10 GMT",
    "Fri, 27 Nov 2026 12:00:10.5 GMT", "Fri, 27 Nov 2026 12:00:10 CET", "27 Nov 2026", "",
  ])
  func anHTTPDateIsReadAsDateFormatterReadIt(text: String) {
    let expected = Self.formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
    #expect(HostBackoff.httpDate(text) == expected)
  }

  /// RFC 9110 §5.6.7: a recipient reads all three forms of an HTTP date — IMF-fixdate, the
  /// obsolete RFC 850 form and ANSI C's asctime — as the same instant. DateFormatter read
  /// the first only, and so did this until the review of issue 47.
  @Test(arguments: [
    "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    "sunday, 06-nov-94 08:49:37 gmt", "Sun Nov 06 08:49:37 1994", "Sunday, 06-Nov-1994 08:49:37 GMT",
  ])
  func theThreeFormsOfAnHTTPDateAreRead(text: String) {
    let now = Int64(1_796_083_200)  // 2026-12-01T00:00:00Z
    #expect(HostBackoff.httpDate(text, now: now) == 784_111_777)
  }

  /// An RFC 850 date's two-digit year is this century's, unless that is more than 50 years
  /// in the future: then it is the last century's (§5.6.7).
  @Test(arguments: [
    ("Friday, 27-Nov-26 12:00:10 GMT", Int64(1_795_780_810)), ("Monday, 27-Nov-00 12:00:10 GMT", 975_326_410),
    ("Wednesday, 27-Nov-75 12:00:10 GMT", 3_342_081_610), ("Saturday, 27-Nov-77 12:00:10 GMT", 249_480_010),
    ("Saturday, 27-Nov-99 12:00:10 GMT", 943_704_010),
  ])
  func anRFC850YearMoreThanFiftyYearsAheadIsOfTheLastCentury(text: String, seconds: Int64) {
    let now = Int64(1_796_083_200)  // 2026-12-01T00:00:00Z
    #expect(HostBackoff.httpDate(text, now: now) == seconds)
  }

  /// What is none of the three forms is not read.
  @Test(arguments: [
    "Sun Nov  6 08:49:37 1994 GMT", "Sun Nov 6 08:49:37", "Sun 6 Nov 08:49:37 1994", "Sun Nov 31 08:49:37 1994",
    "Sunday, 06-Nov-94 08:49:37", "Sunday, 06-Nov-94 08:49:37 CET", "Sunday, 06-11-94 08:49:37 GMT",
    "Sunday, 06-Nov-994 08:49:37 GMT", "Sunday, 06-Nov 08:49:37 GMT", "Sun Nov  6 25:49:37 1994",
  ])
  func textInNoneOfTheFormsIsNotRead(text: String) {
    #expect(HostBackoff.httpDate(text) == nil)
  }

  /// Years before 1583 are Julian to DateFormatter and Gregorian here: either way long past,
  /// so no wait.
  @Test func aDateOfAnEarlyYearWaitsNothingAsBefore() throws {
    let text = "Fri, 27 Nov 26 12:00:10 GMT"
    #expect(Self.formatter.date(from: text) != nil)
    #expect(HostBackoff.retryAfter(text) == .milliseconds(0))
  }

  /// US zone names (PST, EST…) DateFormatter took are no longer read (RFC 9110 dates are GMT).
  @Test(arguments: ["Fri, 27 Nov 2026 12:00:10 PST", "Fri, 27 Nov 2026 12:00:10 EST"])
  func aUSZoneNameIsNotRead(text: String) {
    #expect(Self.formatter.date(from: text) != nil)
    #expect(HostBackoff.httpDate(text) == nil)
  }
}
