import BlueLibrary
import BlueSystem
import BlueText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shows output taller than the window through the user's pager (`$PAGER`, by default
/// `less -FRX`), run by the shell as psql and git do.
///
/// - Important: Only the thread that owns the terminal pages, between two prompts (libedit
///   has given the terminal back in its normal mode then).
struct Pager {
  /// The command, run by `/bin/sh -c`.
  let command: String

  /// The pager the environment asks for: `$PAGER` (empty: none), else `less -FRX`; nil
  /// with `--no-pager`.
  static func fromEnvironment(_ environment: [String: String], disabled: Bool) -> Pager? {
    guard !disabled else { return nil }
    guard let command = environment["PAGER"] else { return Pager(command: "less -FRX") }
    let trimmed = command.trimming(.whitespaces)
    return trimmed.isEmpty ? nil : Pager(command: trimmed)
  }

  /// How ``show(_:then:)`` ended.
  enum Outcome: Equatable {
    /// The pager ran and ended well (also when the user quit it before the end).
    case shown
    /// The pager could not be started: the caller prints the lines itself.
    case notStarted
    /// The pager ended with a failure (`PAGER=false`, a command not found) — why, and the
    /// lines sent to it, for the caller to print before the rest; nil when there were too
    /// many to keep (``replayLimit``).
    case failed(String, replay: [String]?)
  }

  /// The most lines kept, while they go to the pager, to print again if it fails.
  static let replayLimit = 10_000

  /// Writes `first` and then the rest of `lines` into the pager's standard input and
  /// waits for it to end; stops early, quietly, when the pager quits before reading all.
  func show(_ first: [String], then rest: inout some IteratorProtocol<String>) -> Outcome {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return .notStarted }
    let (readEnd, writeEnd) = (fds[0], fds[1])
    _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    guard let pid = spawn(readingFrom: readEnd) else {
      close(readEnd)
      close(writeEnd)
      return .notStarted
    }
    close(readEnd)
    let output = OutputChannel(fileDescriptor: writeEnd)
    var sent: [String]? = []
    func send(_ line: String) {
      output.line(line)
      if sent != nil {
        sent?.append(line)
        if sent!.count > Self.replayLimit { sent = nil }
      }
    }
    for line in first {
      send(line)
      if output.isClosed { break }
    }
    while !output.isClosed, let line = rest.next() { send(line) }
    output.flush()
    close(writeEnd)
    var status: Int32 = 0
    _ = try? syscall("waitpid") { waitpid(pid, &status, 0) }
    // Ctrl-C in the pager is the pager's; it must not cancel the shell's next wait.
    _ = SignalMonitor.take(.interrupt)
    // Exited with a status other than 0 (a pager killed by a signal was quit on purpose).
    let exited = status & 0x7F == 0
    let code = (status >> 8) & 0xFF
    guard exited, code != 0 else { return .shown }
    let reason = code == 127 ? "not found" : "exit status \(code)"
    return .failed("the pager '\(command)' failed (\(reason))", replay: sent)
  }

  private func spawn(readingFrom fd: Int32) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fd, STDIN_FILENO)
    let arguments = ["/bin/sh", "-c", command]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ)
    return result == 0 ? pid : nil
  }
}
