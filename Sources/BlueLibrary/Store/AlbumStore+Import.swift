import AlbumArchive
import AlbumModel
internal import BlueSQL
internal import MusicFolder

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
  /// cheap whatever the size. `isCancelled` is asked before each block of the file is
  /// read; true rolls the import back and throws ``LibraryError/cancelled``.
  ///
  /// The sample albums make room: when the library holds only them, untouched, and the file
  /// has albums, they are taken out in the same step, which becomes a `reset`
  /// (``retireSamples(_:from:_:)``); `samplesLeft` says how many, and the range starts at 0.
  package func importAlbums(
    fromFile path: String, origin: ChangeOrigin, isCancelled: (() -> Bool)? = nil
  ) throws(LibraryError) -> (range: Range<Int>, ignoredColumns: [String], samplesLeft: Int, step: ChangeStep) {
    var stream = try AlbumStream(path: path, isCancelled: isCancelled)
    var sinceAsked = 0
    let (range, samplesLeft, step) = try importAlbums(origin: origin) { insert in
      try stream.forEachAlbum { fields in
        try insert(fields)
        // Also between blocks' worth of rows: a block of short rows is half a million.
        sinceAsked += 1
        if sinceAsked == 4096 {
          sinceAsked = 0
          if let isCancelled, isCancelled() { throw LibraryError.cancelled }
        }
      }
    }
    return (range, stream.ignoredColumns, samplesLeft, step)
  }

  /// Appends the albums `produce` hands to the function it is given, as
  /// ``importAlbums(fromFile:origin:)`` does; an error thrown by `produce` (or by the
  /// function) rolls the whole step back.
  func importAlbums(
    origin: ChangeOrigin, _ produce: (_ insert: (AlbumFields) throws -> Void) throws -> Void
  ) throws(LibraryError) -> (range: Range<Int>, samplesLeft: Int, step: ChangeStep) {
    try changing { db in
      var count = try Self.count(db)
      let firstID = try Self.maxID(db) + 1
      let samples = try Self.untouchedSampleIDs(db)
      // The summary names the count, known at the end.
      let step = try Self.beginStep(.import, summary: "import", origin: origin, db)
      // Into a library of a batch of albums or fewer (a fresh one holds the samples), the
      // artist index is made again once the albums are in, from them sorted, instead of
      // being searched for each album's place: for 100,000 albums that index is most of
      // SQLite's work, and sorting is the cheaper way to build it.
      let deferArtistIndex = count <= AlbumInserter.rowsPerBatch
      if deferArtistIndex { try db.execute(sql: "DROP INDEX album_artist") }
      // The sort-key trigger's program per row would be a quarter of the import: the new
      // rows are marked in one pass once they are in.
      try db.execute(sql: "DROP TRIGGER album_sort_key_insert")
      // Into a library of the untouched samples, the albums go in from position 0, beside
      // the samples, which leave at the end if any album came (``retireSamples(_:from:_:)``).
      var inserter = try AlbumInserter(db, firstID: firstID, position: samples == nil ? count : 0, step: step)
      try produce { fields in try inserter.insert(fields) }
      let inserted = try inserter.finish()
      try db.execute(sql: Schema.sortKeyInsertTrigger)
      if inserter.beyondASCII { try Self.markUnkeyedAlbums(from: firstID, db) }
      if deferArtistIndex { try db.execute(sql: Schema.artistIndex) }
      var summary = "import of \(Library.albumCount(inserted))"
      var removed = 0
      // Into a library of the untouched samples only: they make room, in this step.
      if let samples, inserted > 0 {
        try Self.retireSamples(samples, from: step, db)
        (count, removed) = (0, samples.count)
        summary += " " + Self.inPlaceOfSamples(removed)
      }
      try db.execute(sql: "UPDATE change SET summary = ? WHERE id = ?", arguments: [summary, step])
      try Self.recordInserted(firstID: firstID, count: inserted, removed: removed, of: step, db)
      try Self.finishStep(step, selecting: removed > 0 ? 0 : origin.selection, db)
      return (count..<(count + inserted), removed, try Self.changeStep(step, db))
    }
  }
}

