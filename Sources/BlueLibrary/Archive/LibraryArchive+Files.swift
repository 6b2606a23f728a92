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
  ///
  /// `sparing` names files that must never be replaced (the open library and its journal,
  /// WAL and shared-memory files): a target that is one of them, by name or through a link
  /// (the same device and inode), is refused.
  public static func writeAtomically(_ bytes: [UInt8], to path: String, sparing: [String] = []) throws(LibraryError) {
    let target = try exportTarget(path)
    try refuseIfSpared(target, named: path, sparing: sparing)
    do {
      // 0o666 less the umask, as any tool that exports a file.
      try AtomicFile.write(bytes, to: target, mode: 0o666)
    } catch {
      throw .cannotWrite(path: path, reason: error.reason)
    }
  }

  /// Throws when `target` is one of the `spared` files (compared by device and inode, so a
  /// hard link, a symbolic link or another spelling of the path is caught too).
  static func refuseIfSpared(_ target: String, named path: String, sparing spared: [String]) throws(LibraryError) {
    var info = stat()
    guard !spared.isEmpty, stat(target, &info) == 0 else { return }
    for file in spared {
      var other = stat()
      if stat(file, &other) == 0 && other.st_dev == info.st_dev && other.st_ino == info.st_ino {
        throw .cannotWrite(path: path, reason: "it is the library itself (\(file))")
      }
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

  /// The largest file `import` reads: 256 MiB, some 3.5 million albums of CSV.
  ///
  /// Import streams the file, so its memory does not depend on this; the limit bounds how
  /// long one import holds the library (a few seconds) and stops a file that grows while
  /// it is read.
  public static let importSizeLimit = 256 << 20
}
