import AlbumModel
internal import BlueSQL
import BlueSystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension AlbumStore {
  /// Opens the library file at `path`, creating it (and its directories) seeded
  /// with `seed` (the default catalogue unless told) if it does not exist.
  ///
  /// An existing file is inspected read-only before anything is written to it:
  /// a file that is not SQLite, unreadable, someone else's database, damaged, or
  /// made by a newer bluelib throws ``LibraryError/cannotOpen(path:reason:)`` and
  /// is left byte for byte as it was.
  ///
  /// Its statements stop when `cancellation` says so (``StatementStop``).
  ///
  /// The file uses SQLite's rollback journal (`journal_mode = DELETE`,
  /// `synchronous = FULL`), not WAL: both make every transaction atomic and
  /// durable, but an import appends new pages, which the rollback journal writes
  /// once while WAL writes them twice (to the log, then again at the checkpoint);
  /// a million-row import measured about 25% faster. The shell is one writer
  /// with no concurrent readers, so WAL's concurrency buys nothing, and the
  /// library stays a single file.
  package static func open(
    path: String, seed: [Album] = DefaultCatalogue.albums, cancellation: Cancellation = .never
  ) throws(LibraryError) -> AlbumStore {
    let state = try LibraryFile.inspect(path)
    if state == .missing {
      let directory = PathText.directory(of: path)
      if !directory.isEmpty {
        do {
          try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
          throw .cannotOpen(
            path: path, reason: "cannot create directory '\(directory)': \(LibraryFile.describe(error))")
        }
      }
    }
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    let stop = StatementStop(cancellation)
    configuration.prepareDatabase { db in
      stop.install(db)
      AlbumStore.installQueryFunctions(db, stop: stop)
    }
    // A command's reads share one read transaction (``beginSnapshot()``), left open
    // between the store's calls until the command ends.
    configuration.allowsUnsafeTransactions = true
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      var state = state
      if state == .existing {
        // One connection both checks and uses the file: a second one, read-only, cost
        // a tenth of start-up. Reading writes nothing, so a refused file stays as it was.
        do {
          state = try queue.read { db in try LibraryFile.classify(db, path: path) }
        } catch {
          try? queue.close()
          throw error
        }
      }
      switch state {
      case .missing, .empty:
        // A crash before this commits leaves an empty file, which the next
        // open recognises as `.empty` and creates afresh. Another bluelib may
        // have created it since it was inspected: then inspect it again.
        let created = try queue.writeWithoutTransaction { db in
          var created = false
          try db.inTransaction(.immediate) {
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0 {
              try Schema.create(db, seed: seed)
              created = true
            }
            return .commit
          }
          return created
        }
        if !created {
          try queue.close()
          return try open(path: path, seed: seed, cancellation: cancellation)
        }
      case .library(let version) where version < Schema.version:
        try queue.writeWithoutTransaction { db in
          try db.inTransaction(.immediate) {
            try Schema.migrate(db, from: version)
            return .commit
          }
        }
      case .library, .existing:
        break
      }
      return AlbumStore(path: path, queue: queue, stop: stop)
    } catch {
      switch Self.libraryError(error) {
      case let refused where refused.isCannotOpen: throw refused
      case .database(let reason): throw .cannotOpen(path: path, reason: reason)
      case let other: throw .cannotOpen(path: path, reason: other.description)
      }
    }
  }
}

extension LibraryError {
  fileprivate var isCannotOpen: Bool {
    if case .cannotOpen = self { true } else { false }
  }
}

/// Why `LibraryFile.classify` will not use a database.
private struct Refusal: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}

/// What an existing path holds, found out without writing to it.
enum LibraryFile: Equatable {
  /// Nothing there yet: create it.
  case missing
  /// A zero-length file or a database with nothing in it (an interrupted creation): create it.
  case empty
  /// A bluelib library at schema `version` (never newer than this build's).
  case library(version: Int)
  /// An SQLite file that is not someone else's by its header: to be classified (as
  /// `empty` or `library`, or refused) on the connection that will use it.
  case existing

  static let sqliteHeader = Array("SQLite format 3\0".utf8)

