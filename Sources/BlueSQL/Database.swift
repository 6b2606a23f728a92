/// One SQLite connection, used only inside its ``DatabaseQueue``'s calls.
package final class Database {
  /// SQLite's connection, for the store's C calls.
  package let sqliteConnection: SQLiteConnection
  private var statementCache: [String: Statement] = [:]
  /// Inside ``inTransaction(_:_:)``'s body: a statement then finding the transaction gone
  /// (SQLite rolled it back on an error) throws `SQLITE_ABORT` instead of running outside it.
  private var isInsideTransactionBlock = false
  /// How many ``readOnly(_:)`` calls are running.
  private var readOnlyDepth = 0
  /// What watches this connection's changes (``TransactionObserver``), and what it saw.
  private var observers: [WeakObserver] = []
  private var committed = false
  private var rolledBack = false

  /// How a transaction begins (https://www.sqlite.org/lang_transaction.html).
  package enum TransactionKind: String, Sendable {
    case deferred = "DEFERRED"
    case immediate = "IMMEDIATE"
    case exclusive = "EXCLUSIVE"
  }

  /// How ``inTransaction(_:_:)``'s body ends its transaction.
  package enum TransactionCompletion: Sendable {
    case commit
    case rollback
  }

  /// Opens `path` (created if missing; ":memory:" for a database in memory) and sets the
  /// connection up as GRDB did: the busy mode, double-quoted strings refused, foreign keys
  /// on, extended result codes, then `configuration`'s preparations, then a first read of
  /// the schema, so that a file that is not a database fails here. In SQLite's multi-thread
  /// mode (`SQLITE_OPEN_NOMUTEX`), as GRDB opened it: the queue lets one thread at a time
  /// use a connection, and serialized mode's mutex around every `sqlite3_column_*` call was
  /// a sixth of a `list` of 100,000 albums.
  init(path: String, configuration: Configuration) throws {
    var connection: SQLiteConnection?
    let code = sqlite3_open_v2(
      path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let connection else {
      let error =
        connection.map { DatabaseError.failure(code, $0) } ?? DatabaseError(resultCode: ResultCode(rawValue: code))
      sqlite3_close(connection)
      throw error
    }
    sqliteConnection = connection
    do {
      if case .timeout(let seconds) = configuration.busyMode {
        sqlite3_busy_timeout(connection, Int32(seconds * 1000))
      }
      bluesql_refuse_double_quoted_strings(connection)
      try execute(sql: "PRAGMA foreign_keys = ON")
      sqlite3_extended_result_codes(connection, 1)
      for prepare in configuration.preparations { try prepare(self) }
      _ = try Row.fetchCursor(makeStatement(sql: "SELECT * FROM sqlite_master LIMIT 1")).next()
    } catch {
      statementCache = [:]
      sqlite3_close_v2(connection)
      throw error
    }
  }

  deinit {
    statementCache = [:]
    sqlite3_close_v2(sqliteConnection)
  }

  /// Closes the connection (its cached statements first).
  func close() throws {
    statementCache = [:]
    let code = sqlite3_close(sqliteConnection)
    guard code == SQLITE_OK else { throw DatabaseError.failure(code, sqliteConnection) }
  }

  // MARK: - Statements

  /// A new statement for `sql` (one statement).
  package func makeStatement(sql: String) throws -> Statement {
    try prepare(sql, flags: 0)
  }

  /// The statement for `sql` this connection keeps, prepared at its first use. A statement
  /// whose run fails leaves the cache, so the next use prepares it afresh.
  package func cachedStatement(sql: String) throws -> Statement {
    if let statement = statementCache[sql] { return statement }
    let statement = try prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
    statementCache[sql] = statement
    return statement
  }

  private func prepare(_ sql: String, flags: UInt32) throws -> Statement {
    var text = sql
    return try text.withUTF8 { bytes in
      try bytes.withMemoryRebound(to: CChar.self) { chars in
        var statement: SQLiteStatement?
        var tail: UnsafePointer<CChar>?
        let code = sqlite3_prepare_v3(
          sqliteConnection, chars.baseAddress, Int32(chars.count), flags, &statement, &tail)
        guard code == SQLITE_OK else { throw DatabaseError.failure(code, sqliteConnection, sql: sql) }
        guard let statement else {
          throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no statement in the SQL", sql: sql)
        }
        let used = tail.map { $0 - chars.baseAddress! } ?? chars.count
        guard isBlank(bytes[used...]) else {
          sqlite3_finalize(statement)
          throw DatabaseError(
            resultCode: .SQLITE_MISUSE, message: "multiple statements found: run them with execute(sql:)", sql: sql)
        }
        return Statement(sqliteStatement: statement, sql: trimmed(sql), database: self)
      }
    }
  }

  /// Runs every statement of `sql` in turn, each taking as many of `arguments` as it has
  /// parameters (all must be taken).
  package func execute(sql: String, arguments: StatementArguments = []) throws {
    var rest = arguments.values[...]
    var text = sql
    try text.withUTF8 { bytes in
      try bytes.withMemoryRebound(to: CChar.self) { chars in
        guard var start = chars.baseAddress else { return }
        let end = start + chars.count
        while start < end {
          var handle: SQLiteStatement?
          var tail: UnsafePointer<CChar>?
          let code = sqlite3_prepare_v3(sqliteConnection, start, Int32(end - start), 0, &handle, &tail)
          guard code == SQLITE_OK else { throw DatabaseError.failure(code, sqliteConnection, sql: sql) }
          let next = tail ?? end
          defer { start = next }
          // Only blanks or a comment left.
          guard let handle else { continue }
          let statementSQL = String(
            decoding: UnsafeRawBufferPointer(start: start, count: next - start), as: UTF8.self)
          let statement = Statement(sqliteStatement: handle, sql: trimmed(statementSQL), database: self)
          let taken = rest.prefix(statement.parameterCount)
          rest = rest.dropFirst(taken.count)
          try statement.execute(arguments: StatementArguments(Array(taken)))
        }
      }
    }
    guard rest.isEmpty else {
      throw DatabaseError(
        resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.values.count)",
        sql: sql)
    }
  }

  /// What SQLite said of the last call that failed.
  package var lastErrorMessage: String? { sqlite3_errmsg(sqliteConnection).map { String(cString: $0) } }

  /// How many rows the last INSERT, UPDATE or DELETE changed.
  package var changesCount: Int { Int(sqlite3_changes(sqliteConnection)) }

  /// The row id of the last row inserted.
  package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(sqliteConnection) }

  /// The columns of `table` (its hidden ones left out).
  /// - Throws: "no such table: …" when there is none.
  package func columns(in table: String) throws -> [ColumnInfo] {
    let quoted = "\"" + table.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    let columns = try Row.fetchAll(self, sql: "PRAGMA table_xinfo(\(quoted))")
      .filter { ($0["hidden"] as Int) != 1 }
      .map { ColumnInfo(name: $0["name"]) }
    if columns.isEmpty { throw DatabaseError(message: "no such table: \(table)") }
    return columns
  }

  // MARK: - Functions

  /// Makes `function` callable from this connection's SQL.
  package func add(function: DatabaseFunction) {
    function.install(on: sqliteConnection)
  }

  // MARK: - Transactions

  /// Whether a transaction is open.
  package var isInsideTransaction: Bool {
    isInsideTransactionBlock || sqlite3_get_autocommit(sqliteConnection) == 0
  }

  /// Runs `operations` in a transaction of `kind` (IMMEDIATE unless the connection reads
  /// only) and commits or rolls back as it says. An error rolls back and is thrown again.
  package func inTransaction(_ kind: TransactionKind? = nil, _ operations: () throws -> TransactionCompletion) throws {
    let kind = kind ?? (readOnlyDepth > 0 ? .deferred : .immediate)
    try cachedStatement(sql: "BEGIN \(kind.rawValue) TRANSACTION").execute()
    let wasInsideTransactionBlock = isInsideTransactionBlock
    isInsideTransactionBlock = true
    defer { isInsideTransactionBlock = wasInsideTransactionBlock }
    var firstError: (any Error)?
    var needsRollback = true
    do {
      if try operations() == .commit {
        try checkForAbortedTransaction(sql: nil)
        isInsideTransactionBlock = wasInsideTransactionBlock
        try cachedStatement(sql: "COMMIT TRANSACTION").execute()
        needsRollback = false
      }
    } catch {
      firstError = error
    }
    if needsRollback {
      do {
        try rollback()
      } catch {
        if firstError == nil { firstError = error }
      }
    }
    if let firstError { throw firstError }
  }

  /// Rolls back the open transaction, if SQLite has not already.
  private func rollback() throws {
    if sqlite3_get_autocommit(sqliteConnection) == 0 {
      try cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
    }
  }

  /// Throws `SQLITE_ABORT` when the transaction of ``inTransaction(_:_:)``'s body is gone.
  func checkForAbortedTransaction(sql: String?) throws {
    if isInsideTransactionBlock && sqlite3_get_autocommit(sqliteConnection) != 0 {
      throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: sql)
    }
  }

  /// Runs `body` with the connection refusing to write (`PRAGMA query_only`).
  func readOnly<T>(_ body: () throws -> T) throws -> T {
    if readOnlyDepth == 0 { try cachedStatement(sql: "PRAGMA query_only = 1").execute() }
    readOnlyDepth += 1
    defer {
      readOnlyDepth -= 1
      if readOnlyDepth == 0 { try? cachedStatement(sql: "PRAGMA query_only = 0").execute() }
    }
    return try body()
  }

  /// Runs `body` in a transaction unless one is open.
  func isolated<T>(_ body: () throws -> T) throws -> T {
    if sqlite3_get_autocommit(sqliteConnection) == 0 { return try body() }
    var result: T?
    try inTransaction {
      result = try body()
      return .commit
    }
    return result!
  }

  // MARK: - Observers

  /// Tells `observer` of this connection's changes and transactions, while it lives.
  func add(transactionObserver observer: any TransactionObserver) {
    observers.append(WeakObserver(observer: observer))
    if observers.count > 1 { return }
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_update_hook(
      sqliteConnection,
      { context, operation, _, table, rowID in
        let db = Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue()
        db.didChange(operation, table.map { String(cString: $0) } ?? "", rowID)
      }, context)
    sqlite3_commit_hook(
      sqliteConnection,
      { context in
        Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue().committed = true
        return 0
      }, context)
    sqlite3_rollback_hook(
      sqliteConnection,
      { context in Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue().rolledBack = true }, context)
  }

  private func didChange(_ operation: Int32, _ table: String, _ rowID: Int64) {
    let kind: DatabaseEventKind =
      switch operation {
      case SQLITE_INSERT: .insert(tableName: table)
      case SQLITE_DELETE: .delete(tableName: table)
      default: .update(tableName: table)
      }
    let event = DatabaseEvent(kind: kind, rowID: rowID)
    for observer in observers.compactMap(\.observer) where observer.observes(eventsOfKind: kind) {
      observer.databaseDidChange(with: event)
    }
  }

  /// After a statement ran to its end: tells the observers of a commit or rollback it made.
  func statementDidExecute() {
    guard !observers.isEmpty, committed || rolledBack else { return }
    let (wasCommit, wasRollback) = (committed, rolledBack)
    committed = false
    rolledBack = false
    for observer in observers.compactMap(\.observer) {
      if wasCommit { observer.databaseDidCommit(self) }
      if wasRollback { observer.databaseDidRollback(self) }
    }
  }

  /// After a statement failed: it leaves the cache (SQLite may have rolled back, too).
  func statementDidFail(_ statement: Statement) {
    if statementCache[statement.sql] === statement { statementCache[statement.sql] = nil }
    statementDidExecute()
  }
}

