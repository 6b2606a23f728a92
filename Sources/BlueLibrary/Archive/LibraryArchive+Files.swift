import BlueSystem
import Foundation
internal import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LibraryArchive {
  /// What an export wrote: albums, and for a playlist its tracks and those it could not
  /// write (a line break in a path cannot be written in M3U).
  public struct Exported: Sendable, Equatable {
    public var albums = 0
    public var tracks = 0
    public var tracksLeftOut = 0
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

  /// Writes every album `library` holds to `path` — CSV when `csv`, else JSON — atomically
  /// and in bounded memory: the albums are read a page at a time and written as they come,
  /// so a million-album library costs the memory of one page. Where it may write, and the
  /// files it spares (the library's own), are as ``writeAtomically(_:to:sparing:)``.
  /// Returns what it wrote (``Exported``).
  ///
  /// With `playlist`, the file is an extended M3U playlist instead (`#EXTM3U`, then for each
  /// track of each album from a music folder `#EXTINF:SECONDS,ARTIST - TITLE` and its
  /// absolute path); albums without tracks are left out, and the count is of albums written.
  @discardableResult
  public static func export(
    _ library: Library, to path: String, csv: Bool, playlist: Bool = false, query: AlbumQuery? = nil
  ) throws(LibraryError) -> Exported {
    let target = try exportTarget(path)
    // With a query, only its matches (within the view); without, the whole library.
    let ids = try query.map { query throws(LibraryError) in try library.store.albumIDs(matching: library.scope(query)) }
    try refuseIfSpared(target, named: path, sparing: library.files)
    let music = csv ? try library.hasMusicFields() : false
    var written = 0
    var exported = Exported()
    do {
      try AtomicFile.write(to: target, mode: 0o666) { emit in
        var out: [UInt8] = []
        out.reserveCapacity(Self.exportBlock + 64 << 10)
        if csv { appendCSVHeader(music: music, to: &out) }
        if playlist { out += Array("#EXTM3U\n".utf8) }
        let count = try ids?.count ?? library.store.count()
        var start = 0
        while start < count {
          let range = start..<min(start + Self.exportPage, count)
          let page =
            try ids.map { ids throws(LibraryError) in try library.store.albums(ids: ids[range]) }
            ?? library.store.albums(in: range)
          for album in page {
            if playlist {
              guard let tracks = try library.musicTracks(of: album) else { continue }
              let (entries, leftOut) = appendM3U(album, tracks: tracks, to: &out)
              exported.tracks += entries
              exported.tracksLeftOut += leftOut
              // An album none of whose tracks could be written is not in the playlist.
              if entries == 0 { continue }
            } else if csv {
              appendCSV(album, music: music, to: &out)
            } else {
              appendJSON(album, tracks: try library.musicTracks(of: album), first: written == 0, to: &out)
            }
            written += 1
            if out.count >= Self.exportBlock {
              try out.withUnsafeBytes { try emit($0) }
              out.removeAll(keepingCapacity: true)
            }
          }
          guard !page.isEmpty else { break }
          start += page.count
        }
        if !csv && !playlist { endJSON(count: written, to: &out) }
        try out.withUnsafeBytes { try emit($0) }
      }
    } catch let error as LibraryError {
      throw error
    } catch let error as AtomicFileError {
      throw .cannotWrite(path: path, reason: error.reason)
    } catch {
      throw .cannotWrite(path: path, reason: String(describing: error))
    }
    exported.albums = written
    return exported
  }

  /// The tracks of `album` as extended M3U entries. A line break in a tag becomes a space;
  /// a track whose path holds one cannot be written in M3U and is left out.
  /// Returns how many tracks it wrote and how many it left out.
  static func appendM3U(_ album: Album, tracks: [MusicTrack], to out: inout [UInt8]) -> (written: Int, leftOut: Int) {
    func line(_ text: String) -> String {
      String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
    var written = 0
    for track in tracks where !track.path.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
      let artist = track.tags.artist ?? album.artist
      let title = track.tags.title ?? (track.path.split(separator: "/").last.map(String.init) ?? track.path)
      out += Array(
        "#EXTINF:\(Int(track.tags.duration.rounded())),\(line(artist)) - \(line(title))\n\(track.path)\n".utf8)
      written += 1
    }
    return (written, tracks.count - written)
  }

  /// Albums read at once by ``export(_:to:csv:)``.
  static let exportPage = 4096
  /// Bytes gathered before each write of ``export(_:to:csv:)``.
  static let exportBlock = 1 << 20

  /// Throws when `target` is one of the `spared` files (compared by device and inode, so a
  /// hard link, a symbolic link or another spelling of the path is caught too).
  ///
  /// A spared file that does not exist now is spared by its place: the same name in the
  /// same directory (by device and inode). SQLite makes `library.sqlite-journal` for each
  /// change and takes a file of that name it finds at the next open for a stale journal,
  /// deleting it: an export written there between two commands would be lost.
  static func refuseIfSpared(_ target: String, named path: String, sparing spared: [String]) throws(LibraryError) {
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
