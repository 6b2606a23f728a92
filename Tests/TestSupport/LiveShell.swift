import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `bluelib --home HOME` process kept running with a pipe on its standard input, so a
/// test can act between its commands: type into it, watch what it prints, signal it, or
/// talk to it as a second terminal tab would (``send(_:)``).
package final class LiveShell {
  private let process = Process()
  /// The runner whose home the shell runs in: held, so the home stays while the shell does.
  private let runner: BinaryRunner
  private let input = Pipe()
  private let stdout = LockedBox(Data())
  private let stderr = LockedBox(Data())
  private let readers = DispatchGroup()
  /// How much of each output ``send(_:)`` has handed back already.
  private var consumed = (stdout: 0, stderr: 0)

  /// Starts `bluelib --home HOME ARGUMENTS` with `runner`'s home and environment, and
  /// `environment` added to it (script mode: its standard input is a pipe).
  package init(_ runner: BinaryRunner, arguments: [String] = [], environment: [String: String] = [:]) throws {
    self.runner = runner
    process.executableURL = BinaryRunner.executable
    process.arguments = ["--home", runner.home.path] + arguments
    process.environment = runner.environment(environment)
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Each output is read on a thread of its own (a blocking read), not on a Dispatch
    // worker that other tests running at the same time need.
    for (pipe, box) in [(output, stdout), (errors, stderr)] {
      readers.enter()
      let handle = pipe.fileHandleForReading
      Thread { [readers] in
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          box.update { $0.append(chunk) }
        }
        readers.leave()
      }.start()
    }
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  /// The shell's process id, to signal it or read its `/proc` entries.
  package var processIdentifier: Int32 { process.processIdentifier }

  /// Whether the shell is still running.
  package var isRunning: Bool { process.isRunning }

  /// What the shell printed on standard output so far.
  package var output: String { String(decoding: stdout.value, as: UTF8.self) }

  /// What the shell printed on standard error so far.
  package var errors: String { String(decoding: stderr.value, as: UTF8.self) }

  /// Writes `text` to the shell's standard input as it is (lines end in `\n`).
  package func type(_ text: String) {
    input.fileHandleForWriting.writeIgnoringErrors(Data(text.utf8))
  }

  /// Closes the shell's standard input: the end of its script.
  package func closeInput() {
    try? input.fileHandleForWriting.close()
  }

  /// Waits until standard output contains `text`; false after `timeout` seconds.
  package func waitFor(_ text: String, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if output.contains(text) { return true }
      usleep(10_000)
    }
    return output.contains(text)
  }

  /// Sends `line`, then a marker command, and returns what the line printed on standard
  /// output and standard error once the marker shows the shell has run it.
  @discardableResult
  package func send(_ line: String) throws -> (stdout: String, stderr: String) {
    let marker = "@@\(UUID().uuidString.prefix(8))@@"
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\nlist \(marker)\n").utf8))
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let text = String(decoding: stdout.value.dropFirst(consumed.stdout), as: UTF8.self)
      if let range = text.range(of: "match '\(marker)'\n") {
        // Drop the marker's own "0 of N albums match" line.
        let answer = text[..<range.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).dropLast()
          .joined(separator: "\n")
        consumed.stdout += text[..<range.upperBound].utf8.count
        let errors = String(decoding: stderr.value.dropFirst(consumed.stderr), as: UTF8.self)
        consumed.stderr += errors.utf8.count
        return (answer.isEmpty ? "" : answer + "\n", errors)
      }
      usleep(10_000)
    }
    throw NoAnswer(line: line)
  }

  /// The shell did not answer a line of ``send(_:)`` within 20 seconds.
  package struct NoAnswer: Error {
    /// The line sent.
    package let line: String
  }

  /// Waits for the shell to exit: its status (128 + N for a signal N, as a shell reports
  /// it), or nil when it is still running after `timeout` seconds (it is then killed).
  package func waitForExit(timeout: Double = 10) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    guard !process.isRunning else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    process.waitUntilExit()
    _ = readers.wait(timeout: .now() + 5)
    return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
  }

  /// Whether the shell, once exited, was killed by a signal rather than exiting by itself
  /// (``waitForExit(timeout:)`` reports both as 128 + N).
  package var diedOfSignal: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

  /// Closes the input, waits (up to `timeout` seconds, then terminates it) for the shell to
  /// exit, and returns its status and everything it printed.
  package func finish(timeout: Double = 30) -> BinaryRunner.Result {
    closeInput()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    readers.wait()
    return BinaryRunner.Result(
      status: process.terminationStatus, stdout: output, stderr: errors, stdoutBytes: stdout.value)
  }
}
