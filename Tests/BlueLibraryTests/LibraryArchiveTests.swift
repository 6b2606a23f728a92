import AlbumArchive
import AlbumModel
import Foundation
import TestSupport
import Testing

@testable import BlueLibrary

struct LibraryArchiveTests {
  static let header = "title,artist,genre,year,coverUrl\n"

  /// Albums with every awkward character the formats must carry.
  static let awkward: [Album] = [
    Album(
      title: "Say \"Hi\", \"Bye\"", artist: "Back\\slash", genre: "Pop", year: 1999,
      coverURL: "https://example.com/a.png"),
    Album(title: "Two\nlines\r\nand CRLF", artist: "", genre: "", year: nil, coverURL: ""),
    Album(
      title: "\u{1B}[31mred\u{7}\t\u{7F}\u{9B}", artist: "  padded  ", genre: "Jazz", year: 0,
      coverURL: "file:///tmp/x.png"),
    Album(title: "🎸 Ünïcödé e\u{301}", artist: "Björk", genre: "Électro", year: 9999, coverURL: "bluelib:covers/x.png"),
    Album(title: "x", artist: ",", genre: "\"", year: 1, coverURL: "http://h/p?q=1,2"),
  ]

  // MARK: - Round trips

  @Test func exportedJSONImportsBackToTheSameAlbums() throws {
    let albums = Self.awkward + DefaultCatalogue.albums
    let decoded = try LibraryArchive.decode(LibraryArchive.encodeJSON(albums), fileName: "library.json")
    #expect(content(decoded) == content(albums))
    #expect(decoded.map(\.position) == Array(0..<albums.count))
  }

  @Test func exportedCSVImportsBackToTheSameAlbums() throws {
    let albums = Self.awkward + DefaultCatalogue.albums
    let decoded = try LibraryArchive.decode(LibraryArchive.encodeCSV(albums), fileName: "library.csv")
    #expect(content(decoded) == content(albums))
  }

  @Test func anEmptyLibraryRoundTrips() throws {
    #expect(String(decoding: LibraryArchive.encodeJSON([]), as: UTF8.self) == "[]\n")
    #expect(try LibraryArchive.decode(LibraryArchive.encodeJSON([]), fileName: "x.json") == [])
    #expect(try LibraryArchive.decode(LibraryArchive.encodeCSV([]), fileName: "x.csv") == [])
  }

