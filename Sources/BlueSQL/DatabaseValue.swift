/// A value as SQLite stores it: NULL, INTEGER, REAL, TEXT or BLOB.
package struct DatabaseValue: Hashable, Sendable {
  /// SQLite's storage classes.
  package enum Storage: Sendable {
    case null
    case int64(Int64)
    case double(Double)
    case string(String)
    case blob([UInt8])
  }

  package let storage: Storage

  package static let null = DatabaseValue(storage: .null)

  package init(storage: Storage) { self.storage = storage }

  package var isNull: Bool {
    if case .null = storage { true } else { false }
  }

  /// The value of `column` of the row `statement` stands on. Text is read with its length
  /// (a NUL inside does not cut it short); bytes that are not UTF-8 are repaired (U+FFFD).
  package init(sqliteStatement statement: SQLiteStatement, index column: Int32) {
    switch sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER: storage = .int64(sqlite3_column_int64(statement, column))
    case SQLITE_FLOAT: storage = .double(sqlite3_column_double(statement, column))
    case SQLITE_TEXT: storage = .string(String(sqliteStatement: statement, index: column))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, column))
      let bytes = sqlite3_column_blob(statement, column)
      storage = .blob(bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
    default: storage = .null
    }
  }

  /// An argument of a function SQLite calls (``DatabaseFunction``).
  init(sqliteValue value: OpaquePointer) {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: storage = .int64(sqlite3_value_int64(value))
    case SQLITE_FLOAT: storage = .double(sqlite3_value_double(value))
    case SQLITE_TEXT:
      let count = Int(sqlite3_value_bytes(value))
      storage = .string(
        sqlite3_value_text(value).map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
          ?? "")
    case SQLITE_BLOB:
      let count = Int(sqlite3_value_bytes(value))
      storage = .blob(sqlite3_value_blob(value).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
    default: storage = .null
    }
  }

  /// Equal as SQLite compares them: the integer 1 equals the real 1.0.
  package static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
    switch (lhs.storage, rhs.storage) {
    case (.null, .null): true
    case (.int64(let lhs), .int64(let rhs)): lhs == rhs
    case (.double(let lhs), .double(let rhs)): lhs == rhs
    case (.int64(let lhs), .double(let rhs)): Int64(exactly: rhs) == lhs
    case (.double(let lhs), .int64(let rhs)): Int64(exactly: lhs) == rhs
    case (.string(let lhs), .string(let rhs)): lhs == rhs
    case (.blob(let lhs), .blob(let rhs)): lhs == rhs
    default: false
    }
  }

  package func hash(into hasher: inout Hasher) {
    switch storage {
    case .null: hasher.combine(0)
    // 1 == 1.0: both hash as the double.
    case .int64(let value): hasher.combine(Double(value))
    case .double(let value): hasher.combine(value)
    case .string(let value): hasher.combine(value)
    case .blob(let value): hasher.combine(value)
    }
  }

  /// Binds the value to parameter `index` of `statement` (text and blobs copied).
  func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
    switch storage {
    case .null: return sqlite3_bind_null(statement, index)
    case .int64(let value): return sqlite3_bind_int64(statement, index, value)
    case .double(let value): return sqlite3_bind_double(statement, index, value)
    case .string(var value):
      return value.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
          // A nil pointer would bind NULL: the empty string is bound as "".
          guard let base = chars.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, sqliteTransient) }
          return sqlite3_bind_text(statement, index, base, Int32(chars.count), sqliteTransient)
        }
      }
    case .blob(let value):
      return value.withUnsafeBytes { bytes in
        guard let base = bytes.baseAddress else { return sqlite3_bind_zeroblob(statement, index, 0) }
        return sqlite3_bind_blob(statement, index, base, Int32(bytes.count), sqliteTransient)
      }
    }
  }
}

/// SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// A type whose values go into SQLite and come back out.
package protocol DatabaseValueConvertible {
  var databaseValue: DatabaseValue { get }
  /// The value `dbValue` holds, or nil when it holds none of this type.
  static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?
  /// The value of `column` of the row `statement` stands on, or nil when it cannot be one
  /// (NULL for a non-optional type, or a value of another type).
  static func decode(_ statement: SQLiteStatement, _ column: Int32) -> Self?
}

