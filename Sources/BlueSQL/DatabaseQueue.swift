#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a connection is opened and set up (``DatabaseQueue/init(path:configuration:)``).
package struct Configuration {
  /// What a statement does when another connection holds the lock it needs.
  package enum BusyMode {
    /// Fails at once with `SQLITE_BUSY`.
    case immediateError
    /// Retries for up to this many seconds, then fails with `SQLITE_BUSY`.
    case timeout(Double)
  }

  package var busyMode = BusyMode.immediateError
  /// Whether a call may leave a transaction open for the next one; when false, doing so
  /// stops the run (a programming error).
  package var allowsUnsafeTransactions = false
  /// Run on the connection once it is open, in order (``prepareDatabase(_:)``).
  var preparations: [(Database) throws -> Void] = []

  package init() {}

  /// Adds `body` to what is run on the connection as it opens (functions to add, a
  /// progress handler to install).
  package mutating func prepareDatabase(_ body: @escaping (Database) throws -> Void) {
    preparations.append(body)
  }
}

/// One connection to an SQLite database and the lock that serialises every use of it: its
/// calls may come from any thread, one at a time. Calls are not reentrant (a call inside
/// another's body stops the run).
package final class DatabaseQueue: @unchecked Sendable {
  private let db: Database
  private let allowsUnsafeTransactions: Bool
  /// An error-checking mutex: a call from inside another's body is refused, not a deadlock.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  /// Opens the database at `path`, creating the file if there is none.
  package init(path: String, configuration: Configuration = Configuration()) throws {
    db = try Database(path: path, configuration: configuration)
    allowsUnsafeTransactions = configuration.allowsUnsafeTransactions
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  /// A database in memory, gone with the queue.
  package convenience init(configuration: Configuration = Configuration()) throws {
    try self.init(path: ":memory:", configuration: configuration)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` on the connection as it is: no transaction is begun or ended.
  package func inDatabase<T>(_ body: (Database) throws -> T) rethrows -> T {
    try sync(body)
  }

  /// ``inDatabase(_:)``, GRDB's name for a call that writes outside a transaction.
  package func writeWithoutTransaction<T>(_ body: (Database) throws -> T) rethrows -> T {
    try sync(body)
  }

  /// Runs `body` in a transaction (IMMEDIATE), committed when it returns, rolled back when
  /// it throws.
  package func write<T>(_ body: (Database) throws -> T) throws -> T {
    try sync { db in
      var result: T?
      try db.inTransaction {
        result = try body(db)
        return .commit
      }
      return result!
    }
  }

  /// Runs `body` in a read-only transaction (`PRAGMA query_only`): the file does not change
  /// under it, and it cannot change the file.
  package func read<T>(_ body: (Database) throws -> T) throws -> T {
    try sync { db in try db.readOnly { try db.isolated { try body(db) } } }
  }

  /// Closes the connection; the queue must not be used afterwards.
  package func close() throws {
    try sync { db in try db.close() }
  }

  /// Tells `observer` of the connection's changes and transactions while it lives.
  package func add(transactionObserver observer: some TransactionObserver, extent: TransactionObservationExtent) {
    sync { db in db.add(transactionObserver: observer) }
  }

  private func sync<T>(_ body: (Database) throws -> T) rethrows -> T {
    precondition(pthread_mutex_lock(mutex) == 0, "Database methods are not reentrant")
    defer { pthread_mutex_unlock(mutex) }
    let result = try body(db)
    precondition(
      allowsUnsafeTransactions || sqlite3_get_autocommit(db.sqliteConnection) != 0,
      "A transaction has been left opened at the end of a database access")
    return result
  }
}
