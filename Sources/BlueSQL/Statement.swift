@_exported public import CSQLite

/// SQLite's handles, as the store's C calls name them.
package typealias SQLiteConnection = OpaquePointer
package typealias SQLiteStatement = OpaquePointer

/// A prepared statement of one connection (``Database/makeStatement(sql:)``,
/// ``Database/cachedStatement(sql:)``), finalized when the last reference goes.
package final class Statement {
  /// SQLite's statement, for the store's C calls.
  package let sqliteStatement: SQLiteStatement
  /// The SQL it was prepared from, without surrounding blanks and semicolons.
  package let sql: String
  unowned let database: Database

  init(sqliteStatement: SQLiteStatement, sql: String, database: Database) {
    self.sqliteStatement = sqliteStatement
    self.sql = sql
    self.database = database
  }

  deinit { sqlite3_finalize(sqliteStatement) }

  /// How many parameters the statement takes (the largest `?NNN`).
  var parameterCount: Int { Int(sqlite3_bind_parameter_count(sqliteStatement)) }

  /// Resets the statement and binds `arguments`, which must be exactly as many as its
  /// parameters (else `SQLITE_MISUSE`, "wrong number of statement arguments").
  package func setArguments(_ arguments: StatementArguments) throws {
    guard arguments.values.count == parameterCount else {
      throw DatabaseError(
        resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.values.count)",
        sql: sql)
    }
    sqlite3_reset(sqliteStatement)
    sqlite3_clear_bindings(sqliteStatement)
    for (index, value) in arguments.values.enumerated() {
      let code = value.bind(to: sqliteStatement, at: Int32(index + 1))
      guard code == SQLITE_OK else { throw DatabaseError.failure(code, database.sqliteConnection, sql: sql) }
    }
  }

  /// Runs the statement to its end (rows it returns are skipped), with `arguments` bound
  /// first when given.
  package func execute(arguments: StatementArguments? = nil) throws {
    try prepareExecution(arguments)
    while try step() {}
  }

  /// Resets the statement, binding `arguments` when given, and checks the transaction it
  /// runs in is still open.
  func prepareExecution(_ arguments: StatementArguments?) throws {
    if let arguments {
      try setArguments(arguments)
    } else {
      sqlite3_reset(sqliteStatement)
    }
    try database.checkForAbortedTransaction(sql: sql)
  }

  /// One step: true on a row, false at the end (the statement is then reset).
  /// - Throws: SQLite's error, after which the statement is reset and leaves the cache.
  func step() throws -> Bool {
    let code = sqlite3_step(sqliteStatement)
    switch code {
    case SQLITE_ROW:
      return true
    case SQLITE_DONE:
      sqlite3_reset(sqliteStatement)
      database.statementDidExecute()
      return false
    default:
      let error = DatabaseError.failure(code, database.sqliteConnection, sql: sql)
      sqlite3_reset(sqliteStatement)
      database.statementDidFail(self)
      throw error
    }
  }

  /// The names of the columns the statement returns.
  var columnNames: [String] {
    (0..<sqlite3_column_count(sqliteStatement)).map { String(cString: sqlite3_column_name(sqliteStatement, $0)) }
  }
}

/// The values bound to a statement's parameters, in order.
package struct StatementArguments: ExpressibleByArrayLiteral {
  var values: [DatabaseValue]

  package init() { values = [] }

  package init(_ values: some Sequence<(any DatabaseValueConvertible)?>) {
    self.values = values.map { $0?.databaseValue ?? .null }
  }

  package init<Values: Sequence>(_ values: Values) where Values.Element: DatabaseValueConvertible {
    self.values = values.map(\.databaseValue)
  }

  /// The values as they are: no generic walk of them (an import's album rows were bound
  /// through the generic one, some 37,000 instructions a row).
  package init(_ values: [DatabaseValue]) {
    self.values = values
  }

  package init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
    self.init(elements)
  }

  package var isEmpty: Bool { values.isEmpty }

  package static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
    var sum = lhs
    sum += rhs
    return sum
  }

  package static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
    lhs.values += rhs.values
  }
}