/// A column of a table (``Database/columns(in:)``).
package struct ColumnInfo {
  package let name: String
}

/// Whether `bytes` hold only blanks and semicolons.
private func isBlank(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
  bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x3B || $0 == 0 }
}

/// `sql` without the blanks and semicolons around it; `sql` itself (no copy) when it has
/// none, as nearly every statement the store prepares.
private func trimmed(_ sql: String) -> String {
  func isSeparator(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x3B
  }
  let bytes = sql.utf8
  guard let first = bytes.firstIndex(where: { !isSeparator($0) }),
    let last = bytes.lastIndex(where: { !isSeparator($0) })
  else { return "" }
  if first == bytes.startIndex && bytes.index(after: last) == bytes.endIndex { return sql }
  return String(sql[first...last])
}

// MARK: - Custom functions

/// A function SQL can call, written in Swift: it gets the arguments' values and returns
/// one (nil for NULL), or throws: a ``DatabaseError`` with its code and message, any other
/// error as its description.
package final class DatabaseFunction {
  let name: String
  let argumentCount: Int32
  let pure: Bool
  let function: ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?

  /// - Parameters:
  ///   - argumentCount: how many arguments it takes (nil: any number).
  ///   - pure: whether the same arguments always give the same result.
  package init(
    _ name: String, argumentCount: Int32? = nil, pure: Bool = false,
    function: @escaping ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?
  ) {
    self.name = name
    self.argumentCount = argumentCount ?? -1
    self.pure = pure
    self.function = function
  }

  func install(on connection: SQLiteConnection) {
    let flags = SQLITE_UTF8 | (pure ? SQLITE_DETERMINISTIC : 0)
    let code = sqlite3_create_function_v2(
      connection, name, argumentCount, flags, Unmanaged.passRetained(self).toOpaque(),
      { context, count, arguments in
        let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
        let values = (0..<Int(count)).map { DatabaseValue(sqliteValue: arguments![$0]!) }
        do {
          DatabaseFunction.report(try function.function(values), context)
        } catch let error as DatabaseError {
          if let message = error.message { sqlite3_result_error(context, message, -1) }
          sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
        } catch {
          sqlite3_result_error(context, "\(error)", -1)
        }
      }, nil, nil, { function in Unmanaged<DatabaseFunction>.fromOpaque(function!).release() })
    precondition(code == SQLITE_OK, "cannot add the SQL function \(name): \(code)")
  }

  private static func report(_ result: (any DatabaseValueConvertible)?, _ context: OpaquePointer?) {
    switch result?.databaseValue.storage ?? .null {
    case .null: sqlite3_result_null(context)
    case .int64(let value): sqlite3_result_int64(context, value)
    case .double(let value): sqlite3_result_double(context, value)
    case .string(var text):
      text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
          guard let base = chars.baseAddress else { return sqlite3_result_text(context, "", 0, sqliteTransient) }
          sqlite3_result_text(context, base, Int32(chars.count), sqliteTransient)
        }
      }
    case .blob(let bytes):
      bytes.withUnsafeBytes { bytes in
        guard let base = bytes.baseAddress else { return sqlite3_result_zeroblob(context, 0) }
        sqlite3_result_blob(context, base, Int32(bytes.count), sqliteTransient)
      }
    }
  }
}

// MARK: - Observing

/// What watches a connection's changes (``DatabaseQueue/add(transactionObserver:extent:)``).
package protocol TransactionObserver: AnyObject {
  /// Whether to be told of changes of `eventKind`.
  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool
  /// A row changed.
  func databaseDidChange(with event: DatabaseEvent)
  /// A transaction committed.
  func databaseDidCommit(_ db: Database)
  /// A transaction rolled back.
  func databaseDidRollback(_ db: Database)
}

/// How long an observer is told (only while it lives).
package enum TransactionObservationExtent {
  case observerLifetime
}

private struct WeakObserver {
  weak var observer: (any TransactionObserver)?
}

/// A kind of change, of a table.
package enum DatabaseEventKind {
  case insert(tableName: String)
  case delete(tableName: String)
  case update(tableName: String)

  package var tableName: String {
    switch self {
    case .insert(let name), .delete(let name), .update(let name): name
    }
  }
}

/// One row changed.
package struct DatabaseEvent {
  package let kind: DatabaseEventKind
  package let rowID: Int64
}
