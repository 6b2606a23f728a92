internal import GRDB

#if canImport(GRDBSQLite)
  import GRDBSQLite
#elseif canImport(SQLite3)
  import SQLite3
#endif

extension AlbumStore {
  /// Appends the albums of the JSON or CSV file at `path` after the last one, all or
  /// nothing, as one logged step; returns their indices and the CSV header's columns it
  /// skipped. The selection stays `origin.selection`.
  ///
  /// The file is streamed: read in blocks, each album checked and inserted as it is
  /// parsed, inside one transaction, so memory does not grow with the file and a bad
  /// line (the last of a million, say) rolls everything back. A file that cannot be read,
  /// or a CSV header that is wrong, is refused before the library is touched. The step
  /// records only the range of fresh, contiguous ids the albums get, so undo and redo stay
  /// cheap whatever the size.
  public func importAlbums(
    fromFile path: String, origin: ChangeOrigin
  ) throws(LibraryError) -> (range: Range<Int>, ignoredColumns: [String], step: ChangeStep) {
    var stream = try AlbumStream(path: path)
    let (range, step) = try importAlbums(origin: origin) { insert in try stream.forEachAlbum(insert) }
    return (range, stream.ignoredColumns, step)
  }

  /// Appends the albums `produce` hands to the function it is given, as
  /// ``importAlbums(fromFile:origin:)`` does; an error thrown by `produce` (or by the
  /// function) rolls the whole step back.
  func importAlbums(
    origin: ChangeOrigin, _ produce: (_ insert: (AlbumFields) throws -> Void) throws -> Void
  ) throws(LibraryError) -> (range: Range<Int>, step: ChangeStep) {
    try changing { db in
      let count = try Self.count(db)
      let firstID = try Self.maxID(db) + 1
      // The summary names the count, known at the end.
      let step = try Self.beginStep(.import, summary: "import", origin: origin, db)
      let inserter = try AlbumInserter(db, firstID: firstID, position: count, step: step)
      try produce { fields in try inserter.insert(fields) }
      let inserted = inserter.finish()
      try db.execute(
        sql: "UPDATE change SET summary = ? WHERE id = ?",
        arguments: ["import of \(inserted) \(inserted == 1 ? "album" : "albums")", step])
      try Self.recordInserted(firstID: firstID, count: inserted, removed: 0, of: step, db)
      try Self.finishStep(step, selecting: origin.selection, db)
      return (count..<(count + inserted), try Self.changeStep(step, db))
    }
  }
}

/// Inserts albums after the last one, with consecutive fresh ids, each carrying the step
/// that writes them: one prepared statement, the fields bound straight from their bytes.
///
/// GRDB's `StatementArguments` would allocate per row and copy every string; here the
/// text is bound with `SQLITE_STATIC` (SQLite copies it into the row during the step), so
/// a row costs no allocation at all.
///
/// - Important: Use it inside the transaction of the database it was made with, and call
///   ``finish()`` before the transaction ends.
private final class AlbumInserter {
  private let statement: Statement
  private let handle: OpaquePointer
  private let connection: OpaquePointer?
  private var nextID: Int64
  private var position: Int64
  private var inserted = 0

  init(_ db: Database, firstID: Int64, position: Int, step: Int64) throws {
    // Columns by name: a column added later (with a default) is filled by SQLite.
    statement = try db.makeStatement(
      sql:
        "INSERT INTO album (id, title, artist, genre, year, coverUrl, position, step) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    handle = statement.sqliteStatement
    connection = db.sqliteConnection
    nextID = firstID
    self.position = Int64(position)
    // Bindings outlive `sqlite3_reset`: the step is bound once for every row.
    sqlite3_bind_int64(handle, 8, step)
  }

  /// Inserts one album (its fields checked already).
  func insert(_ album: AlbumFields) throws {
    sqlite3_reset(handle)
    sqlite3_bind_int64(handle, 1, nextID)
    Self.bindText(album.title, handle, 2)
    Self.bindText(album.artist, handle, 3)
    Self.bindText(album.genre, handle, 4)
    if let year = album.year {
      sqlite3_bind_int64(handle, 5, Int64(year))
    } else {
      sqlite3_bind_null(handle, 5)
    }
    Self.bindText(album.coverURL, handle, 6)
    sqlite3_bind_int64(handle, 7, position)
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)),
        sql: statement.sql)
    }
    nextID += 1
    position += 1
    inserted += 1
  }

  /// Lets go of the last row's bytes; returns how many albums were inserted.
  func finish() -> Int {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    return inserted
  }

  /// Binds `bytes` with their exact length (a NUL would not cut them short).
  /// An empty buffer is bound as `""` explicitly: a nil pointer would bind NULL.
  private static func bindText(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: OpaquePointer, _ index: Int32) {
    if let base = bytes.baseAddress, !bytes.isEmpty {
      base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
        _ = sqlite3_bind_text(handle, index, chars, Int32(bytes.count), nil)
      }
    } else {
      _ = sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
    }
  }

  private static let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
