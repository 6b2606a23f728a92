import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// Issue 11's reproductions that this build answers: special files, huge fields, output
  /// errors and Ctrl-\ — each refused or reported, nothing hangs, nothing is changed.
  @Suite(.serialized)
  struct HostileInputTests {
    typealias F = LibraryFixture

    @Test(arguments: ["/dev/zero", "/dev/urandom", "/dev/null"])
    func importOfADeviceIsRefusedAtOnce(path: String) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let started = Date()
      let result = try runner.run(["-c", "import \(path)"])
      #expect(Date().timeIntervalSince(started) < 5)
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "bluelib: -c:1: import: cannot read '\(path)': it is not a regular file (a device, a FIFO or a socket)\n")
      #expect(try runner.run(["-c", "list"]).stdout == F.list(selected: 1))
    }

    @Test func importOfAFIFOWithNoWriterIsRefusedInsteadOfHanging() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let fifo = runner.home.appendingPathComponent("fifo").path
      #expect(mkfifo(fifo, 0o600) == 0)
      let result = try runner.run(["-c", "import \(fifo)"])
      #expect(result.status == 1)
      #expect(result.stderr.contains("it is not a regular file"))
    }

    @Test func aFieldOverItsLimitFailsTheImportWithFileLineAndTheLimit() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let long = String(repeating: "x", count: 1001)
      let csv = try F.write("title,artist\nFine,A\n\(long),B\n", to: "long.csv", in: runner)
      let result = try runner.run(["-c", "import \(csv)"])
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "bluelib: -c:1: import: \(csv):3: title is longer than the limit of 1,000 characters (1001 bytes)\n")
      let cover = "http://example.com/" + String(repeating: "c", count: 8192)
      let json = try F.write(#"[{"title":"A","coverUrl":"\#(cover)"}]"#, to: "cover.json", in: runner)
      let refused = try runner.run(["-c", "import \(json)"])
      #expect(refused.stderr.contains("cover is longer than the limit of 8 KiB"))
      // Exactly at the limits is fine; nothing of the refused files was kept.
      let edge = try F.write("title,artist\n\(String(repeating: "é", count: 1000)),B\n", to: "edge.csv", in: runner)
      #expect(try runner.run(["-c", "import \(edge)"]).status == 0)
      // The first import took the untouched samples' place.
      #expect(try runner.run(["-c", "list zzzz"]).stdout == "0 of 1 album match 'zzzz'\n")
      // add and edit keep the same limits.
      let added = try runner.run(["-c", "add \(long)"])
      #expect(added.stderr == "bluelib: -c:1: add: title is longer than the limit of 1,000 characters (1001 bytes)\n")
    }

    /// One "character" can be megabytes (a letter and 4,000 combining accents is one grapheme
    /// cluster): the text limits count bytes too, in every way in (round 3, F13).
    @Test func aFieldOfOneHugeCharacterIsOverTheByteLimit() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let huge = "Z" + String(repeating: "\u{301}", count: 4_000)  // 1 character, 8,001 bytes
      let csv = try F.write("title\n\(huge)\n", to: "z.csv", in: runner)
      let imported = try runner.run(["-c", "import \(csv)"])
      #expect(imported.status == 1)
      #expect(
        imported.stderr == "bluelib: -c:1: import: \(csv):2: title is longer than the limit of 4 KiB (8001 bytes)\n")
      let added = try runner.run(["-c", "add \(huge)", "-c", "add X artist=\(huge)"])
      #expect(added.stderr.contains("add: title is longer than the limit of 4 KiB (8001 bytes)"), "\(added.stderr)")
      #expect(added.stderr.contains("add: artist is longer than the limit of 4 KiB (8001 bytes)"), "\(added.stderr)")
      #expect(try runner.run(["-c", "list"]).stdout.hasSuffix("\n5 albums\n"))
    }

    // MARK: - Export writes only where it should

    @Test func exportThroughASymbolicLinkUpdatesItsTargetAndKeepsTheLink() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let target = runner.home.appendingPathComponent("real.json").path
      let link = runner.home.appendingPathComponent("link.json").path
      try Data("old".utf8).write(to: URL(fileURLWithPath: target))
      #expect(symlink(target, link) == 0)
      #expect(try runner.run(["-c", "export \(link)"]).status == 0)
      var info = stat()
      #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link was replaced by a file")
      #expect(try String(contentsOfFile: target, encoding: .utf8).contains("\"title\": \"Best of Bowie\""))
    }

    @Test func exportOverADeviceAFIFOOrADirectoryIsRefusedAndLeavesItAsItWas() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let fifo = runner.home.appendingPathComponent("fifo").path
      #expect(mkfifo(fifo, 0o600) == 0)
      // A character device of our own (the null device's numbers), never the real /dev/null.
      let device = runner.home.appendingPathComponent("null").path
      let madeDevice = mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0  // major 1, minor 3
      let directory = runner.home.appendingPathComponent("dir").path
      #expect(mkdir(directory, 0o700) == 0)
      var cases = [
        (fifo, S_IFIFO, "it is not a regular file but a pipe ('export -' writes to standard output)"),
        (directory, S_IFDIR, "it is a directory"),
      ]
      if madeDevice {
        cases.append((device, S_IFCHR, "it is not a regular file but a device ('export -' writes to standard output)"))
      }
      for (path, kind, reason) in cases {
        let result = try runner.run(["-c", "export \(path)"])
        #expect(result.status == 1)
        #expect(result.stderr == "bluelib: -c:1: export: cannot write '\(path)': \(reason)\n")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == kind, "\(path) was replaced")
      }
    }

    /// `export /dev/stdout` into a pipe, and the kernel's files (issue 46, H19): said for what
    /// they are (they were "a symbolic link to a file that does not exist" and "no such file
    /// or directory").
    @Test func exportToStandardOutputsLinkOrAKernelFileSaysWhatItIs() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let piped = try runner.run(["-c", "export /dev/stdout"])
      #expect(piped.status == 1)
      #expect(
        piped.stderr
          == "bluelib: -c:1: export: cannot write '/dev/stdout': it is not a regular file but a pipe "
          + "('export -' writes to standard output)\n")
      #expect(piped.stdout == "")
      let kernel = try runner.run(["-c", "export /proc/self/mem"])
      #expect(
        kernel.stderr
          == "bluelib: -c:1: export: cannot write '/proc/self/mem': it is a file of the kernel's (in /proc or /sys), "
          + "not one to write\n")
    }

    @Test func exportDashWritesTheJSONToStandardOutput() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let file = runner.home.appendingPathComponent("x.json").path
      #expect(try runner.run(["-c", "export \(file)"]).status == 0)
      let piped = try runner.run(["-c", "export -"])
      #expect(piped.status == 0)
      #expect(piped.stdout == (try String(contentsOfFile: file, encoding: .utf8)))
    }

    // MARK: - The cover cache

    @Test func aFIFOInTheCoversFolderDoesNotBlockListOrTheCards() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      #expect(try runner.run(["-c", "download 1; wait"]).status == 0)
      let covers = runner.home.appendingPathComponent("covers").path
      let entries = try FileManager.default.contentsOfDirectory(atPath: covers).filter { !$0.hasPrefix(".") }
      #expect(entries.count == 1)
      // Replace the cached cover with a FIFO nobody writes to.
      let entry = covers + "/" + entries[0]
      #expect(unlink(entry) == 0 && mkfifo(entry, 0o600) == 0)
      let started = Date()
      let result = try runner.run(["-c", "list bowie; show 1; cover 1 --force --size 4x2"])
      #expect(Date().timeIntervalSince(started) < 5)
      #expect(result.stdout.contains("Album: Best of Bowie"))
    }

    /// Removed by the next run that stores a cover, not read by one that stores none (cost
    /// follows use: the directory's listing was a fifteenth of every start's instructions).
    @Test func partialCoverFilesOfAKilledRunAreRemovedOnTheNextRunThatStoresOne() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let covers = runner.home.appendingPathComponent("covers")
      try FileManager.default.createDirectory(at: covers, withIntermediateDirectories: true)
      // A pid no process has (beyond pid_max), and our own (a running writer's file stays).
      let abandoned = covers.appendingPathComponent(".partial.99999999.abc123.tmp").path
      let live = covers.appendingPathComponent(".partial.\(getpid()).def456.tmp").path
      for path in [abandoned, live] { try Data("half".utf8).write(to: URL(fileURLWithPath: path)) }
      #expect(try runner.run(["-c", "view"]).status == 0)
      #expect(FileManager.default.fileExists(atPath: abandoned))
      let stored = try runner.run(["-c", "download 1", "-c", "wait"])
      #expect(stored.status == 0, "\(stored.stderr)")
      #expect(!FileManager.default.fileExists(atPath: abandoned))
      #expect(FileManager.default.fileExists(atPath: live))
    }

    @Test func aFailedWriteToStandardOutputIsAnError() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let process = Process()
      process.executableURL = BinaryRunner.executable
      process.arguments = ["--home", runner.home.path, "-c", "list"]
      process.environment = runner.environment()
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
      let errors = Pipe()
      process.standardError = errors
      try process.run()
      let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 1)
      #expect(message == "bluelib: cannot write to standard output: no space left on device\n")
    }

    @Test func ctrlBackslashAtThePromptIsIgnoredWithNoCrashReport() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1"]))
      #expect(terminal.waitFor("bluelib> "))
      let mark = terminal.mark
      terminal.type("\u{1C}")  // Ctrl-\ sends SIGQUIT to the foreground job
      kill(-terminal.foregroundProcessGroup(), SIGQUIT)
      terminal.settle()
      terminal.type("show\r")
      #expect(terminal.waitFor("Album: Best of Bowie", after: mark))
      #expect(!terminal.transcript[mark...].contains("crashed"), "a crash report was printed")
      #expect(!terminal.transcript[mark...].contains("Backtracing"))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - Signals end every blocking point promptly

    /// Each signal and the exit status it calls for in script mode.
    static let exits: [(signal: Int32, status: Int32)] = [(SIGTERM, 143), (SIGHUP, 129), (SIGINT, 130)]

    /// Starts `bluelib ARGUMENTS` (stdin held open by a pipe unless `input` is nil), sends
    /// `signal` after `delay` seconds, and returns the exit status and how long it took to
    /// exit after the signal.
    private func signalled(
      _ runner: BinaryRunner, _ arguments: [String], signal: Int32, after delay: Double = 0.6
    ) throws -> (status: Int32, seconds: Double, stderr: String) {
      let shell = try LiveShell(runner, arguments: arguments)
      usleep(useconds_t(delay * 1_000_000))
      let sent = Date()
      kill(shell.processIdentifier, signal)
      let status = shell.waitForExit(timeout: 60) ?? -1
      let seconds = Date().timeIntervalSince(sent)
      shell.closeInput()
      // Killed by the signal is not leaving on it: the bare signal number, which no test expects.
      return (shell.diedOfSignal ? status - 128 : status, seconds, shell.errors)
    }

    /// `download all` on 30,000 albums whose covers are on a closed port (each fails at
    /// once), then `wait`: SIGTERM at any moment ends the run within a second (round 3, F15:
    /// 2 to 8 s, as the reporter sorted every outcome it kept for each new one, a million
    /// cancelled downloads were reported one by one, and the session took seconds to free),
    /// and the downloads that had time run to the end without it. It leaves with 143 and
    /// nothing on stderr: no HTTP client shut down under running downloads (issue 35: a
    /// fresh clone's CI saw "leaking promise" and exit 4 after a fixed 0.5 s grace).
    @Test(arguments: [0.3, 0.5, 0.7, 2.0])
    func sigtermDuringDownloadAllOfAHugeViewEndsTheRunWithinASecond(after delay: Double) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let rows = (0..<30_000).map { "D\($0),http://127.0.0.1:9/\($0).png" }
      let csv = try F.write("title,coverUrl\n" + rows.joined(separator: "\n") + "\n", to: "dead.csv", in: runner)
      #expect(try runner.run(["-c", "import \(csv)"]).status == 0)
      let result = try signalled(
        runner, ["--downloads", "16", "-c", "download all", "-c", "wait"], signal: SIGTERM, after: delay)
      #expect(result.status == 143, "\(result.stderr)")
      // Nothing on stderr, or (on a busy machine, where queueing 30,000 downloads takes
      // longer than the delay) the one line of `download` stopped while it ran.
      #expect(
        result.stderr.isEmpty || result.stderr == "bluelib: -c:1: download: cancelled; nothing was changed\n",
        "\(result.stderr)")
      #expect(result.seconds < 1, "SIGTERM took \(result.seconds) s")
    }

    /// `bluelib -c COMMANDS` on a library whose first album's cover is on a server that
    /// never answers, so the run blocks in a download; `signal` ends it.
    private func signalledWhileDownloading(_ commands: String, signal: Int32) throws -> (status: Int32, seconds: Double)
    {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route("/silent.png", .neverAnswer)
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      #expect(try runner.run(["-c", "edit 1 cover=\(server.url("/silent.png"))"]).status == 0)
      let result = try signalled(runner, ["-c", commands], signal: signal)
      return (result.status, result.seconds)
    }

    @Test(arguments: HostileInputTests.exits)
    func aSignalEndsDashCBlockedInWait(signal: Int32, status: Int32) throws {
      let result = try signalledWhileDownloading("download 1; wait; list", signal: signal)
      #expect(result.status == status)
      #expect(result.seconds < 1)
    }

    /// A signal ends the whole line, not one command: what follows the command it stopped
    /// (`delete 1`, `add`) must not run — in `-c`, in a script's line, after `;`.
    @Test(arguments: HostileInputTests.exits)
    func aSignalDropsTheRestOfTheLine(signal: Int32, status: Int32) throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route("/silent.png", .neverAnswer)
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      #expect(try runner.run(["-c", "edit 1 cover=\(server.url("/silent.png"))"]).status == 0)
      let script = runner.home.appendingPathComponent("script.txt").path
      try "download 1; wait; delete 1; add AfterSignal\nadd NextLine\n".write(
        toFile: script, atomically: false, encoding: .utf8)

      for arguments in [["-c", "download 1; wait; delete 1; add AfterSignal"], ["--script", script]] {
        let result = try signalled(runner, arguments, signal: signal)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        let after = try runner.run(["-c", "list"])
        #expect(after.stdout.contains(" 1. Best of Bowie"), "\(arguments): \(after.stdout)")
        #expect(!after.stdout.contains("After") && !after.stdout.contains("NextLine"), "\(after.stdout)")
        #expect(after.stdout.hasSuffix("\n5 albums\n"), "\(arguments): \(after.stdout)")
      }
    }

    @Test(arguments: HostileInputTests.exits)
    func aSignalEndsTheWaitForDownloadsAtTheEndOfInput(signal: Int32, status: Int32) throws {
      let result = try signalledWhileDownloading("download 1", signal: signal)
      #expect(result.status == status)
      #expect(result.seconds < 1)
    }

    @Test(arguments: HostileInputTests.exits)
    func aSignalEndsAScriptWaitingForInput(signal: Int32, status: Int32) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try signalled(runner, [], signal: signal)
      #expect(result.status == status)
      #expect(result.seconds < 1)
    }

    @Test(arguments: HostileInputTests.exits)
    func aSignalEndsALongImportWhichChangesNothing(signal: Int32, status: Int32) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      // Four million one-letter titles: seconds of inserting, whatever the build.
      let csv = runner.home.appendingPathComponent("big.csv").path
      try ("title\n" + String(repeating: "a\n", count: 4_000_000)).write(
        toFile: csv, atomically: false, encoding: .utf8)
      #expect(try runner.run(["-c", "list"]).stdout.hasSuffix("\n5 albums\n"))

      let result = try signalled(runner, ["-c", "import \(csv)"], signal: signal, after: 0.8)
      #expect(result.status == status)
      #expect(result.seconds < 1)
      #expect(result.stderr.contains("nothing was imported"), "stderr: \(result.stderr)")
      let after = try runner.run(["-c", "list"])
      #expect(after.status == 0 && after.stdout.hasSuffix("\n5 albums\n"))
    }

    /// The undo of a million-album import is one long SQLite statement: SIGTERM stops it within
    /// a second (SQLite's progress handler asks), and it rolls back — the albums stay.
    @Test func sigtermStopsALongSQLiteStatementWhichRollsBack() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let csv = runner.home.appendingPathComponent("million.csv").path
      try ("title\n" + String(repeating: "a\n", count: 1_000_000)).write(
        toFile: csv, atomically: false, encoding: .utf8)
      let imported = try runner.run(["-c", "import \(csv)"])
      #expect(imported.status == 0, "\(imported.stderr)")

      let result = try signalled(runner, ["-c", "undo"], signal: SIGTERM, after: 0.3)
      #expect(result.status == 143)
      #expect(result.seconds < 1)
      #expect(result.stderr.contains("cancelled"), "stderr: \(result.stderr)")
      let after = try runner.run(["-c", "view"])
      #expect(after.stdout.contains("[1/1000000]"), "\(after.stdout)")
      // Nothing half-done: the undo still works, whole.
      let undone = try runner.run(["-c", "undo; list"])
      #expect(undone.status == 0 && undone.stdout.hasSuffix("\n5 albums\n"))
    }
  }
}
