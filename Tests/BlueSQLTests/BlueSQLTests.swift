import BlueSQL
import CSQLite
import Foundation
import Synchronization
import TestSupport
import Testing

/// The SQLite layer over a real file: values as they go in and come out, errors with their
/// codes, locks between two connections, a progress handler's stop, transactions.
struct BlueSQLTests {
  let directory: TemporaryDirectory
  let path: String

  init() throws {
    directory = try TemporaryDirectory()
    path = directory.file("test.sqlite")
  }

  func queue(_ configure: (inout Configuration) -> Void = { _ in }) throws -> DatabaseQueue {
    var configuration = Configuration()
    configure(&configuration)
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, value)")
    }
    return queue
  }

  @Test func nullsComeBackAsNilAndCountAsNull() throws {
    let queue = try queue()
    try queue.write { db in try db.execute(sql: "INSERT INTO t (id, value) VALUES (1, ?)", arguments: [nil]) }
    let row = try #require(try queue.read { db in try Row.fetchOne(db, sql: "SELECT value FROM t") })
    #expect(row.hasNull(atIndex: 0))
    #expect(row[0] as Int? == nil)
    #expect(row[0] as String? == nil)
    #expect(row[0] as DatabaseValue == .null)
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT value FROM t") } == nil)
    #expect(try queue.read { db in try String?.fetchAll(db, sql: "SELECT value FROM t") } == [nil])
  }

  @Test func integersKeepTheirBoundsAndRealsTheirBits() throws {
    let queue = try queue()
    let numbers: [Int64] = [Int64.min, -1, 0, 1, Int64.max]
    try queue.write { db in
      for (id, number) in numbers.enumerated() {
        try db.execute(sql: "INSERT INTO t (id, value) VALUES (?, ?)", arguments: [id, number])
      }
      try db.execute(sql: "INSERT INTO t (id, value) VALUES (10, ?)", arguments: [0.1])
    }
    #expect(
      try queue.read { db in try Int64.fetchAll(db, sql: "SELECT value FROM t WHERE id < 10 ORDER BY id") } == numbers)
    #expect(
      try queue.read { db in try Int.fetchAll(db, sql: "SELECT value FROM t WHERE id < 10 ORDER BY id") }
        == numbers.map(Int.init))
    #expect(try queue.read { db in try Double.fetchOne(db, sql: "SELECT value FROM t WHERE id = 10") } == 0.1)
    // A copied row holds the stored types: the integer 1 equals the real 1.0, as in SQLite.
    let row = try #require(try queue.read { db in try Row.fetchOne(db, sql: "SELECT value, 1.0 FROM t WHERE id = 4") })
    #expect(row.databaseValues == [Int64.max.databaseValue, DatabaseValue(storage: .int64(1))])
    #expect(row[1] as Int == 1)
  }

  @Test func textKeepsItsNULsAndRepairsBytesThatAreNotUTF8() throws {
    let queue = try queue()
    let withNUL = "a\u{0}b"
    try queue.write { db in
      try db.execute(sql: "INSERT INTO t (id, value) VALUES (1, ?)", arguments: [withNUL])
      // As a broken file could hold it: bytes that are not UTF-8, stored as TEXT.
      try db.execute(sql: "INSERT INTO t (id, value) VALUES (2, CAST(x'61ff62' AS TEXT))")
      try db.execute(sql: "INSERT INTO t (id, value) VALUES (3, '')")
    }
    #expect(
      try queue.read { db in try Int.fetchOne(db, sql: "SELECT length(CAST(value AS BLOB)) FROM t WHERE id = 1") } == 3)
    #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM t WHERE id = 1") } == withNUL)
    #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM t WHERE id = 2") } == "a\u{FFFD}b")
    #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM t WHERE id = 3") } == "")
    #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT typeof(value) FROM t WHERE id = 3") } == "text")
    let cursorTexts = try queue.read { db in
      let cursor = try Row.fetchCursor(db, sql: "SELECT value FROM t ORDER BY id")
      var texts: [String] = []
      while let row = try cursor.next() { texts.append(row[0]) }
      return texts
    }
    #expect(cursorTexts == [withNUL, "a\u{FFFD}b", ""])
  }

  /// A fetch of numbers and text takes SQLite's conversion of the column, as GRDB's did: a
  /// number kept as text reads as the number.
  @Test func aFetchConvertsAsSQLiteDoes() throws {
    let queue = try queue()
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT '42'") } == 42)
    #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT 42") } == "42")
    #expect(try queue.read { db in try Bool.fetchOne(db, sql: "SELECT '1'") } == true)
    let (year, missing) = try queue.read { db in
      let cursor = try Row.fetchCursor(db, sql: "SELECT '1999', NULL")
      let row = try #require(try cursor.next())
      return (row[0] as Int?, row[1] as Int?)
    }
    #expect(year == 1999 && missing == nil)
  }

  @Test func blobsGoInAndComeOutByteForByte() throws {
    let queue = try queue()
    let bytes: [UInt8] = [0, 255, 1, 0, 128]
    try queue.write { db in
      try db.execute(sql: "INSERT INTO t (id, value) VALUES (1, ?), (2, ?)", arguments: [bytes, [UInt8]()])
    }
    let row = try #require(try queue.read { db in try Row.fetchOne(db, sql: "SELECT value FROM t WHERE id = 1") })
    #expect(row[0] as [UInt8] == bytes)
    #expect(try queue.read { db in try String.fetchOne(db, sql: "SELECT typeof(value) FROM t WHERE id = 2") } == "blob")
  }

  @Test func anErrorCarriesSQLitesCodeMessageAndStatement() throws {
    let queue = try queue()
    try queue.write { db in try db.execute(sql: "CREATE TABLE u (x NOT NULL UNIQUE)") }
    try queue.write { db in try db.execute(sql: "INSERT INTO u VALUES (1)") }
    let unique = try #require(throws: DatabaseError.self) {
      try queue.write { db in try db.execute(sql: "INSERT INTO u VALUES (1)") }
    }
    #expect(unique.resultCode == .SQLITE_CONSTRAINT)
    #expect(unique.extendedResultCode.rawValue == 2067)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(unique.message == "UNIQUE constraint failed: u.x")
    #expect(unique.sql == "INSERT INTO u VALUES (1)")
    let syntax = try #require(throws: DatabaseError.self) {
      try queue.read { db in try Row.fetchAll(db, sql: "SELEKT 1") }
    }
    #expect(syntax.resultCode == .SQLITE_ERROR && syntax.message?.contains("syntax error") == true)
    // Double-quoted text is an identifier, never a string.
    let quoted = try #require(throws: DatabaseError.self) {
      try queue.read { db in try String.fetchOne(db, sql: "SELECT \"nothing\"") }
    }
    #expect(quoted.message == "no such column: nothing")
    let arguments = try #require(throws: DatabaseError.self) {
      try queue.read { db in try Int.fetchOne(db, sql: "SELECT ?", arguments: [1, 2]) }
    }
    #expect(arguments.resultCode == .SQLITE_MISUSE)
    let table = try #require(throws: DatabaseError.self) { try queue.read { db in try db.columns(in: "none") } }
    #expect(table.message == "no such table: none")
    #expect(try queue.read { db in try db.columns(in: "u").map(\.name) } == ["x"])
  }

  @Test func foreignKeysAreEnforced() throws {
    let queue = try queue()
    let error = try #require(throws: DatabaseError.self) {
      try queue.write { db in
        try db.execute(sql: "CREATE TABLE child (parent REFERENCES t(id)); INSERT INTO child VALUES (42)")
      }
    }
    #expect(error.resultCode == .SQLITE_CONSTRAINT)
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAtOpen() throws {
    try Array(repeating: "not a database\n", count: 100).joined().write(toFile: path, atomically: true, encoding: .utf8)
    let error = try #require(throws: DatabaseError.self) { try DatabaseQueue(path: path) }
    #expect(error.resultCode == .SQLITE_NOTADB)
  }

  @Test func aLockHeldByAnotherConnectionIsBusyAfterTheTimeout() throws {
    let holder = try queue { $0.allowsUnsafeTransactions = true }
    let waiter = try queue { $0.busyMode = .timeout(0.05) }
    try holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
    let busy = try #require(throws: DatabaseError.self) {
      try waiter.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (1)") }
    }
    #expect(busy.resultCode == .SQLITE_BUSY)
    try holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    try waiter.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (1)") }
    #expect(try holder.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
  }

  @Test func aProgressHandlerStopsAStatementWithInterrupt() throws {
    let queue = try queue { configuration in
      configuration.prepareDatabase { db in
        sqlite3_progress_handler(
          db.sqliteConnection, 100,
          { context in
            Unmanaged<AtomicFlag>.fromOpaque(context!).takeUnretainedValue().isSet ? 1 : 0
          }, Unmanaged.passUnretained(AtomicFlag.shared).toOpaque())
      }
    }
    AtomicFlag.shared.set(true)
    defer { AtomicFlag.shared.set(false) }
    let interrupted = try #require(throws: DatabaseError.self) {
      try queue.write { db in
        try db.execute(sql: "INSERT INTO t (id) VALUES (1)")
        _ = try Int.fetchOne(
          db, sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n")
      }
    }
    #expect(interrupted.resultCode == .SQLITE_INTERRUPT)
    AtomicFlag.shared.set(false)
    // The whole transaction is gone, the insert with it.
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
  }

  @Test func aTransactionRollsBackWhenItsBodyThrows() throws {
    struct Refused: Error {}
    let queue = try queue()
    #expect(throws: Refused.self) {
      try queue.write { db in
        try db.execute(sql: "INSERT INTO t (id) VALUES (1)")
        throw Refused()
      }
    }
    try queue.writeWithoutTransaction { db in
      try db.inTransaction(.immediate) {
        try db.execute(sql: "INSERT INTO t (id) VALUES (2)")
        return .rollback
      }
      try db.inTransaction(.deferred) {
        try db.execute(sql: "INSERT INTO t (id) VALUES (3)")
        return .commit
      }
      #expect(db.isInsideTransaction == false)
    }
    #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT id FROM t") } == [3])
  }

  @Test func aReadCannotWrite() throws {
    let queue = try queue()
    let error = try #require(throws: DatabaseError.self) {
      try queue.read { db in try db.execute(sql: "INSERT INTO t (id) VALUES (1)") }
    }
    #expect(error.resultCode == .SQLITE_READONLY)
    try queue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (1)") }
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
  }

  @Test func aFunctionGetsItsArgumentsAndItsErrorsReachTheStatement() throws {
    let queue = try queue { configuration in
      configuration.prepareDatabase { db in
        db.add(
          function: DatabaseFunction("twice", argumentCount: 1, pure: true) { values in
            if let text = String.fromDatabaseValue(values[0]) { return text + text }
            if values[0].isNull { throw DatabaseError(resultCode: .SQLITE_INTERRUPT) }
            return Int64.fromDatabaseValue(values[0]).map { $0 * 2 }
          })
      }
    }
    #expect(
      try queue.read { db in try String.fetchOne(db, sql: "SELECT twice(?)", arguments: ["a\u{0}é"]) }
        == "a\u{0}éa\u{0}é")
    #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT twice(21)") } == 42)
    let error = try #require(throws: DatabaseError.self) {
      try queue.read { db in try Int.fetchOne(db, sql: "SELECT twice(NULL)") }
    }
    #expect(error.resultCode == .SQLITE_INTERRUPT)
  }

  @Test func cachedStatementsAreKeptAndCursorsReadRowByRow() throws {
    let queue = try queue()
    try queue.write { db in
      let insert = try db.cachedStatement(sql: "INSERT INTO t (id, value) VALUES (?, ?)")
      for id in 1...3 { try insert.execute(arguments: [id, "v\(id)"]) }
      #expect(try db.cachedStatement(sql: "INSERT INTO t (id, value) VALUES (?, ?)") === insert)
      #expect(db.lastInsertedRowID == 3 && db.changesCount == 1)
    }
    let (ids, values, set) = try queue.read { db in
      let cursor = try Int64.fetchCursor(db, sql: "SELECT id FROM t ORDER BY id").map { $0 * 10 }
      var ids: [Int64] = []
      while let id = try cursor.next() { ids.append(id) }
      let values = try Row.fetchAll(db, sql: "SELECT id, value FROM t ORDER BY id").map { $0["VALUE"] as String }
      return (ids, values, try Int64.fetchSet(db, sql: "SELECT id % 2 FROM t"))
    }
    #expect(ids == [10, 20, 30] && values == ["v1", "v2", "v3"] && set == [0, 1])
  }
}

/// A flag a C callback reads.
final class AtomicFlag: Sendable {
  static let shared = AtomicFlag()
  private let flag = Atomic<Bool>(false)
  var isSet: Bool { flag.load(ordering: .relaxed) }
  func set(_ value: Bool) { flag.store(value, ordering: .relaxed) }
}
