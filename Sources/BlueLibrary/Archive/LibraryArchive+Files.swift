import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LibraryArchive {
  /// Replaces the file at `path` with `bytes` so that a reader (or a crash) sees
  /// the old file or the new one, never a part (see ``AtomicFile``).
  /// An existing file's permissions are kept.
  ///
  /// Only a regular file or a new path is written: through a symbolic link, the file it
  /// points to is replaced (the link stays a link); a device (`/dev/null`), a FIFO, a
  /// socket or a directory is refused, never replaced by a renamed file.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(LibraryError) {
    let target = try exportTarget(path)
    do {
      // 0o666 less the umask, as any tool that exports a file.
      try AtomicFile.write(bytes, to: target, mode: 0o666)
    } catch {
      throw .cannotWrite(path: path, reason: error.reason)
    }
  }

  /// The path to replace for `path`: itself, or where its symbolic link leads.
  static func exportTarget(_ path: String) throws(LibraryError) -> String {
    var info = stat()
    guard lstat(path, &info) == 0 else { return path }  // a new file (or an error the write reports)
    var target = path
    if info.st_mode & S_IFMT == S_IFLNK {
      guard let resolved = realpath(path, nil) else {
        throw .cannotWrite(path: path, reason: "it is a symbolic link to a file that does not exist")
      }
      defer { free(resolved) }
      target = String(cString: resolved)
      guard stat(target, &info) == 0 else { return target }
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return target
    case S_IFDIR: throw .cannotWrite(path: path, reason: "it is a directory")
    default: throw .cannotWrite(path: path, reason: "it is not a regular file (a device, a FIFO or a socket)")
    }
  }

  /// The bytes of the file at `path`; errors are ``LibraryError/cannotRead(path:reason:)``.
  /// The largest file `import` reads: 256 MiB, some 3.5 million albums of CSV.
  public static let importSizeLimit = 256 << 20

  static func readFile(_ path: String) throws(LibraryError) -> [UInt8] {
    func refuse(_ error: SystemError) -> LibraryError { .cannotRead(path: path, reason: error.reason) }
    let fd: Int32
    do {
      // Non-blocking, so that a FIFO with no writer cannot hang the open.
      fd = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    } catch {
      throw refuse(error)
    }
    defer { close(fd) }
    var info = stat()
    do {
      try syscall("fstat") { fstat(fd, &info) }
    } catch {
      throw refuse(error)
    }
    // Regular files only: /dev/zero, /dev/urandom or a FIFO would be read for ever.
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw .cannotRead(path: path, reason: "it is a directory")
    default: throw .cannotRead(path: path, reason: "it is not a regular file (a device, a FIFO or a socket)")
    }
    guard Int(info.st_size) <= importSizeLimit else {
      throw .cannotRead(
        path: path,
        reason: "it is larger than the import limit of \(importSizeLimit >> 20) MiB (\(Int(info.st_size) >> 20) MiB)")
    }
    // A file that grows past the limit while it is read (or a /proc file that says 0)
    // is cut off there and refused.
    let bytes: [UInt8]
    do {
      bytes = try readToEnd(fd, sizeHint: Int(info.st_size) + 1, atMost: importSizeLimit + 1)
    } catch {
      throw refuse(error)
    }
    guard bytes.count <= importSizeLimit else {
      throw .cannotRead(path: path, reason: "it is larger than the import limit of \(importSizeLimit >> 20) MiB")
    }
    return bytes
  }
}
