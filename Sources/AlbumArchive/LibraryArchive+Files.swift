import AlbumModel
import BlueSystem
import FoundationEssentials
package import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LibraryArchive {
  /// What an export wrote: albums, and for a playlist its tracks and those it could not
  /// write (a line break in a path cannot be written in M3U).
  package struct Exported: Sendable, Equatable {
    package var albums = 0
    package var tracks = 0
    package var tracksLeftOut = 0

    package init(albums: Int = 0, tracks: Int = 0, tracksLeftOut: Int = 0) {
      (self.albums, self.tracks, self.tracksLeftOut) = (albums, tracks, tracksLeftOut)
    }
  }

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
  package static func writeAtomically(_ bytes: [UInt8], to path: String, sparing: [String] = []) throws(LibraryError) {
    let target = try exportTarget(path)
    try refuseIfSpared(target, named: path, sparing: sparing)
    do {
      // 0o666 less the umask, as any tool that exports a file.
      try AtomicFile.write(bytes, to: target, mode: 0o666)
    } catch {
      throw .cannotWrite(path: path, reason: error.reason)
    }
  }

  /// The tracks of `album` as extended M3U entries. A line break in a tag becomes a space;
  /// a track whose path holds one cannot be written in M3U and is left out.
  /// Returns how many tracks it wrote and how many it left out.
  package static func appendM3U(
    _ album: Album, tracks: [MusicTrack], to out: inout [UInt8]
  ) -> (written: Int, leftOut: Int) {
    func line(_ text: String) -> String {
      String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
    var written = 0
    for track in tracks where !track.path.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
      let artist = track.tags.artist ?? album.artist
      let title = track.tags.title ?? (track.path.split(separator: "/").last.map(String.init) ?? track.path)
      out += Array(
        "#EXTINF:\(Self.extinfSeconds(track.tags.duration)),\(line(artist)) - \(line(title))\n\(track.path)\n".utf8)
      written += 1
    }
    return (written, tracks.count - written)
  }

  /// A track's length as `#EXTINF` gives it, whole seconds: from 0 to a year (an album's
  /// longest), whatever a library file holds (`1e19` cannot trap the export).
  static func extinfSeconds(_ seconds: Double) -> Int {
    seconds.isFinite ? Int(min(max(seconds, 0), Album.maximumDuration).rounded()) : 0
  }

  /// Albums read at once by ``export(_:to:csv:)``.
  package static let exportPage = 4096
  /// Bytes gathered before each write of ``export(_:to:csv:)``.
  package static let exportBlock = 1 << 20

  /// Throws when `target` is one of the `spared` files (compared by device and inode, so a
  /// hard link, a symbolic link or another spelling of the path is caught too).
  ///
  /// A spared file that does not exist now is spared by its place: the same name in the
  /// same directory (by device and inode). SQLite makes `library.sqlite-journal` for each
  /// change and takes a file of that name it finds at the next open for a stale journal,
  /// deleting it: an export written there between two commands would be lost.
  package static func refuseIfSpared(_ target: String, named path: String, sparing spared: [String])
    throws(LibraryError)
  {
    guard !spared.isEmpty else { return }
    var info = stat()
    let exists = stat(target, &info) == 0
    for file in spared {
      var other = stat()
      let same: Bool
      if exists && stat(file, &other) == 0 {
        same = other.st_dev == info.st_dev && other.st_ino == info.st_ino
      } else {
        same = sameDirectoryAndName(target, file)
      }
      if same { throw .cannotWrite(path: path, reason: "it is the library itself (\(file))") }
    }
  }

  /// Whether `a` and `b` name the same entry of the same directory, whether or not it exists.
  private static func sameDirectoryAndName(_ a: String, _ b: String) -> Bool {
    func split(_ path: String) -> (directory: String, name: Substring) {
      guard let slash = path.lastIndex(of: "/") else { return (".", path[...]) }
      return (slash == path.startIndex ? "/" : String(path[..<slash]), path[path.index(after: slash)...])
    }
    let (directoryA, nameA) = split(a)
    let (directoryB, nameB) = split(b)
    guard nameA == nameB else { return false }
    var infoA = stat()
    var infoB = stat()
    return stat(directoryA, &infoA) == 0 && stat(directoryB, &infoB) == 0 && infoA.st_dev == infoB.st_dev
      && infoA.st_ino == infoB.st_ino
  }

  /// The path to replace for `path`: itself, or where its symbolic link leads.
  package static func exportTarget(_ path: String) throws(LibraryError) -> String {
    var info = stat()
    guard lstat(path, &info) == 0 else { return path }  // a new file (or an error the write reports)
    var target = path
    if info.st_mode & S_IFMT == S_IFLNK {
      guard let resolved = realpath(path, nil) else {
        // A link the kernel follows but that names no path (`/dev/stdout` of a pipe:
        // `/proc/self/fd/1` → `pipe:[…]`) is what it leads to; else it leads nowhere.
        guard stat(path, &info) == 0 else {
          throw .cannotWrite(path: path, reason: "it is a symbolic link to a file that does not exist")
        }
        throw .cannotWrite(path: path, reason: notRegular(info.st_mode))
      }
      defer { free(resolved) }
      target = String(cString: resolved)
      guard stat(target, &info) == 0 else { return target }
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      // /proc and /sys show files that are the kernel's, not files to write (`/proc/self/mem`).
      if let resolved = realpath(target, nil) {
        defer { free(resolved) }
        let real = String(cString: resolved)
        if real.hasPrefix("/proc/") || real.hasPrefix("/sys/") {
          throw .cannotWrite(path: path, reason: "it is a file of the kernel's (in /proc or /sys), not one to write")
        }
      }
      return target
    case S_IFDIR: throw .cannotWrite(path: path, reason: "it is a directory")
    default: throw .cannotWrite(path: path, reason: notRegular(info.st_mode))
    }
  }

  /// Why a file of `mode` that is not a regular one is not written.
  private static func notRegular(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "it is not a regular file but a pipe ('export -' writes to standard output)"
    case S_IFCHR: "it is not a regular file but a device ('export -' writes to standard output)"
    case S_IFBLK: "it is not a regular file but a block device"
    case S_IFSOCK: "it is not a regular file but a socket"
    case S_IFDIR: "it is a directory"
    default: "it is not a regular file"
    }
  }

  /// The largest file `import` reads: 256 MiB, some 3.5 million albums of CSV.
  ///
  /// Import streams the file, so its memory does not depend on this; the limit bounds how
  /// long one import holds the library (a few seconds) and stops a file that grows while
  /// it is read.
  package static let importSizeLimit = 256 << 20
}
