import AlbumModel
import BlueSQL
import Foundation
import Testing

@testable import BlueLibrary

/// `import FILE` streamed into a library file: one transaction, one undo step holding the
/// id range, nothing kept when any record is bad.
struct AlbumStoreImportTests {
  let directory: TemporaryDirectory
  let store: AlbumStore
  let origin = ChangeOrigin(session: "test", selection: 2)

  init() throws {
    directory = try TemporaryDirectory()
    store = try AlbumStore.open(path: directory.file("library.sqlite"))
  }

  /// A CSV of `count` albums (several blocks of the reader for a few thousand), with
  /// `last` as its final row when given.
  func writeCSV(_ count: Int, last: String? = nil) throws -> String {
    var csv = "title,artist,genre,year,coverUrl\n"
    for i in 1...count {
      csv += "\"Bulk \(i), \"\"live\"\"\",Artist \(i % 7),Rock,\(1960 + i % 50),https://c.example/\(i)\n"
    }
    if let last { csv += last + "\n" }
    let path = directory.file("albums.csv")
    try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func stepCount() throws -> Int {
    try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change") ?? 0 }
  }

  /// Into a library of the untouched samples: they make room in the same step (issue 26,
  /// item 1), which undo takes back whole.
  @Test func aStreamedImportAppendsEveryRowAsOneStepThatUndoesAndRedoes() throws {
    let path = try writeCSV(30_000)
    let imported = try store.importAlbums(fromFile: path, origin: origin)
    #expect(imported.range == 0..<30_000 && imported.samplesLeft == 5)
    #expect(imported.step.summary == "import of 30,000 albums in place of the 5 sample albums")
    #expect(try store.count() == 30_000)
    #expect(try store.selectedIndex() == 0)
    #expect(try store.storedPositions() == Array(0..<30_000))
    let last = Album(
      title: "Bulk 30000, \"live\"", artist: "Artist 5", genre: "Rock", year: 1960, coverURL: "https://c.example/30000")
    #expect(content([try store.album(at: 29_999)]) == [last])
    // The step holds the id range, not the albums (only the samples it took out).
    let logged = try store.queue.read { db in
      try Row.fetchOne(
        db, sql: "SELECT first_id, last_id, count FROM change WHERE id = ?", arguments: [imported.step.id])
    }
    let first = try #require(try store.album(at: 0).id)
    #expect(logged?[0] == first && logged?[1] == first + 29_999 && logged?[2] == 30_000)
    #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change_album") } == 5)

    #expect(try store.undo(session: "test").step.summary == "import of 30,000 albums in place of the 5 sample albums")
    #expect(try content(store.all()) == content(DefaultCatalogue.albums))
    _ = try store.redo(session: "test")
    #expect(try store.count() == 30_000)
    #expect(content([try store.album(at: 29_999)]) == [last])
    #expect(try store.storedPositions() == Array(0..<30_000))
  }

  @Test func aStreamedImportIntoALibraryOfYourOwnAppends() throws {
    _ = try store.add(album("Mine"), at: 5, origin: origin)
    let path = try writeCSV(1_000)
    let imported = try store.importAlbums(fromFile: path, origin: origin)
    #expect(imported.range == 6..<1_006 && imported.samplesLeft == 0)
    #expect(imported.step.summary == "import of 1,000 albums")
    #expect(try store.storedPositions() == Array(0..<1_006))
    #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change_album") } == 1)
    #expect(try store.undo(session: "test").step.summary == "import of 1,000 albums")
    #expect(try store.count() == 6)
  }

  @Test(arguments: [
    ("Bulk last,,,19x9,", "albums.csv:20002: year must be a whole number, got '19x9'"),
    (
      "\(String(repeating: "t", count: 1001)),,,,",
      "albums.csv:20002: title is longer than the limit of 1,000 characters (1001 bytes)"
    ),
    ("Bulk last,,,,,", "albums.csv:20002: expected 5 fields like the header, found 6"),
    ("\"Bulk last", "albums.csv: unterminated quoted field starting on line 20002"),
  ])
  func aBadLastRowLeavesTheLibraryAndItsLogAsTheyWere(last: String, message: String) throws {
    let path = try writeCSV(20_000, last: last)
    let before = try store.all()
    let steps = try stepCount()
    let error = libraryError { () throws(LibraryError) in try store.importAlbums(fromFile: path, origin: origin) }
    #expect(error?.description == message.replacingOccurrences(of: "albums.csv", with: path))
    #expect(try store.all() == before)
    #expect(try stepCount() == steps)
    #expect(try store.maxIDAfterRollback() == before.compactMap(\.id).max())
  }

  @Test func aBadLastElementOfAJSONFileLeavesTheLibraryAsItWas() throws {
    var json = "[\n"
    for i in 1...20_000 { json += "  {\"title\": \"Bulk \(i)\", \"year\": \(1960 + i % 50)},\n" }
    json += "  {\"title\": \"Bulk last\", \"year\": true}\n]\n"
    let path = directory.file("albums.json")
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    let before = try store.all()
    let error = libraryError { () throws(LibraryError) in try store.importAlbums(fromFile: path, origin: origin) }
    #expect(error?.description == "\(path):20002: element 20001: 'year' must be a string or a number, found a boolean")
    #expect(try store.all() == before)

    json = json.replacingOccurrences(of: "\"year\": true", with: "\"year\": null")
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    let imported = try store.importAlbums(fromFile: path, origin: origin)
    #expect(imported.range == 0..<20_001)
    #expect(imported.ignoredColumns == [])
    #expect(try store.album(at: 20_000).title == "Bulk last")
  }

  /// Into a new library the artist index is made again after the albums are in (issue
  /// 36): the file keeps the current schema, and the index holds every album, in order.
  @Test func anImportIntoANewLibraryLeavesTheArtistIndexWhole() throws {
    // A bad last row rolls the dropped index back with the albums.
    let bad = try writeCSV(2_000, last: "Bulk last,,,19x9,")
    #expect(libraryError { () throws(LibraryError) in try store.importAlbums(fromFile: bad, origin: origin) } != nil)
    #expect(try store.queue.read { db in try Schema.objects(in: db) } == Schema.currentObjects)

    _ = try store.importAlbums(fromFile: try writeCSV(2_000), origin: origin)
    try store.queue.read { db in
      #expect(try Schema.objects(in: db) == Schema.currentObjects)
      #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
      let byIndex = try String.fetchAll(
        db,
        sql: """
          SELECT artist FROM album INDEXED BY album_artist
          WHERE lower(artist) >= 'artist 3' ORDER BY lower(artist)
          """)
      #expect(byIndex.count == 2_000 * 4 / 7 + 1 && byIndex.first == "Artist 3" && byIndex.last == "Artist 6")
    }
  }

  /// The artist index holds a folded copy (`lower(artist)`, issue 36: its build was most of
  /// an import's SQLite work under NOCASE; the collation key where it differs, issue 50):
  /// ASCII artists sort as they did under NOCASE, accented ones among their letters, complete
  /// once per folded spelling (`Émile` and `émile` are one), and both read the index.
  @Test func artistsSortAndCompleteThroughTheFoldedIndex() throws {
    var csv = "title,artist\n"
    for (index, artist) in ["beta", "Alpha", "ALPHA two", "Émile", "émile", "alpha", "Beta%x", "Zed"].enumerated() {
      csv += "T\(index),\(artist)\n"
    }
    let file = directory.file("artists.csv")
    try csv.write(toFile: file, atomically: true, encoding: .utf8)
    _ = try store.importAlbums(fromFile: file, origin: origin)
    let sorted = try store.queue.read { db in
      try String.fetchAll(db, sql: "SELECT artist FROM album WHERE artist <> '' ORDER BY artist COLLATE NOCASE, id")
    }
    let folded = try store.queue.read { db in
      try String.fetchAll(db, sql: "SELECT artist FROM album WHERE artist <> '' ORDER BY lower(artist), id")
    }
    #expect(folded == sorted)
    // One per folded spelling, as the first album stored spells it.
    #expect(try store.values(of: .artist, withPrefix: "alp", limit: 10) == ["Alpha", "ALPHA two"])
    #expect(try store.values(of: .artist, withPrefix: "alpha", limit: 1) == ["Alpha"])
    #expect(try store.values(of: .artist, withPrefix: "BETA%", limit: 10) == ["Beta%x"])
    #expect(try store.values(of: .artist, withPrefix: "É", limit: 10) == ["Émile"])
    #expect(try store.values(of: .artist, withPrefix: "", limit: 3).count == 3)
    #expect(
      try store.values(of: .artist, withPrefix: "", limit: 10) == [
        "Alpha", "ALPHA two", "beta", "Beta%x", "Émile", "Zed",
      ])
    #expect(try store.values(of: .artist, withPrefix: "emi", limit: 10) == ["Émile"])
    #expect(try store.values(of: .artist, withPrefix: "q", limit: 10).isEmpty)
    // `albumartist` reads the same column, through the same index.
    #expect(try store.values(of: .albumartist, withPrefix: "alp", limit: 10) == ["Alpha", "ALPHA two"])
    let key = Schema.artistSortKey
    let plan = try store.queryPlan("SELECT artist FROM album WHERE \(key) > 'b' ORDER BY \(key) LIMIT 1")
    #expect(plan.contains { $0.contains("INDEX album_artist") }, "\(plan)")
  }

