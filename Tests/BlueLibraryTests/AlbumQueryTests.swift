import AlbumModel
import BlueSQL
import Foundation
import TestSupport
import Testing

@testable import BlueLibrary

/// beets' query syntax (docs/reference/query.rst), each element against a small library
/// with the titles it must find, in order.
@Suite("Queries")
struct AlbumQueryTests {
  static let albums: [Album] = [
    Album(
      title: "The House of Tomorrow", artist: "The Magnetic Fields", genre: "Indie Pop", year: 1992, tracks: 5,
      duration: 960),
    Album(title: "Yesterday", artist: "The Beatles", genre: "Pop", year: 1965, tracks: 2, duration: 300),
    Album(title: "Tomorrowland", artist: "Walter Meego", genre: "Electronic", year: 2005),
    Album(title: "Café Society", artist: "Björk", genre: "Jazz", year: 1999, tracks: 12, duration: 2500),
    Album(title: "Britpop Anthems", artist: "Various", genre: "Britpop", year: 1996),
    Album(title: "J-Pop Hits", artist: "Various", genre: "J-Pop", year: 2010),
    Album(title: "Live at Red Rocks", artist: "Dave Matthews Band", genre: "Rock", year: 2001),
    Album(title: "Some Devil", artist: "Dave Matthews", genre: "Rock", year: 2003),
    Album(title: "Talkie Walkie", artist: "AIR", genre: "Electronic", year: 2004),
    Album(title: "Greatest Hits", artist: "Air Supply", genre: "Pop", year: 1983),
    Album(title: "One Breath", artist: "Anna Calvi", genre: "Rock", year: 2013),
    Album(title: "Anniemal", artist: "Annie", genre: "Pop", year: 2004),
    Album(title: "Be He Me", artist: "Annuals", genre: "Indie", year: 2006),
    Album(title: "Tales", artist: "Yes", genre: "Prog", tracks: 4, duration: 2400.4),
  ]

  let library = Library.inMemory(seed: AlbumQueryTests.albums)

  func titles(_ query: String) throws -> [String] {
    let parsed = try AlbumQuery(words: Self.words(query))
    return try library.albums(ids: library.listing(parsed).map(\.id)).map(\.title)
  }

