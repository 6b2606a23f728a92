/// A row a query returned: a copy of its values (``fetchAll(_:sql:arguments:)``,
/// ``fetchOne(_:sql:arguments:)``), or, from a cursor, a view of the row the statement stands
/// on, valid until the cursor moves.
///
/// `row[i]` is the value of column `i` (from 0) as the type asked for: NULL is nil for an
/// optional type; NULL for a non-optional one, or a value that cannot be of the type, is a
/// programming error (the run stops, as GRDB's subscripts do). Integers, reals, strings and
/// flags read from a cursor's row get SQLite's own conversion; from a copied row they must
/// be of their type (a real with no fraction reads as an integer).
package final class Row {
  /// The copied values, or nil for a statement's row.
  private let values: [DatabaseValue]?
  /// The statement whose current row this is (kept while the row is), or nil for a copy.
  private let owner: Statement?
  private let statement: SQLiteStatement?
  /// The columns' names (a copy's; a statement's are asked of SQLite).
  private let names: [String]

  /// A copy of the row `statement` stands on, its columns named `names`.
  init(copying statement: SQLiteStatement, names: [String]) {
    values = (0..<Int32(names.count)).map { DatabaseValue(sqliteStatement: statement, index: $0) }
    owner = nil
    self.statement = nil
    self.names = names
  }

  /// The row `statement` stands on, as it moves.
  init(statement: Statement) {
    values = nil
    owner = statement
    self.statement = statement.sqliteStatement
    names = []
  }

  /// How many columns.
  package var count: Int {
    if let values { values.count } else { Int(sqlite3_column_count(statement)) }
  }

  /// The values, in column order.
  package var databaseValues: [DatabaseValue] {
    if let values { return values }
    return (0..<Int32(count)).map { DatabaseValue(sqliteStatement: statement!, index: $0) }
  }

  /// Whether column `index` is NULL.
  package func hasNull(atIndex index: Int) -> Bool {
    checkIndex(index)
    if let values { return values[index].isNull }
    return sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL
  }

  package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
    checkIndex(index)
    if let statement { return decoded(Value.decode(statement, Int32(index)), index) }
    return decoded(Value.fromDatabaseValue(values![index]), index)
  }

  /// The value of the leftmost column named `name` (ignoring ASCII case).
  package subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
    self[index(ofColumn: name)]
  }

  private func index(ofColumn name: String) -> Int {
    let wanted = name.lowercased()
    let found =
      if let statement {
        (0..<Int32(count)).first { String(cString: sqlite3_column_name(statement, $0)).lowercased() == wanted }
          .map(Int.init)
      } else {
        names.firstIndex { $0.lowercased() == wanted }
      }
    guard let found else { preconditionFailure("no column '\(name)' in the row") }
    return found
  }

  private func checkIndex(_ index: Int) {
    precondition(index >= 0 && index < count, "row index \(index) out of range")
  }

  private func decoded<Value>(_ value: Value?, _ index: Int) -> Value {
    guard let value else {
      preconditionFailure("cannot read \(Value.self) from column \(index): \(databaseValues[index])")
    }
    return value
  }
}

// MARK: - Cursors

/// Values read one at a time from a statement, which the cursor resets when it ends or goes.
package protocol Cursor<Element>: AnyObject {
  associatedtype Element
  /// The next element, or nil after the last.
  func next() throws -> Element?
}

extension Cursor {
  /// The cursor of `transform` of each element.
  package func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
    MapCursor(self, transform)
  }
}

/// ``Cursor/map(_:)``'s cursor.
package final class MapCursor<Base: Cursor, Element>: Cursor {
  private let base: Base
  private let transform: (Base.Element) throws -> Element

  init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
    self.base = base
    self.transform = transform
  }

  package func next() throws -> Element? {
    try base.next().map(transform)
  }
}

/// What every cursor of a statement shares: stepping, and the reset at the end.
package class StatementCursor {
  let statement: Statement
  private var isDone = false

  init(_ statement: Statement, _ arguments: StatementArguments?) throws {
    self.statement = statement
    try statement.prepareExecution(arguments)
  }

  deinit {
    if !isDone { sqlite3_reset(statement.sqliteStatement) }
  }

  /// Moves to the next row: false at the end.
  func step() throws -> Bool {
    if isDone { return false }
    do {
      if try statement.step() { return true }
    } catch {
      isDone = true
      throw error
    }
    isDone = true
    return false
  }
}

