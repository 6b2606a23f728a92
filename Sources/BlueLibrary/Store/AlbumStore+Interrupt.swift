import AlbumModel
internal import BlueSQL
import BlueSystem
import Synchronization

extension AlbumStore {
  /// What a store's statements stop for: the run's ``Cancellation`` token (a SIGTERM, say),
  /// checked every 1,000 steps of SQLite's virtual machine, so a long statement — the undo
  /// of a million-album import — ends within milliseconds. The statement and its
  /// transaction roll back; the call throws ``LibraryError/cancelled``.
  final class StatementStop: Sendable {
    /// The token asked.
    let cancellation: Cancellation
    /// How many ``holding(_:)`` run now.
    private let holds = Atomic<Int>(0)

    init(_ cancellation: Cancellation) {
      self.cancellation = cancellation
    }

    /// Whether the token asks to stop now (never inside ``holding(_:)``).
    var isRequested: Bool {
      holds.load(ordering: .relaxed) == 0 && cancellation.stopsStatements
    }

    /// Runs `body` with ``isRequested`` false: what a signal asked for — putting back the
    /// files of a cancelled write, and the library with them — is not itself stopped by that
    /// signal.
    func holding<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
      holds.add(1, ordering: .relaxed)
      defer { holds.subtract(1, ordering: .relaxed) }
      return try body()
    }

    /// Makes SQLite ask ``isRequested`` as it works on `db`'s connection.
    ///
    /// - Important: The connection must not outlive this object (the store holds both).
    func install(_ db: Database) {
      sqlite3_progress_handler(db.sqliteConnection, 1000, askToStop, Unmanaged.passUnretained(self).toOpaque())
    }
  }

  /// Whether the run's token asks this store's statements to stop now.
  var interruptRequested: Bool { statementStop.isRequested }

  /// Runs `body` with ``interruptRequested`` false (``StatementStop/holding(_:)``).
  func withoutInterrupts<T>(_ body: () throws(LibraryError) -> T) throws(LibraryError) -> T {
    try statementStop.holding(body)
  }
}

/// SQLite's progress handler: non-zero stops the statement with SQLITE_INTERRUPT.
private let askToStop: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
  guard let context else { return 0 }
  return Unmanaged<AlbumStore.StatementStop>.fromOpaque(context).takeUnretainedValue().isRequested ? 1 : 0
}
