import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The library file on disk: files it must refuse without touching them (SPEC §1, exit 2),
/// and every change being one transaction, even under `kill -9` (SPEC §2).
@Suite(.serialized)
struct LibraryFileTests {
  typealias F = LibraryFixture

  static let sqlite3 = "/usr/bin/sqlite3"
  static var hasSQLite3: Bool { FileManager.default.isExecutableFile(atPath: sqlite3) }

  private func libraryPath(_ runner: BinaryRunner) -> String {
    runner.home.appendingPathComponent("library.sqlite").path
  }

  /// Runs the sqlite3 CLI on `path`; fails the test when it fails.
  private func sqlite(_ path: String, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.sqlite3)
    process.arguments = [path, sql]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "sqlite3 \(sql) failed")
  }

  /// Every way a user might start bluelib on the file: each must exit 2 with `reason`,
  /// print nothing on stdout, and leave the file and its directory exactly as they were.
  private func expectRefused(_ runner: BinaryRunner, reason: String) throws {
    let path = libraryPath(runner)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let entries = try FileManager.default.contentsOfDirectory(atPath: runner.home.path).sorted()
    for arguments in [["-c", "list"], ["-c", "reset"], []] {
      let result = try runner.run(arguments, input: Data("add X\nreset\nlist\n".utf8))
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout == "")
      #expect(result.stderr == "bluelib: cannot open library '\(path)': \(reason)\n")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the library file was changed")
    #expect(try FileManager.default.contentsOfDirectory(atPath: runner.home.path).sorted() == entries)
  }

  // MARK: - Files it must refuse

  @Test func randomBytesAreRefusedAndLeftAlone() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    var generator = SystemRandomNumberGenerator()
    let noise = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try noise.write(to: URL(fileURLWithPath: libraryPath(runner)))
    try expectRefused(runner, reason: "file is not a database")
  }

  @Test func aTextFileIsRefusedAndLeftAlone() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    try Data("My albums:\n- Best of Bowie\n- American Pie\n".utf8)
      .write(to: URL(fileURLWithPath: libraryPath(runner)))
    try expectRefused(runner, reason: "file is not a database")
  }

  @Test(.enabled(if: hasSQLite3)) func anotherApplicationsDatabaseIsRefusedAndLeftAlone() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    try sqlite(libraryPath(runner), "CREATE TABLE customers(x); INSERT INTO customers VALUES (1);")
    try expectRefused(runner, reason: "not a bluelib library (it has tables 'customers')")
  }

  @Test(.enabled(if: hasSQLite3)) func aLibraryFromANewerBluelibIsRefusedAndLeftAlone() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(["-c", "tap 2; delete"]).status == 0)
    // Schema.swift keeps the schema version in SQLite's user_version (this build: 1).
    try sqlite(libraryPath(runner), "PRAGMA user_version = 99;")
    try expectRefused(
      runner, reason: "created by a newer version of bluelib (schema 99, this build knows 21)")
  }

  @Test(
    .enabled(if: hasSQLite3),
    arguments: [
      (
        "CREATE TRIGGER forever AFTER INSERT ON album BEGIN "
          + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n; END;",
        "not a library this bluelib made: it has a trigger 'forever' on 'album' that bluelib did not create"
      ),
      (
        "CREATE VIEW everything AS SELECT * FROM album;",
        "not a library this bluelib made: it has a view 'everything' on 'everything' that bluelib did not create"
      ),
      (
        "CREATE INDEX album_title ON album(title);",
        "not a library this bluelib made: it has a index 'album_title' on 'album' that bluelib did not create"
      ),
      (
        "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, 'title TEXT NOT NULL', 'title TEXT') "
          + "WHERE name = 'album';",
        "damaged library: table 'album' on 'album' is not as bluelib made it"
      ),
      (
        "UPDATE album SET position = 9223372036854775807 WHERE position = 4;",
        "damaged library: album positions run from 0 to 9223372036854775807, not from 0"
      ),
    ])
  func aLibraryWithObjectsOrValuesBluelibDidNotWriteIsRefusedAndLeftAlone(sql: String, reason: String) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(["-c", "view"]).status == 0)
    try sqlite(libraryPath(runner), sql)
    try expectRefused(runner, reason: reason)
  }

  @Test(.enabled(if: hasSQLite3)) func aLibraryAnotherProcessIsChangingIsReportedAsBusy() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(["-c", "view"]).status == 0)
    // sqlite3 in the middle of a write transaction, held open: a hot journal and a lock,
    // as another bluelib in the middle of a long import leaves them.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: Self.sqlite3)
    holder.arguments = [libraryPath(runner)]
    let input = Pipe()
    holder.standardInput = input
    holder.standardOutput = FileHandle.nullDevice
    try holder.run()
    defer {
      try? input.fileHandleForWriting.close()
      holder.waitUntilExit()
    }
    try input.fileHandleForWriting.write(contentsOf: Data("BEGIN EXCLUSIVE; UPDATE album SET genre = 'x';\n".utf8))
    let journal = libraryPath(runner) + "-journal"
    let deadline = Date().addingTimeInterval(5)
    while !FileManager.default.fileExists(atPath: journal) && Date() < deadline { usleep(20_000) }
    let result = try runner.run(["-c", "list"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "bluelib: cannot open library '\(libraryPath(runner))': the library is busy: another bluelib is changing it (try again when it is done)\n"
    )
  }

  @Test func aDirectoryWhereTheLibraryShouldBeIsRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    try FileManager.default.createDirectory(atPath: libraryPath(runner), withIntermediateDirectories: true)
    let result = try runner.run(["-c", "list"])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr == "bluelib: cannot open library '\(libraryPath(runner))': it is a directory\n")
  }

  /// `export` onto the library itself (by its name, a symbolic link, a hard link, or its
  /// journal) is refused: renaming JSON over it lost every change after it (round 3, F4).
  @Test func exportOntoTheLibraryItselfIsRefusedAndTheLibraryStays() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let path = libraryPath(runner)
    #expect(try runner.run(["-c", "add Keep"]).status == 0)
    let symbolic = runner.home.appendingPathComponent("lib.json").path
    let hard = runner.home.appendingPathComponent("hard.json").path
    try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: path)
    try FileManager.default.linkItem(atPath: path, toPath: hard)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))

    // SQLite's files beside it too, when they do not exist between two commands: a stale
    // journal is deleted at the next open, and the export with it (round 4, G20).
    let targets = [
      path, symbolic, hard, runner.home.path + "/./library.sqlite", path + "-journal", path + "-wal", path + "-shm",
      runner.home.path + "/../" + runner.home.lastPathComponent + "/library.sqlite-journal",
    ]
    for target in targets {
      let result = try runner.run(["-c", "export \(target); add After"])
      #expect(result.status == 1, "\(target)")
      #expect(
        result.stderr.contains("export: cannot write '\(target)': it is the library itself"), "\(result.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(16) == before.prefix(16))
    #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    let after = try runner.run(["-c", "list"])
    #expect(after.status == 0, "\(after.stderr)")
    // Each line's `add After` ran: 5 albums, Keep, and one per target.
    #expect(
      after.stdout.contains("Keep") && after.stdout.hasSuffix("\n\(6 + targets.count) albums\n"), "\(after.stdout)")
  }

  /// Under `ulimit -f` a write past the limit fails with "file too large" and the shell goes
  /// on: SIGXFSZ killed it (153) and left the export's temporary file behind (round 3, F17).
  @Test func aWritePastTheFileSizeLimitIsAnErrorNotADeath() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let csv = runner.home.appendingPathComponent("many.csv").path
    try ("title\n" + (0..<5_000).map { "Album \($0)\n" }.joined()).write(
      toFile: csv, atomically: false, encoding: .utf8)
    #expect(try runner.run(["-c", "import \(csv)"]).status == 0)
    let out = runner.home.appendingPathComponent("out").path
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // 100 blocks of 512 bytes: the library (already written) is read, the export is too big.
    process.arguments = [
      "-c", "ulimit -f 100; exec \"$0\" --home \"$1\" -c \"export $2/all.json; add After\"",
      BinaryRunner.executable.path, runner.home.path, out,
    ]
    process.environment = runner.environment()
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

    #expect(process.terminationStatus == 1, "\(stderr)")
    #expect(stderr.contains("file too large"), "\(stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [], "a temporary file was left behind")
    #expect(try runner.run(["-c", "list After"]).stdout.contains("After"))
  }

  @Test func aFreshHomeGetsALibraryWithTheDefaultCatalogue() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(["-c", "list"])
    #expect(result.status == 0)
    #expect(result.stdout == F.list(selected: 1))
    let header = try FileHandle(forReadingFrom: URL(fileURLWithPath: libraryPath(runner))).read(upToCount: 16)
    #expect(header == Data("SQLite format 3\0".utf8))
  }

  // MARK: - Crash safety

  /// `bluelib -c 'import BIG'`, killed with SIGKILL after `delay` seconds (or left to
  /// finish when `delay` is nil). Whether it was killed, and whether a hot journal shows
  /// the kill landed inside the import's transaction.
  private func importKilled(
    _ runner: BinaryRunner, file: String, after delay: Double?
  ) throws -> (killed: Bool, midTransaction: Bool, seconds: Double) {
    try killed(runner, commands: "import '\(file)'", after: delay)
  }

  /// `bluelib -c COMMANDS`, killed with SIGKILL after `delay` seconds (nil: let it finish).
  private func killed(
    _ runner: BinaryRunner, commands: String, after delay: Double?
  ) throws -> (killed: Bool, midTransaction: Bool, seconds: Double) {
    let process = Process()
    process.executableURL = BinaryRunner.executable
    process.arguments = ["--home", runner.home.path, "-c", commands]
    process.environment = runner.environment()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = Date()
    try process.run()
    if let delay {
      usleep(useconds_t(delay * 1_000_000))
      kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    let killed = process.terminationReason == .uncaughtSignal
    var journal = stat()
    let hot = stat(libraryPath(runner) + "-journal", &journal) == 0 && journal.st_size > 0
    return (killed, killed && hot, seconds)
  }

  @Test func killMinus9DuringALargeImportLeavesTheLibraryBeforeOrAfterNeverBetween() throws {
    let rows = 300_000
    let scratch = BinaryRunner()
    defer { scratch.cleanUp() }
    var csv = "title,artist,genre,year,coverUrl\n"
    csv.reserveCapacity(rows * 40)
    for i in 0..<rows { csv += "Bulk \(i),Artist \(i % 100),Genre,\(1900 + i % 100),\n" }
    let file = try F.write(csv, to: "big.csv", in: scratch)

    // How long a whole import takes here, so the kills can be spread over it.
    #expect(try scratch.run(["-c", "view"]).status == 0)
    let full = try importKilled(scratch, file: file, after: nil)
    let finished = try scratch.run(["-c", "list zzzz"])
    // Into the untouched samples: the import takes their place, in the same transaction.
    #expect(finished.stdout == "0 of \(grouped(rows)) albums match 'zzzz'\n")

    var delays = [0.1] + [0.3, 0.5, 0.65, 0.75, 0.8, 0.85, 0.9, 0.95].map { $0 * full.seconds }
    var midTransaction = 0
    var attempts = 0
    while let delay = delays.first, attempts < 25 {
      delays.removeFirst()
      attempts += 1
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      #expect(try runner.run(["-c", "tap 3"]).status == 0)
      let outcome = try importKilled(runner, file: file, after: delay)
      if outcome.midTransaction { midTransaction += 1 }
      let after = try runner.run(["-c", "list zzzz; view"])
      #expect(after.status == 0, "after a kill at \(delay) s: \(after.stderr)")
      let before = "0 of 5 albums match 'zzzz'\n" + F.view(3)
      let complete =
        "0 of \(grouped(rows)) albums match 'zzzz'\n"
        + "[1/\(rows)] >1 Bulk 0< | 2 Bulk 1 | 3 Bulk 2\n"
        + "Artist: Artist 0\nAlbum: Bulk 0\nGenre: Genre\nYear: 1900\nCover: (none)\n"
      #expect(
        after.stdout == before || after.stdout == complete,
        "after a kill at \(delay) s the library holds neither the old nor the new albums")
      if outcome.killed && outcome.midTransaction {
        #expect(after.stdout == before, "a kill inside the transaction kept part of it")
        // And the library takes changes again.
        let again = try runner.run(["-c", "add Probe; list zzzz"])
        #expect(again.status == 0)
        #expect(again.stdout.hasSuffix("0 of 6 albums match 'zzzz'\n"))
      }
      // Until a kill has landed inside the transaction, keep trying later moments.
      if delays.isEmpty && midTransaction == 0 {
        delays = [0.7, 0.78, 0.86, 0.92, 0.97, 0.99].map { $0 * full.seconds * Double.random(in: 0.9...1.1) }
      }
    }
    #expect(midTransaction > 0, "no kill landed inside the import's transaction in \(attempts) tries")
  }

  @Test func killMinus9DuringUndoOrRedoOfALargeImportLeavesTheLibraryAndItsLogConsistent() throws {
    let rows = 200_000
    let scratch = BinaryRunner()
    defer { scratch.cleanUp() }
    var csv = "title\n"
    csv.reserveCapacity(rows * 12)
    for i in 0..<rows { csv += "Bulk \(i)\n" }
    let file = try F.write(csv, to: "big.csv", in: scratch)
    #expect(try scratch.run(["-c", "import '\(file)'"]).status == 0)
    let undoTime = try killed(scratch, commands: "undo", after: nil).seconds
    let redoTime = try killed(scratch, commands: "redo", after: nil).seconds
    #expect(try scratch.run(["-c", "list zzzz"]).stdout == "0 of \(grouped(rows)) albums match 'zzzz'\n")

    // Into the untouched samples: a step that takes them out and brings them back.
    let imported = "0 of \(grouped(rows)) albums match 'zzzz'\n"
    let empty = "0 of 5 albums match 'zzzz'\n"
    var midTransaction = 0
    var attempts = 0
    var plan: [(verb: String, delay: Double)] =
      [0.3, 0.6, 0.8, 0.9, 0.95].map { ("undo", $0 * undoTime) } + [0.5, 0.8, 0.9].map { ("redo", $0 * redoTime) }
    while let (verb, delay) = plan.first, attempts < 20 {
      plan.removeFirst()
      attempts += 1
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let setUp = try runner.run(["-c", "import '\(file)'"])
      #expect(setUp.status == 0, "import: \(setUp.stderr)")
      if verb == "redo" {
        let undone = try runner.run(["-c", "undo"])
        #expect(undone.status == 0, "undo: \(undone.stderr)")
      }
      let outcome = try killed(runner, commands: verb, after: delay)
      if outcome.midTransaction { midTransaction += 1 }
      let after = try runner.run(["-c", "list zzzz; undo --list 1"])
      #expect(after.status == 0, "after a kill of \(verb) at \(delay) s: \(after.stderr)")
      // The albums and the log agree: all imported and the step standing, or none and undone.
      let summary = "import of \(grouped(rows)) albums in place of the 5 sample albums"
      let standing = imported + "  1  \(summary)\n"
      let undone = empty + "  1  \(summary)  (undone)\n"
      #expect(after.stdout == standing || after.stdout == undone, "after a kill of \(verb) at \(delay) s")
      if verb == "undo" && outcome.killed && outcome.midTransaction {
        #expect(after.stdout == standing, "a kill inside the undo kept part of it")
      }
      // And the log still steps both ways.
      let next = after.stdout == standing ? "undo" : "redo"
      let stepped = try runner.run(["-c", "\(next); list zzzz"])
      #expect(stepped.status == 0)
      #expect(stepped.stdout.hasSuffix(after.stdout == standing ? empty : imported))
      if plan.isEmpty && midTransaction == 0 {
        plan = [0.7, 0.85, 0.93, 0.98].map { ("undo", $0 * undoTime * Double.random(in: 0.9...1.1)) }
      }
    }
    #expect(midTransaction > 0, "no kill landed inside an undo's or redo's transaction in \(attempts) tries")
  }
}
