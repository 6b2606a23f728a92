import TestSupport
import Testing

@testable import AlbumModel

struct AlbumFieldTests {
  let bowie = DefaultCatalogue.albums[0]

  @Test(arguments: [
    (
      AlbumField.title, "Heroes",
      Album(
        title: "Heroes", artist: "David Bowie", genre: "Pop", year: 1992, coverURL: "bluelib:covers/best-of-bowie.png")
    ),
    (
      .artist, "",
      Album(title: "Best of Bowie", artist: "", genre: "Pop", year: 1992, coverURL: "bluelib:covers/best-of-bowie.png")
    ),
    (
      .genre, "Art Rock",
      Album(
        title: "Best of Bowie", artist: "David Bowie", genre: "Art Rock", year: 1992,
        coverURL: "bluelib:covers/best-of-bowie.png")
    ),
    (
      .year, "1977",
      Album(
        title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1977,
        coverURL: "bluelib:covers/best-of-bowie.png")
    ),
    (
      .cover, "https://example.com/heroes.png",
      Album(
        title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992,
        coverURL: "https://example.com/heroes.png")
    ),
    (.cover, "", Album(title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992, coverURL: "")),
  ])
  func settingAFieldChangesOnlyThatField(field: AlbumField, value: String, expected: Album) throws {
    let changed = try AlbumField.album(bowie, setting: field, to: value)
    #expect(changed == expected)
    #expect(field.value(in: changed) == value)
  }

  @Test(arguments: [
    "https://example.com/heroes.png", "HTTP://EXAMPLE.COM/x", "http://host", "file:///tmp/cover.png", "file:/tmp/x",
    "bluelib:covers/best-of-bowie.png", "https://例え.jp/カバー.png",
  ])
  func coversMayBeHTTPHTTPSFileOrBundled(url: String) throws {
    #expect(try bowie.setting(.cover, to: url).coverURL == url)
  }

  /// A cover URL is checked for blanks and control characters eight bytes at a time: one
  /// at any place of a long URL is refused, and UTF-8 anywhere is not.
  @Test func aBlankOrControlCharacterAnywhereInACoverURLIsRefused() throws {
    let url = "https://covers.example/some/long/path/cover.png"
    for offset in 8..<url.utf8.count {
      for bad in ["\u{0}", "\u{1}", "\t", " ", "\u{7F}"] {
        var bytes = Array(url.utf8)
        bytes[offset] = Array(bad.utf8)[0]
        let broken = String(decoding: bytes, as: UTF8.self)
        #expect(throws: LibraryError.self, "\(broken.debugDescription)") { try bowie.setting(.cover, to: broken) }
      }
      var bytes = Array(url.utf8)
      bytes.insert(contentsOf: Array("é€".utf8), at: offset)
      let accented = String(decoding: bytes, as: UTF8.self)
      #expect(try bowie.setting(.cover, to: accented).coverURL == accented)
    }
  }

  @Test(arguments: [("1977", 1977 as Int?), ("0", 0), ("9999", 9999), ("", nil), ("  1977 ", 1977), ("0042", 42)])
  func settingTheYearParsesAWholeNumberOrClearsIt(text: String, expected: Int?) throws {
    #expect(try bowie.setting(.year, to: text).year == expected)
  }

  @Test(arguments: [
    (AlbumField.year, "abc", "year must be a whole number, got 'abc'"),
    (.year, "19.5", "year must be a whole number, got '19.5'"),
    (.year, "nineteen", "year must be a whole number, got 'nineteen'"),
    (.year, "10000", "year must be between 0 and 9999, got '10000'"),
    (.year, "-5", "year must be between 0 and 9999, got '-5'"),
    (.year, "99999999999999999999999", "year must be between 0 and 9999, got '99999999999999999999999'"),
    (.cover, "ftp://x", "cover must be an http, https or file URL, got 'ftp://x'"),
    (.cover, "example.com/x.png", "cover must be an http, https or file URL, got 'example.com/x.png'"),
    (.cover, "http://", "cover must be an http, https or file URL, got 'http://'"),
    (.cover, "https:/x", "cover must be an http, https or file URL, got 'https:/x'"),
    (.cover, "http://a b", "cover must be an http, https or file URL, got 'http://a b'"),
    (.cover, "http:///x", "cover must be an http, https or file URL, got 'http:///x'"),
    (.cover, "http://x\u{7F}", "cover must be an http, https or file URL, got 'http://x\\u{7F}'"),
    (.cover, "file:", "cover must be an http, https or file URL, got 'file:'"),
    (.cover, ":x", "cover must be an http, https or file URL, got ':x'"),
    (.cover, "https:x//y", "cover must be an http, https or file URL, got 'https:x//y'"),
    (.title, "", "title must not be empty"),
    (.title, "   ", "title must not be empty"),
    (.title, "a\u{0}b", "title must not contain a NUL character"),
    (.artist, "\u{0}", "artist must not contain a NUL character"),
  ])
  func invalidValuesAreRejectedWithAMessageQuotingThem(field: AlbumField, value: String, message: String) {
    let error = thrownError { () throws(LibraryError) in try AlbumField.album(bowie, setting: field, to: value) }
    #expect(error?.description == message)
  }

  @Test func controlCharactersInQuotedValuesAreEscapedAndLongValuesCut() {
    let error = thrownError { () throws(LibraryError) in try bowie.setting(.year, to: "\u{1B}[31m\n") }
    #expect(error?.description == "year must be a whole number, got '\\u{1B}[31m\\n'")
    let long = String(repeating: "x", count: 1000)
    let cut = thrownError { () throws(LibraryError) in try bowie.setting(.year, to: long) }
    #expect(cut?.description == "year must be a whole number, got '\(String(repeating: "x", count: 60))…'")
  }

  @Test(arguments: [("year", AlbumField.year), ("Title", .title), ("COVER", .cover)])
  func fieldNamesParseIgnoringCase(name: String, field: AlbumField) throws {
    #expect(try AlbumField(parsing: name) == field)
  }

  @Test func anUnknownFieldNameListsTheFields() {
    let error = thrownError { () throws(LibraryError) in try AlbumField(parsing: "yaer") }
    #expect(error?.description == "unknown field 'yaer' (fields: title, artist, genre, year, cover)")
  }

  @Test func theDefaultCatalogueIsTheOriginalAppsFiveAlbumsInOrder() throws {
    let albums = DefaultCatalogue.albums
    #expect(
      albums.map(\.title) == [
        "Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie",
      ])
    #expect(albums.map(\.artist) == ["David Bowie", "No Doubt", "Sting", "U2", "Madonna"])
    #expect(albums.map(\.year) == [1992, 2003, 1999, 2000, 2000])
    #expect(albums.allSatisfy { $0.genre == "Pop" && $0.coverURL.hasPrefix("bluelib:covers/") && $0.id == nil })
    #expect(albums.map(\.position) == [0, 1, 2, 3, 4])
    for album in albums { _ = try album.validated() }
  }
}
