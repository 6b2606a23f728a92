import AlbumModel
import BlueSQL
import Foundation
import Testing

@testable import BlueLibrary

/// The store on real SQLite files: creation, reopening, and files it must refuse untouched.
struct AlbumStoreFileTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
  }

  @Test func aNewFileIsCreatedWithItsDirectoriesAndSeededWithTheDefaults() throws {
    let path = directory.file("data/bluelib/library.sqlite")
    let store = try AlbumStore.open(path: path)
    #expect(store.path == path)
    #expect(try content(store.all()) == content(DefaultCatalogue.albums))
    #expect(try store.selectedIndex() == 0)
    #expect(FileManager.default.fileExists(atPath: path))
    let header = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 16)
    #expect(header == Data("SQLite format 3\0".utf8))
  }

  @Test func aNewFileIsStampedAsABluelibLibraryInOneTransaction() throws {
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path)
    let (applicationID, version, journal, names) = try DatabaseQueue(path: path).read { db in
      (
        try Int32.fetchOne(db, sql: "PRAGMA application_id"),
        try Int.fetchOne(db, sql: "PRAGMA user_version"),
        try String.fetchOne(db, sql: "PRAGMA journal_mode"),
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master ORDER BY name")
      )
    }
    #expect(applicationID == Schema.applicationID)
    #expect(version == Schema.version)
    #expect(journal == "delete")
    #expect(
      names == [
        "album", "album_artist", "album_play", "album_position", "album_sort_key_insert", "album_sort_key_update",
        "album_source_key", "album_unkeyed", "change", "change_album",
        "change_album_change",
        "change_tag", "change_track", "cover", "cover_none", "folder_album", "folder_album_mb_albumid", "listen_queue",
        "lookup_none", "source", "sqlite_sequence",
        "state", "track",
        "track_album", "track_edit", "view", "write_journal",
      ])
  }

  /// Opening checks a file against the schema written out in `Schema.currentObjects`; it
  /// must be exactly what the migrations make, or every library would be refused (or a
  /// tampered one let in).
  @Test func theWrittenOutSchemaIsWhatTheMigrationsMake() throws {
    let migrated = try Schema.migratedObjects(atVersion: Schema.version)
    let listing = migrated.map { "    " + String(reflecting: $0) + "," }.joined(separator: "\n")
    #expect(
      Schema.currentObjects == migrated,
      "Schema.currentObjects is out of date: replace it with\n\(listing)")
    // And the file `open` creates has exactly those objects.
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path)
    #expect(try DatabaseQueue(path: path).read { db in try Schema.objects(in: db) } == migrated)
  }

  /// A start checks a file of this build's schema in one pass over SQLite's bytes: it must
  /// say yes to the file `open` makes, and no to one with an object more, one less, or one
  /// changed (those then go the long way, which names what differs).
  @Test func theQuickSchemaCheckSeesAnObjectMoreLessOrChanged() throws {
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path)
    let queue = try DatabaseQueue(path: path)
    #expect(try queue.read { db in try Schema.holdsTheCurrentObjects(db) })
    for change in [
      "CREATE INDEX extra ON album(year)", "DROP INDEX album_position",
      "DROP INDEX album_position; CREATE INDEX album_position ON album(position DESC)",
    ] {
      let copy = directory.file("copy-\(change.utf8.count).sqlite")
      try FileManager.default.copyItem(atPath: path, toPath: copy)
      let changed = try DatabaseQueue(path: copy)
      try changed.write { db in try db.execute(sql: change) }
      #expect(try changed.read { db in try Schema.holdsTheCurrentObjects(db) } == false, "\(change)")
    }
  }

  /// A new file gets the current schema at once, not by running every migration: it holds
  /// the rows the migrations leave in the state table too (the cover scan to do, the time
  /// before which albums have no `added`), and `user_version` says it is current.
  @Test func aNewFileHoldsWhatTheMigrationsLeaveInIt() throws {
    let migrated = try DatabaseQueue()
    try migrated.write { db in try Schema.migrate(db, from: 0) }
    let stateKeys = "SELECT key FROM state ORDER BY key"
    let expected = try migrated.read { db in try String.fetchAll(db, sql: stateKeys) }
    #expect(expected == ["addedBefore", "coverScan"])
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path)
    let file = try DatabaseQueue(path: path)
    let keys = try file.read { db in try String.fetchAll(db, sql: stateKeys) }
    #expect(Set(expected).isSubset(of: keys), "state keys \(keys)")
    let added = try file.read { db in try Int.fetchOne(db, sql: "SELECT value FROM state WHERE key = 'addedBefore'") }
    #expect(abs((added ?? 0) - Int(Date().timeIntervalSince1970)) < 600)
    #expect(try file.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Schema.version)
  }

  /// A version-17 library gets the listen queue (version 18, issue 49 item 2) when opened,
  /// its albums kept; listens queued there are claimed oldest first by this process, left
  /// alone for another process that runs, taken over from one that is gone, and go only
  /// when taken out.
  @Test func aVersion17LibraryGetsTheListenQueueAndListensAreClaimedOnce() throws {
    let path = directory.file("library.sqlite")
    do {
      let store = try AlbumStore.open(path: path)
      try store.queue.write { db in
        try Schema.downgrade(to: 17, db)
        try db.execute(sql: "PRAGMA user_version = 17")
      }
    }
    let store = try AlbumStore.open(path: path)
    #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Schema.version)
    #expect(try store.count() == DefaultCatalogue.albums.count)
    let queue = try Library.open(path: path).listenQueue
    try queue.add(#"{"listened_at":300}"#, listenedAt: 300)
    try queue.add(#"{"listened_at":100}"#, listenedAt: 100)
    try queue.add(#"{"listened_at":200}"#, listenedAt: 200)
    #expect(try queue.count() == 3)
    // Another process that runs (this test's parent) is sending the oldest: left alone.
    let parent = try #require(ProcessIdentity.of(getppid()))
    try store.queue.write { db in
      try db.execute(sql: "UPDATE listen_queue SET sender = ? WHERE listened_at = 100", arguments: [parent.text])
    }
    #expect(try queue.claim(10).map(\.listen) == [#"{"listened_at":200}"#, #"{"listened_at":300}"#])
    // One gone (a pid no process has): taken over.
    try store.queue.write { db in
      try db.execute(
        sql: "UPDATE listen_queue SET sender = ? WHERE listened_at = 100",
        arguments: [ProcessIdentity(pid: 0x7FFF_FFF0, start: 1, boot: parent.boot).text])
    }
    let claimed = try queue.claim(2)
    #expect(claimed.map(\.listen) == [#"{"listened_at":100}"#, #"{"listened_at":200}"#])
    try queue.remove(claimed.map(\.id))
    #expect(try queue.count() == 1)
  }

  @Test func reopeningKeepsEveryChangeAndTheSelection() throws {
    let path = directory.file("library.sqlite")
    do {
      let store = try AlbumStore.open(path: path)
      let origin = ChangeOrigin(session: "test", selection: 0)
      _ = try store.delete(id: try #require(store.album(at: 0).id), selecting: nil, origin: origin)
      _ = try store.add(album("Heroes", year: 1977), at: 2, origin: origin)
      _ = try store.move(id: try #require(store.album(at: 0).id), to: 3, origin: origin)
      _ = try store.importAlbums([album("Low")], origin: ChangeOrigin(session: "test", selection: 5))
    }
    let reopened = try AlbumStore.open(path: path)
    #expect(
      try reopened.titles() == [
        "Nothing Like The Sun", "Heroes", "Staring at the Sun", "It's My Life", "American Pie", "Low",
      ])
    #expect(try reopened.selectedIndex() == 5)
    #expect(try reopened.storedPositions() == Array(0..<6))
  }

  @Test func anEmptyFileLeftByAnInterruptedCreationIsCreatedAfresh() throws {
    let path = directory.file("library.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    #expect(try AlbumStore.open(path: path).count() == 5)
    let emptyDatabase = directory.file("empty.sqlite")
    try DatabaseQueue(path: emptyDatabase).writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
    #expect(try AlbumStore.open(path: emptyDatabase).count() == 5)
  }

  @Test func controlCharactersInTitlesSurviveOnDisk() throws {
    let path = directory.file("library.sqlite")
    let title = "\u{1B}]0;pwned\u{7}\u{1B}[2J tab\t cr\r lf\n"
    _ = try AlbumStore.open(path: path).importAlbums(
      [Album(title: title)], origin: ChangeOrigin(session: "test", selection: 0))
    let stored = try AlbumStore.open(path: path).album(at: 5)
    #expect(Array(stored.title.utf8) == Array(title.utf8))
  }

  @Test func aCrashMidImportLeavesTheLibraryAsItWasBefore() throws {
    let path = directory.file("library.sqlite")
    let crashed = directory.file("crashed.sqlite")
    let store = try AlbumStore.open(path: path)
    _ = try store.delete(
      id: try #require(store.album(at: 0).id), selecting: 0, origin: ChangeOrigin(session: "test", selection: 0))
    let before = try store.all()
    let batch = (0..<50_000).map { album("Album \($0) " + String(repeating: "x", count: 60)) }
    // Mid-transaction (the page cache has spilled to the file), copy the file
    // and its journal: what a `kill -9` at that moment leaves on disk.
    struct Crash: Error {}
    #expect(throws: Crash.self) {
      try store.queue.write { db in
        try AlbumStore.insertAll(batch, from: before.count, db)
        try FileManager.default.copyItem(atPath: path, toPath: crashed)
        try FileManager.default.copyItem(atPath: path + "-journal", toPath: crashed + "-journal")
        throw Crash()
      }
    }
    #expect(try FileSnapshot(crashed) != FileSnapshot(path), "the copy should hold part of the import")
    let recovered = try AlbumStore.open(path: crashed)
    #expect(try recovered.all() == before)
    #expect(try recovered.selectedIndex() == 0)
    #expect(!FileManager.default.fileExists(atPath: crashed + "-journal"))
  }

  // MARK: - Files that must be refused and left alone

  /// Opens `path`, expects `cannotOpen` with `reason`, and checks the file did not change.
  private func expectRefused(_ path: String, reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = try FileSnapshot(path)
    let siblings = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    Thread.sleep(forTimeInterval: 0.01)  // so a write would show in the mtime
    let error = libraryError { () throws(LibraryError) in try AlbumStore.open(path: path) }
    #expect(error == .cannotOpen(path: path, reason: reason), sourceLocation: sourceLocation)
    #expect(error?.description == "cannot open library '\(path)': \(reason)", sourceLocation: sourceLocation)
    #expect(try FileSnapshot(path) == before, "the file was modified", sourceLocation: sourceLocation)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == siblings,
      "files were left next to it", sourceLocation: sourceLocation)
  }

  @Test func aFileOfRandomBytesIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    try expectRefused(path, reason: "file is not a database")
  }

  @Test func aTextFileIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    try Data("title,artist\nBest of Bowie,David Bowie\n".utf8).write(to: URL(fileURLWithPath: path))
    try expectRefused(path, reason: "file is not a database")
  }

  @Test func aFileWithASQLiteHeaderButGarbageAfterIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    var bytes = Array("SQLite format 3\0".utf8)
    bytes += (0..<8176).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    try expectRefused(path, reason: "file is not a database")
  }

  @Test func aDamagedPageIsReportedWhenReadWithoutCrashingOrRewritingTheFile() throws {
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path).importAlbums(
      (0..<2000).map { album("Album \($0) " + String(repeating: "x", count: 100)) },
      origin: ChangeOrigin(session: "test", selection: 0))
    // Scribble over the header and cell pointers of each page that holds this album's
    // title (its row, wherever the schema's pages put it, and any copy): what every read of
    // those pages goes through.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    var pages: Set<Int> = []
    var from = bytes.startIndex
    while let row = bytes.range(of: Data("Album 1000 xxxx".utf8), in: from..<bytes.endIndex) {
      pages.insert(row.lowerBound / 4096)
      from = row.upperBound
    }
    #expect(!pages.isEmpty)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    for page in pages {
      try handle.seek(toOffset: UInt64(page * 4096))
      handle.write(Data(repeating: 0xA5, count: 2000))
    }
    try handle.close()
    let before = try FileSnapshot(path)
    // Opening does not scan every page (it must cost the same for a million albums)…
    let store = try AlbumStore.open(path: path)
    // …so the damage shows up as a clear error on the read that reaches it.
    let error = libraryError { () throws(LibraryError) in _ = try store.all() }
    guard case .database(let message) = error else {
      Issue.record("expected a database error, got \(String(describing: error))")
      return
    }
    #expect(!message.isEmpty && !message.contains("\n"), "message: \(message)")
    #expect(try FileSnapshot(path) == before)
  }

  @Test func aLibraryFromANewerBluelibIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path)
    try DatabaseQueue(path: path).writeWithoutTransaction {
      try $0.execute(sql: "PRAGMA user_version = \(Schema.version + 1)")
    }
    try expectRefused(
      path,
      reason: "created by a newer version of bluelib (schema \(Schema.version + 1), this build knows \(Schema.version))"
    )
  }

  @Test func anotherApplicationsDatabaseIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    try DatabaseQueue(path: path).writeWithoutTransaction { db in
      try db.execute(
        sql: "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE orders (id INTEGER)")
      try db.execute(sql: "INSERT INTO customers (name) VALUES ('Ada')")
    }
    try expectRefused(path, reason: "not a bluelib library (it has tables 'customers', 'orders')")
  }

  /// Another program's database caught mid-transaction (a hot journal beside it): reading
  /// it would make SQLite roll the journal back into the file, so it is refused unread.
  @Test func anotherApplicationsDatabaseWithAHotJournalIsRefusedUntouched() throws {
    let live = directory.file("live.sqlite")
    let path = directory.file("library.sqlite")
    let queue = try DatabaseQueue(path: live)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
      try db.execute(sql: "PRAGMA cache_size = 1")  // so the transaction spills into the file
      try db.execute(sql: "BEGIN")
      for n in 0..<2000 {
        try db.execute(sql: "INSERT INTO customers (name) VALUES (?)", arguments: [String(repeating: "x", count: n)])
      }
      // A crash now leaves these two files: copy them as they are.
      try FileManager.default.copyItem(atPath: live, toPath: path)
      try FileManager.default.copyItem(atPath: live + "-journal", toPath: path + "-journal")
      try db.execute(sql: "ROLLBACK")
    }
    try queue.close()
    try FileManager.default.removeItem(atPath: live)
    let journal = try FileSnapshot(path + "-journal")
    try expectRefused(
      path, reason: "not a bluelib library (it has a journal: another program may be changing it)")
    #expect(try FileSnapshot(path + "-journal") == journal, "the journal was rolled back")
  }

  @Test func aDatabaseStampedByAnotherApplicationIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    try DatabaseQueue(path: path).writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA application_id = 1234; CREATE TABLE album (x)")
    }
    try expectRefused(path, reason: "not a bluelib library (application id 0x4d2)")
  }

  @Test func aLibraryMissingAColumnIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path)
    try DatabaseQueue(path: path).writeWithoutTransaction { db in
      try db.execute(sql: "ALTER TABLE album DROP COLUMN genre")
    }
    try expectRefused(path, reason: "damaged library: table 'album' has no column 'genre'")
  }

  @Test func aDirectoryInPlaceOfTheFileIsRefused() throws {
    let path = directory.file("library.sqlite")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    let error = libraryError { () throws(LibraryError) in try AlbumStore.open(path: path) }
    #expect(error?.description == "cannot open library '\(path)': it is a directory")
  }

  @Test func aFileInPlaceOfTheDirectoryIsRefused() throws {
    try Data("x".utf8).write(to: URL(fileURLWithPath: directory.file("data")))
    let path = directory.file("data/library.sqlite")
    let error = libraryError { () throws(LibraryError) in try AlbumStore.open(path: path) }
    #expect(error?.description == "cannot open library '\(path)': not a directory")
  }

  /// root reads and writes any file whatever its mode, so this runs only for other users.
  @Test(.enabled(if: geteuid() != 0, "running as root, which ignores file permissions"))
  func anUnreadableFileIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path)
    let before = try FileSnapshot(path)
    #expect(chmod(path, 0o000) == 0)
    defer { chmod(path, 0o644) }
    let error = libraryError { () throws(LibraryError) in try AlbumStore.open(path: path) }
    #expect(error == .cannotOpen(path: path, reason: "permission denied"))
    chmod(path, 0o644)
    #expect(try FileSnapshot(path) == before)
  }

  @Test(.enabled(if: geteuid() != 0, "running as root, which ignores file permissions"))
  func aReadOnlyFileIsRefusedUntouched() throws {
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path)
    #expect(chmod(path, 0o444) == 0)
    defer { chmod(path, 0o644) }
    try expectRefused(path, reason: "permission denied (the file is read-only)")
  }

  /// Once SQLite has reported the file damaged, no change is written to it, even one that
  /// misses the damaged pages (round 3, F18: `move` went on changing a broken file).
  @Test func aLibraryFoundDamagedTakesNoMoreChanges() throws {
    let path = directory.file("library.sqlite")
    do {
      let store = try AlbumStore.open(path: path)
      let albums = (0..<20_000).map { Album(title: "Album \($0)", artist: "Artist \($0 % 97)") }
      _ = try store.importAlbums(albums, origin: ChangeOrigin(session: "s", selection: 0))
    }
    // Garbage over the middle of the file: album rows and index pages, not the schema.
    let file = try #require(FileHandle(forUpdatingAtPath: path))
    let size = try file.seekToEnd()
    try file.seek(toOffset: size * 2 / 5 / 4096 * 4096)
    try file.write(contentsOf: Data(repeating: 0xAB, count: Int(size / 4 / 4096 * 4096)))
    try file.close()

    let store = try AlbumStore.open(path: path)
    let first = try store.album(at: 0)
    #expect(libraryError { () throws(LibraryError) in try store.all() } != nil)
    let refused = libraryError { () throws(LibraryError) in
      try store.move(id: first.id!, to: 2, origin: ChangeOrigin(session: "s", selection: 0))
    }
    #expect(refused == .damaged)
    #expect(refused?.description.hasPrefix("the library file is damaged") == true)
    #expect(try store.album(at: 0) == first, "reads go on")
    // Without the damage found first, the same change goes through: the refusal above is
    // the store's, not SQLite's.
    let unaware = try AlbumStore.open(path: path)
    _ = try unaware.move(id: first.id!, to: 2, origin: ChangeOrigin(session: "s", selection: 0))
    #expect(try unaware.album(at: 2).id == first.id)
  }
}
