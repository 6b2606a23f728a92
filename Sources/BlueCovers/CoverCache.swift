import BlueSystem
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The disk cache of downloaded covers: one file per URL, named by the URL's SHA-256.
///
/// The name never comes from the URL itself (two URLs ending in `cover.png` must not
/// collide, and a URL must not choose a path). Files are written atomically, so a
/// crash leaves the old file or the new one, never half of one; a file that is not an
/// image (damaged, or put there by hand) counts as a miss and is removed.
package struct CoverCache: Sendable {
  /// The directory holding the cache files; created on the first store.
  package let directory: String
  /// Set by the first store: what a killed bluelib left half-written is removed then (a run
  /// that stores nothing does not read the directory; cost follows use).
  private let swept = SweptFlag()

  /// Whether the partial files were swept; set once.
  private final class SweptFlag: Sendable {
    private let done = Atomic<Bool>(false)
    /// True the first time only.
    func take() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
  }

  /// A cache over `directory` (the shell passes `HOME/covers`).
  package init(directory: String) {
    self.directory = directory
  }

  /// The cache file name for `url`: the SHA-256 of its UTF-8, as 64 lowercase hex digits.
  package static func fileName(for url: String) -> String {
    SHA256.hex(url)
  }

  /// The cache file path for `url`, whether or not it exists.
  package func path(for url: String) -> String {
    directory + "/" + Self.fileName(for: url)
  }

  /// Whether a cover for `url` is cached (the file exists and starts like an image).
  ///
  /// Only looks: a damaged file is removed when the cover is requested or read.
  package func contains(_ url: String) -> Bool {
    entrySize(for: url, removingDamaged: false) != nil
  }

  /// The names of the cache's entries (``fileName(for:)`` of each cached URL); empty when
  /// the directory is missing or unreadable. Partial downloads are not entries.
  package func entryNames() -> Set<String> {
    guard let names = directoryEntries(atPath: directory) else { return [] }
    return Set(names.filter { $0.utf8.count == 64 && $0.utf8.allSatisfy(\.isHexDigit) })
  }

  /// The cached cover for `url`, or nil; a cached file that is not an image is removed.
  package func cachedData(for url: String) -> Data? {
    let path = path(for: url)
    guard let fd = Self.openRegularFile(path) else { return nil }
    defer { close(fd) }
    let data = Data((try? readToEnd(fd)) ?? [])
    guard CoverImageFormat(sniffing: data) != nil else {
      removeDamaged(path, openAs: fd)
      return nil
    }
    return data
  }

  /// Removes the cached cover for `url`, if there is one.
  package func remove(_ url: String) {
    unlink(path(for: url))
  }

  /// When the cached cover for `url` was written (nanoseconds since 1970), or nil when none
  /// is cached.
  package func modificationTime(for url: String) -> Int64? {
    FileStamp(path: path(for: url))?.modified
  }

  /// Writes `data` as the cover of `url`, atomically (temporary file, fsync, rename).
  package func store(_ data: Data, for url: String) throws(CoverCacheError) {
    let staged = try stage(data)
    try commit(staged, for: url)
    syncDirectory()
  }

  // MARK: - Two-phase store (the loader writes off the actor, commits on it)

  /// The size of the cached file for `url` if it is a regular file that starts like an
  /// image; a damaged one is removed if `removingDamaged`.
  func entrySize(for url: String, removingDamaged: Bool = true) -> Int? {
    let path = path(for: url)
    guard let fd = Self.openRegularFile(path) else { return nil }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: CoverImageFormat.signatureLength)
    let count = (try? syscall("read") { head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }) ?? -1
    var info = stat()
    guard count > 0, fstat(fd, &info) == 0, (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG),
      CoverImageFormat(sniffing: head[0..<count]) != nil
    else {
      if removingDamaged { removeDamaged(path, openAs: fd) }
      return nil
    }
    return Int(info.st_size)
  }

  /// `path` opened for reading if it is a regular file; nil for anything else. The open
  /// never blocks (a FIFO someone put in the cache folder would hang a plain open), and
  /// the check is on what was opened, not on a name that could change in between.
  static func openRegularFile(_ path: String) -> Int32? {
    guard let fd = try? syscall("open", { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }) else { return nil }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      return nil
    }
    return fd
  }

  /// Removes the covers' `.partial` files that a killed bluelib left behind (those whose
  /// process is gone); returns how many.
  @discardableResult
  func removeAbandonedPartials() -> Int {
    guard let names = directoryEntries(atPath: directory) else { return 0 }
    var removed = 0
    for name in names where name.hasPrefix(".partial.") && name.hasSuffix(".tmp") {
      let fields = name.split(separator: ".")
      // `.partial.PID.RANDOM.tmp`: keep a file whose writer is still running.
      guard fields.count >= 3, let pid = pid_t(fields[1]), pid > 0 else { continue }
      if kill(pid, 0) == 0 || errno == EPERM { continue }
      if unlink(directory + "/" + name) == 0 { removed += 1 }
    }
    return removed
  }

  /// Removes the damaged file at `path`, unless a store has meanwhile renamed a new one
  /// into place (the path no longer names the file open as `fd`).
  private func removeDamaged(_ path: String, openAs fd: Int32) {
    var opened = stat()
    var current = stat()
    guard fstat(fd, &opened) == 0, stat(path, &current) == 0,
      opened.st_dev == current.st_dev, opened.st_ino == current.st_ino
    else { return }
    unlink(path)
  }

  /// A file written and synced under a temporary name, not yet visible as a cache entry.
  typealias StagedFile = AtomicFile.Staged

  /// Writes `data` to a fresh temporary file in the cache directory and syncs it.
  func stage(_ data: Data) throws(CoverCacheError) -> StagedFile {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .cannotWrite(path: directory, reason: "cannot create the directory")
    }
    if swept.take() { removeAbandonedPartials() }
    do {
      // Dot-prefixed and never 64 hex digits, so it cannot be mistaken for an entry.
      return try data.withUnsafeBytes { bytes in
        Result { () throws(AtomicFileError) in try AtomicFile.stage(bytes, in: directory) }
      }.get()
    } catch {
      throw .cannotWrite(path: error.path, reason: error.reason)
    }
  }

  /// Renames a staged file into place as the entry for `url`, replacing any old one.
  func commit(_ staged: StagedFile, for url: String) throws(CoverCacheError) {
    do {
      try staged.commit(to: path(for: url))
    } catch {
      throw .cannotWrite(path: error.path, reason: error.reason)
    }
  }

  /// Syncs the directory, making committed renames durable.
  func syncDirectory() {
    AtomicFile.syncDirectory(directory)
  }

  /// Removes a staged file that will not be committed.
  func discard(_ staged: StagedFile) {
    staged.discard()
  }
}

/// Why the cover cache could not store a file.
package enum CoverCacheError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Writing `path` failed.
  case cannotWrite(path: String, reason: String)

  /// `cannot write cover cache file PATH: REASON`.
  package var description: String {
    switch self {
    case .cannotWrite(let path, let reason): "cannot write cover cache file \(path): \(reason)"
    }
  }
}

extension UInt8 {
  /// Whether the byte is an ASCII hexadecimal digit, in either case.
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x61...0x66).contains(self | 0x20)
  }
}
