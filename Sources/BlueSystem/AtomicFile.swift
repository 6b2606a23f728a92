#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces files so that a reader (or a crash) sees the old content or the new, never a
/// part: the bytes go to a fresh temporary file in the same directory, are flushed with
/// `fsync`, renamed over the target, and the directory is synced to make the rename durable.
///
/// ``write(_:to:mode:keepingExistingMode:)`` does it all; ``stage(_:in:mode:)`` and
/// ``Staged/commit(to:)`` split it for a caller that must decide between writing and renaming
/// (the cover loader renames under a lock, so a cancelled download never lands in the cache).
package enum AtomicFile {
  /// Replaces the file at `path` with `bytes`. A new file gets `mode` (less the umask); an
  /// existing file keeps its permissions unless `keepingExistingMode` is false (a private
  /// file that must stay `mode`). Errors name `path`.
  package static func write(
    _ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t = 0o644, keepingExistingMode: Bool = true
  ) throws(AtomicFileError) {
    var existing = stat()
    let exists = stat(path, &existing) == 0
    if exists && existing.st_mode & S_IFMT == S_IFDIR {
      throw AtomicFileError(path: path, reason: "it is a directory")
    }
    let staged: Staged
    do {
      staged = try stage(
        bytes, in: directory(of: path), name: lastComponent(of: path),
        mode: mode, keeping: exists && keepingExistingMode ? existing.st_mode & 0o7777 : nil)
    } catch {
      throw AtomicFileError(path: path, reason: error.reason)
    }
    try staged.commit(to: path)
    syncDirectory(staged.directory)
  }

  /// Replaces the file at `path` with `bytes`; see ``write(_:to:mode:keepingExistingMode:)``.
  package static func write(
    _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, keepingExistingMode: Bool = true
  ) throws(AtomicFileError) {
    try bytes.withUnsafeBytes { buffer in
      Result { () throws(AtomicFileError) in
        try write(buffer, to: path, mode: mode, keepingExistingMode: keepingExistingMode)
      }
    }.get()
  }

  /// Replaces the file at `path` with what `produce` hands to the function it is given, in
  /// pieces, so a file of any size is written in bounded memory; otherwise as
  /// ``write(_:to:mode:keepingExistingMode:)``. An error `produce` throws removes the
  /// temporary file and is rethrown; the target is untouched.
  package static func write(
    to path: String, mode: mode_t = 0o644, keepingExistingMode: Bool = true,
    _ produce: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    var existing = stat()
    let exists = stat(path, &existing) == 0
    if exists && existing.st_mode & S_IFMT == S_IFDIR {
      throw AtomicFileError(path: path, reason: "it is a directory")
    }
    let directory = directory(of: path)
    let temporary: String
    let fd: Int32
    do {
      (temporary, fd) = try createTemporary(in: directory, name: lastComponent(of: path), mode: mode)
    } catch {
      throw AtomicFileError(path: path, reason: error.reason)
    }
    var failure: (any Error)?
    do {
      if exists && keepingExistingMode { try syscall("fchmod") { fchmod(fd, existing.st_mode & 0o7777) } }
      try produce { bytes in
        do throws(SystemError) {
          try writeAll(fd, bytes)
        } catch {
          throw AtomicFileError(path: path, reason: error.reason)
        }
      }
      try syscall("fsync") { fsync(fd) }
    } catch let error as SystemError {
      failure = AtomicFileError(path: path, reason: error.reason)
    } catch {
      failure = error
    }
    if close(fd) != 0 && failure == nil { failure = AtomicFileError(path: path, reason: SystemError("close").reason) }
    if let failure {
      unlink(temporary)
      throw failure
    }
    try Staged(path: temporary, directory: directory).commit(to: path)
    syncDirectory(directory)
  }

  /// Writes `bytes` to a fresh temporary file in `directory` (created with O_EXCL and
  /// `mode`) and syncs it; nothing is visible under a real name until it is committed.
  /// Errors name the temporary file, which is removed.
  package static func stage(_ bytes: UnsafeRawBufferPointer, in directory: String, mode: mode_t = 0o644)
    throws(AtomicFileError) -> Staged
  {
    try stage(bytes, in: directory, name: "partial", mode: mode, keeping: nil)
  }

  /// Syncs `directory`, making renames into it durable (best effort: a file system that
  /// cannot sync a directory has nothing to make durable).
  package static func syncDirectory(_ directory: String) {
    guard let fd = try? syscall("open", { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) else { return }
    _ = try? syscall("fsync") { fsync(fd) }
    close(fd)
  }

  /// A file written and synced under a temporary name, not yet visible under its real one.
  package struct Staged: Sendable {
    /// The temporary file.
    package let path: String
    /// The directory holding it (and, once committed, the target).
    package let directory: String

    /// Renames the staged file over `target` (in the same directory), replacing any old
    /// file; on failure the staged file is removed and the error names `target`. The
    /// directory is not synced: call ``AtomicFile/syncDirectory(_:)`` after the last commit.
    package func commit(to target: String) throws(AtomicFileError) {
      do {
        try syscall("rename") { rename(path, target) }
      } catch {
        discard()
        throw AtomicFileError(path: target, reason: error.reason)
      }
    }

    /// Removes the staged file without committing it.
    package func discard() {
      unlink(path)
    }
  }

  // MARK: - Private

  private static func stage(
    _ bytes: UnsafeRawBufferPointer, in directory: String, name: String, mode: mode_t, keeping existingMode: mode_t?
  ) throws(AtomicFileError) -> Staged {
    let (path, fd) = try createTemporary(in: directory, name: name, mode: mode)
    var failure: SystemError?
    do {
      if let existingMode { try syscall("fchmod") { fchmod(fd, existingMode) } }
      try writeAll(fd, bytes)
      try syscall("fsync") { fsync(fd) }
    } catch {
      failure = error
    }
    // Never retried: Linux releases the descriptor even when close fails with EINTR.
    if close(fd) != 0 && failure == nil { failure = SystemError("close") }
    if let failure {
      unlink(path)
      throw AtomicFileError(path: path, reason: failure.reason)
    }
    return Staged(path: path, directory: directory)
  }

  /// Creates a fresh temporary file for `name` in `directory` and opens it for writing.
  private static func createTemporary(
    in directory: String, name: String, mode: mode_t
  ) throws(AtomicFileError) -> (path: String, fd: Int32) {
    // Dot-prefixed and unique: never mistaken for the target or for another writer's file.
    let random = String(UInt64.random(in: .min ... .max), radix: 36)
    let path = "\(directory)/.\(name).\(getpid()).\(random).tmp"
    do {
      return (path, try syscall("open") { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) })
    } catch {
      throw AtomicFileError(path: path, reason: error.reason)
    }
  }

  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func lastComponent(of path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
  }
}

/// Why ``AtomicFile`` could not write a file.
package struct AtomicFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file that could not be written.
  package var path: String
  /// Why, lowercase: "no such file or directory".
  package var reason: String

  /// `cannot write 'PATH': REASON`.
  package var description: String { "cannot write '\(path)': \(reason)" }
}
