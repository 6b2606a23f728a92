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
    guard let date = httpDate(value, now: Int64(now.timeIntervalSince1970.rounded(.down))) else { return nil }
    return .milliseconds(max(0, Int((Double(date) - now.timeIntervalSince1970) * 1000)))
  }

  /// An HTTP date in seconds since 1970, in any of the three forms RFC 9110 §5.6.7 says a
  /// recipient must read: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850
  /// form (`Sunday, 06-Nov-94 08:49:37 GMT`, a two-digit year more than 50 years after `now`
  /// being the last century's) and ANSI C's asctime (`Sun Nov  6 08:49:37 1994`, GMT). The
  /// first is read as Foundation's `DateFormatter` read it with `EEE, dd MMM yyyy HH:mm:ss
  /// zzz`: names in any case, the weekday unchecked (and its comma optional), one or two digits
  /// a field, the zone GMT, UTC, Z or an offset (`+0100`, `GMT+01:00`); nil for other text.
  static func httpDate(_ text: String, now: Int64 = Int64(Date().timeIntervalSince1970)) -> Int64? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() }
    guard let weekday = words.first, Self.weekdays.contains(where: { weekday == $0 || weekday == Self.fullWeekday($0) })
    else { return nil }
    switch words.count {
    case 6:
      // IMF-fixdate: day month year time zone.
      guard let day = Self.digits(words[1], 1...2), let month = Self.month(words[2]),
        let year = Self.digits(words[3], 1...4), let offset = Self.zoneOffset(words[5])
      else { return nil }
      return Self.seconds(year: year, month: month, day: day, time: words[4]).map { $0 - Int64(offset) }
    case 4:
      // RFC 850: day-month-year time GMT.
      let date = words[1].split(separator: "-", omittingEmptySubsequences: false)
      guard date.count == 3, let day = Self.digits(date[0], 1...2), let month = Self.month(date[1]),
        let yearDigits = Self.digits(date[2], 2...4), date[2].utf8.count != 3, let offset = Self.zoneOffset(words[3])
      else { return nil }
      guard date[2].utf8.count == 2 else {
        return Self.seconds(year: yearDigits, month: month, day: day, time: words[2]).map { $0 - Int64(offset) }
      }
      // This century's year, unless that is more than 50 years from now: the last century's.
      let century = (Self.year(of: now) / 100) * 100
      guard let thisCentury = Self.seconds(year: century + yearDigits, month: month, day: day, time: words[2]) else {
        return nil
      }
      let fiftyYears = Int64(50 * 31_556_952)  // the Gregorian calendar's mean year
      if thisCentury - Int64(offset) - now > fiftyYears {
        return Self.seconds(year: century - 100 + yearDigits, month: month, day: day, time: words[2])
          .map { $0 - Int64(offset) }
      }
      return thisCentury - Int64(offset)
    case 5:
      // asctime: month day time year, in GMT.
      guard let month = Self.month(words[1]), let day = Self.digits(words[2], 1...2),
        let year = Self.digits(words[4], 4...4)
      else { return nil }
      return Self.seconds(year: year, month: month, day: day, time: words[3])
    default:
      return nil
    }
  }

  private static let weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

  /// The number (1 to 12) of a month named in lower case, short or in full.
  private static func month(_ name: some StringProtocol) -> Int? {
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    let fullMonths = [
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
      "december",
    ]
    let name = String(name)
    return (months.firstIndex(of: name) ?? fullMonths.firstIndex(of: name)).map { $0 + 1 }
  }

  /// Seconds since 1970 of a day and a time (`08:49:37`) in GMT; nil for no such day or time.
  private static func seconds(year: Int, month: Int, day: Int, time text: String) -> Int64? {
    let time = text.split(separator: ":", omittingEmptySubsequences: false)
    guard time.count == 3, let hour = Self.digits(time[0], 1...2), let minute = Self.digits(time[1], 1...2),
      let second = Self.digits(time[2], 1...2), hour < 24, minute < 60, second < 60,
      (1...Self.days(inMonth: month, of: year)).contains(day)
    else { return nil }
    // Days since 1970-01-01 of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * Int64(month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// The Gregorian year of an instant (seconds since 1970, GMT): Howard Hinnant's
  /// civil_from_days.
  private static func year(of seconds: Int64) -> Int {
    let days = (seconds >= 0 ? seconds : seconds - 86_399) / 86_400 + 719_468
    let era = (days >= 0 ? days : days - 146_096) / 146_097
    let dayOfEra = days - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    return Int(yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0))
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
