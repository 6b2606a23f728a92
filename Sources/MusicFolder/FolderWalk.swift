import BlueSystem
internal import CTagLib
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The audio files under a folder, and the cover images beside them, found by one walk.
///
/// Folders are listed in tree order (each folder before its subfolders, names sorted), and
/// each folder's files are sorted by name, so the same tree always gives the same walk.
/// Symbolic links are followed, but a folder is entered once however many paths reach it
/// (folders are told apart by device and inode), so a link loop ends the walk.
/// Names starting with a dot are skipped, like the hidden files they are.
struct FolderWalk {
  /// One folder the walk entered.
  struct Folder {
    /// Its path: the root's real path followed by the names walked through.
    var path: String
    /// The best cover image in it (see ``FolderWalk/coverImageRank(_:)``), if any.
    var coverImage: String?
  }

  /// One audio file, by its extension.
  struct File: Sendable {
    /// Its path.
    var path: String
    /// Its name (the last component of the path).
    var name: String
    /// The index of its folder in ``FolderWalk/folders``.
    var folder: Int
    /// Its size in bytes, modification and status-change times (nanoseconds since 1970)
    /// and inode, -1 until the scan reads them (``FileStamp``): a re-import that finds all
    /// four unchanged need not open it.
    var size: Int64 = -1
    var modified: Int64 = -1
    var changed: Int64 = -1
    var inode: Int64 = -1

    /// Its size, times and inode as the scan read them; nil before, or when it could not be
    /// read.
    var stamp: FileStamp? {
      size < 0 ? nil : FileStamp(size: size, modified: modified, changed: changed, inode: inode)
    }
  }

  /// The file extensions read as audio, lowercased: TagLib's own list
  /// (`TagLib::FileRef::defaultFileExtensions()`), so every file TagLib can read is read.
  static let audioExtensions: Set<String> = Set(
    String(cString: ctl_extensions()).split(separator: " ").map { $0.lowercased() })

  /// The base names and extensions of cover images, best first.
  private static let coverNames = ["cover", "folder", "album", "front"]
  private static let coverExtensions = ["jpg", "jpeg", "png"]

  var folders: [Folder] = []
  var files: [File] = []
  /// Folders under the root that could not be opened, with the reason and what the `stat`
  /// that found them said.
  var unreadableFolders: [(path: String, errno: Int32, stamp: FileStamp?)] = []
  /// Entries passed over for their name: not UTF-8 (shown with the bad bytes as `\xE9`),
  /// or a path longer than the system takes. Never dropped without a word.
  var skippedNames: [(path: String, reason: SkippedFile.Reason)] = []