  /// A library of version 13, whose artist index was `artist COLLATE NOCASE`, opens with
  /// the folded index in its place, and its artists sort and complete through it.
  @Test func aVersion13LibraryGetsTheFoldedArtistIndex() throws {
    let file = directory.file("artists.csv")
    try "title,artist\nT1,beta\nT2,Alpha\nT3,alpha two\nT4,ALPHA\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    _ = try store.importAlbums(fromFile: file, origin: origin)
    try store.queue.write { db in try Schema.downgrade(to: 13, db) }
    let indexSQL = "SELECT sql FROM sqlite_master WHERE name = 'album_artist'"
    #expect(try store.queue.read { db in try String.fetchOne(db, sql: indexSQL) }?.contains("NOCASE") == true)
    let reopened = try AlbumStore.open(path: directory.file("library.sqlite"))
    #expect(try reopened.queue.read { db in try String.fetchOne(db, sql: indexSQL) } == Schema.artistIndex)
    #expect(try reopened.values(of: .artist, withPrefix: "a", limit: 10) == ["Alpha", "alpha two"])
    let plan = try reopened.queryPlan("SELECT id FROM album ORDER BY \(Schema.artistSortKey)")
    #expect(plan.contains { $0.contains("INDEX album_artist") }, "\(plan)")
  }