  @Test func jsonIsPrettyWithTheOriginalKeysInOrderAndTheYearAsAString() {
    let json = String(
      decoding: LibraryArchive.encodeJSON([DefaultCatalogue.albums[0], Album(title: "No year")]), as: UTF8.self)
    #expect(
      json == """
        [
          {
            "title": "Best of Bowie",
            "artist": "David Bowie",
            "genre": "Pop",
            "year": "1992",
            "coverUrl": "bluelib:covers/best-of-bowie.png"
          },
          {
            "title": "No year",
            "artist": "",
            "genre": "",
            "year": "",
            "coverUrl": ""
          }
        ]

        """)
  }

  @Test func jsonEscapesControlCharactersSoTheFileIsSafeToPrint() {
    let json = LibraryArchive.encodeJSON([Album(title: "\u{1B}[2J\u{7}\u{7F}\"\\\n")])
    #expect(!json.contains(0x1B) && !json.contains(0x07) && !json.contains(0x7F))
    #expect(String(decoding: json, as: UTF8.self).contains(#""title": "\u001b[2J\u0007\u007f\"\\\n","#))
  }

  @Test func aLibraryExportedFromTheStoreImportsIntoAnotherStoreUnchanged() throws {
    let source = AlbumStore.inMemory(seed: Self.awkward)
    let bytes = LibraryArchive.encodeJSON(try source.all())
    let target = AlbumStore.inMemory(seed: [])
    _ = try target.importAlbums(
      LibraryArchive.decode(bytes, fileName: "export.json"), origin: ChangeOrigin(session: "test", selection: nil))
    #expect(content(try target.all()) == content(try source.all()))
  }

  // MARK: - CSV

  @Test(arguments: [
    ("quotes", "title,artist\n\"Say \"\"Hi\"\"\",Me\n", [Album(title: "Say \"Hi\"", artist: "Me")]),
    ("embedded comma", "title,artist\n\"Hello, World\",\"A, B\"\n", [Album(title: "Hello, World", artist: "A, B")]),
    ("embedded newline", "title,year\n\"Line 1\nLine 2\",1999\n", [Album(title: "Line 1\nLine 2", year: 1999)]),
    ("CRLF", "title,year\r\nA,1\r\nB,2\r\n", [Album(title: "A", year: 1), Album(title: "B", year: 2)]),
    ("CRLF inside quotes kept", "title\r\n\"a\r\nb\"\r\n", [Album(title: "a\r\nb")]),
    ("BOM", "\u{FEFF}title,genre\nA,Pop\n", [Album(title: "A", genre: "Pop")]),
    ("no final newline", "title\nA", [Album(title: "A")]),
    (
      "columns in any order, any case", "Year,coverUrl,TITLE\n2000,https://x.org/c.png,A\n",
      [Album(title: "A", year: 2000, coverURL: "https://x.org/c.png")]
    ),
    ("blank lines skipped", "\ntitle\n\nA\n\n\nB\n", [Album(title: "A"), Album(title: "B")]),
    ("empty year is none", "title,year\nA,\nB, 1977 \n", [Album(title: "A"), Album(title: "B", year: 1977)]),
    ("quoted empty fields", "title,artist,year\n\"A\",\"\",\"\"\n", [Album(title: "A")]),
    ("header only", "title,artist,genre,year,coverUrl\n", []),
    ("control characters kept", "title\n\"\u{1B}[31m\u{7}\"\n", [Album(title: "\u{1B}[31m\u{7}")]),
    ("UTF-8", "title,artist\nÉté 🎸,Björk\n", [Album(title: "Été 🎸", artist: "Björk")]),
  ])
  func csvIsReadPerRFC4180(name: String, csv: String, expected: [Album]) throws {
    let albums = try LibraryArchive.decode(Array(csv.utf8), fileName: "albums.csv")
    #expect(content(albums) == expected, "\(name)")
  }

  @Test(arguments: [
    ("missing title", header + "A,,,,\n,Someone,,,\n", "albums.csv:3: title must not be empty"),
    ("blank title", "title\n   \n", "albums.csv:2: title must not be empty"),
    (
      "bad year", header + "A,,,1999,\nB,,,2000,\nC,,,nineteen,\n",
      "albums.csv:4: year must be a whole number, got 'nineteen'"
    ),
    ("year out of range", "title,year\nA,12345\n", "albums.csv:2: year must be between 0 and 9999, got '12345'"),
    (
      "bad cover", "title,coverUrl\nA,ftp://x\n",
      "albums.csv:2: cover must be an http, https or file URL, got 'ftp://x'"
    ),
    ("duplicate column", "title,Title\n", "albums.csv:1: duplicate column 'title'"),
    (
      "no title column", "artist,year\nX,1\n",
      "albums.csv:1: missing column 'title' (columns: title, artist, genre, year, coverUrl, tracks, duration, folder)"
    ),
    (
      "unterminated quote", "title,artist\nA,B\n\"Unfinished,C\nD,E\n",
      "albums.csv: unterminated quoted field starting on line 3"
    ),
    (
      "text after a closing quote", "title,artist\n\"A\"x,B\n",
      "albums.csv:2: unexpected 'x' after a closing quote (write a quote inside a quoted field as \"\")"
    ),
    ("too few fields", "title,artist,year\nA,B\n", "albums.csv:2: expected 3 fields like the header, found 2"),
    ("too many fields", "title\nA,B\n", "albums.csv:2: expected 1 field like the header, found 2"),
    (
      "multi-line record names its first line", "title,year\n\"A\nB\nC\",x\n",
      "albums.csv:2: year must be a whole number, got 'x'"
    ),
    (
      "empty file", "",
      "albums.csv: the file is empty (expected a header row naming title, artist, genre, year, coverUrl, tracks, duration, folder)"
    ),
    ("NUL in a field", "title\nA\u{0}B\n", "albums.csv:2: title must not contain a NUL character"),
  ])
  func badCSVIsReportedWithFileLineAndReason(name: String, csv: String, message: String) {
    let error = libraryError { () throws(LibraryError) in
      try LibraryArchive.decode(Array(csv.utf8), fileName: "albums.csv")
    }
    #expect(error?.description == message, "\(name)")
  }

  @Test func unknownCSVColumnsAreSkippedAndNamed() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("other-tool.csv").path
    try Data("Rating,title,artist,yaer\n5,Blue Train,John Coltrane,1957\n4,\"A, B\",,\n".utf8)
      .write(to: URL(fileURLWithPath: path))
    let contents = try LibraryArchive.contents(ofFile: path)
    #expect(contents.ignoredColumns == ["Rating", "yaer"])
    #expect(
      content(contents.albums) == content([Album(title: "Blue Train", artist: "John Coltrane"), Album(title: "A, B")]))
  }

  static let invalidUTF8Cases: [(bytes: [UInt8], line: Int)] = [
    // title\nA\nB\xFFC\n
    ([0x74, 0x69, 0x74, 0x6C, 0x65, 0x0A, 0x41, 0x0A, 0x42, 0xFF, 0x43, 0x0A], 3),
    // a bad byte on the third line of a quoted field
    (Array("title\n\"ok\nstill ok\n".utf8) + [0xC3, 0x28] + Array("\"\n".utf8), 4),
    // a truncated sequence
    (Array("title,artist\nA,".utf8) + [0xE2, 0x82] + Array("\n".utf8), 2),
  ]

  @Test(arguments: invalidUTF8Cases)
  func invalidUTF8IsReportedWithItsLine(bytes: [UInt8], line: Int) {
    let error = libraryError { () throws(LibraryError) in try LibraryArchive.decode(bytes, fileName: "albums.csv") }
    #expect(error?.description == "albums.csv: invalid UTF-8 on line \(line)")
  }

  @Test func manyRowsAreParsedCorrectly() throws {
    // Correctness at scale (the speed is measured by the benchmark, in release mode).
    var csv = Array(Self.header.utf8)
    for i in 0..<20_000 {
      csv += Array("\"Album \(i), Vol. \(i % 7)\",Artist \(i),Pop,\(1950 + i % 70),https://c.example/\(i).png\r\n".utf8)
    }
    let albums = try LibraryArchive.decode(csv, fileName: "big.csv")
    #expect(albums.count == 20_000)
    #expect(
      albums[12_345]
        == Album(
          title: "Album 12345, Vol. 4", artist: "Artist 12345", genre: "Pop", year: 1975,
          coverURL: "https://c.example/12345.png", position: 12_345))
  }

  // MARK: - JSON

  @Test(arguments: [
    ("year as a number", #"[{"title": "A", "year": 1999}]"#, [Album(title: "A", year: 1999)]),
    ("year as a string", #"[{"title": "A", "year": "1999"}]"#, [Album(title: "A", year: 1999)]),
    (
      "empty or null year", #"[{"title": "A", "year": ""}, {"title": "B", "year": null}]"#,
      [Album(title: "A"), Album(title: "B")]
    ),
    ("only a title", #"[{"title": "A"}]"#, [Album(title: "A")]),
    ("nulls for text", #"[{"title": "A", "artist": null, "genre": null, "coverUrl": null}]"#, [Album(title: "A")]),
    (
      "escapes", #"[{"title": "\"q\" \\ \/ \b\f\n\r\t \u00e9 \ud83c\udfb8 \u001b"}]"#,
      [Album(title: "\"q\" \\ / \u{8}\u{C}\n\r\t é 🎸 \u{1B}")]
    ),
    ("BOM and blank space", "\u{FEFF} \n [ \n ] \n", []),
    (
      "keys in any order", #"[{"coverUrl": "https://x.org/a.png", "title": "A", "genre": "Pop", "artist": "B"}]"#,
      [Album(title: "A", artist: "B", genre: "Pop", coverURL: "https://x.org/a.png")]
    ),
  ])
  func jsonIsReadInTheExportShape(name: String, json: String, expected: [Album]) throws {
    let albums = try LibraryArchive.decode(Array(json.utf8), fileName: "albums.json")
    #expect(content(albums) == expected, "\(name)")
  }

  @Test(arguments: [
    (
      "unknown key", "[\n{\"title\": \"A\"},\n{\"title\": \"B\", \"yaer\": 1999}\n]",
      "albums.json:3: element 2: unknown key 'yaer' (keys: title, artist, genre, year, coverUrl, tracks, duration, folder)"
    ),
    (
      "unknown keys", #"[{"title": "A", "x": 1, "y": 2}]"#,
      "albums.json:1: element 1: unknown keys 'x', 'y' (keys: title, artist, genre, year, coverUrl, tracks, duration, folder)"
    ),
    ("missing title", #"[{"artist": "A"}]"#, "albums.json:1: element 1: missing key 'title'"),
    ("empty title", #"[{"title": ""}]"#, "albums.json:1: element 1: title must not be empty"),
    ("title not a string", #"[{"title": 5}]"#, "albums.json:1: element 1: 'title' must be a string, found a number"),
    (
      "fractional year", #"[{"title": "A", "year": 1999.5}]"#,
      "albums.json:1: element 1: year must be a whole number, got '1999.5'"
    ),
    (
      "bad year string", #"[{"title": "A", "year": "nineteen"}]"#,
      "albums.json:1: element 1: year must be a whole number, got 'nineteen'"
    ),
    (
      "year an array", #"[{"title": "A", "year": [1]}]"#,
      "albums.json:1: element 1: 'year' must be a string or a number, found an array"
    ),
    (
      "artist an object", #"[{"title": "A", "artist": {}}]"#,
      "albums.json:1: element 1: 'artist' must be a string, found an object"
    ),
    (
      "bad cover", #"[{"title": "A", "coverUrl": "ftp://x"}]"#,
      "albums.json:1: element 1: cover must be an http, https or file URL, got 'ftp://x'"
    ),
    ("duplicate key", #"[{"title": "A", "title": "B"}]"#, "albums.json:1: element 1: duplicate key 'title'"),
    (
      "element not an object", "[{\"title\": \"A\"},\n\"B\"]",
      "albums.json:2: element 2: expected an object, found a string"
    ),
    ("not an array", #"{"title": "A"}"#, "albums.json:1: expected an array of albums, found an object"),
    (
      "missing comma", "[{\"title\": \"A\"}\n{\"title\": \"B\"}]",
      "albums.json:2: expected ',' or ']' after element 1, found '{'"
    ),
    ("trailing comma", #"[{"title": "A"},]"#, "albums.json:1: expected a value, found ']'"),
    ("truncated", "[{\"title\": \"A\"", "albums.json:1: expected ',' or '}' in element 1, found the end of the file"),
    ("unterminated string", "[{\"title\": \"A", "albums.json: unterminated string starting on line 1"),
    ("invalid escape", #"[{"title": "\q"}]"#, "albums.json:1: invalid escape '\\q' in a string"),
    ("lone surrogate", #"[{"title": "\ud800"}]"#, "albums.json:1: unpaired surrogate in a \\u escape"),
    (
      "raw control character", "[{\"title\": \"a\u{1B}b\"}]",
      "albums.json:1: control character U+001B in a string must be escaped"
    ),
    ("garbage after", "[]\nx", "albums.json:2: unexpected 'x' after the array of albums"),
    ("empty file", "", "albums.json: the file is empty (expected an array of albums)"),
    ("NUL escape", #"[{"title": "a\u0000"}]"#, "albums.json:1: element 1: title must not contain a NUL character"),
    ("deep nesting", "[" + String(repeating: "[", count: 300), "albums.json:1: values nested more than 256 deep"),
  ])
  func badJSONIsReportedWithFileLineElementAndReason(name: String, json: String, message: String) {
    let error = libraryError { () throws(LibraryError) in
      try LibraryArchive.decode(Array(json.utf8), fileName: "albums.json")
    }
    #expect(error?.description == message, "\(name)")
  }

  @Test func invalidUTF8InAJSONStringIsReportedWithItsLine() {
    let bytes = Array("[\n{\"title\": \"".utf8) + [0xFF] + Array("\"}]".utf8)
    let error = libraryError { () throws(LibraryError) in try LibraryArchive.decode(bytes, fileName: "a.json") }
    #expect(error?.description == "a.json: invalid UTF-8 on line 2")
  }

  // MARK: - Format choice

  @Test(arguments: [
    ("albums.JSON", "title\nA\n", LibraryArchive.Format.json),
    ("albums.csv", "[]", .csv),
    ("albums.txt", "  [ ]", .json),
    ("albums", "\u{FEFF}[]", .json),
    ("albums", "title\n", .csv),
  ])
  func theFormatComesFromTheExtensionElseFromTheContent(fileName: String, text: String, format: LibraryArchive.Format) {
    #expect(LibraryArchive.format(of: Array(text.utf8), fileName: fileName) == format)
  }

  // MARK: - Files

  @Test func writeAtomicallyReplacesTheFileAndKeepsItsMode() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("export.json")
    try LibraryArchive.writeAtomically(Array("old".utf8), to: path)
    #expect(chmod(path, 0o600) == 0)
    try LibraryArchive.writeAtomically(Array("new".utf8), to: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["export.json"],
      "no temporary file is left")
  }

  @Test func writeAtomicallyNamesThePathWhenItFails() throws {
    let directory = try TemporaryDirectory()
    let missing = directory.file("no/such/dir/export.json")
    let error = libraryError { () throws(LibraryError) in try LibraryArchive.writeAtomically([1], to: missing) }
    #expect(error?.description == "cannot write '\(missing)': no such file or directory")
    let error2 = libraryError { () throws(LibraryError) in try LibraryArchive.writeAtomically([1], to: directory.path) }
    #expect(error2?.description == "cannot write '\(directory.path)': it is a directory")
  }

  @Test func decodingAFileReadsItAndNamesItInErrors() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("albums.csv")
    try Data("title,year\nA,1\nB,x\n".utf8).write(to: URL(fileURLWithPath: path))
    let error = libraryError { () throws(LibraryError) in try LibraryArchive.decode(fileAtPath: path) }
    #expect(error?.description == "\(path):3: year must be a whole number, got 'x'")
    let missing = directory.file("nope.json")
    let error2 = libraryError { () throws(LibraryError) in try LibraryArchive.decode(fileAtPath: missing) }
    #expect(error2?.description == "cannot read '\(missing)': no such file or directory")
  }

  @Test func aFailedImportLeavesTheLibraryUnchanged() throws {
    // The shell's order: decode everything first, append only if that worked.
    let directory = try TemporaryDirectory()
    let store = try AlbumStore.open(path: directory.file("library.sqlite"))
    let before = try store.all()
    var csv = Self.header
    for i in 0..<100 { csv += "Album \(i),,,\(i == 60 ? "1x" : "2000"),\n" }
    let error = libraryError { () throws(LibraryError) in
      try store.importAlbums(
        try LibraryArchive.decode(Array(csv.utf8), fileName: "albums.csv"),
        origin: ChangeOrigin(session: "test", selection: 0))
    }
    #expect(error?.description == "albums.csv:62: year must be a whole number, got '1x'")
    #expect(try store.all() == before)
  }
}

// MARK: - Music-folder fields

extension LibraryArchiveTests {
  static let musicAlbum = Album(
    title: "OK Computer", artist: "Radiohead", genre: "Alternative", year: 1997,
    coverURL: "embedded:file:///m/OK%20Computer/01.mp3", tracks: 12, duration: 3207.125, folder: "/m/OK Computer")

  @Test func jsonCarriesTracksDurationAndFolderOnlyForAlbumsThatHaveThem() throws {
    let albums = [Self.musicAlbum, Album(title: "Plain")]
    let json = String(decoding: LibraryArchive.encodeJSON(albums), as: UTF8.self)
    #expect(
      json.hasPrefix(
        """
        [
          {
            "title": "OK Computer",
            "artist": "Radiohead",
            "genre": "Alternative",
            "year": "1997",
            "coverUrl": "embedded:file:///m/OK%20Computer/01.mp3",
            "tracks": 12,
            "duration": 3207.125,
            "folder": "/m/OK Computer"
          },
          {
            "title": "Plain",
        """))
    #expect(json.components(separatedBy: "\"tracks\"").count == 2)
    let decoded = try LibraryArchive.decode(Array(json.utf8), fileName: "x.json")
    #expect(decoded.map(\.tracks) == [12, nil])
    #expect(decoded.map(\.duration) == [3207.125, nil])
    #expect(decoded.map(\.folder) == ["/m/OK Computer", nil])
  }

  @Test func csvAddsTheMusicColumnsWhenAnyAlbumHasThemAndReadsThemBack() throws {
    #expect(
      String(decoding: LibraryArchive.encodeCSV([Album(title: "Plain")]), as: UTF8.self)
        == "title,artist,genre,year,coverUrl\r\nPlain,,,,\r\n")
    let csv = LibraryArchive.encodeCSV([Self.musicAlbum, Album(title: "Plain")])
    #expect(
      String(decoding: csv, as: UTF8.self)
        == "title,artist,genre,year,coverUrl,tracks,duration,folder\r\n"
        + "OK Computer,Radiohead,Alternative,1997,embedded:file:///m/OK%20Computer/01.mp3,12,3207.125,/m/OK Computer\r\n"
        + "Plain,,,,,,,\r\n")
    let decoded = try LibraryArchive.decode(csv, fileName: "x.csv")
    #expect(decoded.map(\.tracks) == [12, nil] && decoded.map(\.duration) == [3207.125, nil])
    #expect(decoded.map(\.folder) == ["/m/OK Computer", nil])
  }

  @Test(arguments: [
    (
      #"[{"title": "x", "tracks": "12"}]"#,
      "x.json:1: element 1: 'tracks' must be a number or an array of tracks, found a string"
    ),
    (#"[{"title": "x", "tracks": 1.5}]"#, "x.json:1: element 1: 'tracks' must be a whole number, got 1.5"),
    (
      #"[{"title": "x", "tracks": -1}]"#,
      "x.json:1: element 1: tracks must be a whole number from 0 to 100000, got '-1'"
    ),
    (
      #"[{"title": "x", "duration": -2}]"#,
      "x.json:1: element 1: duration must be a number of seconds from 0 to 31622400, got '-2.0'"
    ),
    (
      #"[{"title": "x", "duration": 1e999}]"#,
      "x.json:1: element 1: duration must be a number of seconds from 0 to 31622400, got 'inf'"
    ),
    (#"[{"title": "x", "folder": 3}]"#, "x.json:1: element 1: 'folder' must be a string, found a number"),
    // A track is a file: `play` would fetch a URL or run an mpv protocol (round 4, G4).
    (
      #"[{"title": "x", "tracks": [{"path": "http://example.com/a.mp3"}]}]"#,
      "x.json:1: element 1: track 1: 'path' must be an absolute path, got 'http://example.com/a.mp3'"
    ),
    (
      #"[{"title": "x", "tracks": [{"path": "/m/1.mp3"}, {"path": "av://lavfi:sine"}]}]"#,
      "x.json:1: element 1: track 2: 'path' must be an absolute path, got 'av://lavfi:sine'"
    ),
    (
      #"[{"title": "x", "tracks": [{"path": "m/1.mp3"}]}]"#,
      "x.json:1: element 1: track 1: 'path' must be an absolute path, got 'm/1.mp3'"
    ),
    (
      #"[{"title": "x", "tracks": [{"path": "/m/1.mp3\u0000http://x"}]}]"#,
      "x.json:1: element 1: track 1: 'path' must not contain a NUL character"
    ),
    ("title,tracks\nx,many\n", "x.csv:2: 'tracks' must be a number, got 'many'"),
    ("title,duration\nx,-1\n", "x.csv:2: duration must be a number of seconds from 0 to 31622400, got '-1.0'"),
  ])
  func badMusicFieldsAreRefusedWithTheirLine(input: String, message: String) {
    let name = input.hasPrefix("[") ? "x.json" : "x.csv"
    #expect(
      libraryError { () throws(LibraryError) in try LibraryArchive.decode(Array(input.utf8), fileName: name) }?
        .description == message)
  }

  @Test func aFolderOverItsLimitIsRefused() {
    let long = "/" + String(repeating: "f", count: 5000)
    #expect(
      libraryError { () throws(LibraryError) in try Album(title: "x", folder: long).validated() }?.description
        == "folder is longer than the limit of 4 KiB (5001 bytes)")
  }
}