/// Inserts albums after the last one, with consecutive fresh ids, each carrying the step
/// that writes them, as fast as SQLite takes rows.
///
/// Rows go in batches of ``rowsPerBatch`` through one prepared multi-row `INSERT`, so
/// SQLite opens its cursors and runs the statement's set-up once per batch rather than
/// once per row. A batch's text is copied into one buffer reused from batch to batch and
/// bound from there with `SQLITE_STATIC` (SQLite copies it into the rows during the step):
/// no allocation per row, where `StatementArguments` would make an array of values and bind
/// a copy of every string. SQLite numbers the rows itself (`id` is left out), which lets it append to the
/// table without searching it; the ids are checked to be contiguous at the end, as the undo
/// log records them as a range. The step and the time added, the same for every row, are
/// written into the statement; the music-folder columns are bound only in a batch that has
/// a row with one (an album exported after `import DIR`): a CSV of plain albums binds six
/// values a row, not eleven.
///
/// The statement is `INSERT OR IGNORE`: the albums were checked already, and a multi-row
/// statement that could abort halfway makes SQLite copy every page it touches to a
/// statement journal first — in a temporary file once a batch touches more than 16 pages,
/// as one does when its 64 albums go to 64 places of the artist index: 2.6 million writes
/// for a million albums, a third of the import's time. A row SQLite would still refuse is
/// not skipped silently: each batch must insert every one of its rows.
///
/// - Important: Use it inside the transaction of the database it was made with, and call
///   ``finish()`` before the transaction ends.
private struct AlbumInserter {
  static let rowsPerBatch = 64
  /// The columns every row binds, in the statement's order.
  private static let columns = ["title", "artist", "genre", "year", "coverUrl", "position"]
  /// The music-folder columns, bound after those in a batch that has them.
  private static let musicColumns = ["tracks", "duration", "folder", "source_key"]

  private let db: Database
  private let firstID: Int64
  private let step: Int64
  /// When the albums were added, the same for all of them.
  private let added = AlbumStore.addedNow
  /// The full batches' statements, without and with the music-folder columns.
  private let plainBatch: Statement
  private var musicBatch: Statement?
  private var position: Int64
  private var inserted = 0
  /// Whether a title or artist inserted has a byte beyond ASCII: only then are the rows
  /// marked for their sort keys (a pass over the new rows, a sixth of an import's work).
  private(set) var beyondASCII = false

  /// The pending rows' text, one after another, and where each row's fields lie in it.
  private var text: [UInt8] = []
  private var pending: [PendingRow] = []
  /// Whether a pending row has a music-folder field.
  private var pendingMusic = false

  private struct PendingRow {
    /// End offsets in `text` of title, artist, genre and cover URL (each starts where the
    /// previous ends).
    var ends: (Int, Int, Int, Int)
    var year: Int?
    var tracks: Int?
    var duration: Double?
    /// End offsets of the folder and its source key, for an album that has a folder.
    var folderEnds: (Int, Int)?
  }

  init(_ db: Database, firstID: Int64, position: Int, step: Int64) throws {
    self.db = db
    self.firstID = firstID
    self.step = step
    self.position = Int64(position)
    plainBatch = try Self.statement(rows: Self.rowsPerBatch, music: false, step: step, added: added, db)
    text.reserveCapacity(Self.rowsPerBatch * 256)
    pending.reserveCapacity(Self.rowsPerBatch)
  }

  /// `INSERT INTO album (…) VALUES (?, …, step, added), …` for `rows` rows. Columns by
  /// name: a column added later (with a default) is filled by SQLite.
  private static func statement(rows: Int, music: Bool, step: Int64, added: Int64, _ db: Database) throws
    -> Statement
  {
    let names = columns + (music ? musicColumns : [])
    let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ", \(step), \(added))"
    return try db.makeStatement(
      sql: "INSERT OR IGNORE INTO album (\(names.joined(separator: ", ")), step, added) VALUES "
        + Array(repeating: row, count: rows).joined(separator: ", "))
  }

