import Foundation
import TestSupport
import Testing

/// The built binary with scripts on stdin: output, error format and exit status (SPEC §1).
@Suite(.serialized)
struct ScriptModeTests {
  @Test func unknownCommandIsReportedWithLineAndExitsOne() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "help\nfoo\nquit\n")
    #expect(result.status == 1)
    #expect(result.stdout.contains("help [VERB]"))
    #expect(result.stdout.contains("quit"))
    #expect(
      result.stderr
        == "bluelib: stdin:2: unknown command 'foo' (type 'help' for the list of commands)\n")
  }

  @Test func cleanScriptExitsZeroWithNoPromptBannerOrEscapes() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "help\nquit\n")
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(!result.stdout.contains("bluelib>"))
    #expect(!result.stdout.contains("bluelib 0."))
    #expect(!result.stdoutBytes.contains(0x1B))
  }

  @Test func misspelledVerbSuggestsTheClosestOne() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "# a comment line\n\nhepl\n")
    #expect(result.status == 1)
    #expect(result.stderr == "bluelib: stdin:3: unknown command 'hepl' (did you mean 'help'?)\n")
  }

  @Test func dashCRunsSemicolonSeparatedCommands() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(["-c", "help quit; quit"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("usage: quit\n"))
    let failing = try runner.run(["-c", "help; undo"])
    #expect(failing.status == 1)
    #expect(failing.stderr == "bluelib: -c:1: undo: nothing to undo\n")
  }

  @Test func severalDashCRunInOrderAndErrorsNameWhichOne() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(["-c", "tap 2", "-c", "show"])
    #expect(result.status == 0)
    #expect(result.stdout == LibraryFixture.view(2) + LibraryFixture.details(2))
    let failing = try runner.run(["-c", "tap 1", "-c", "tap 9", "-c", "show"])
    #expect(failing.status == 1)
    #expect(failing.stderr == "bluelib: -c:2: tap: no album 9 (the library has 5)\n")
    #expect(failing.stdout.hasSuffix(LibraryFixture.details(1)))
  }

  @Test func aByteOrderMarkAtTheStartOfAScriptIsSkipped() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "\u{FEFF}tap 2\nshow\n")
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(result.stdout == LibraryFixture.view(2) + LibraryFixture.details(2))
  }

  @Test func scriptFileErrorsNameThePath() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let script = runner.home.appendingPathComponent("tour.bluelib")
    try Data("help\n\nredo\n".utf8).write(to: script)
    let result = try runner.run(["--script", script.path])
    #expect(result.status == 1)
    #expect(result.stderr == "bluelib: \(script.path):3: redo: nothing to redo\n")
    let missing = try runner.run(["--script", "/nonexistent/x"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cannot read script '/nonexistent/x'"))
  }

  @Test func bailStopsAtTheFirstFailure() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "undo\nhelp quit\n", ["--bail"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    let goesOn = try runner.run(script: "undo\nhelp quit\n")
    #expect(goesOn.stdout.hasPrefix("usage: quit"))
  }

  @Test func unterminatedQuoteNamesTheColumn() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "help \"quit\n")
    #expect(result.stderr == "bluelib: stdin:1: unterminated quote starting at column 6\n")
  }

  @Test(arguments: [
    ["--frobnicate"], ["-c"], ["-c", "help", "--script", "x"], ["extra-argument"],
  ])
  func usageErrorsExitOne(arguments: [String]) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(arguments)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("bluelib: "))
  }

  @Test func versionAndHelpExitZero() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let version = try runner.run(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout == "bluelib 0.1.0\n")
    let help = try runner.run(["--help"])
    #expect(help.status == 0)
    for flag in ["--home", "-c", "--script", "--bail", "--no-color", "--version", "--help"] {
      #expect(help.stdout.contains(flag), "--help does not list \(flag)")
    }
  }

  @Test func hostileInputNeverCrashesAndEachBadLineIsReported() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    var input = Data("help quit\n".utf8)
    input.append(contentsOf: [0x68, 0x65, 0xFF, 0xFE, 0x0A])  // invalid UTF-8
    input.append(contentsOf: [0x68, 0x00, 0x70, 0x0A])  // NUL
    input.append(Data(repeating: UInt8(ascii: "x"), count: 4 << 20))  // a 4 MiB line
    input.append(contentsOf: Array("\nhistory 99999999999999999999999\nhelp -1\nquit\n".utf8))
    let result = try runner.run(input: input)
    #expect(result.status == 1)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[0] == "bluelib: stdin:2: line is not valid UTF-8 (byte 3)")
    #expect(lines[1] == "bluelib: stdin:3: line contains a NUL byte (byte 2)")
    #expect(lines[2].hasPrefix("bluelib: stdin:4: line is too long (4194304 bytes"))
    #expect(lines[3].hasPrefix("bluelib: stdin:5: history: N must be a positive whole number"))
    #expect(lines[4] == "bluelib: stdin:6: help: unknown command '-1'")
  }

  @Test func randomBytesNeverCrashTheShell() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    var generator = SeededGenerator(seed: 0xB10E_11B)
    for _ in 0..<3 {
      let bytes = Data((0..<(256 * 1024)).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
      let result = try runner.run(input: bytes)
      // Exit 1: some lines failed; a crash would be a signal status (> 128) or a Swift trap.
      #expect(result.status == 1)
      #expect(!result.stderr.contains("Fatal error"))
      #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("bluelib: stdin:") })
    }
  }

  @Test func closedPipeEndsQuietly() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let process = Process()
    process.executableURL = BinaryRunner.executable
    process.arguments = ["--home", runner.home.path]
    process.environment = runner.environment()
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Read the first command's output, then close our end: the next writes hit a closed pipe.
    stdin.fileHandleForWriting.writeIgnoringErrors(Data("help\n".utf8))
    let first = stdout.fileHandleForReading.availableData
    try stdout.fileHandleForReading.close()
    let lines = String(repeating: "help\n", count: 20_000)
    stdin.fileHandleForWriting.writeIgnoringErrors(Data(lines.utf8))
    try? stdin.fileHandleForWriting.close()
    process.waitUntilExit()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    #expect(!first.isEmpty)
    #expect(process.terminationReason == .exit)
    #expect(errors.isEmpty, "stderr: \(String(decoding: errors, as: UTF8.self))")
  }
}
