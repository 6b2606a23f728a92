import AlbumModel
internal import BlueSQL

#if canImport(Glibc)
  import Glibc
#endif

/// The reads every command makes — the data version, the count, a page of cards, one
/// album, a page of `list`, and the `BEGIN`/`COMMIT` around them — stepped with SQLite's C
/// API over BlueSQL's prepared statements.
///
/// Generic row decoding (a `Row` and a column-name table per query, a dynamic cast per
/// column: GRDB's, measured before BlueSQL replaced it, which kept that shape) cost about
/// five times what SQLite itself spends on these queries, and a piped `scroll right` runs
/// two of them. Only these hot reads go this way; everything else uses BlueSQL's rows.
extension AlbumStore {
  /// The albums `sql` (selecting ``Album/selection``) returns with `bindings` bound in order.
  static func fastAlbums(_ db: Database, sql: String, _ bindings: Int64...) throws -> [Album] {
    try fastAlbums(db, sql: sql, bindings: bindings)
  }

  /// ``fastAlbums(_:sql:_:)`` with the bindings as an array.
  static func fastAlbums(_ db: Database, sql: String, bindings: [Int64]) throws -> [Album] {
    try fastAlbums(db, statement: db.cachedStatement(sql: sql), bindings: bindings)
  }

  /// ``fastAlbums(_:sql:_:)`` of a statement made already (``hotStatement(_:_:)``).
  static func fastAlbums(_ db: Database, statement: Statement, bindings: [Int64]) throws -> [Album] {
    var albums: [Album] = []
    try step(db, statement, bindings) { row in
      var album = Album(
        id: sqlite3_column_int64(row, 0), title: text(row, 1), artist: text(row, 2), genre: text(row, 3),
        year: integer(row, 4), coverURL: text(row, 5), position: Int(sqlite3_column_int64(row, 6)),
        coverCached: sqlite3_column_int64(row, 7) != 0, tracks: integer(row, 8),
        duration: sqlite3_column_type(row, 9) == SQLITE_NULL ? nil : sqlite3_column_double(row, 9),
        folder: sqlite3_column_type(row, 10) == SQLITE_NULL ? nil : text(row, 10))
      if sqlite3_column_type(row, 11) != SQLITE_NULL { album.sourceKey = text(row, 11) }
      album.rating = integer(row, 12)
      album.favourite = sqlite3_column_int64(row, 13) != 0
      albums.append(album)
      return true
    }
    return albums
  }

  /// The first column of the first row `sql` returns, or nil (no row, or NULL).
  static func fastInteger(_ db: Database, sql: String, _ bindings: Int64...) throws -> Int? {
    try fastInteger(db, statement: db.cachedStatement(sql: sql), bindings)
  }

  /// ``fastInteger(_:sql:_:)`` of a statement made already (``hotStatement(_:_:)``).
  static func fastInteger(_ db: Database, statement: Statement, _ bindings: [Int64] = []) throws -> Int? {
    var value: Int?
    try step(db, statement, bindings) { row in
      if sqlite3_column_type(row, 0) != SQLITE_NULL { value = Int(sqlite3_column_int64(row, 0)) }
      return false
    }
    return value
  }

  /// The rows `sql` returns, each as its columns' texts (`""` for NULL).
  static func fastTexts(_ db: Database, sql: String) throws -> [[String]] {
    var rows: [[String]] = []
    try step(db, sql: sql, []) { row in
      let columns = sqlite3_column_count(row)
      rows.append((0..<columns).map { text(row, $0) })
      return true
    }
    return rows
  }

  /// Whether the rows of `sql` are, in order, exactly `expected`, each row's text columns
  /// written as `format` joins them (a column's bytes where `format` has nil): compared as
  /// bytes as SQLite hands them over, no text made (a start compares the schema so).
  static func fastRowsMatch(
    _ db: Database, sql: String, format: [[UInt8]?], expected: [[UInt8]]
  ) throws -> Bool {
    var index = 0
    var matches = true
    try step(db, sql: sql, []) { row in
      guard index < expected.count else {
        matches = false
        return false
      }
      matches = expected[index].withUnsafeBufferPointer { line in
        var offset = 0
        var column: Int32 = 0
        func follows(_ part: UnsafeBufferPointer<UInt8>) -> Bool {
          guard offset + part.count <= line.count,
            part.isEmpty || memcmp(line.baseAddress! + offset, part.baseAddress!, part.count) == 0
          else { return false }
          offset += part.count
          return true
        }
        for piece in format {
          if let piece {
            guard piece.withUnsafeBufferPointer(follows) else { return false }
          } else {
            guard follows(bytes(row, column)) else { return false }
            column += 1
          }
        }
        return offset == line.count
      }
      index += 1
      return matches
    }
    return matches && index == expected.count
  }

  /// Runs `sql` (a statement that returns no rows, such as `BEGIN`) to its end.
  static func fastExecute(_ db: Database, sql: String) throws {
    try fastExecute(db, statement: db.cachedStatement(sql: sql))
  }

  /// ``fastExecute(_:sql:)`` of a statement made already (``hotStatement(_:_:)``).
  static func fastExecute(_ db: Database, statement: Statement) throws {
    try step(db, statement, []) { _ in false }
  }

