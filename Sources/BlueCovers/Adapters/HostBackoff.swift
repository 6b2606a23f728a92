import BlueText
import FoundationEssentials
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
    guard let value = value?.trimming(.whitespaces), !value.isEmpty else { return nil }
    if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
    guard let date = httpDate(value) else { return nil }
    return .milliseconds(max(0, Int((Double(date) - now.timeIntervalSince1970) * 1000)))
  }

  /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7) in seconds since 1970, as
  /// Foundation's `DateFormatter` read it with `EEE, dd MMM yyyy HH:mm:ss zzz`: names in any
  /// case, the weekday unchecked (and its comma optional), one or two digits a field, the zone
  /// GMT, UTC, Z or an offset (`+0100`, `GMT+01:00`); nil for other text.
  static func httpDate(_ text: String) -> Int64? {
    var words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() }
    let weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    guard words.count == 6, weekdays.contains(where: { words[0] == $0 || words[0] == Self.fullWeekday($0) }) else {
      return nil
    }
    words.removeFirst()
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    let fullMonths = [
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
      "december",
    ]
    let time = words[3].split(separator: ":", omittingEmptySubsequences: false)
    guard let day = Self.digits(words[0], 1...2), let year = Self.digits(words[2], 1...4),
      let month = (months.firstIndex(of: words[1]) ?? fullMonths.firstIndex(of: words[1])).map({ $0 + 1 }),
      time.count == 3, let hour = Self.digits(time[0], 1...2), let minute = Self.digits(time[1], 1...2),
      let second = Self.digits(time[2], 1...2), hour < 24, minute < 60, second < 60,
      (1...Self.days(inMonth: month, of: year)).contains(day), let offset = Self.zoneOffset(words[4])
    else { return nil }
    // Days since 1970-01-01 of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * Int64(month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
  }

  private static func fullWeekday(_ short: String) -> String {
    [
      "sun": "sunday", "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday", "fri": "friday",
      "sat": "saturday",
    ][short] ?? short
  }

  /// `text` as a number of `count` ASCII digits; nil for other text.
  private static func digits(_ text: some StringProtocol, _ count: ClosedRange<Int>) -> Int? {
    guard count.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(text)
  }

  private static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The seconds east of GMT a zone names: `gmt`, `utc`, `z`, `+0100`, `gmt+01:00`, `gmt+1`.
  private static func zoneOffset(_ zone: String) -> Int? {
    if zone == "gmt" || zone == "utc" || zone == "z" { return 0 }
    var rest = Substring(zone)
    if rest.hasPrefix("gmt") || rest.hasPrefix("utc") { rest = rest.dropFirst(3) }
    guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
    rest = rest.dropFirst()
    let hours: Int
    let minutes: Int
    if let colon = rest.firstIndex(of: ":") {
      guard let h = digits(rest[..<colon], 1...2), let m = digits(rest[rest.index(after: colon)...], 2...2) else {
        return nil
      }
      (hours, minutes) = (h, m)
    } else if rest.utf8.count == 4, let value = digits(rest, 4...4) {
      (hours, minutes) = (value / 100, value % 100)
    } else if let h = digits(rest, 1...2) {
      (hours, minutes) = (h, 0)
    } else {
      return nil
    }
    guard hours < 24, minutes < 60 else { return nil }
    return (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
  }
}
