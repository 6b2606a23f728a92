import BlueSystem
internal import CTagLib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why ``TagEdit/writeSafely(to:)`` wrote nothing: each names the file or folder.
package enum TagWriteError: Error, Equatable, CustomStringConvertible {
  /// The file has no write permission (for its owner), or cannot be written by this user.
  case readOnlyFile(String)
  /// The folder the file is in has no write permission: no copy can be made beside it.
  case readOnlyFolder(String)
  /// Not a regular file with audio that TagLib reads.
  case notAudio(String)
  /// TagLib could not write the tags.
  case tagLib(String)
  /// TagLib's result does not read back as the same audio (a format TagLib 1.13 can break
  /// on save, such as some Ogg FLAC files): the original is left as it was.
  case wouldDamage(String)
  /// The file has other hard links: a copy renamed over this one would leave them old.
  case hardLinked(String, links: Int)
  /// Read back, the copy does not say what was written: its format cannot hold that tag.
  case cannotHold(String, tag: String)
  /// A system call failed.
  case system(path: String, call: String, errno: Int32)
  /// Asked to stop (a signal) while the copy was made: the copy is gone, the file as it was.
  case stopped(String)
  /// The file holds a POPM play count TagLib would cut (more than 4 bytes), whose bytes
  /// could not be read to be kept.
  case cutsAPlayCount(String)

  package var description: String {
    switch self {
    case .readOnlyFile(let path), .notAudio(let path), .tagLib(let path), .wouldDamage(let path),
      .system(let path, _, _), .hardLinked(let path, _), .cannotHold(let path, _), .stopped(let path),
      .cutsAPlayCount(let path):
      "cannot write '\(path)': \(reason)"
    case .readOnlyFolder: "cannot write: \(reason)"
    }
  }

  /// Why, without the file's path (which the caller names): `it is read-only`.
  package var reason: String {
    switch self {
    case .readOnlyFile: "it is read-only"
    case .readOnlyFolder(let folder): "the folder '\(folder)' is read-only"
    case .notAudio: "it is not an audio file TagLib reads"
    case .tagLib: "TagLib could not write its tags"
    case .wouldDamage: "TagLib's copy of it did not read back as the same audio, so it was left as it was"
    case .system(_, let call, let code): SystemError(call, errno: code).description
    case .hardLinked(_, let links):
      "it has \(links) hard links, and a new copy would leave the others as they are"
    case .cannotHold(_, let tag): "its format cannot hold the \(tag) tag (TagLib did not read it back)"
    case .stopped: "stopped before it was written"
    case .cutsAPlayCount: TagEdit.playCountReason
    }
  }
}

