import AlbumModel
internal import BlueSQL
import BlueSystem
import FoundationEssentials
import Synchronization

/// The album library, stored in one SQLite file.
///
/// Albums keep a dense 0-based `position` (0..<count, indexed), so finding the
/// album at an index, a page of the viewport, or the count are index look-ups,
/// never scans, even with millions of albums.
///
/// Every change is one transaction, including the selection it leaves and its step
/// in the undo log (AlbumStore+Changes.swift): after a crash the file holds the state
/// before or after the call. Undo and redo act on album ids, so they work in the next
/// run and beside another shell on the same file.
///
/// - Important: All methods are synchronous and may be called from any thread;
///   BlueSQL's `DatabaseQueue` serialises them.
package final class AlbumStore: Sendable {
  /// The library file, or nil for an in-memory store.
  package let path: String?
  let queue: DatabaseQueue
  /// Set once SQLite has reported the file damaged (SQLITE_CORRUPT, SQLITE_NOTADB): from
  /// then on every change is refused, so a change that happens to miss the damaged pages
  /// cannot write more into a broken file. Reads go on, for `export` to save what it can.
  let damaged = Atomic<Bool>(false)
  /// How many transactions this store has run (every change goes through one, from any
  /// thread): what the library's copies of albums are checked against.
  let writeCount = Atomic<Int>(0)
  /// `PRAGMA data_version` as the open snapshot read it (``beginSnapshot()``), else
  /// ``noDataVersion``.
  let snapshotDataVersion = Atomic<Int>(AlbumStore.noDataVersion)
  /// The statements of ``HotStatement``, by number, once made (``hotStatement(_:_:)``).
  /// Touched only on the queue, which serialises every use of the connection they belong to.
  nonisolated(unsafe) var hotStatements = [Statement?](repeating: nil, count: HotStatement.allCases.count)
  /// What its statements stop for (``StatementStop``).
  let statementStop: StatementStop

  init(path: String?, queue: DatabaseQueue, stop: StatementStop) {
    self.path = path
    self.queue = queue
    self.statementStop = stop
  }

  /// A fresh in-memory library holding `albums` (the default catalogue unless told), for tests.
  package static func inMemory(seed albums: [Album] = DefaultCatalogue.albums) -> AlbumStore {
    do {
      var configuration = Configuration()
      configuration.allowsUnsafeTransactions = true
      let stop = StatementStop(.never)
      configuration.prepareDatabase { db in AlbumStore.installQueryFunctions(db, stop: stop) }
      let queue = try DatabaseQueue(configuration: configuration)
      try queue.write { db in try Schema.create(db, seed: albums) }
      return AlbumStore(path: nil, queue: queue, stop: stop)
    } catch {
      preconditionFailure("cannot create an in-memory library: \(error)")
    }
  }

  // MARK: - Reading

  /// The number of albums: `MAX(position) + 1` read from the position index, O(log n).
  package func count() throws(LibraryError) -> Int {
    try reading { db in try Self.count(db) }
  }

  /// The album at a 0-based index.
  package func album(at index: Int) throws(LibraryError) -> Album {
    try reading { db in try Self.album(at: index, db) }
  }

  /// The albums at the 0-based `range`, in order (what the viewport shows).
  package func albums(in range: Range<Int>) throws(LibraryError) -> [Album] {
    try reading { db in
      let albums =
        range.lowerBound < 0 || range.isEmpty
        ? []
        : try Self.fastAlbums(
          db, statement: hotStatement(.albumsInRange, db),
          bindings: [Int64(range.lowerBound), Int64(range.upperBound)])
      // One statement when the range is there (positions are dense); the count only for the error.
      let inRange =
        try range.lowerBound >= 0 && albums.count == range.count
        && (!range.isEmpty || range.upperBound <= Self.count(db))
      guard inRange else {
        throw LibraryError.noAlbums(range: range, count: try Self.count(db))
      }
      return albums
    }
  }

  /// Every album in order (for `export`).
  package func all() throws(LibraryError) -> [Album] {
    try reading { db in try Self.all(db) }
  }

  /// Whether any album has a music-folder field (tracks, duration or folder).
  package func hasMusicFields() throws(LibraryError) -> Bool {
    try reading { db in
      try Bool.fetchOne(
        db,
        sql:
          "SELECT EXISTS (SELECT 1 FROM album WHERE tracks IS NOT NULL OR duration IS NOT NULL OR folder IS NOT NULL)"
      ) ?? false
    }
  }

  /// The index of the first album titled exactly `title`, else of the first whose
  /// title equals it ignoring case, else nil.
  package func firstIndex(ofTitle title: String) throws(LibraryError) -> Int? {
    try indices(ofTitle: title, limit: 1).first
  }

  /// The indices of the albums titled exactly `title` or, when there is none, of those
  /// whose title equals it ignoring case; in order, at most `limit`.
  package func indices(ofTitle title: String, limit: Int) throws(LibraryError) -> [Int] {
    try reading { db in
      let exact = try Int.fetchAll(
        db, sql: "SELECT position FROM album WHERE title = ? ORDER BY position LIMIT ?", arguments: [title, limit])
      if !exact.isEmpty { return exact }
      // SQLite's NOCASE folds ASCII only; compare in Swift for the rest.
      let folded = title.lowercased()
      let cursor = try Row.fetchCursor(
        db,
        sql:
          "SELECT title, position FROM album WHERE title = ? COLLATE NOCASE OR title GLOB '*[^ -~]*' ORDER BY position",
        arguments: [title])
      var found: [Int] = []
      while found.count < limit, let row = try cursor.next() {
        if (row[0] as String).lowercased() == folded { found.append(row[1]) }
      }
      return found
    }
  }

  /// Now, in whole seconds since 1970: the `added` time of the albums a change stores new.
  static var addedNow: Int64 { Int64(Date().timeIntervalSince1970.rounded(.down)) }

  /// The albums in which every word of `query` appears in the title, artist, genre or
  /// year, ignoring case and accents (`cafe` finds "Café", `bjork jazz` finds Björk's jazz
  /// albums), in order, starting at index `start`; at most `limit` of them.
  ///
  /// Page through a long result by passing the last album's `position + 1` as `start`.
  /// SQLite's `LIKE` narrows the rows (it folds ASCII case only, so rows with other
  /// characters are let through), and only those rows are folded and checked here.
  package func search(_ query: String, from start: Int = 0, limit: Int? = nil) throws(LibraryError) -> [Album] {
    let words = query.split(whereSeparator: \.isWhitespace).map { AlbumQuery.fold(String($0)) }
    // SQLite's own limits (expression depth, LIKE pattern length) would say "library
    // database error"; a query past these is the user's to shorten, not a damaged file.
    if words.count > AlbumQuery.maximumWords || words.contains(where: { $0.utf8.count > AlbumQuery.maximumWordBytes }) {
      throw .queryTooLong(words: AlbumQuery.maximumWords, bytes: AlbumQuery.maximumWordBytes)
    }
    return try reading { db in
      if words.isEmpty {
        return try Self.fastAlbums(
          db, sql: "SELECT \(Album.selection) FROM album WHERE position >= ? ORDER BY position LIMIT ?",
          Int64(start), Int64(limit.map { max(0, $0) } ?? -1))
      }
      let nonASCII = "(title || artist || genre) GLOB '*[^ -~]*'"
      var conditions: [String] = []
      var arguments: [(any DatabaseValueConvertible)?] = [start]
      for word in words {
        guard word.utf8.allSatisfy({ $0 < 0x80 }) else {
          conditions.append(nonASCII)
          continue
        }
        arguments.append("%" + Self.escapeLike(word) + "%")
        let n = arguments.count
        conditions.append(
          "(title LIKE ?\(n) ESCAPE '\\' OR artist LIKE ?\(n) ESCAPE '\\' OR genre LIKE ?\(n) ESCAPE '\\'"
            + " OR year LIKE ?\(n) ESCAPE '\\' OR \(nonASCII))")
      }
      let cursor = try Album.fetchCursor(
        db,
        sql: "SELECT \(Album.selection) FROM album WHERE position >= ?1 AND "
          + conditions.joined(separator: " AND ") + " ORDER BY position",
        arguments: StatementArguments(arguments))
      var found: [Album] = []
      while found.count < limit ?? Int.max, let album = try cursor.next() {
        if Self.matches(album, words) { found.append(album) }
      }
      return found
    }
  }

  /// Whether every folded word appears in the album's fields (an ASCII album already
  /// matched SQLite's `LIKE`, which is the same test).
  static func matches(_ album: Album, _ words: [String]) -> Bool {
    let fields = [album.title, album.artist, album.genre]
    if fields.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) && words.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } })
    {
      return true
    }
    let haystack = AlbumQuery.fold(fields.joined(separator: "\n") + "\n" + (album.year.map(String.init) ?? ""))
    return words.allSatisfy { haystack.contains($0) }
  }

  /// The selected album's index, or nil when nothing is selected.
  package func selectedIndex() throws(LibraryError) -> Int? {
    try reading { db in try Self.readSelection(db) }
  }

  // MARK: - Changing

  /// Selects the album at `index` (nil: none). Not an undoable change, but stored at once.
  package func setSelectedIndex(_ index: Int?) throws(LibraryError) {
    try writing { db in try Self.select(index, db) }
  }

  // MARK: - Inside a transaction

  static func count(_ db: Database) throws -> Int {
    // A bare MAX over an indexed column is answered from the index's last entry.
    try fastInteger(db, sql: "SELECT MAX(position) FROM album").map { $0 + 1 } ?? 0
  }

  static func album(at index: Int, _ db: Database) throws -> Album {
    guard index >= 0,
      let album = try fastAlbums(db, sql: "SELECT \(Album.selection) FROM album WHERE position = ?", Int64(index)).first
    else {
      throw LibraryError.noAlbum(index: index, count: try count(db))
    }
    return album
  }

  static func all(_ db: Database) throws -> [Album] {
    try Album.fetchAll(db, sql: "SELECT \(Album.selection) FROM album ORDER BY position")
  }

  /// The text kept under `key` in the library's state (nil when there is none).
  func stateText(_ key: String) throws(LibraryError) -> String? {
    try reading { db in try Self.stateText(key, db) }
  }

  /// ``stateText(_:)`` inside a transaction already open.
  static func stateText(_ key: String, _ db: Database) throws -> String? {
    // A cached statement: a start reads a dozen keys, and preparing each anew cost more
    // than the reads.
    try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM state WHERE key = ?"), arguments: [key])
  }

  /// Keeps `value` under `key` in the library's state (removes the key when nil). Not a
  /// change of the library: no step, no undo.
  func setStateText(_ key: String, _ value: String?) throws(LibraryError) {
    try writing { db in try Self.setStateText(key, value, db) }
  }

  /// Keeps each of `values` as ``setStateText(_:_:)`` does, in one transaction.
  func setStateTexts(_ values: [(key: String, value: String?)]) throws(LibraryError) {
    try writing { db in
      for (key, value) in values { try Self.setStateText(key, value, db) }
    }
  }

  /// ``setStateText(_:_:)`` inside a transaction already open.
  static func setStateText(_ key: String, _ value: String?, _ db: Database) throws {
    if let value {
      try db.execute(sql: "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", arguments: [key, value])
    } else {
      try db.execute(sql: "DELETE FROM state WHERE key = ?", arguments: [key])
    }
  }

  static func readSelection(_ db: Database) throws -> Int? {
    try fastInteger(db, sql: "SELECT value FROM state WHERE key = 'selectedIndex'")
  }

  static func writeSelection(_ index: Int?, _ db: Database) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO state (key, value) VALUES ('selectedIndex', ?)", arguments: [index])
  }

  /// Sets the selection to `index` when given (it must be a valid index), else
  /// keeps the current one if it is still valid, else clamps it.
  static func select(_ index: Int?, _ db: Database) throws {
    let count = try count(db)
    if let index {
      guard (0..<count).contains(index) else { throw LibraryError.noAlbum(index: index, count: count) }
      try writeSelection(index, db)
    } else if let current = try readSelection(db), current >= count || current < 0 {
      try writeSelection(count == 0 ? nil : count - 1, db)
    }
  }

  static func escapeLike(_ text: String) -> String {
    var out = ""
    for character in text {
      if character == "%" || character == "_" || character == "\\" { out.append("\\") }
      out.append(character)
    }
    return out
  }

  // MARK: - Error mapping

  /// Runs `body` on the connection as it is, outside a transaction: each statement reads
  /// a consistent snapshot on its own. Not `DatabaseQueue.read`, which switches `PRAGMA
  /// query_only` on and off around every call; SQLite expires every prepared statement on
  /// that, so each command would parse its SQL again. A body that needs several statements
  /// to agree must not assume the file unchanged between them.
  func reading<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
    do {
      return try queue.inDatabase(body)
    } catch {
      throw noting(error)
    }
  }

  func writing<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
    try transaction(.deferred, body)
  }

  /// Runs `body` in a `kind` transaction, ending an open snapshot first (``beginSnapshot()``).
  func transaction<T>(_ kind: Database.TransactionKind, _ body: (Database) throws -> T) throws(LibraryError) -> T {
    if damaged.load(ordering: .relaxed) { throw .damaged }
    defer { writeCount.add(1, ordering: .relaxed) }
    do {
      return try queue.writeWithoutTransaction { db in
        try endSnapshot(db)
        var result: T?
        try db.inTransaction(kind) {
          result = try body(db)
          return .commit
        }
        guard let result else { throw LibraryError.database("a change returned nothing") }
        return result
      }
    } catch {
      throw noting(error)
    }
  }

  /// The library error for `error`, noting first whether it says the file is damaged.
  private func noting(_ error: any Error) -> LibraryError {
    if let error = error as? DatabaseError, error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
      damaged.store(true, ordering: .relaxed)
    }
    return Self.libraryError(error)
  }

  // MARK: - Snapshots

  /// Lets the reads until ``endSnapshot()`` share one read transaction: SQLite takes the
  /// file's shared lock and checks the file for changes once, not once per statement (a
  /// `scroll right` reads twice: `data_version`, then the page of cards). The first change
  /// ends the snapshot before it starts its own transaction, so writes wait for other
  /// shells exactly as before.
  ///
  /// - Important: End it before waiting for anything (input, a download): a held shared
  ///   lock keeps other shells from committing.
  ///
  /// It reads `data_version` at once, the read that takes the lock, and keeps it for
  /// ``dataVersion()`` until the snapshot ends: a command's first question, answered
  /// without a second trip through the queue.
  package func beginSnapshot() {
    try? queue.inDatabase { db in
      // SQLite's own answer: `Database.isInsideTransaction` also counts a transaction block.
      guard sqlite3_get_autocommit(db.sqliteConnection) != 0 else { return }
      try Self.fastExecute(db, statement: hotStatement(.begin, db))
      snapshotDataVersion.store(
        try Self.fastInteger(db, statement: hotStatement(.dataVersion, db)) ?? 0, ordering: .relaxed)
    }
  }

  /// Ends the read transaction ``beginSnapshot()`` started, if it is still open.
  package func endSnapshot() {
    try? queue.inDatabase { db in
      try endSnapshot(db)
    }
  }

  /// What ``snapshotDataVersion`` holds when no snapshot read it.
  static let noDataVersion = -1

  /// Ends an open snapshot (a read transaction: nothing to write, nothing to lose) and
  /// forgets the data version it read.
  func endSnapshot(_ db: Database) throws {
    snapshotDataVersion.store(Self.noDataVersion, ordering: .relaxed)
    if sqlite3_get_autocommit(db.sqliteConnection) == 0 {
      try Self.fastExecute(db, statement: hotStatement(.commit, db))
    }
  }

  static func libraryError(_ error: any Error) -> LibraryError {
    switch error {
    case let error as LibraryError: error
    // Stopped on request (``StatementStop``): rolled back, nothing changed.
    case let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT: .cancelled
    case let error as DatabaseError where error.message?.hasPrefix(BoundedMatch.tooSlowMarker) == true:
      .patternTooSlow(pattern: String(error.message!.dropFirst(BoundedMatch.tooSlowMarker.count)))
    case let error as DatabaseError: .database(reason(error))
    default: .database(String(describing: error))
    }
  }

  /// A lowercase reason for a SQLite error, in the words a user can act on.
  static func reason(_ error: DatabaseError) -> String {
    if error.extendedResultCode == .SQLITE_READONLY_ROLLBACK {
      return "a change interrupted by a crash must be rolled back first"
    }
    return switch error.resultCode {
    case .SQLITE_NOTADB: "file is not a database"
    case .SQLITE_CORRUPT: "the file is damaged (database disk image is malformed)"
    case .SQLITE_BUSY, .SQLITE_LOCKED: "the library is locked by another process"
    case .SQLITE_PERM, .SQLITE_AUTH: "permission denied"
    case .SQLITE_READONLY: "permission denied (the library is read-only)"
    case .SQLITE_FULL: "the disk is full"
    case .SQLITE_CANTOPEN: "unable to open the database file"
    default: error.message ?? "\(error.resultCode)"
    }
  }
}
