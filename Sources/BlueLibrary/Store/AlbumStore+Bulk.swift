import AlbumModel
internal import BlueSQL

extension AlbumStore {
  /// Inserts `albums` at positions `start`, `start + 1`, … , each carrying `step` (the
  /// logged step that wrote them, see `Schema`): call inside a transaction.
  ///
  /// One prepared statement, bound through SQLite's C API with the strings'
  /// own UTF-8 buffers (`SQLITE_STATIC`, valid until the step returns):
  /// `StatementArguments` (BlueSQL's, shaped as GRDB's were) make an array of values per
  /// row and bind every string as a copy, which made a million-row import about twice as
  /// slow. Each album is validated as it
  /// goes; the first bad one throws and the caller's transaction rolls back.
  /// With `firstID`, the albums get the ids `firstID`, `firstID + 1`, … (their own are
  /// ignored); without, each keeps its own id, or SQLite picks one if it has none.
  static func insertAll(
    _ albums: [Album], from start: Int, firstID: Int64? = nil, step: Int64? = nil, _ db: Database
  ) throws {
    let statement = try db.makeStatement(
      sql:
        "INSERT INTO album (id, title, artist, genre, year, coverUrl, position, step, \(musicColumns)) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, \(addedNow), ?, ?)")
    let handle = statement.sqliteStatement
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    // Bindings outlive `sqlite3_reset`: the step is bound once for every row.
    bindNumber(step, handle, 8)
    var position = Int64(start)
    var nextID = firstID
    for album in albums {
      try album.validate()
      sqlite3_reset(handle)
      bindNumber(nextID ?? album.id, handle, 1)
      nextID = nextID.map { $0 + 1 }
      bindNumber(album.year.map(Int64.init), handle, 5)
      sqlite3_bind_int64(handle, 7, position)
      position += 1
      bindNumber(album.tracks.map(Int64.init), handle, 9)
      bindNumber(album.duration, handle, 10)
      // Albums from a music folder are few (thousands, not millions): their two optional
      // strings are bound as copies, keeping the fast path of the four fields every album has.
      bindNumber(album.rating.map(Int64.init), handle, 13)
      sqlite3_bind_int64(handle, 14, album.favourite ? 1 : 0)
      bindOptionalText(album.folder, handle, 11)
      bindOptionalText(album.sourceKey, handle, 12)
      var (title, artist, genre, coverURL) = (album.title, album.artist, album.genre, album.coverURL)
      let code = title.withUTF8 { title in
        artist.withUTF8 { artist in
          genre.withUTF8 { genre in
            coverURL.withUTF8 { coverURL in
              bindText(title, handle, 2)
              bindText(artist, handle, 3)
              bindText(genre, handle, 4)
              bindText(coverURL, handle, 6)
              return sqlite3_step(handle)
            }
          }
        }
      }
      guard code == SQLITE_DONE else { throw stepFailure(code, statement, db) }
    }
  }

  /// Binds `bytes` with their exact length (a NUL would not cut them short), as they are
  /// (valid until the step returns) or a copy SQLite keeps until the next bind (`copying`).
  /// An empty buffer is bound as `""` explicitly: a nil pointer would bind NULL.
  @inline(__always)
  private static func bindText(
    _ bytes: UnsafeBufferPointer<UInt8>, _ handle: SQLiteStatement, _ index: Int32, copying: Bool = false
  ) {
    bytes.withMemoryRebound(to: CChar.self) { chars in
      if let base = chars.baseAddress, !chars.isEmpty {
        _ = sqlite3_bind_text(handle, index, base, Int32(chars.count), copying ? sqliteTransient : nil)
      } else {
        _ = sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
      }
    }
  }

  /// Binds a copy of `text` (SQLite keeps it until the next bind), or NULL when nil.
  private static func bindOptionalText(_ text: String?, _ handle: SQLiteStatement, _ index: Int32) {
    guard let text else {
      sqlite3_bind_null(handle, index)
      return
    }
    var copy = text
    copy.withUTF8 { bindText($0, handle, index, copying: true) }
  }

  /// Binds `number`, or NULL when nil.
  @inline(__always)
  private static func bindNumber(_ number: Int64?, _ handle: SQLiteStatement, _ index: Int32) {
    if let number { sqlite3_bind_int64(handle, index, number) } else { sqlite3_bind_null(handle, index) }
  }

  /// Binds `number`, or NULL when nil.
  @inline(__always)
  private static func bindNumber(_ number: Double?, _ handle: SQLiteStatement, _ index: Int32) {
    if let number { sqlite3_bind_double(handle, index, number) } else { sqlite3_bind_null(handle, index) }
  }

  private static let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