extension TagEdit {
  /// Writes the edit into the file at `path` so that it is at every moment either the old
  /// file or the new one, whole: the file is copied to a hidden temporary file in its
  /// folder (same extension, holes, owner where allowed, extended attributes and ACLs, then
  /// permissions), TagLib writes the copy, the copy is read back (the same format and
  /// length, or nothing is replaced), synced, and renamed over the original; the folder is
  /// synced. A crash or `kill -9` leaves at most a stray `.NAME.bluelib-XXXXXX.EXT` beside
  /// it (see ``strayCopies(of:)``), never a half-written file.
  ///
  /// `shouldStop` is asked between blocks of the copy: when it says true the copy is
  /// removed and ``TagWriteError/stopped(_:)`` thrown, the file left as it was.
  ///
  /// A file (or folder) without write permission is refused before anything is written,
  /// even for root: the user made it read-only.
  package func writeSafely(to link: String, shouldStop: () -> Bool = { false }) throws(TagWriteError) {
    // A symbolic link stays one: the file it points to is written, in its own folder.
    let path = Self.resolved(link)
    let info = try Self.checkWritable(path)
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard case .track(let before) = TrackTags.read(path) else { throw .notAudio(path) }

    // The copy keeps the extension: TagLib picks the format by it.
    let dot = Self.extensionOf(name)
    var template = Array((folder + "/" + Self.copyPrefix(of: name) + "XXXXXX" + dot).utf8CString)
    let copy = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(dot.utf8.count)) }
    guard copy >= 0 else { throw .system(path: folder, call: "create a file in", errno: errno) }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var replaced = false
    defer { if !replaced { unlink(temporary) } }
    do throws(TagWriteError) {
      let source = open(path, O_RDONLY | O_CLOEXEC)
      guard source >= 0 else { throw TagWriteError.system(path: path, call: "open", errno: errno) }
      defer { close(source) }
      try Self.copyContents(of: source, path: path, size: Int64(info.st_size), to: copy, shouldStop: shouldStop)
      // Owner first: a change of owner clears the set-user-id and set-group-id bits, which
      // the mode set last gives back. The attributes (ACLs among them) before the mode,
      // which has the last word on the permission bits.
      _ = fchown(copy, info.st_uid, info.st_gid)  // allowed for root only; a copy of one's own file is one's own
      _ = ctl_copy_attributes(source, copy)
      _ = fchmod(copy, info.st_mode & 0o7777)
    } catch {
      close(copy)
      throw error
    }
    close(copy)
    var edit = self
    edit.keepOtherTags = true
    do {
      try edit.write(to: temporary)
    } catch {
      throw error.keepsAPlayCount ? .cutsAPlayCount(path) : .tagLib(path)
    }
    guard case .track(let after) = TrackTags.read(temporary), after.format == before.format,
      abs(after.duration - before.duration) < 0.5
    else { throw .wouldDamage(path) }
    for (name, wrote, read) in [
      ("album", album, after.album), ("album artist", albumArtist, after.albumArtist), ("date", date, after.date),
      ("genre", genre, after.genre),
    ] {
      guard let wrote else { continue }
      if read != (wrote.isEmpty ? nil : wrote) { throw .cannotHold(path, tag: name) }
    }
    try Self.sync(temporary)
    guard rename(temporary, path) == 0 else { throw .system(path: path, call: "replace", errno: errno) }
    replaced = true
    try? Self.sync(folder)
  }

  /// The name's extension with its dot (`.flac`), or "".
  private static func extensionOf(_ name: String) -> String {
    name.lastIndex(of: ".").map { String(name[$0...]) } ?? ""
  }

  /// How the hidden copies of the file named `name` begin: `.NAME.bluelib-`, with the
  /// name's first 40 characters only (a copy of a long name must still fit in 255 bytes).
  private static func copyPrefix(of name: String) -> String {
    "." + name.prefix(40) + ".bluelib-"
  }

  /// The hidden copies ``writeSafely(to:shouldStop:)`` may have left beside the files at
  /// `links` when it was stopped by a crash or `kill -9` (`.NAME.bluelib-XXXXXX.EXT`), as
  /// paths: what finishing or rolling back a stopped write removes. One listing per folder.
  package static func strayCopies(of links: [String]) -> [String] {
    var names: [String: Set<String>] = [:]  // folder: the copies' beginnings and extensions
    for link in links {
      let path = resolved(link)
      let slash = path.lastIndex(of: "/")
      let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
      let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
      names[folder, default: []].insert(copyPrefix(of: name) + "\u{0}" + extensionOf(name))
    }
    var found: [String] = []
    for (folder, wanted) in names {
      for entryName in directoryEntries(atPath: folder) ?? [] {
        // `.NAME.bluelib-` + 6 characters + `.EXT`.
        let bytes = Array(entryName.utf8)
        let marker = Array(".bluelib-".utf8)
        guard bytes.count >= marker.count + 6,
          let start = (0...(bytes.count - marker.count - 6)).last(where: {
            bytes[$0..<$0 + marker.count].elementsEqual(marker)
          })
        else { continue }
        let end = start + marker.count
        let key =
          String(decoding: bytes[..<end], as: UTF8.self) + "\u{0}"
          + String(decoding: bytes[(end + 6)...], as: UTF8.self)
        if wanted.contains(key) { found.append(folder + "/" + entryName) }
      }
    }
    return found
  }

  /// Checks that ``writeSafely(to:)`` may write the file at `path`: a regular file with
  /// write permission (for its owner, and for this user), in a folder with the same;
  /// returns its `stat`.
  @discardableResult
  package static func checkWritable(_ link: String) throws(TagWriteError) -> stat {
    let path = resolved(link)
    var info = stat()
    guard stat(path, &info) == 0 else { throw .system(path: path, call: "stat", errno: errno) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notAudio(path) }
    guard info.st_mode & S_IWUSR != 0, access(path, W_OK) == 0 else { throw .readOnlyFile(path) }
    guard info.st_nlink <= 1 else { throw .hardLinked(path, links: Int(info.st_nlink)) }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    var folderInfo = stat()
    guard stat(folder, &folderInfo) == 0, folderInfo.st_mode & S_IWUSR != 0, access(folder, W_OK) == 0 else {
      throw .readOnlyFolder(folder)
    }
    return info
  }

  /// `path` with its symbolic links resolved (`path` itself when it cannot be).
  private static func resolved(_ path: String) -> String {
    guard let real = realpath(path, nil) else { return path }
    defer { free(real) }
    return String(cString: real)
  }

  /// Copies the file open as `source` (`size` bytes, named `path` in errors) into the open
  /// descriptor `target`, a block at a time, asking `shouldStop` before each: only its data
  /// is copied, so its holes stay holes (a sparse file stays sparse); where the file system
  /// cannot say where the data is, every byte is copied.
  private static func copyContents(
    of source: Int32, path: String, size: Int64, to target: Int32, shouldStop: () -> Bool
  ) throws(TagWriteError) {
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var offset: Int64 = 0
    while offset < size {
      // The next stretch of data: [start, end).
      var start = lseek(source, off_t(offset), seekData)
      if start < 0 {
        if errno == ENXIO { break }  // only a hole is left
        start = off_t(offset)  // SEEK_DATA unknown here: copy it all
      }
      var end = lseek(source, start, seekHole)
      if end < 0 { end = off_t(size) }
      var position = Int64(start)
      while position < Int64(end) {
        if shouldStop() { throw .stopped(path) }
        let wanted = Int(min(Int64(buffer.count), Int64(end) - position))
        let count: Int
        do throws(SystemError) {
          count = try syscall("read") {
            buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, wanted, off_t(position)) }
          }
        } catch {
          throw .system(path: path, call: "read", errno: error.errno)
        }
        if count == 0 { break }
        var written = 0
        while written < count {
          do throws(SystemError) {
            written += try syscall("copy") {
              buffer.withUnsafeBytes { bytes in
                pwrite(target, bytes.baseAddress! + written, count - written, off_t(position) + off_t(written))
              }
            }
          } catch {
            throw .system(path: path, call: "copy", errno: error.errno)
          }
        }
        position += Int64(count)
      }
      if position < Int64(end) { break }  // the file ended early (it shrank)
      offset = Int64(end)
    }
    // A hole at the end is the file's length, not data.
    guard ftruncate(target, off_t(size)) == 0 else { throw .system(path: path, call: "copy", errno: errno) }
  }

  /// `fsync`s the file or folder at `path`.
  private static func sync(_ path: String) throws(TagWriteError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .system(path: path, call: "open", errno: errno) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw .system(path: path, call: "sync", errno: errno) }
  }
}

// lseek's SEEK_DATA and SEEK_HOLE: Glibc declares them only with _GNU_SOURCE.
#if os(Linux)
  private let seekData: Int32 = 3
  private let seekHole: Int32 = 4
#else
  private let seekData = SEEK_DATA
  private let seekHole = SEEK_HOLE
#endif
