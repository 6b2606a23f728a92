import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `bluelib` binary as a user would, with a private home directory.
package struct BinaryRunner: Sendable {
  /// What one run produced.
  package struct Result: Sendable {
    /// The exit status.
    package var status: Int32
    /// Standard output, decoded as UTF-8.
    package var stdout: String
    /// Standard error, decoded as UTF-8.
    package var stderr: String
    /// Standard output as written.
    package var stdoutBytes: Data

    /// A result with every part given.
    package init(status: Int32, stdout: String, stderr: String, stdoutBytes: Data) {
      self.status = status
      self.stdout = stdout
      self.stderr = stderr
      self.stdoutBytes = stdoutBytes
    }
  }

  /// The `bluelib` executable SwiftPM built next to the test bundle.
  package static let executable: URL = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // The test runner lives in `<products>/bluelibPackageTests.xctest` on Linux.
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent("bluelib")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: ".build/debug/bluelib")
  }()

  /// A fresh home directory, removed when the last copy of this runner goes (or at
  /// ``cleanUp()``), so a test that stops early leaves none behind.
  package var home: URL { directory.url }

  /// The home, held by every copy of the runner (a `LiveShell` keeps one too).
  private let directory: Home

  /// When set, and the tests run as root, each run is as this user and group (through
  /// `setpriv`), which root's file permissions do not stop: for a folder that cannot be read.
  package var user: uid_t?

  /// When set, and the tests run as root, each run is in a mount namespace of its own where
  /// this file is `/etc/resolv.conf` (through `unshare -m` and a bind mount): for name
  /// servers that behave badly, without touching the machine's.
  package var resolvConf: String?

  /// When set, each run starts in this directory (else the test runner's).
  package var workingDirectory: String?

  /// A runner with a fresh, empty home directory.
  package init() {
    directory = Home()
  }

  /// Removes the home directory now, before the runner goes.
  package func cleanUp() {
    try? FileManager.default.removeItem(at: home)
  }

  /// A home directory that is removed with the last reference to it.
  private final class Home: Sendable {
    let url: URL

    init() {
      url = FileManager.default.temporaryDirectory.appendingPathComponent("bluelib-e2e-\(UUID().uuidString)")
      try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
      try? FileManager.default.removeItem(at: url)
    }
  }

  /// The environment every run gets: no colour settings, no XDG leakage from the host.
  package func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": home.path, "LANG": "C.UTF-8", "TERM": "xterm-256color",
    ]
    environment.merge(extra) { $1 }
    return environment
  }

  /// Runs `bluelib --home HOME arguments…` with `input` on stdin.
  package func run(
    _ arguments: [String] = [], input: Data = Data(), useHome: Bool = true,
    environment extra: [String: String] = [:]
  ) throws -> Result {
    let (process, stdin, stdout, stderr) = try launch(
      (useHome ? ["--home", home.path] : []) + arguments, environment: environment(extra))
    let writer = Thread {
      // The shell may stop reading early (quit, --bail); a broken pipe is expected then.
      stdin.fileHandleForWriting.writeIgnoringErrors(input)
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let collected = collect([stdout.fileHandleForReading, stderr.fileHandleForReading])
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: collected[0], as: UTF8.self),
      stderr: String(decoding: collected[1], as: UTF8.self), stdoutBytes: collected[0])
  }

  /// Runs with `script` (lines joined by newlines) on stdin.
  package func run(script: String, _ arguments: [String] = []) throws -> Result {
    try run(arguments, input: Data(script.utf8))
  }

  /// Runs `bluelib --home HOME arguments…` with `script` on stdin and, once its standard
  /// output ends with `marker`, reads its peak resident memory in KiB, then closes stdin
  /// and lets it exit. The peak is nil if it exited before printing `marker` (or had not
  /// printed it after `timeout` seconds), or where `/proc` is missing.
  ///
  /// The peak is the kernel's `VmHWM` of the running binary, read while the shell waits for
  /// more input (end `script` with a command whose output is `marker`). `wait4`'s
  /// `ru_maxrss` would not do: the kernel folds into it the memory of the process that
  /// spawned the child, here the whole test runner.
  package func runMeasuringPeakMemory(
    script: String, until marker: String, _ arguments: [String] = [], environment extra: [String: String] = [:],
    timeout: Double = 300
  ) throws -> (result: Result, peakKiB: Int?) {
    let (process, stdin, stdout, stderr) = try launch(
      ["--home", home.path] + arguments, environment: environment(extra))
    let output = LockedBox(Data())
    let errors = LockedBox(Data())
    let group = DispatchGroup()
    for (handle, box) in [(stdout.fileHandleForReading, output), (stderr.fileHandleForReading, errors)] {
      group.enter()
      DispatchQueue.global().async {
        while case let chunk = handle.availableData, !chunk.isEmpty {
          box.update { $0.append(chunk) }
        }
        group.leave()
      }
    }
    stdin.fileHandleForWriting.writeIgnoringErrors(Data(script.utf8))
    let expected = Data(marker.utf8)
    let deadline = Date().addingTimeInterval(timeout)
    var printed = false
    while process.isRunning && Date() < deadline {
      printed = output.value.suffix(expected.count).elementsEqual(expected)
      if printed { break }
      usleep(10_000)
    }
    var peak: Int?
    if printed && process.isRunning,
      let status = Self.readProcFile("/proc/\(process.processIdentifier)/status"),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    {
      peak = Int(line.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first ?? "")
    }
    try? stdin.fileHandleForWriting.close()
    // A run still busy past the time (a command that never ends) is ended, not waited for.
    if !printed && process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    group.wait()
    return (
      Result(
        status: process.terminationStatus, stdout: String(decoding: output.value, as: UTF8.self),
        stderr: String(decoding: errors.value, as: UTF8.self), stdoutBytes: output.value),
      peak
    )
  }

  /// Starts the binary with `arguments`, its three standard streams on pipes.
  private func launch(
    _ arguments: [String], environment: [String: String]
  ) throws -> (process: Process, stdin: Pipe, stdout: Pipe, stderr: Pipe) {
    let process = Process()
    if let user, geteuid() == 0 {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--", Self.executable.path] + arguments
    } else if let resolvConf, geteuid() == 0 {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
      process.arguments =
        ["-m", "--", "/bin/sh", "-c", "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", resolvConf]
        + [Self.executable.path] + arguments
    } else {
      process.executableURL = Self.executable
      process.arguments = arguments
    }
    process.environment = environment
    if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
    let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    return (process, stdin, stdout, stderr)
  }

  /// The text of a `/proc` file, read with `read(2)` to its end: it says its size is 0,
  /// which Foundation's readers believe.
  private static func readProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while case let count = chunk.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }), count > 0 {
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Reads several handles to the end at once, so neither pipe can fill and block the child.
  private func collect(_ handles: [FileHandle]) -> [Data] {
    let results = LockedBox([Data](repeating: Data(), count: handles.count))
    let group = DispatchGroup()
    for (index, handle) in handles.enumerated() {
      group.enter()
      DispatchQueue.global().async {
        let data = handle.readDataToEndOfFile()
        results.update { $0[index] = data }
        group.leave()
      }
    }
    group.wait()
    return results.value
  }
}
