import BlueLibrary

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
public final class InputHistory {
  /// The recorded entries, oldest first.
  public private(set) var entries: [String] = []
  /// The most entries kept.
  public let limit: Int
  /// Where entries are persisted; nil keeps them in memory only (script mode).
  public let path: String?
  private var needsSeparator = false

  /// Loads the history at `path` (a missing or unreadable file starts empty).
  public init(path: String?, limit: Int = 1000) {
    self.path = path
    self.limit = max(1, limit)
    guard let path, let data = FileBytes.read(path) else { return }
    // A file cut short (or edited by hand) may lack its last newline; the next append must
    // not glue its line onto that one.
    needsSeparator = data.last.map { $0 != UInt8(ascii: "\n") } ?? false
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
    entries = lines.suffix(self.limit).map(String.init)
    if lines.count > 2 * self.limit { compact() }
  }

  /// Records `line` if the rules allow; returns whether it was recorded.
  @discardableResult
  public func add(_ line: String) -> Bool {
    guard let first = line.first, first != " ", first != "\t" else { return false }
    guard !line.allSatisfy({ $0 == " " || $0 == "\t" }) else { return false }
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
  public func last(_ n: Int?) -> [(number: Int, line: String)] {
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
  /// The whole file, or nil when it cannot be read.
  static func read(_ path: String) -> [UInt8]? {
    guard let fd = try? syscall("open", { open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
    defer { close(fd) }
    return try? readToEnd(fd)
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
