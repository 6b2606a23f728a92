import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LibraryArchive {
  /// Replaces the file at `path` with `bytes` so that a reader (or a crash) sees
  /// the old file or the new one, never a part: the bytes go to a temporary file
  /// in the same directory, are flushed with `fsync`, and renamed over `path`.
  /// An existing file's permissions are kept.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(LibraryError) {
    func refuse(_ reason: String) -> LibraryError { .cannotWrite(path: path, reason: reason) }
    var directory = (path as NSString).deletingLastPathComponent
    if directory.isEmpty { directory = "." }
    let name = (path as NSString).lastPathComponent
    var existing = stat()
    if stat(path, &existing) == 0 && existing.st_mode & S_IFMT == S_IFDIR {
      throw refuse("it is a directory")
    }
    let temporary = "\(directory)/.\(name).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw refuse(LibraryFile.errnoReason()) }
    var failure: String?
    if existing.st_mode != 0 && fchmod(fd, existing.st_mode & 0o7777) != 0 {
      failure = LibraryFile.errnoReason()
    }
    if failure == nil {
      failure = bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
          let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
          if n < 0 && errno == EINTR { continue }
          if n < 0 { return LibraryFile.errnoReason() }
          written += n
        }
        return nil
      }
    }
    if failure == nil && fsync(fd) != 0 { failure = LibraryFile.errnoReason() }
    if close(fd) != 0 && failure == nil { failure = LibraryFile.errnoReason() }
    if failure == nil && rename(temporary, path) != 0 { failure = LibraryFile.errnoReason() }
    if let failure {
      unlink(temporary)
      throw refuse(failure)
    }
    // Make the rename itself durable.
    let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
    if directoryFD >= 0 {
      fsync(directoryFD)
      close(directoryFD)
    }
  }

  /// The bytes of the file at `path`; errors are ``LibraryError/cannotRead(path:reason:)``.
  static func readFile(_ path: String) throws(LibraryError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .cannotRead(path: path, reason: LibraryFile.errnoReason()) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, reason: LibraryFile.errnoReason()) }
    if info.st_mode & S_IFMT == S_IFDIR { throw .cannotRead(path: path, reason: "it is a directory") }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size) + 1)
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw .cannotRead(path: path, reason: LibraryFile.errnoReason()) }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[..<n])
    }
    return bytes
  }
}
