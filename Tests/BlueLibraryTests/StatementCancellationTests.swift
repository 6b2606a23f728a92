import AlbumModel
import BlueSQL
import BlueSystem
import Synchronization
import Testing

@testable import BlueLibrary

/// A store's statements stop through the token it was opened with, and only that one: two
/// stores opened with two tokens (two runs, or a test beside the shell) do not stop each
/// other, which a process-wide stop flag could not promise.
struct StatementCancellationTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
  }

  /// The signals one token reads: set by the test, not by a signal handler.
  final class Signals: Sendable {
    let termination = Atomic<Int32>(0)
    let interrupt = Atomic<Bool>(false)

    /// A token reading these flags (nothing taken: the test sets and clears them).
    func token() -> Cancellation {
      Cancellation(
        wakeUpPipe: WakeUpPipe(),
        termination: { [self] in
          let status = termination.load(ordering: .relaxed)
          return status == 0 ? nil : status
        },
        interrupt: { [self] _ in interrupt.load(ordering: .relaxed) })
    }
  }

  /// A statement of some 200,000 steps of SQLite's machine: the progress handler asks its
  /// token every 1,000 of them.
  static func longCount(_ store: AlbumStore) throws(LibraryError) -> Int {
    try store.reading { db in try Int.fetchOne(db, sql: longCountSQL) ?? 0 }
  }

  static let longCountSQL = """
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
    SELECT count(*) FROM n
    """

  static func error(_ body: () throws(LibraryError) -> Void) -> LibraryError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  @Test func aStopAskedOfOneTokenLeavesTheStatementsOfAnotherRunning() throws {
    let (first, second) = (Signals(), Signals())
    let stopped = try AlbumStore.open(path: directory.file("first.sqlite"), cancellation: first.token())
    let going = try AlbumStore.open(path: directory.file("second.sqlite"), cancellation: second.token())
    let albums = try going.count()
    first.termination.store(143, ordering: .relaxed)  // SIGTERM, for the first token only

    #expect(Self.error { () throws(LibraryError) in _ = try Self.longCount(stopped) } == .cancelled)
    #expect(try Self.longCount(going) == 50000)
    // A write under the other token goes through whole.
    try going.writing { db in try db.execute(sql: "DELETE FROM album") }
    #expect(try going.count() == 0)
    #expect(albums > 0)
    // A write under the stopped one rolls back: nothing of it is left.
    #expect(
      Self.error { () throws(LibraryError) in
        try stopped.writing { db in
          try db.execute(sql: "DELETE FROM album")
          _ = try Int.fetchOne(db, sql: Self.longCountSQL)
        }
      } == .cancelled)
    first.termination.store(0, ordering: .relaxed)
    #expect(try stopped.count() == albums)
  }

  /// Ctrl-C stops a statement only once the token is armed for a script (where it ends the
  /// run); at a terminal it is the running command's to take, and statements go on.
  @Test func ctrlCStopsStatementsInAScriptOnly() throws {
    let script = Signals()
    let terminal = Signals()
    let scriptToken = script.token()
    let terminalToken = terminal.token()
    let inScript = try AlbumStore.open(path: directory.file("script.sqlite"), cancellation: scriptToken)
    let atTerminal = try AlbumStore.open(path: directory.file("terminal.sqlite"), cancellation: terminalToken)
    script.interrupt.store(true, ordering: .relaxed)
    terminal.interrupt.store(true, ordering: .relaxed)
    // Not armed yet (the library opening at start): only SIGTERM and SIGHUP stop it.
    #expect(try Self.longCount(inScript) == 50000)
    scriptToken.arm(interactive: false)
    terminalToken.arm(interactive: true)
    #expect(Self.error { () throws(LibraryError) in _ = try Self.longCount(inScript) } == .cancelled)
    #expect(try Self.longCount(atTerminal) == 50000)
  }
}