  /// Classifies the file at `path`, or throws `cannotOpen` saying why it cannot be used.
  static func inspect(_ path: String) throws(LibraryError) -> LibraryFile {
    func refuse(_ reason: String) -> LibraryError { .cannotOpen(path: path, reason: reason) }

    var info = stat()
    do {
      try syscall("stat") { stat(path, &info) }
    } catch {
      if error.errno == ENOENT { return .missing }
      throw refuse(error.reason)
    }
    if info.st_mode & S_IFMT == S_IFDIR { throw refuse("it is a directory") }
    if info.st_mode & S_IFMT != S_IFREG { throw refuse("it is not a regular file") }

    let header = try readHeader(path, refuse)
    if header.isEmpty && info.st_size == 0 { return .empty }
    guard header.count == 100, header.starts(with: sqliteHeader), isPlausibleHeader(header) else {
      throw refuse("file is not a database")
    }
    guard access(path, W_OK) == 0 else { throw refuse("permission denied (the file is read-only)") }
    let directory = PathText.directory(of: path)
    guard access(directory.isEmpty ? "." : directory, W_OK) == 0 else {
      // SQLite keeps its journal next to the file.
      throw refuse("permission denied (cannot create files in '\(directory)')")
    }

    // The header holds `application_id` (bytes 68..<72, big-endian): another
    // application's file is refused before SQLite is even asked to open it.
    let applicationID = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
    if applicationID != 0 && applicationID != Schema.applicationID {
      throw refuse("not a bluelib library (application id 0x\(String(UInt32(bitPattern: applicationID), radix: 16)))")
    }
    // A journal left by a crash mid-transaction must be rolled back before the
    // file can be read, and a read-only connection cannot do that. Only our own
    // library is recovered (with SQLite's own rollback, as any client would).
    var journal = stat()
    if applicationID == Schema.applicationID && stat(path + "-journal", &journal) == 0 && journal.st_size > 0 {
      do {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        try queue.close()
      } catch let error as DatabaseError {
        // A journal and a lock held: not a crash but another bluelib in the middle of a
        // change (a long import); nothing needs rolling back, it needs waiting for.
        if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
          throw refuse("the library is busy: another bluelib is changing it (try again when it is done)")
        }
        throw refuse("cannot roll back an interrupted change: \(AlbumStore.reason(error))")
      } catch {
        throw refuse("cannot roll back an interrupted change: \(error)")
      }
    }

