import BlueSystem

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

  package var description: String {
    switch self {
    case .readOnlyFile(let path), .notAudio(let path), .tagLib(let path), .wouldDamage(let path),
      .system(let path, _, _), .hardLinked(let path, _), .cannotHold(let path, _):
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
    }
  }
}

extension TagEdit {
  /// Writes the edit into the file at `path` so that it is at every moment either the old
  /// file or the new one, whole: the file is copied to a hidden temporary file in its
  /// folder (same extension, same permissions and, where allowed, owner), TagLib writes
  /// the copy, the copy is read back (the same format and length, or nothing is replaced),
  /// synced, and renamed over the original; the folder is synced. A crash or `kill -9`
  /// leaves at most a stray `.NAME.bluelib-XXXXXX.EXT` beside it, never a half-written file.
  ///
  /// A file (or folder) without write permission is refused before anything is written,
  /// even for root: the user made it read-only.
  package func writeSafely(to link: String) throws(TagWriteError) {
    // A symbolic link stays one: the file it points to is written, in its own folder.
    let path = Self.resolved(link)
    let info = try Self.checkWritable(path)
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard case .track(let before) = TrackTags.read(path) else { throw .notAudio(path) }

    // The copy keeps the extension: TagLib picks the format by it.
    let dot = name.lastIndex(of: ".").map { String(name[$0...]) } ?? ""
    // The name's first characters only: a copy of a long name must still fit in 255 bytes.
    var template = Array((folder + "/." + name.prefix(40) + ".bluelib-XXXXXX" + dot).utf8CString)
    let copy = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(dot.utf8.count)) }
    guard copy >= 0 else { throw .system(path: folder, call: "create a file in", errno: errno) }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var replaced = false
    defer { if !replaced { unlink(temporary) } }
    do {
      try Self.copyContents(of: path, to: copy)
    } catch {
      close(copy)
      throw error
    }
    _ = fchmod(copy, info.st_mode & 0o7777)
    _ = fchown(copy, info.st_uid, info.st_gid)  // allowed for root only; a copy of one's own file is one's own
    close(copy)
    var edit = self
    edit.keepOtherTags = true
    do {
      try edit.write(to: temporary)
    } catch {
      throw .tagLib(path)
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

  /// Copies the whole of the file at `path` into the open descriptor `target`.
  private static func copyContents(of path: String, to target: Int32) throws(TagWriteError) {
    let source = open(path, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw .system(path: path, call: "open", errno: errno) }
    defer { close(source) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count: Int
      do throws(SystemError) {
        count = try syscall("read") { buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) } }
      } catch {
        throw .system(path: path, call: "read", errno: error.errno)
      }
      if count == 0 { return }
      do throws(SystemError) {
        let written = buffer.withUnsafeBytes { bytes in
          Result { () throws(SystemError) in try writeAll(target, UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
        }
        try written.get()
      } catch {
        throw .system(path: path, call: "copy", errno: error.errno)
      }
    }
  }

  /// `fsync`s the file or folder at `path`.
  private static func sync(_ path: String) throws(TagWriteError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .system(path: path, call: "open", errno: errno) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw .system(path: path, call: "sync", errno: errno) }
  }
}
