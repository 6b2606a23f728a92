import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process on this machine, told apart from any other that has or had the same id: its
/// id, the time it started (clock ticks since boot) and the boot it runs in. The write
/// journal names its writer so: a journal whose writer is no longer running is one a crash
/// or `kill -9` left, to finish; one whose writer runs is being written now.
struct ProcessIdentity: Equatable, Sendable {
  var pid: Int32
  var start: UInt64
  var boot: String

  /// This process.
  static let current = ProcessIdentity.of(getpid()) ?? ProcessIdentity(pid: getpid(), start: 0, boot: "")

  /// The process `pid` as it runs now, or nil when there is none (or nothing says when it
  /// started: not Linux).
  static func of(_ pid: Int32) -> ProcessIdentity? {
    #if os(Linux)
      // After the command's name (in parentheses, and it may hold any byte), field 22 of
      // the line is the start time: the 20th after the ')'.
      guard let line = read("/proc/\(pid)/stat"), let close = line.lastIndex(of: ")") else { return nil }
      let fields = line[line.index(after: close)...].split(separator: " ")
      guard fields.count > 19, let start = UInt64(fields[19]) else { return nil }
      let boot = read("/proc/sys/kernel/random/boot_id")?.filter { !$0.isWhitespace } ?? ""
      return ProcessIdentity(pid: pid, start: start, boot: boot)
    #else
      return kill(pid, 0) == 0 || errno == EPERM ? ProcessIdentity(pid: pid, start: 0, boot: "") : nil
    #endif
  }

  /// `PID START BOOT`, as the journal stores it.
  var text: String { "\(pid) \(start) \(boot)" }

  /// Reads ``text``; nil for anything else.
  init?(text: String) {
    let parts = text.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, let pid = Int32(parts[0]), let start = UInt64(parts[1]) else { return nil }
    self.init(pid: pid, start: start, boot: String(parts[2]))
  }

  init(pid: Int32, start: UInt64, boot: String) {
    (self.pid, self.start, self.boot) = (pid, start, boot)
  }

  /// Whether this process is running now (another one that took its id since is not it).
  var isRunning: Bool {
    self == Self.current || Self.of(pid) == self
  }

  private static func read(_ path: String) -> String? {
    do throws(SystemError) {
      let fd = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC) }
      defer { close(fd) }
      return String(decoding: try readToEnd(fd, atMost: 4096), as: UTF8.self)
    } catch {
      return nil
    }
  }
}