/// The rows of a statement, each a view of the statement's row (valid until `next()`).
package final class RowCursor: StatementCursor, Cursor {
  private lazy var row = Row(statement: statement)

  package func next() throws -> Row? {
    try step() ? row : nil
  }
}

/// The first column of each row of a statement, as `Value`.
package final class DatabaseValueCursor<Value: DatabaseValueConvertible>: StatementCursor, Cursor {
  private let decode: (SQLiteStatement, Int32) -> Value?

  init(
    _ statement: Statement, _ arguments: StatementArguments?, _ decode: @escaping (SQLiteStatement, Int32) -> Value?
  ) throws {
    self.decode = decode
    try super.init(statement, arguments)
  }

  package func next() throws -> Value? {
    guard try step() else { return nil }
    guard let value = decode(statement.sqliteStatement, 0) else {
      preconditionFailure(
        "cannot read \(Value.self) from \(DatabaseValue(sqliteStatement: statement.sqliteStatement, index: 0))")
    }
    return value
  }
}

/// The rows of a statement, each read as a `Record`.
package final class RecordCursor<Record: FetchableRecord>: StatementCursor, Cursor {
  private lazy var row = Row(statement: statement)

  package func next() throws -> Record? {
    try step() ? Record(row: row) : nil
  }
}

// MARK: - Fetching

extension Row {
  package static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> RowCursor {
    try RowCursor(statement, arguments)
  }

  package static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Row] {
    let cursor = try fetchCursor(statement, arguments: arguments)
    let names = statement.columnNames
    var rows: [Row] = []
    while try cursor.step() { rows.append(Row(copying: statement.sqliteStatement, names: names)) }
    return rows
  }

  package static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Row? {
    let cursor = try fetchCursor(statement, arguments: arguments)
    return try cursor.step() ? Row(copying: statement.sqliteStatement, names: statement.columnNames) : nil
  }

  package static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> RowCursor {
    try fetchCursor(db.makeStatement(sql: sql), arguments: arguments)
  }

  package static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
    try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
  }

  package static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Row? {
    try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
  }
}

extension DatabaseValueConvertible {
  package static func fetchCursor(
    _ statement: Statement, arguments: StatementArguments? = nil
  ) throws -> DatabaseValueCursor<Self> {
    try DatabaseValueCursor(statement, arguments, decode)
  }

  package static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
    try all(of: fetchCursor(statement, arguments: arguments))
  }

  /// The first row's value: nil when there is no row or the value is NULL.
  package static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
    try firstRow(statement, arguments) { row in
      guard let value = Self?.decode(row, 0) else {
        preconditionFailure("cannot read \(Self.self) from \(DatabaseValue(sqliteStatement: row, index: 0))")
      }
      return value
    } ?? nil
  }

  package static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = []
  ) throws -> DatabaseValueCursor<Self> {
    try fetchCursor(db.makeStatement(sql: sql), arguments: arguments)
  }

  package static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
    try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
  }

  package static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
    try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
  }
}

extension DatabaseValueConvertible where Self: Hashable {
  package static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Set<Self> {
    let cursor = try fetchCursor(db.makeStatement(sql: sql), arguments: arguments)
    var set: Set<Self> = []
    while let value = try cursor.next() { set.insert(value) }
    return set
  }
}

/// What `read` reads of the first row of `statement` (nil when there is none); the statement
/// is then reset.
private func firstRow<T>(
  _ statement: Statement, _ arguments: StatementArguments?, _ read: (SQLiteStatement) -> T
) throws -> T? {
  let cursor = try StatementCursor(statement, arguments)
  return try cursor.step() ? read(statement.sqliteStatement) : nil
}

/// Every element left in `cursor`.
private func all<C: Cursor>(of cursor: C) throws -> [C.Element] {
  var elements: [C.Element] = []
  while let element = try cursor.next() { elements.append(element) }
  return elements
}

// MARK: - Records

/// A type made from a row (``Row``).
package protocol FetchableRecord {
  init(row: Row) throws
}

extension FetchableRecord {
  package static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> RecordCursor<
    Self
  > {
    try RecordCursor(statement, arguments)
  }

  package static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
    try all(of: fetchCursor(statement, arguments: arguments))
  }

  package static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
    try fetchCursor(statement, arguments: arguments).next()
  }
}
