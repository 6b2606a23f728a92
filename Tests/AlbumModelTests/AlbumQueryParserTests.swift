import Foundation
import Testing

@testable import AlbumModel

/// beets' query syntax as parsed, before any library runs it: the words refused, and the
/// dates a range spans (AlbumQueryTests in BlueLibraryTests runs queries against albums).
@Suite("Query parsing")
struct AlbumQueryParserTests {
  @Test(arguments: [
    ("year:abc..", "'abc' is not a number"),
    (
      "yaer:1999",
      "unknown field 'yaer' (fields: title, artist, albumartist, genre, year, tracks, length, folder, cover, added, discs, mb_albumid, mb_releasegroupid, track, format, missing, played, last_played, art, rating, fav, lookup, composer, samplerate, bitrate, duplicate)"
    ),
    ("title::(", "'(' is not a valid regular expression"),
    (":[a-", "is not a valid regular expression"),
    ("added:2026-13", "there is no month 13"),
    ("added:2026-02-30", "there is no day 30"),
    ("added:yesterday", "is not a date"),
    ("length:4:75", "is not a number"),
    ("year:..", "needs a number on at least one side"),
    ("year:", "year needs a number or a range"),
    // A `T` alone split into nothing and the parser indexed past the end (review).
    ("added:T", "is not a date"),
    ("added:2026..t", "is not a date"),
    ("added:T12", "is not a date"),
    ("lookup:found", "'found' is not an answer lookup remembers (lookup is none)"),
  ])
  func aMalformedWordIsAnErrorNamingIt(query: String, message: String) throws {
    do {
      _ = try AlbumQuery(words: [query])
      Issue.record("\(query) parsed")
    } catch {
      #expect(error.description.hasPrefix("bad query word '\(query)': "), "\(error)")
      #expect(error.description.contains(message), "\(error)")
    }
  }

  /// `lookup:none`, however written, is the one answer `lookup` remembers.
  @Test(arguments: ["lookup:none", "lookup:NONE", "lookup:=none", "LOOKUP:=~None"])
  func lookupNoneIsOneWord(word: String) throws {
    let query = try AlbumQuery(words: [word])
    #expect(query.groups == [[QueryTerm(field: .lookup, match: .exact("none"), negated: false)]])
  }

  @Test func aDateRangeCoversWholeUnitsAtBothEnds() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let query = try AlbumQuery(words: ["added:2008-12..2009-10-11"], timeZone: .utc)
    let start = calendar.date(from: DateComponents(year: 2008, month: 12, day: 1))!
    let end = calendar.date(from: DateComponents(year: 2009, month: 10, day: 12))!
    #expect(
      query.groups == [
        [
          QueryTerm(
            field: .added,
            match: .date(from: Int64(start.timeIntervalSince1970), until: Int64(end.timeIntervalSince1970)),
            negated: false)
        ]
      ])
  }

  /// beets turns a range only when its start lies after its end: `2026-11-15..2026-11` is
  /// from the 15th to the end of November, not from the 1st to the 16th.
  @Test func aRangeIsTurnedOnlyWhenItRunsBackwards() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    func day(_ month: Int, _ day: Int) -> Int64 {
      Int64(calendar.date(from: DateComponents(year: 2026, month: month, day: day))!.timeIntervalSince1970)
    }
    let overlapping = try AlbumQuery(words: ["added:2026-11-15..2026-11"], timeZone: .utc)
    #expect(overlapping.groups[0][0].match == .date(from: day(11, 15), until: day(12, 1)))
    let backwards = try AlbumQuery(words: ["added:2026-12..2026-11"], timeZone: .utc)
    #expect(backwards.groups[0][0].match == .date(from: day(11, 1), until: day(2027 - 2026 + 12, 1)))
  }
}
