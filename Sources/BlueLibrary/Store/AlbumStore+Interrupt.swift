import AlbumModel
internal import GRDB
import Synchronization

#if canImport(GRDBSQLite)
  internal import GRDBSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

extension AlbumStore {
  /// What the shell asks SQLite to stop for (a SIGTERM, say): checked every 1,000 steps of
  /// SQLite's virtual machine, so a long statement — the undo of a million-album import —
  /// ends within milliseconds. The statement and its transaction roll back; the call throws
  /// ``LibraryError/cancelled``. Nil (the default) never stops anything.
  ///
  /// - Important: Set it once, before the first store is opened (the shell does so at
  ///   start-up): SQLite asks it on whatever thread runs a statement, without a lock.
  package static func setInterruptCheck(_ check: (@Sendable () -> Bool)?) {
    interruptCheck = check
  }

  /// Written once at start-up, then only read (a lock on every 1,000 steps of SQLite's
  /// virtual machine would cost more than the check).
  nonisolated(unsafe) private static var interruptCheck: (@Sendable () -> Bool)?

  /// Whether the check set with ``setInterruptCheck(_:)`` asks to stop now (never inside
  /// ``withoutInterrupts(_:)``).
  static var interruptRequested: Bool {
    interruptHolds.load(ordering: .relaxed) == 0 && (interruptCheck?() ?? false)
  }

  /// How many ``withoutInterrupts(_:)`` run now.
  private static let interruptHolds = Atomic<Int>(0)

  /// Runs `body` with ``interruptRequested`` false: what a signal asked for — putting back
  /// the files of a cancelled write, and the library with them — is not itself stopped by
  /// that signal.
  static func withoutInterrupts<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
    interruptHolds.add(1, ordering: .relaxed)
    defer { interruptHolds.subtract(1, ordering: .relaxed) }
    return try body()
  }

  /// Makes SQLite ask ``interruptRequested`` as it works on `db`'s connection.
  static func installInterruptCheck(_ db: Database) {
    sqlite3_progress_handler(db.sqliteConnection, 1000, askToStop, nil)
  }
}

/// SQLite's progress handler: non-zero stops the statement with SQLITE_INTERRUPT.
private let askToStop: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { _ in
  AlbumStore.interruptRequested ? 1 : 0
}
