import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real pseudo-terminal with `bluelib` running in it as a person would use it: the child
/// gets the terminal as its controlling tty (via `setsid --ctty`), so line editing, ^C and
/// ^D behave exactly as in a terminal window.
package final class PseudoTerminal {
  /// The `setsid` process that runs `bluelib`.
  package let process = Process()
  private let master: Int32
  private let slave: Int32
  /// The terminal's device, `/dev/pts/N`.
  private let slaveName: String
  /// Everything the program wrote so far.
  package private(set) var transcript = ""

  /// Starts `bluelib arguments…` in a new pseudo-terminal of `columns` × `rows`; with a
  /// `wrapper` (a command and its arguments), `wrapper… bluelib arguments…`.
  package init(
    arguments: [String], environment: [String: String], columns: UInt16 = 100, rows: UInt16 = 30,
    wrapper: [String] = []
  ) throws {
    // posix_openpt/grantpt/ptsname sit behind _XOPEN_SOURCE in glibc's headers, which
    // Swift's Glibc module does not define; the Linux ioctls do the same job.
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    let tiocsptlck: UInt = 0x4004_5431  // _IOW('T', 0x31, int)
    let tiocgptn: UInt = 0x8004_5430  // _IOR('T', 0x30, unsigned int)
    guard master >= 0, ioctl(master, tiocsptlck, &unlock) == 0, ioctl(master, tiocgptn, &number) == 0
    else {
      throw PseudoTerminalError("cannot allocate a pseudo-terminal: errno \(errno)")
    }
    let name = "/dev/pts/\(number)"
    slaveName = name
    slave = open(name, O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw PseudoTerminalError("cannot open \(name)") }
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
    process.arguments = ["--ctty", "--wait"] + wrapper + [BinaryRunner.executable.path] + arguments
    process.environment = environment
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
  }

  deinit {
    if process.isRunning { process.terminate() }
    close(master)
    close(slave)
  }

  /// Lets the shell settle into line editing after a prompt appeared (its echo is off
  /// before the prompt shows, so keys typed at once are not lost; this waits for quiet).
  package func settle() { readAvailable(timeout: 0.25) }

  /// Types `text` (use "\u{3}" for Ctrl-C, "\u{4}" for Ctrl-D, "\r" for Enter).
  package func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Reads until `text` has appeared in the transcript after `offset`; false on timeout.
  @discardableResult
  package func waitFor(_ text: String, after offset: String.Index? = nil, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let searchStart = offset ?? transcript.startIndex
      if transcript[searchStart...].contains(text) { return true }
      let remaining = deadline.timeIntervalSinceNow
      if remaining <= 0 { return false }
      readAvailable(timeout: min(remaining, 0.2))
    }
  }

  /// Reads whatever arrives within `timeout` seconds.
  package func readAvailable(timeout: Double) {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let n = read(master, &buffer, buffer.count)
    if n > 0 { transcript += String(decoding: buffer[0..<n], as: UTF8.self) }
  }

  /// The end of the transcript, for marking where the next wait should start.
  package var mark: String.Index { transcript.endIndex }

  /// Waits for the program to exit; its status, or nil on timeout.
  package func waitForExit(timeout: Double = 10) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { readAvailable(timeout: 0.05) }
    readAvailable(timeout: 0.05)
    return process.isRunning ? nil : process.terminationStatus
  }

  /// Changes the window size; the kernel sends SIGWINCH to the shell, as a terminal does.
  package func resize(columns: UInt16, rows: UInt16) {
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
  }

  /// The process group in the terminal's foreground (the shell).
  package func foregroundProcessGroup() -> pid_t { tcgetpgrp(master) }

  /// The window size the terminal reports now, as `stty size` prints it (`rows columns`).
  /// Asked by another process: in this one, ioctl is bluelib's own, which caps the size.
  package func sttySize() throws -> String {
    let stty = Process()
    stty.executableURL = URL(fileURLWithPath: "/bin/stty")
    stty.arguments = ["-F", slaveName, "size"]
    let output = Pipe()
    stty.standardOutput = output
    try stty.run()
    stty.waitUntilExit()
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The peak memory (VmHWM, KiB) of the process leading the foreground group (the shell).
  package func foregroundPeakMemoryKiB() -> Int? {
    let status = (try? String(contentsOfFile: "/proc/\(foregroundProcessGroup())/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
  }

  /// The terminal's current modes, as the program left them.
  package func modes() -> termios {
    var modes = termios()
    tcgetattr(slave, &modes)
    return modes
  }
}

/// The parts of termios a broken exit would leave changed (raw mode, no echo, no ^C).
package func modeSummary(_ modes: termios) -> [UInt] {
  var copy = modes
  let characters = withUnsafeBytes(of: &copy.c_cc) { Array($0.prefix(Int(VEOF) + 1)) }
  return [UInt(modes.c_lflag), UInt(modes.c_iflag), UInt(modes.c_oflag)] + characters.map(UInt.init)
}