    // Anyone else's file with a journal: opening it to read would make SQLite roll the
    // journal back, writing to a file that is not ours.
    if applicationID == 0 && stat(path + "-journal", &journal) == 0 && journal.st_size > 0 {
      throw refuse("not a bluelib library (it has a journal: another program may be changing it)")
    }
    return .existing
  }

  /// Classifies the SQLite file `db` is connected to (``existing``), or throws
  /// `cannotOpen` saying why it cannot be used. It only reads: a refused file is left as
  /// it was.
  static func classify(_ db: Database, path: String) throws(LibraryError) -> LibraryFile {
    do {
      return try classify(db)
    } catch let refusal as Refusal {
      throw .cannotOpen(path: path, reason: refusal.reason)
    } catch let error as DatabaseError {
      throw .cannotOpen(path: path, reason: AlbumStore.reason(error))
    } catch {
      throw .cannotOpen(path: path, reason: "\(error)")
    }
  }

  /// The fixed fields of SQLite's header: a power-of-two page size and the
  /// payload fractions 64, 32, 32 (see sqlite.org/fileformat.html).
  private static func isPlausibleHeader(_ header: [UInt8]) -> Bool {
    let pageSize = Int(header[16]) << 8 | Int(header[17])
    let validPageSize = pageSize == 1 || (pageSize >= 512 && pageSize <= 32768 && pageSize & (pageSize - 1) == 0)
    return validPageSize && header[21] == 64 && header[22] == 32 && header[23] == 32
  }

  private static func classify(_ db: Database) throws -> LibraryFile {
    // Through SQLite's C API: a generic `fetchOne` (a ``Row`` made) costs more than these reads.
    let applicationID = Int32(truncatingIfNeeded: try AlbumStore.fastInteger(db, sql: "PRAGMA application_id") ?? 0)
    let version = try AlbumStore.fastInteger(db, sql: "PRAGMA user_version") ?? 0
    let objects = try AlbumStore.fastInteger(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0

    if applicationID == 0 && version == 0 && objects == 0 { return .empty }
    guard applicationID == Schema.applicationID else {
      if applicationID != 0 {
        throw Refusal(
          "not a bluelib library (application id 0x\(String(UInt32(bitPattern: applicationID), radix: 16)))")
      }
      let tables = try String.fetchAll(
        db,
        sql:
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
      )
      let list = tables.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
      throw Refusal(
        tables.isEmpty
          ? "not a bluelib library" : "not a bluelib library (it has tables \(list)\(tables.count > 5 ? ", …" : ""))")
    }
    guard version <= Schema.version else {
      throw Refusal(
        "created by a newer version of bluelib (schema \(version), this build knows \(Schema.version))")
    }
    guard version >= 1 else { throw Refusal("damaged library (schema version \(version))") }
    // Exactly the objects this build writes, with the same constraints and column types:
    // a trigger, a view, an extra index or a loosened NOT NULL would run or let in what
    // the shell is not made for (a trigger that never ends, a NULL title). O(schema).
    // A file of this build's schema is checked in one read first (SQLite joins the objects'
    // text); only a file that differs is compared object by object, to say what differs.
    let current = try version == Schema.version && Schema.holdsTheCurrentObjects(db)
    if !current {
      let expected = try Schema.objects(atVersion: version)
      let found = try Schema.objects(in: db)
      if found != expected {
        // Say what is wrong as precisely as possible: a missing table or column first.
        for (table, columns, since) in Schema.requiredColumns where since <= version {
          let present = Set(try db.columns(in: table).map(\.name))
          if present.isEmpty { throw Refusal("damaged library: table '\(table)' is missing") }
          if let missing = columns.first(where: { !present.contains($0) }) {
            throw Refusal("damaged library: table '\(table)' has no column '\(missing)'")
          }
        }
      }
      if let extra = found.first(where: { !expected.contains($0) }) {
        let name = extra.prefix { $0 != ":" }
        let known = expected.contains { $0.hasPrefix(name + ":") }
        throw Refusal(
          known
            ? "damaged library: \(name) is not as bluelib made it"
            : "not a library this bluelib made: it has a \(name) that bluelib did not create")
      }
      if let missing = expected.first(where: { !found.contains($0) }) {
        throw Refusal("damaged library: \(missing.prefix { $0 != ":" }) is missing")
      }
    }
    // Positions are dense 0…n−1; reading the index's two ends is O(log n). A position far
    // past any real library would overflow the arithmetic that shifts positions.
    let lowest = try AlbumStore.fastInteger(db, sql: "SELECT MIN(position) FROM album")
    let highest = try AlbumStore.fastInteger(db, sql: "SELECT MAX(position) FROM album")
    if let lowest, let highest, lowest != 0 || highest > Int(Int32.max) {
      throw Refusal("damaged library: album positions run from \(lowest) to \(highest), not from 0")
    }
    // No integrity scan here: PRAGMA quick_check reads every page (0.2 s per million
    // albums) and opening must cost the same for 1,000 or 1,000,000 albums. A damaged
    // page surfaces as a failed command ("library database error: …"), never a crash.
    return .library(version: version)
  }

  private static func readHeader(_ path: String, _ refuse: (String) -> LibraryError) throws(LibraryError) -> [UInt8] {
    do throws(SystemError) {
      let fd = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC) }
      defer { close(fd) }
      var header = [UInt8](repeating: 0, count: 100)
      var filled = 0
      while filled < header.count {
        let n = try syscall("read") {
          header.withUnsafeMutableBytes { buffer in read(fd, buffer.baseAddress! + filled, buffer.count - filled) }
        }
        if n == 0 { break }
        filled += n
      }
      return Array(header[..<filled])
    } catch {
      throw refuse(error.reason)
    }
  }

  /// A Foundation error's reason, lowercase and without the path it names.
  static func describe(_ error: any Error) -> String {
    if let underlying = (error as? CocoaError)?.underlying as? POSIXError {
      return SystemError.reason(underlying.code.rawValue)
    }
    let text = String(describing: error)
    return text.prefix(1).lowercased() + text.dropFirst()
  }
}
