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
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(LibraryError) {
    do {
      // 0o666 less the umask, as any tool that exports a file.
      try AtomicFile.write(bytes, to: path, mode: 0o666)
    } catch {
      throw .cannotWrite(path: path, reason: error.reason)
    }
  }

  /// The bytes of the file at `path`; errors are ``LibraryError/cannotRead(path:reason:)``.
  static func readFile(_ path: String) throws(LibraryError) -> [UInt8] {
    func refuse(_ error: SystemError) -> LibraryError { .cannotRead(path: path, reason: error.reason) }
    let fd: Int32
    do {
      fd = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC) }
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
    if info.st_mode & S_IFMT == S_IFDIR { throw .cannotRead(path: path, reason: "it is a directory") }
    do {
      return try readToEnd(fd, sizeHint: Int(info.st_size) + 1)
    } catch {
      throw refuse(error)
    }
  }
}