/// A type read straight from a statement's column with SQLite's own conversion (an
/// INTEGER column read as text gives its digits), as GRDB's fetches read them.
package protocol StatementColumnConvertible {
  /// The value of `index` in the row `sqliteStatement` stands on, which is not NULL.
  init?(sqliteStatement: SQLiteStatement, index: Int32)
}

extension DatabaseValue: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { self }
  package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
}

extension Int64: DatabaseValueConvertible, StatementColumnConvertible {
  package var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }

  /// An integer, or a real in range rounded toward zero.
  package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? {
    switch dbValue.storage {
    case .int64(let value): value
    case .double(let value) where value >= Double(Int64.min) && value < Double(Int64.max): Int64(value)
    default: nil
    }
  }

  package init(sqliteStatement: SQLiteStatement, index: Int32) {
    self = sqlite3_column_int64(sqliteStatement, index)
  }
}

/// An integer type narrower than SQLite's 64 bits (or as wide): a value that does not fit
/// is not one of it.
protocol NarrowInteger: FixedWidthInteger, DatabaseValueConvertible, StatementColumnConvertible {}

extension NarrowInteger {
  package var databaseValue: DatabaseValue { Int64(self).databaseValue }

  package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    Int64.fromDatabaseValue(dbValue).flatMap { Self(exactly: $0) }
  }

  package init?(sqliteStatement: SQLiteStatement, index: Int32) {
    self.init(exactly: sqlite3_column_int64(sqliteStatement, index))
  }
}

extension Int: NarrowInteger {}
extension Int32: NarrowInteger {}

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
  package var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }

  package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
    switch dbValue.storage {
    case .int64(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  package init(sqliteStatement: SQLiteStatement, index: Int32) {
    self = sqlite3_column_double(sqliteStatement, index)
  }
}

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
  /// 1 or 0.
  package var databaseValue: DatabaseValue { Int64(self ? 1 : 0).databaseValue }

  /// Whether a number is not zero (SQLite's boolean of a number); nil for text and blobs.
  package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
    switch dbValue.storage {
    case .int64(let value): value != 0
    case .double(let value): value != 0
    default: nil
    }
  }

  package init(sqliteStatement: SQLiteStatement, index: Int32) {
    self = sqlite3_column_int64(sqliteStatement, index) != 0
  }
}

extension String: DatabaseValueConvertible, StatementColumnConvertible {
  package var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

  /// Text, or a blob read as UTF-8 (repaired), as SQLite converts it.
  package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
    switch dbValue.storage {
    case .string(let value): value
    case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
    default: nil
    }
  }

  /// The column's text, all of its bytes (a NUL inside included), repaired where not UTF-8.
  package init(sqliteStatement: SQLiteStatement, index: Int32) {
    guard let bytes = sqlite3_column_text(sqliteStatement, index) else {
      self = ""
      return
    }
    let count = Int(sqlite3_column_bytes(sqliteStatement, index))
    self = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}

extension [UInt8]: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }

  /// A blob, or text's UTF-8 bytes.
  package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> [UInt8]? {
    switch dbValue.storage {
    case .blob(let bytes): bytes
    case .string(let text): Array(text.utf8)
    default: nil
    }
  }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  package var databaseValue: DatabaseValue { self?.databaseValue ?? .null }

  /// `.some(nil)` for NULL; nil (a mismatch) for a value not of the wrapped type.
  package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(value) }
    return dbValue.isNull ? .some(nil) : nil
  }

  /// `.some(nil)` for NULL, else the wrapped type's reading (with its conversion).
  package static func decode(_ statement: SQLiteStatement, _ column: Int32) -> Self? {
    if sqlite3_column_type(statement, column) == SQLITE_NULL { return .some(nil) }
    return Wrapped.decode(statement, column).map { .some($0) }
  }
}

extension DatabaseValueConvertible {
  package static func decode(_ statement: SQLiteStatement, _ column: Int32) -> Self? {
    fromDatabaseValue(DatabaseValue(sqliteStatement: statement, index: column))
  }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
  /// ``decode(_:_:)`` with SQLite's own conversion of the column's value.
  package static func decode(_ statement: SQLiteStatement, _ column: Int32) -> Self? {
    if sqlite3_column_type(statement, column) == SQLITE_NULL { return fromDatabaseValue(.null) }
    return Self(sqliteStatement: statement, index: column)
  }
}
