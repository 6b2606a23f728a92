import BlueLibrary
import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines the user typed, persisted across runs (SPEC §6).
///
/// Rules: at most ``limit`` entries; a line starting with a space is not recorded; a line
/// equal to the previous entry is collapsed into it; empty lines are skipped. The file holds
/// one entry per line (entries cannot contain newlines) and is appended to as you go, so a
/// crash loses nothing and two shells do not overwrite each other; it is compacted when it
/// grows past twice the limit.
final class InputHistory {
  /// The recorded entries, oldest first.
  private(set) var entries: [String] = []
  /// The most entries kept.
  let limit: Int
  /// Where entries are persisted; nil keeps them in memory only (script mode, or a history
  /// path that is not a regular file).
  private(set) var path: String?
  /// Why the history at the given path is not used, in one line, for the shell to print.
  private(set) var warning: String?
  private var needsSeparator = false

  /// The most bytes read from the end of the file: enough for ``limit`` lines of a
  /// thousand bytes; an older start is dropped (and the file compacted).
  static let maximumFileSize = 1 << 20

  /// Loads the history at `path` (a missing or unreadable file starts empty; one that is
  /// not a regular file — a FIFO, a device — is left alone, with a ``warning``).
  init(path: String?, limit: Int = 1000) {
    self.path = path
    self.limit = max(1, limit)
    guard let path else { return }
    let data: [UInt8]
    var cut = false
    switch FileBytes.readRegular(path, atMost: Self.maximumFileSize) {
    case .missing:
      return
    case .notRegular(let kind):
      // Appending to a FIFO would block, to a device fill it: no history this run.
      self.path = nil
      warning = "bluelib: the history file '\(path)' is \(kind), not a regular file; starting without history"
      return
    case .bytes(let bytes, let truncated):
      data = bytes
      cut = truncated
    }
    // A file cut short (or edited by hand) may lack its last newline; the next append must
    // not glue its line onto that one.
    needsSeparator = data.last.map { $0 != UInt8(ascii: "\n") } ?? false
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
    // Only the end of a large file was read: its first line is likely a piece of one.
    if cut, !lines.isEmpty { lines.removeFirst() }
    entries = lines.suffix(self.limit).map(String.init)
    if cut || lines.count > 2 * self.limit { compact() }
  }

  /// Records `line` if the rules allow; returns whether it was recorded.
  @discardableResult
  func add(_ line: String) -> Bool {
    if line.utf8.allSatisfy({ $0 < 0x80 }) {
      // ASCII (a script's every line): each byte is a character, no grapheme breaking.
      guard let first = line.utf8.first, first != 0x20, first != 0x09 else { return false }
      guard line.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return false }
    } else {
      guard let first = line.first, first != " ", first != "\t" else { return false }
      guard !line.allSatisfy({ $0 == " " || $0 == "\t" }) else { return false }
    }
    guard !line.utf8.contains(where: { $0 == 0x0A || $0 == 0 }) else { return false }
    guard entries.last != line else { return false }
    entries.append(line)
    if entries.count > limit { entries.removeFirst(entries.count - limit) }
    if let path {
      FileBytes.append(Array(((needsSeparator ? "\n" : "") + line + "\n").utf8), to: path)
      needsSeparator = false
    }
    return true
  }

  /// The last `n` entries (all when nil), numbered from 1 for the oldest kept.
  func last(_ n: Int?) -> [(number: Int, line: String)] {
    let count = max(0, min(n ?? entries.count, entries.count))
    let start = entries.count - count
    return (start..<entries.count).map { ($0 + 1, entries[$0]) }
  }

  private func compact() {
    guard let path else { return }
    let text = entries.map { $0 + "\n" }.joined()
    try? FileBytes.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
  }
}

/// Small file helpers over POSIX calls (no Foundation in the hot path).
enum FileBytes {
  /// What ``readRegular(_:atMost:)`` found.
  enum RegularRead {
    /// No file, or one that cannot be opened or read.
    case missing
    /// Not a regular file: "a FIFO", "a device", "a directory", "a socket".
    case notRegular(String)
    /// The last bytes of the file (all of them unless `truncated`).
    case bytes([UInt8], truncated: Bool)
  }

  /// The last `limit` bytes of the regular file at `path`. Opened without waiting (a FIFO
  /// without a writer) and checked before anything is read (`/dev/zero` never ends).
  static func readRegular(_ path: String, atMost limit: Int) -> RegularRead {
    guard let fd = try? syscall("open", { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }) else { return .missing }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { return .missing }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFIFO: return .notRegular("a FIFO")
    case S_IFDIR: return .notRegular("a directory")
    case S_IFSOCK: return .notRegular("a socket")
    default: return .notRegular("a device")
    }
    let size = Int(status.st_size)
    let truncated = size > limit
    if truncated, lseek(fd, off_t(size - limit), SEEK_SET) < 0 { return .missing }
    // A file that grows while being read still gives at most about `limit` bytes.
    guard let bytes = try? readToEnd(fd, sizeHint: min(size, limit), atMost: limit) else { return .missing }
    return .bytes(bytes, truncated: truncated)
  }

  /// Appends `bytes` in one write (O_APPEND keeps concurrent writers' lines whole).
  static func append(_ bytes: [UInt8], to path: String) {
    makeParentDirectory(of: path)
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    _ = bytes.withUnsafeBytes { POSIX.writeAll(fd, $0) }
  }

  /// Replaces the file at `path` with `bytes`, atomically (see BlueLibrary's `AtomicFile`);
  /// the file gets `mode` even if it had other permissions.
  static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws(AtomicFileError) {
    makeParentDirectory(of: path)
    try AtomicFile.write(bytes, to: path, mode: mode, keepingExistingMode: false)
  }

  /// Creates the directories above `path` as needed (mode 0700).
  static func makeParentDirectory(of path: String) {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
    makeDirectory(String(path[..<slash]))
  }

  /// `mkdir -p` with mode 0700 for new directories.
  static func makeDirectory(_ path: String) {
    var current = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      current += component
      mkdir(current, 0o700)
      current += "/"
    }
  }
}