  /// Queues one album (its fields checked already), inserting a batch when it is full.
  mutating func insert(_ album: AlbumFields) throws {
    let start = text.count
    text.append(contentsOf: album.title)
    let title = text.count
    text.append(contentsOf: album.artist)
    let artist = text.count
    if !beyondASCII { beyondASCII = text[start..<artist].contains { $0 >= 0x80 } }
    text.append(contentsOf: album.genre)
    let genre = text.count
    text.append(contentsOf: album.coverURL)
    let cover = text.count
    var folderEnds: (Int, Int)?
    if let folder = album.folder, let key = album.sourceKey {
      if let tracks = album.trackList { try AlbumStore.writeImportedTracks(tracks, key: key, db) }
      text.append(contentsOf: folder)
      let folderEnd = text.count
      text.append(contentsOf: key.utf8)
      folderEnds = (folderEnd, text.count)
    }
    pending.append(
      PendingRow(
        ends: (title, artist, genre, cover), year: album.year, tracks: album.tracks, duration: album.duration,
        folderEnds: folderEnds))
    pendingMusic = pendingMusic || album.tracks != nil || album.duration != nil || folderEnds != nil
    if pending.count == Self.rowsPerBatch { try flush() }
  }

  /// Inserts what is queued and checks the ids SQLite gave; returns how many albums were
  /// inserted.
  mutating func finish() throws -> Int {
    if !pending.isEmpty { try flush() }
    // The full batches' statements keep no pointer into the text.
    sqlite3_clear_bindings(plainBatch.sqliteStatement)
    if let musicBatch { sqlite3_clear_bindings(musicBatch.sqliteStatement) }
    if inserted > 0 {
      let last = db.lastInsertedRowID
      guard last == firstID + Int64(inserted) - 1 else {
        throw LibraryError.database("the imported albums did not get contiguous ids (\(firstID)…\(last))")
      }
    }
    return inserted
  }

  /// Binds the pending rows to a statement made for exactly that many and runs it.
  private mutating func flush() throws {
    let music = pendingMusic
    let statement: Statement
    if pending.count < Self.rowsPerBatch {
      statement = try Self.statement(rows: pending.count, music: music, step: step, added: added, db)
    } else if music {
      statement = try musicBatch ?? Self.statement(rows: Self.rowsPerBatch, music: true, step: step, added: added, db)
      musicBatch = statement
    } else {
      statement = plainBatch
    }
    let handle = statement.sqliteStatement
    let pending = self.pending
    var position = self.position
    let code = text.withUnsafeBufferPointer { text in
      var parameter: Int32 = 1
      var start = 0
      func bindText(_ end: Int) {
        Self.bindText(UnsafeBufferPointer(rebasing: text[start..<end]), handle, parameter)
        start = end
        parameter += 1
      }
      // Every parameter is bound again for each batch: no clearing in between.
      for row in pending {
        bindText(row.ends.0)
        bindText(row.ends.1)
        bindText(row.ends.2)
        if let year = row.year {
          sqlite3_bind_int64(handle, parameter, Int64(year))
        } else {
          sqlite3_bind_null(handle, parameter)
        }
        parameter += 1
        bindText(row.ends.3)
        sqlite3_bind_int64(handle, parameter, position)
        parameter += 1
        position += 1
        guard music else {
          // A row without a folder has its text in the four fields alone.
          continue
        }
        if let tracks = row.tracks {
          sqlite3_bind_int64(handle, parameter, Int64(tracks))
        } else {
          sqlite3_bind_null(handle, parameter)
        }
        if let duration = row.duration {
          sqlite3_bind_double(handle, parameter + 1, duration)
        } else {
          sqlite3_bind_null(handle, parameter + 1)
        }
        parameter += 2
        if let (folder, key) = row.folderEnds {
          bindText(folder)
          bindText(key)
        } else {
          sqlite3_bind_null(handle, parameter)
          sqlite3_bind_null(handle, parameter + 1)
          parameter += 2
        }
      }
      let code = sqlite3_step(handle)
      sqlite3_reset(handle)
      return code
    }
    guard code == SQLITE_DONE else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
        sql: statement.sql)
    }
    let refused = pending.count - Int(sqlite3_changes(db.sqliteConnection))
    guard refused == 0 else {
      throw LibraryError.database("the library refused \(Library.albumCount(refused)) of the file's")
    }
    self.position = position
    inserted += pending.count
    self.pending.removeAll(keepingCapacity: true)
    pendingMusic = false
    text.removeAll(keepingCapacity: true)
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