  /// Splits like the shell for these tests: spaces, with `"…"` grouping.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
        started = true
      } else if character == " " && !quoted {
        if started { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
        started = true
      }
    }
    if started { words.append(current) }
    return words
  }

  @Test(arguments: [
    // Keywords: every word somewhere in title, artist or genre, ignoring case and accents.
    ("magnetic tomorrow", ["The House of Tomorrow"]),
    ("TOMORROW", ["The House of Tomorrow", "Tomorrowland"]),
    ("bjork cafe", ["Café Society"]),
    ("BJÖRK", ["Café Society"]),
    // Commas: a word ending in a comma closes an OR group; `foo,bar` is one word.
    ("magnetic tomorrow, beatles yesterday", ["The House of Tomorrow", "Yesterday"]),
    ("magnetic tomorrow , beatles yesterday", ["The House of Tomorrow", "Yesterday"]),
    ("tomorrow,yesterday", []),
    // One field, substring; field names ignore case.
    ("artist:air", ["Talkie Walkie", "Greatest Hits"]),
    ("ARTIST:air", ["Talkie Walkie", "Greatest Hits"]),
    ("albumartist:annie", ["Anniemal"]),
    (
      "genre:pop", ["The House of Tomorrow", "Yesterday", "Britpop Anthems", "J-Pop Hits", "Greatest Hits", "Anniemal"]
    ),
    // Exact: `=` counts case, `=~` ignores it; both also in any field.
    ("artist:=~air", ["Talkie Walkie"]),
    ("artist:=AIR", ["Talkie Walkie"]),
    ("artist:=Air", []),
    ("genre:=~pop", ["Yesterday", "Greatest Hits", "Anniemal"]),
    ("artist:=~\"dave matthews\"", ["Some Devil"]),
    ("=~\"dave matthews\"", ["Some Devil"]),
    ("=Rock", ["Live at Red Rocks", "Some Devil", "One Breath"]),
    // Regular expressions: unanchored, case counts; `:regex` alone in any field.
    ("artist::Ann(a|ie)", ["One Breath", "Anniemal"]),
    (":^Tomorrow", ["Tomorrowland"]),
    (":tomorrow", []),
    ("title::^$", []),
    ("year::^19", ["The House of Tomorrow", "Yesterday", "Café Society", "Britpop Anthems", "Greatest Hits"]),
    // Numbers and ranges, inclusive.
    ("year:1999", ["Café Society"]),
    ("year:1990..1999", ["The House of Tomorrow", "Café Society", "Britpop Anthems"]),
    ("year:..1979", ["Yesterday"]),
    ("year:2010..", ["J-Pop Hits", "One Breath"]),
    ("year:1999..1990", ["The House of Tomorrow", "Café Society", "Britpop Anthems"]),
    ("tracks:10..", ["Café Society"]),
    ("length:..40:00", ["The House of Tomorrow", "Yesterday", "Tales"]),
    ("length:5:00", ["Yesterday"]),
    ("length:0:16:00..0:41:00", ["The House of Tomorrow", "Tales"]),
    // Negation with ^ or -, of any term; an album without the field is not in the range.
    ("^genre:pop rock", ["Live at Red Rocks", "Some Devil", "One Breath"]),
    ("-artist::^The genre:pop", ["Britpop Anthems", "J-Pop Hits", "Greatest Hits", "Anniemal"]),
    ("^year:..2005 -year:2006..", ["Tales"]),
    // A word ending in + or - that is not a field stays a word.
    ("j-pop", ["J-Pop Hits"]),
  ])
  func findsWhatTheDocumentationSays(query: String, expected: [String]) throws {
    #expect(try titles(query) == expected, "query: \(query)")
  }

  @Test(arguments: [
    ("year-", ["One Breath", "J-Pop Hits", "Be He Me", "Tomorrowland", "Talkie Walkie", "Anniemal"]),
    ("genre:rock year-", ["One Breath", "Some Devil", "Live at Red Rocks"]),
    (
      "genre:pop artist+ year-",
      ["Greatest Hits", "Anniemal", "Yesterday", "The House of Tomorrow", "J-Pop Hits", "Britpop Anthems"]
    ),
    ("genre:electronic TITLE+", ["Talkie Walkie", "Tomorrowland"]),
    ("year:2004 title-", ["Talkie Walkie", "Anniemal"]),
  ])
  func sortKeysOrderTheMatchesWithTiesInLibraryOrder(query: String, expected: [String]) throws {
    #expect(Array(try titles(query).prefix(expected.count)) == expected, "query: \(query)")
  }

  @Test func albumsWithoutAYearComeFirstAscending() throws {
    #expect(try titles("year+").first == "Tales")
  }

  @Test func datesOnAddedFollowTheCalendarAndRelativeDates() throws {
    let now = Date()
    let calendar = Calendar.current
    let today = calendar.dateComponents([.year, .month, .day], from: now)
    let month = String(format: "%04d-%02d", today.year!, today.month!)
    let day = String(format: "%04d-%02d-%02d", today.year!, today.month!, today.day!)
    let everything = Self.albums.map(\.title)
    #expect(try titles("added:\(today.year!)") == everything)
    #expect(try titles("added:\(month)") == everything)
    #expect(try titles("added:\(day)") == everything)
    #expect(try titles("added:-1d..") == everything)
    #expect(try titles("added:..-1d") == [])
    #expect(try titles("added:2001..2002") == [])
    #expect(try titles("added:\(day)..\(day) title:tales") == ["Tales"])
    #expect(try titles("^added:-1w..") == [])
  }

  /// Undo of a delete puts back the `added` the album had, NULL included (an album from
  /// before the field reads the migration's time), not the time of the undo (review).
  @Test func undoOfADeleteKeepsWhenTheAlbumWasAdded() throws {
    try withTemporaryDirectory { directory in
      let library = try Library.open(path: "\(directory)/library.sqlite")
      try library.store.queue.write { db in
        try db.execute(sql: "UPDATE album SET added = NULL WHERE position = 2")
        try db.execute(sql: "UPDATE album SET added = 1000000000 WHERE position = 3")
        try db.execute(sql: "UPDATE state SET value = 1500000000 WHERE key = 'addedBefore'")
      }
      try library.delete(at: [2, 3])
      _ = try library.undo()
      let added = try library.store.queue.read { db in
        try Row.fetchAll(db, sql: "SELECT added FROM album WHERE position IN (2, 3) ORDER BY position").map {
          $0[0] as Int64?
        }
      }
      #expect(added == [nil, 1_000_000_000])
      #expect(try library.addedTime(of: try library.album(at: 2)) == 1_500_000_000)
    }
  }

  @Test func aQueryOfOnlySortKeysKeepsEveryAlbum() throws {
    #expect(try titles("artist+").count == Self.albums.count)
    #expect(try titles("").count == Self.albums.count)
  }
}