  /// Runs `statement` (an INSERT, UPDATE or DELETE: no rows) once with the values `bind`
  /// binds to its parameters in order, through SQLite's C API. `StatementArguments` take
  /// every value as an existential and make an array of them per run: a folder import's
  /// track rows cost some 35,000 instructions each that way (measured with GRDB's, which
  /// BlueSQL's follow), about a third of what TagLib takes to read the file.
  static func run(_ statement: Statement, _ db: Database, binding bind: (inout Bindings) -> Void) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    var bindings = Bindings(handle: handle)
    bind(&bindings)
    try finish(statement, code: sqlite3_step(handle), db)
  }

  /// ``run(_:_:binding:)``, the texts copied into `arena` and bound from there, in place:
  /// for a statement run thousands of times in a row (SQLite's own copy of each text, an
  /// allocation and a free, was a sixth of the staging of a server's songs).
  static func run(
    _ statement: Statement, _ db: Database, arena: inout TextArena, binding bind: (inout Bindings) -> Void
  ) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    var bindings = Bindings(handle: handle)
    bindings.hasArena = true
    // The arena moves into the bindings and back (a class's, checked for exclusive access
    // at each text, cost as much as the copies it saves).
    swap(&bindings.arena, &arena)
    bind(&bindings)
    swap(&bindings.arena, &arena)
    // The arena grows no more: its bytes stay where they are until the step returns.
    let code = arena.bytes.withUnsafeBufferPointer { bytes in
      for text in arena.texts {
        bindText(UnsafeBufferPointer(rebasing: bytes[text.start..<text.end]), handle, text.index)
      }
      return sqlite3_step(handle)
    }
    arena.bytes.removeAll(keepingCapacity: true)
    arena.texts.removeAll(keepingCapacity: true)
    try finish(statement, code: code, db)
  }

  /// Resets `statement` after a step that ended with `code`, its parameters unbound, and
  /// throws when the step failed.
  private static func finish(_ statement: Statement, code: Int32, _ db: Database) throws {
    let handle = statement.sqliteStatement
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    guard code == SQLITE_DONE else { throw stepFailure(code, statement, db) }
  }

  /// The bytes of the texts of one run of ``run(_:_:arena:binding:)``, kept from run to run.
  struct TextArena {
    fileprivate var bytes: [UInt8] = []
    fileprivate var texts: [(index: Int32, start: Int, end: Int)] = []

    init() {}

    /// Takes `text` for the parameter at `index` (bound when the run steps), its bytes
    /// copied at once (appended from its UTF-8 view, a substring's went a byte at a time).
    fileprivate mutating func take(_ text: String, at index: Int32) {
      var text = text
      text.withUTF8 { take($0, at: index) }
    }

    fileprivate mutating func take(_ text: Substring, at index: Int32) {
      var text = text
      text.withUTF8 { take($0, at: index) }
    }

    private mutating func take(_ text: UnsafeBufferPointer<UInt8>, at index: Int32) {
      let start = bytes.count
      bytes.append(contentsOf: text)
      texts.append((index, start, bytes.count))
    }
  }

  /// The error of a step of `statement` that ended with `code`, as BlueSQL throws it.
  private static func stepFailure(_ code: Int32, _ statement: Statement, _ db: Database) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
      sql: statement.sql)
  }

  /// The values of one run of a statement, bound to its parameters in the order given
  /// (``run(_:_:binding:)``); nil binds NULL, a Bool 1 or 0 as BlueSQL does, a string a copy.
  struct Bindings {
    fileprivate let handle: SQLiteStatement
    /// Where texts go when the run has an arena (its texts empty otherwise, and unused).
    fileprivate var arena = TextArena()
    fileprivate var hasArena = false
    private var index: Int32 = 0

    fileprivate init(handle: SQLiteStatement) { self.handle = handle }

    mutating func bind(_ text: String?) {
      index += 1
      if hasArena, let text, !text.isEmpty {
        arena.take(text, at: index)
        return
      }
      bindOptionalText(text, handle, index)
    }

    /// Binds a copy of the bytes of `text` (no `String` made of them first).
    mutating func bind(_ text: Substring) {
      index += 1
      if hasArena, !text.isEmpty {
        arena.take(text, at: index)
        return
      }
      var copy = text
      let (handle, index) = (handle, index)
      copy.withUTF8 { AlbumStore.bindText($0, handle, index, copying: true) }
    }

    mutating func bind(_ number: Int64?) {
      index += 1
      bindNumber(number, handle, index)
    }

    mutating func bind(_ number: Int?) { bind(number.map(Int64.init)) }

    mutating func bind(_ flag: Bool) { bind(Int64(flag ? 1 : 0)) }

    mutating func bind(_ number: Double?) {
      index += 1
      bindNumber(number, handle, index)
    }
  }
}