  /// A batch binds the music-folder columns only when one of its rows has them: rows of
  /// both kinds, in full batches and in the last one, keep their own values.
  @Test func rowsWithAndWithoutMusicFieldsKeepTheirOwnValues() throws {
    var csv = "title,tracks,duration,folder\n"
    for i in 1...200 {
      csv += i % 70 == 0 ? "Music \(i),\(i),\(i).5,/music/\(i)\n" : "Plain \(i),,,\n"
    }
    let path = directory.file("music.csv")
    try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
    _ = try store.importAlbums(fromFile: path, origin: origin)
    let albums = try store.all()
    #expect(albums.count == 200)
    for (index, album) in albums.enumerated() {
      let i = index + 1
      if i % 70 == 0 {
        #expect(album.title == "Music \(i)")
        #expect(album.tracks == i && album.duration == Double(i) + 0.5 && album.folder == "/music/\(i)")
      } else {
        #expect(album.title == "Plain \(i)" && album.tracks == nil && album.duration == nil && album.folder == nil)
      }
    }
  }

  @Test func aFileThatCannotBeReadIsRefusedBeforeTheLibraryIsTouched() throws {
    let before = try store.all()
    let missing = directory.file("nope.csv")
    let error = libraryError { () throws(LibraryError) in try store.importAlbums(fromFile: missing, origin: origin) }
    #expect(error?.description == "cannot read '\(missing)': no such file or directory")
    #expect(try store.all() == before)
    #expect(try stepCount() == 0)
  }

  @Test func anEmptyImportIsStillOneStep() throws {
    let path = directory.file("empty.csv")
    try Data("title,artist\n".utf8).write(to: URL(fileURLWithPath: path))
    let imported = try store.importAlbums(fromFile: path, origin: origin)
    #expect(imported.range == 5..<5)
    #expect(imported.step.summary == "import of 0 albums")
    #expect(try store.undo(session: "test").step.summary == "import of 0 albums")
    #expect(try content(store.all()) == content(DefaultCatalogue.albums))
  }
}

extension AlbumStore {
  /// The largest album id stored: a rolled-back import leaves no row behind.
  fileprivate func maxIDAfterRollback() throws -> Int64? {
    try queue.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM album") }
  }
}
