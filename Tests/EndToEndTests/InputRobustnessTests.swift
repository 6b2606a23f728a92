import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// Reliability round 3's reproductions about input (F9–F12, F24–F26): closed descriptors,
  /// endless input, FIFOs, a history that is no file, a directory as a script, a megabyte of
  /// terminal answer and a pager that fails. Nothing hangs, nothing is lost, errors say why.
  @Suite(.serialized)
  struct InputRobustnessTests {
    /// A run that may hang: its status, or nil when it was still running after `timeout`
    /// seconds (then killed).
    private func finished(_ process: Process, within timeout: Double) -> Int32? {
      let deadline = Date().addingTimeInterval(timeout)
      while process.isRunning && Date() < deadline { usleep(20_000) }
      guard !process.isRunning else {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return nil
      }
      return process.terminationStatus
    }

    /// `bluelib --home HOME ARGUMENTS REDIRECTIONS` through `/bin/sh`, which can close
    /// descriptors (`<&-`); the status (nil: still running after 5 s) and standard error.
    private func throughShell(
      _ runner: BinaryRunner, _ arguments: String = "", redirections: String
    ) throws -> (status: Int32?, stderr: String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      let errors = runner.home.appendingPathComponent("stderr.txt").path
      process.arguments = [
        "-c", "exec \"$0\" --home \"$1\" \(arguments) \(redirections) 2>>\"$2\"", BinaryRunner.executable.path,
        runner.home.path, errors,
      ]
      process.environment = runner.environment()
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let status = finished(process, within: 5)
      return (status, (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
    }

    /// Starts `bluelib --home HOME ARGUMENTS` with `input` as standard input, sends SIGTERM
    /// once `ready(pid)` says so (asked every 20 ms, at most `ceiling` seconds), else after
    /// `delay` seconds; the status (nil: still running `ceiling` seconds later) and the
    /// seconds taken.
    private func terminated(
      _ runner: BinaryRunner, _ arguments: [String], input: FileHandle, after delay: Double = 0.5,
      when ready: ((pid_t) -> Bool)? = nil, within ceiling: Double = 3
    ) throws -> (status: Int32?, seconds: Double) {
      let process = Process()
      process.executableURL = BinaryRunner.executable
      process.arguments = ["--home", runner.home.path] + arguments
      process.environment = runner.environment()
      process.standardInput = input
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      if let ready {
        let deadline = Date().addingTimeInterval(ceiling)
        while process.isRunning && !ready(process.processIdentifier) && Date() < deadline { usleep(20_000) }
      } else {
        usleep(useconds_t(delay * 1_000_000))
      }
      let sent = Date()
      kill(process.processIdentifier, SIGTERM)
      let status = finished(process, within: ceiling)
      return (status, Date().timeIntervalSince(sent))
    }

    // MARK: - F9: closed standard descriptors

    /// With fd 0 closed the shell's wake-up pipe became its input, read for ever.
    @Test(arguments: ["<&-", "<&- >&-", "--script /dev/stdin <&-"])
    func aClosedStandardInputIsAnEmptyOne(redirections: String) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try throughShell(runner, redirections: redirections)
      #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func allThreeClosedStillRunsAndExits() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c", "exec \"$0\" --home \"$1\" -c 'add Closed' <&- >&- 2>&-", BinaryRunner.executable.path, runner.home.path,
      ]
      process.environment = runner.environment()
      try process.run()
      #expect(finished(process, within: 5) == 0)
      #expect(try runner.run(["-c", "list Closed"]).stdout.contains("Closed"))
    }

    // MARK: - F10: endless input without a newline

    @Test(arguments: [[], ["--script", "/dev/zero"]])
    func sigtermEndsTheSkipOfAnEndlessLine(arguments: [String]) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let zero = try #require(FileHandle(forReadingAtPath: "/dev/zero"))
      // About 0.3 s alone (debug build); the reader spins a core, so beside other tests
      // under load the exit takes longer: what counts is that SIGTERM ends it at all (before,
      // it never ended), so the ceiling is generous.
      let result = try terminated(runner, arguments, input: zero, within: 60)
      #expect(result.status == 143, "still skipping \(Int(result.seconds)) s after SIGTERM")
    }

    // MARK: - F11: a FIFO as the script

    /// Whether process `pid` waits for a writer of the FIFO at `path`: it catches SIGTERM (its
    /// handler is installed: the signal no longer kills it outright), has the FIFO open, and
    /// is blocked in a poll of one descriptor without a timeout (`/proc/PID/syscall`; where
    /// that cannot be read, the first two alone).
    private static func waitsForAWriter(_ pid: pid_t, of path: String) -> Bool {
      guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
        let caught = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
        caught & (1 << (UInt64(SIGTERM) - 1)) != 0
      else { return false }
      let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
      guard
        descriptors.contains(where: {
          (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path
        })
      else { return false }
      guard let call = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return true }
      // poll(fds, n, -1) (ppoll's fourth argument is a pointer, NULL for no timeout): the
      // script's descriptor, with the wake-up pipe a signal writes to (n = 2) or alone.
      let fields = call.split(separator: " ").map(String.init)
      #if arch(x86_64)
        let polls =
          fields.first == "7" && fields.count > 3 && ["0xffffffff", "0xffffffffffffffff"].contains(fields[3])
          || fields.first == "271" && fields.count > 3 && fields[3] == "0x0"
      #else
        let polls = fields.first == "73" && fields.count > 3 && fields[3] == "0x0"
      #endif
      return polls && ["0x1", "0x2"].contains(fields[2])
    }

    /// A script that is a FIFO no one writes to is waited on where a signal ends the wait: once
    /// the shell waits for a writer, SIGTERM ends it with 143. What is waited for is that state
    /// and then the exit, not a time: the ceiling (60 s) is reached only by a hang (a blocking
    /// open of the FIFO, which no signal ends).
    @Test func sigtermEndsAScriptFIFOThatHasNoWriter() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let fifo = runner.home.appendingPathComponent("script.fifo").path
      #expect(mkfifo(fifo, 0o600) == 0)
      let result = try terminated(
        runner, ["--script", fifo], input: FileHandle.nullDevice, when: { Self.waitsForAWriter($0, of: fifo) },
        within: 60)
      #expect(result.status == 143, "still running \(Int(result.seconds)) s after SIGTERM")
    }

    @Test func aScriptFIFOWhoseWriterComesLaterRuns() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let fifo = runner.home.appendingPathComponent("script.fifo").path
      #expect(mkfifo(fifo, 0o600) == 0)
      let process = Process()
      process.executableURL = BinaryRunner.executable
      process.arguments = ["--home", runner.home.path, "--script", fifo]
      process.environment = runner.environment()
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      usleep(300_000)
      let writer = try #require(FileHandle(forWritingAtPath: fifo))
      writer.write(Data("add FromFIFO\nlist FromFIFO\n".utf8))
      try writer.close()
      let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(finished(process, within: 5) == 0)
      #expect(listed.contains("FromFIFO"))
    }

    // MARK: - F24: a directory as input

    @Test func aDirectoryAsTheScriptFailsSayingSo() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let directory = runner.home.path
      let result = try runner.run(["--script", directory])
      #expect(result.status == 1)
      #expect(result.stderr == "bluelib: cannot read script '\(directory)': is a directory\n")
      let piped = try throughShell(runner, redirections: "< /")
      #expect(piped.status == 1)
      #expect(piped.stderr == "bluelib: cannot read standard input: is a directory\n")
    }

    // MARK: - F12: the history file

    private func historyStart(_ runner: BinaryRunner) throws -> PseudoTerminal {
      try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1"]))
    }

    @Test(arguments: ["fifo", "zero"])
    func aHistoryThatIsNoFileIsLeftAloneWithOneWarning(kind: String) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let history = runner.home.appendingPathComponent("history").path
      if kind == "fifo" {
        #expect(mkfifo(history, 0o600) == 0)
      } else {
        #expect(symlink("/dev/zero", history) == 0)
      }
      let terminal = try historyStart(runner)
      #expect(terminal.waitFor("not a regular file; starting without history"))
      #expect(terminal.waitFor("bluelib> "))
      let mark = terminal.mark
      terminal.type("history\r")
      #expect(terminal.waitFor("1  history", after: mark))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    @Test func aHugeHistoryLoadsOnlyItsEnd() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let history = runner.home.appendingPathComponent("history").path
      // 8 MiB: 200,000 lines of 40 bytes.
      let lines = (0..<200_000).map { "list " + String(repeating: "x", count: 28) + String(format: "%06d", $0) }
      try (lines.joined(separator: "\n") + "\n").write(toFile: history, atomically: false, encoding: .utf8)
      let started = Date()
      let terminal = try historyStart(runner)
      #expect(terminal.waitFor("bluelib> "))
      #expect(Date().timeIntervalSince(started) < 3)
      let mark = terminal.mark
      terminal.type("history 2\r")
      #expect(terminal.waitFor("199999", after: mark))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
      let size = (try FileManager.default.attributesOfItem(atPath: history)[.size] as? Int) ?? 0
      #expect(size < 1 << 20)
    }

    // MARK: - F26: a megabyte of terminal answer

    @Test func aMegabyteAnswerIsDroppedWhole() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(["COLORTERM": "truecolor"]))
      #expect(terminal.waitFor(GraphicsDetectionTests.deviceAttributesQuery))
      terminal.type("\u{1B}_G" + String(repeating: "A", count: 1 << 20) + "\u{1B}\\\u{1B}[?62;22c")
      #expect(terminal.waitFor("bluelib>"))
      terminal.settle()
      // Late, after the prompt: dropped by the line editor, the keys around it kept.
      let mark = terminal.mark
      terminal.type("hi\u{1B}_G" + String(repeating: "B", count: 64 * 1024) + "\u{1B}\\story\r")
      #expect(terminal.waitFor("1  history", after: mark))
      let echoed = terminal.transcript[mark...]
      #expect(!echoed.contains("unknown command") && !echoed.contains("AAAA") && !echoed.contains("BBBB"))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - Issue 26, item 4: keys no binding knows

    /// PageDown inserted `~`, Alt+Right `C`: a sequence libedit does not bind is dropped.
    @Test func unboundKeysInsertNothing() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try historyStart(runner)
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      let mark = terminal.mark
      // PageUp, PageDown, Alt+Right, Alt+Left, Insert, F5, Shift+Up between the letters.
      let keys = ["\u{1B}[5~", "\u{1B}[6~", "\u{1B}[1;3C", "\u{1B}[1;3D", "\u{1B}[2~", "\u{1B}[15~", "\u{1B}[1;2A"]
      for (letter, key) in zip("history", keys) {
        terminal.type(String(letter))
        terminal.type(key)
        terminal.settle()
        // End: Alt+Left moved back a word.
        terminal.type("\u{1B}[F")
      }
      terminal.type("\r")
      #expect(terminal.waitFor("1  history", after: mark))
      terminal.settle()
      let typed = terminal.transcript[mark...]
      #expect(!typed.contains("unknown command"), "\(typed)")
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    /// At an empty prompt PageDown/PageUp scroll a window of cards and Home/End go to the
    /// ends, as in a browser; each shows as the command it ran. With text typed they insert
    /// nothing (Home/End move the cursor).
    @Test func pageKeysScrollAWindowOfCardsAndHomeEndGoToTheEnds() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try historyStart(runner)
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      var mark = terminal.mark
      // 100 columns hold four whole cards: from album 1, PageDown lands on album 5.
      terminal.type("\u{1B}[6~")
      #expect(terminal.waitFor("scroll right 4", after: mark))
      #expect(terminal.waitFor("Album: American Pie", after: mark))
      terminal.settle()
      mark = terminal.mark
      terminal.type("\u{1B}[5~")
      #expect(terminal.waitFor("scroll left 4", after: mark))
      #expect(terminal.waitFor("Album: Best of Bowie", after: mark))
      terminal.settle()
      mark = terminal.mark
      terminal.type("\u{1B}[F")
      #expect(terminal.waitFor("scroll end", after: mark))
      #expect(terminal.waitFor("Album: American Pie", after: mark))
      terminal.settle()
      mark = terminal.mark
      terminal.type("\u{1B}[H")
      #expect(terminal.waitFor("scroll home", after: mark))
      #expect(terminal.waitFor("Album: Best of Bowie", after: mark))
      terminal.settle()
      // The keys ran commands but are not history.
      mark = terminal.mark
      terminal.type("history\r")
      #expect(terminal.waitFor("1  history", after: mark))
      terminal.settle()
      #expect(!terminal.transcript[mark...].contains("scroll"))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - Issue 26, item 5: Ctrl-C during a scan

    /// The progress line filled the window but its last column: the `^C` the terminal echoes
    /// wrapped, the erase reached only the `C`, and the line and a `^` stayed.
    @Test func theProgressLineLeavesRoomForTheEchoedCtrlC() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try MusicFolderFixture(in: runner.home)
      // Slow files (one MPEG frame header, then 4 MiB of zeros TagLib searches): time to
      // see the progress and press Ctrl-C.
      try FileManager.default.createDirectory(atPath: music.path("Slow"), withIntermediateDirectories: true)
      for number in 1...40 {
        let path = music.path("Slow/\(number).mp3")
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xFB, 0x90, 0x00])))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 4 << 20)
        try handle.close()
      }
      let columns = 40
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1"]),
        columns: UInt16(columns), rows: 20)
      #expect(terminal.waitFor("bluelib> "))
      let mark = terminal.mark
      terminal.type("import \(music.root)\r")
      #expect(terminal.waitFor("scanning ", after: mark))
      terminal.type("\u{3}")
      #expect(terminal.waitFor("cancelled; nothing was imported", after: mark))
      // Each drawing of the progress line: what follows `ESC [K` up to the next control.
      let drawn = terminal.transcript[mark...].components(separatedBy: "\u{1B}[K").dropFirst()
      let progress = drawn.map { $0.prefix { $0 != "\r" && $0 != "\u{1B}" && $0 != "^" } }.filter {
        $0.hasPrefix("scanning")
      }
      #expect(!progress.isEmpty)
      for line in progress { #expect(line.count <= columns - 3, "\(line)") }
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }

    // MARK: - F25: a pager that fails

    @Test(arguments: [("false", "exit status 1"), ("/nonexistent/pager", "not found")])
    func aFailingPagerLosesNoOutput(pager: String, reason: String) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1", "PAGER": pager]),
        columns: 100, rows: 8)
      #expect(terminal.waitFor("bluelib> "))
      terminal.settle()
      let mark = terminal.mark
      terminal.type("help\r")
      #expect(terminal.waitFor("the pager '\(pager)' failed (\(reason))", after: mark))
      // All of it, the first lines (sent to the pager) too.
      #expect(terminal.waitFor("Type 'help VERB' for details and examples.", after: mark))
      #expect(terminal.transcript[mark...].contains("add "))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }
  }
}