  /// Runs the cached statement for `sql` with `bindings`, calling `row` for each row until
  /// it returns false; the statement is reset afterwards, ready for BlueSQL or the next call.
  fileprivate static func step(
    _ db: Database, sql: String, _ bindings: [Int64], _ row: (OpaquePointer) throws -> Bool
  ) throws {
    try step(db, db.cachedStatement(sql: sql), bindings, row)
  }

  /// ``step(_:sql:_:_:)`` of `statement`.
  fileprivate static func step(
    _ db: Database, _ prepared: Statement, _ bindings: [Int64], _ row: (OpaquePointer) throws -> Bool
  ) throws {
    let statement = prepared.sqliteStatement
    // The statement's SQL, for an error's message.
    var sql: String { prepared.sql }
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (index, value) in bindings.enumerated() {
      let code = sqlite3_bind_int64(statement, Int32(index + 1), value)
      guard code == SQLITE_OK else { throw failure(db, code, sql) }
    }
    while true {
      let code = sqlite3_step(statement)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw failure(db, code, sql) }
      if try !row(statement) { return }
    }
  }

  fileprivate static func integer(_ row: OpaquePointer, _ column: Int32) -> Int? {
    sqlite3_column_type(row, column) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, column))
  }

  private static func text(_ row: OpaquePointer, _ column: Int32) -> String {
    guard let bytes = sqlite3_column_text(row, column) else { return "" }
    let count = Int(sqlite3_column_bytes(row, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  private static func failure(_ db: Database, _ code: Int32, _ sql: String) -> DatabaseError {
    let message = sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) }
    return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
  }
}

/// The statements every command runs (a `scroll right` all four), each prepared once per
/// store and found by its number (``AlbumStore/hotStatement(_:_:)``): the statement cache
/// (``Database/cachedStatement(sql:)``) finds one by hashing its SQL, a thousand
/// instructions for the album query.
enum HotStatement: Int, CaseIterable {
  case begin
  case commit
  case dataVersion
  /// ``AlbumStore/albums(in:)``'s.
  case albumsInRange

  var sql: String {
    switch self {
    case .begin: "BEGIN DEFERRED TRANSACTION"
    case .commit: "COMMIT TRANSACTION"
    case .dataVersion: "PRAGMA data_version"
    case .albumsInRange:
      "SELECT \(Album.selection) FROM album WHERE position >= ? AND position < ? ORDER BY position"
    }
  }
}

extension AlbumStore {
  /// `hot`'s statement, prepared at its first use. Only on the queue, with its `db`.
  func hotStatement(_ hot: HotStatement, _ db: Database) throws -> Statement {
    if let statement = hotStatements[hot.rawValue] { return statement }
    let statement = try db.makeStatement(sql: hot.sql)
    hotStatements[hot.rawValue] = statement
    return statement
  }
}

/// One album as `list` shows it, its text borrowed from SQLite for the duration of the call
/// that hands it over (valid UTF-8 in a library bluelib wrote; repaired when shown).
package struct AlbumListRow {
  /// The album's 0-based index.
  package var position: Int
  package var title: UnsafeBufferPointer<UInt8>
  package var artist: UnsafeBufferPointer<UInt8>
  package var genre: UnsafeBufferPointer<UInt8>
  package var year: Int?
  package var coverURL: UnsafeBufferPointer<UInt8>
  /// Whether the library records the cover as in the cover cache.
  package var coverCached: Bool
  /// The album's id (0 for an album not stored).
  package var id: Int64 = 0
}

extension Album {
  /// The album as a row of `list`, its text borrowed for the duration of `body`.
  package func withListRow<R>(_ body: (AlbumListRow) throws -> R) rethrows -> R {
    var (title, artist, genre, coverURL) = (title, artist, genre, coverURL)
    return try title.withUTF8 { title in
      try artist.withUTF8 { artist in
        try genre.withUTF8 { genre in
          try coverURL.withUTF8 { coverURL in
            try body(
              AlbumListRow(
                position: position, title: title, artist: artist, genre: genre, year: year, coverURL: coverURL,
                coverCached: coverCached, id: id ?? 0))
          }
        }
      }
    }
  }
}

extension AlbumStore {
  /// Hands `body` the albums from index `start` on, in order, each straight from SQLite's
  /// row (no ``Album``, no `String`), until it returns false: `list` of a million albums
  /// without a million allocations of each field.
  package func forEachListRow(from start: Int, _ body: (AlbumListRow) throws -> Bool) throws(LibraryError) {
    try reading { db in
      try Self.step(
        db,
        sql: """
          SELECT position, title, artist, genre, year, coverUrl, EXISTS (SELECT 1 FROM cover WHERE url = album.coverUrl),
            id
          FROM album WHERE position >= ? ORDER BY position
          """, [Int64(max(start, 0))]
      ) { row in
        try body(
          AlbumListRow(
            position: Int(sqlite3_column_int64(row, 0)), title: Self.bytes(row, 1), artist: Self.bytes(row, 2),
            genre: Self.bytes(row, 3), year: Self.integer(row, 4), coverURL: Self.bytes(row, 5),
            coverCached: sqlite3_column_int64(row, 6) != 0, id: sqlite3_column_int64(row, 7)))
      }
    }
  }

  /// The text of `column` as bytes, valid until the row changes.
  private static func bytes(_ row: OpaquePointer, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
    guard let bytes = sqlite3_column_text(row, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(row, column)))
  }
}
