import AlbumModel
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The suites of this module that change the process's time zone run one test at a time,
/// after the rest (`.ci/run` filters by this name).
@Suite(.serialized) enum RunsAlone {}

extension RunsAlone {
  /// A calendar date in a query is read in local time as Foundation's calendar read it
  /// (issue 47: the C library's local time replaced it). An hour that happens twice is its
  /// first occurrence whatever the shell asked before: `mktime` left to guess answered from
  /// the previous query's season, so `added:2026-11-01` in Havana moved by an hour after a
  /// winter date, and a day's albums between midnight and one matched neither day.
  @Suite(.serialized) struct QueryTimeZoneTests {
    static func withZone<T>(_ zone: String, _ body: () throws -> T) rethrows -> T {
      let old = getenv("TZ").map { String(cString: $0) }
      setenv("TZ", zone, 1)
      tzset()
      defer {
        if let old { setenv("TZ", old, 1) } else { unsetenv("TZ") }
        tzset()
      }
      return try body()
    }

    /// Foundation's reading of a local time in `zone`.
    static func foundation(_ zone: String, _ parts: DateComponents) -> Int64 {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: zone)!
      return Int64(calendar.date(from: parts)!.timeIntervalSince1970)
    }

    static func span(_ word: String) throws -> (Int64, Int64)? {
      let query = try AlbumQuery(words: [word], timeZone: .local)
      guard case .date(let from?, let until?) = query.groups.first?.first?.match else { return nil }
      return (from, until)
    }

    @Test(arguments: ["added:2026-03-01", "added:2026-07-01", "added:2025-12-24"])
    func aDayWhoseMidnightHappensTwiceStartsAtItsFirstWhateverCameBefore(before: String) throws {
      try Self.withZone("America/Havana") {
        _ = try Self.span(before)
        let first = Self.foundation("America/Havana", DateComponents(year: 2026, month: 11, day: 1))
        let day = try #require(try Self.span("added:2026-11-01"))
        #expect(day.0 == first)
        // The day before ends where it starts: no hour falls between them.
        let previous = try #require(try Self.span("added:2026-10-31"))
        #expect(previous.1 == day.0)
      }
    }

    @Test(arguments: ["added:2026-01-10", "added:2026-07-10"])
    func anHourThatHappensTwiceIsItsFirstAndASkippedOneMovesForward(before: String) throws {
      try Self.withZone("Europe/Berlin") {
        _ = try Self.span(before)
        let twice = try #require(try Self.span("added:2026-10-25T02:30"))
        #expect(
          twice.0
            == Self.foundation("Europe/Berlin", DateComponents(year: 2026, month: 10, day: 25, hour: 2, minute: 30)))
        let skipped = try #require(try Self.span("added:2026-03-29T02:30"))
        #expect(
          skipped.0
            == Self.foundation("Europe/Berlin", DateComponents(year: 2026, month: 3, day: 29, hour: 2, minute: 30)))
        let shortDay = try #require(try Self.span("added:2026-03-29"))
        #expect(shortDay.1 - shortDay.0 == 23 * 3600)
      }
    }
  }
}
