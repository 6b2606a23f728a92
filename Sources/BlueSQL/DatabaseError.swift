// SQLite's own names for its result codes, as GRDB kept them.
// swift-format-ignore-file: AlwaysUseLowerCamelCase

/// An SQLite result code (https://www.sqlite.org/rescode.html), primary or extended.
package struct ResultCode: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
  package let rawValue: Int32

  package init(rawValue: Int32) { self.rawValue = rawValue }

  /// The primary code of an extended one (its low byte): `SQLITE_READONLY_ROLLBACK` is a
  /// `SQLITE_READONLY`.
  package var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

  package var description: String {
    guard let text = sqlite3_errstr(rawValue) else { return "\(rawValue)" }
    return "\(rawValue) (\(String(cString: text)))"
  }

  package static let SQLITE_OK = ResultCode(rawValue: 0)
  package static let SQLITE_ERROR = ResultCode(rawValue: 1)
  package static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
  package static let SQLITE_PERM = ResultCode(rawValue: 3)
  package static let SQLITE_ABORT = ResultCode(rawValue: 4)
  package static let SQLITE_BUSY = ResultCode(rawValue: 5)
  package static let SQLITE_LOCKED = ResultCode(rawValue: 6)
  package static let SQLITE_NOMEM = ResultCode(rawValue: 7)
  package static let SQLITE_READONLY = ResultCode(rawValue: 8)
  package static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
  package static let SQLITE_IOERR = ResultCode(rawValue: 10)
  package static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
  package static let SQLITE_FULL = ResultCode(rawValue: 13)
  package static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
  package static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
  package static let SQLITE_MISUSE = ResultCode(rawValue: 21)
  package static let SQLITE_AUTH = ResultCode(rawValue: 23)
  package static let SQLITE_NOTADB = ResultCode(rawValue: 26)
  package static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: 8 | 3 << 8)
}

/// An error SQLite reported: its (extended) result code, its message, and the SQL it was
/// running.
package struct DatabaseError: Error, CustomStringConvertible {
  /// The code as SQLite gave it (connections report extended codes).
  package let extendedResultCode: ResultCode
  /// SQLite's message (`sqlite3_errmsg`), if any.
  package let message: String?
  /// The statement that failed, if any.
  package let sql: String?

  /// The primary code: what to switch on.
  package var resultCode: ResultCode { extendedResultCode.primaryResultCode }

  package init(resultCode: ResultCode = .SQLITE_ERROR, message: String? = nil, sql: String? = nil) {
    self.extendedResultCode = resultCode
    self.message = message
    self.sql = sql
  }

  package var description: String {
    var description = "SQLite error \(resultCode.rawValue)"
    if let message { description += ": \(message)" }
    if let sql { description += " - while executing `\(sql)`" }
    return description
  }

  /// The error `code` of a call on `connection`, with the connection's message.
  static func failure(_ code: Int32, _ connection: SQLiteConnection, sql: String? = nil) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code), message: sqlite3_errmsg(connection).map { String(cString: $0) },
      sql: sql)
  }
}