  /// Walks the tree under `root`, an absolute path of a directory. `beforeFolder` is called
  /// with the number of audio files found so far before each folder is listed; what it
  /// throws (a cancellation) ends the walk.
  static func walk(
    _ root: String, beforeFolder: (_ filesFound: Int) throws(MusicFolderError) -> Void
  ) throws(MusicFolderError) -> FolderWalk {
    var walk = FolderWalk()
    var info = stat()
    guard stat(root, &info) == 0 else { throw .cannotOpen(root, errno: errno) }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(root) }
    var visited: Set<Identity> = [Identity(info)]
    // Each folder to list, with its stamp (kept for one that cannot be listed).
    var pending: [(path: String, stamp: FileStamp?)] = [(root, nil)]
    while let (path, stamp) = pending.popLast() {
      try beforeFolder(walk.files.count)
      guard let directory = opendir(path) else {
        if path == root { throw .cannotOpen(root, errno: errno) }
        walk.unreadableFolders.append((path, errno, stamp))
        continue
      }
      let folder = walk.folders.count
      var entries: [(name: String, type: UInt8)] = []
      while let entry = readdir(directory) {
        let name = withUnsafePointer(to: &entry.pointee.d_name) {
          $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { pointer -> String? in
            if let valid = String(validatingCString: pointer) { return valid }
            // Not UTF-8 (a Latin-1 "Café" of an old collection): the repaired name would
            // name no file, so it is reported rather than walked into and lost.
            let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
            let shown = Self.escapedName(UnsafeBufferPointer(start: bytes, count: strlen(pointer)))
            if !shown.hasPrefix(".") {
              walk.skippedNames.append(
                ((path.hasSuffix("/") ? path : path + "/") + shown, .nameNotUTF8))
            }
            return nil
          }
        }
        guard let name, !name.hasPrefix(".") else { continue }
        entries.append((name, entry.pointee.d_type))
      }
      closedir(directory)
      entries.sort { $0.name < $1.name }

      var coverImage: (rank: Int, path: String)?
      var subfolders: [(path: String, stamp: FileStamp?)] = []
      for entry in entries {
        let child = path.hasSuffix("/") ? path + entry.name : path + "/" + entry.name
        var isDirectory = entry.type == DT_DIR
        var isFile = entry.type == DT_REG
        if entry.type == DT_DIR || entry.type == DT_LNK || entry.type == DT_UNKNOWN {
          // Follow links; a folder's identity is needed to enter it only once.
          guard stat(child, &info) == 0 else {
            // A dangling link is no loss; a path past PATH_MAX is a folder of music.
            if errno == ENAMETOOLONG { walk.skippedNames.append((child, .cannotOpen(errno: ENAMETOOLONG))) }
            continue
          }
          isDirectory = info.st_mode & S_IFMT == S_IFDIR
          isFile = info.st_mode & S_IFMT == S_IFREG
          if isDirectory {
            if visited.insert(Identity(info)).inserted { subfolders.append((child, FileStamp(info))) }
            continue
          }
        }
        guard isFile, !isDirectory else { continue }
        let fileExtension = Self.fileExtension(entry.name)
        if audioExtensions.contains(fileExtension) {
          walk.files.append(File(path: child, name: entry.name, folder: folder))
        } else if let rank = coverImageRank(entry.name), rank < coverImage?.rank ?? .max {
          coverImage = (rank, child)
        }
      }
      walk.folders.append(Folder(path: path, coverImage: coverImage?.path))
      pending.append(contentsOf: subfolders.reversed())
    }
    return walk
  }

  /// Bumped when what a scan reads from a file or how it groups tracks changes: the
  /// fingerprints of earlier scans then differ, and a re-import reads every folder again.
  /// 2: an album without art of its own gets the Cover Art Archive's, by its MusicBrainz ids.
  /// 3: sibling folders merge as discs only when they look like discs (copies stay two).
  static let rulesVersion = 3

  /// Reads each file's size and modification time, `workers` files at a time (a stat costs
  /// a path lookup in the kernel: 5 µs, 0.1 s for 20,000 files on one core).
  mutating func readSizesAndTimes(workers: Int) {
    let count = files.count
    let chunks = max(1, min(workers, count / 256 + 1))
    files.withUnsafeMutableBufferPointer { files in
      nonisolated(unsafe) let shared = files
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        var info = stat()
        for index in stride(from: chunk, to: count, by: chunks) {
          guard stat(shared[index].path, &info) == 0 else { continue }
          let stamp = FileStamp(info)
          shared[index].size = stamp.size
          shared[index].modified = stamp.modified
          shared[index].changed = stamp.changed
          shared[index].inode = stamp.inode
        }
      }
    }
  }

  /// The walk in 16 hex digits (64-bit FNV-1a): each audio file's path, size, modification
  /// and change times and inode (a file made readable again changes it), each folder with its cover
  /// image, the folders that could not be listed and the names passed over, after the
  /// version of the reading and grouping rules (``rulesVersion``). The same fingerprint,
  /// the same albums.
  var fingerprint: String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ text: String) {
      for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      hash = (hash ^ 0xFF) &* 0x100_0000_01b3
    }
    mix("rules \(Self.rulesVersion) files \(files.count)")
    for file in files { mix("\(file.path) \(file.size) \(file.modified) \(file.changed) \(file.inode)") }
    for folder in folders { mix(folder.path + " " + (folder.coverImage ?? "")) }
    for (path, code, _) in unreadableFolders { mix("\(path) \(code)") }
    for (path, reason) in skippedNames { mix("\(path) \(reason)") }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// `name`'s bytes as text, each byte that is not part of valid UTF-8 written `\xE9`.
  static func escapedName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var out = ""
    var rest = bytes[...]
    while !rest.isEmpty {
      var iterator = rest.makeIterator()
      var decoder = UTF8()
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        out.unicodeScalars.append(scalar)
        rest = rest.dropFirst(UTF8.width(scalar))
      case .error, .emptyInput:
        out += "\\x" + String(rest.first!, radix: 16, uppercase: true)
        rest = rest.dropFirst()
      }
    }
    return out
  }

  /// Where `name` stands among cover image names (0 is best: cover.jpg, then cover.jpeg,
  /// cover.png, folder.jpg…), or nil when it is not one. Case does not matter.
  static func coverImageRank(_ name: String) -> Int? {
    let lowered = name.lowercased()
    let fileExtension = Self.fileExtension(lowered)
    guard let extensionRank = coverExtensions.firstIndex(of: fileExtension),
      let nameRank = coverNames.firstIndex(of: String(lowered.dropLast(fileExtension.count + 1)))
    else { return nil }
    return nameRank * coverExtensions.count + extensionRank
  }

  /// The lowercased extension of `name` (after its last dot), or "" when it has none.
  static func fileExtension(_ name: String) -> String {
    guard let dot = name.lastIndex(of: ".") else { return "" }
    return name[name.index(after: dot)...].lowercased()
  }

  /// A folder's identity: its device and inode.
  private struct Identity: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }
  }
}
