import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a scan of a music folder found.
package struct MusicFolderScan: Sendable {
  /// The scanned folder's real path (symbolic links resolved), which album folders start with.
  package var folder: String
  /// The albums, ordered by folder (in tree order) and then title.
  package var albums: [MusicAlbum]
  /// Audio files (by their extension) that hold no readable audio, and folders that could
  /// not be opened, ordered by path.
  package var skipped: [SkippedFile]
  /// How many audio files (by their extension) were read, skipped ones included.
  package var filesScanned: Int
  /// The audio files that were opened: the others were known unchanged from an earlier scan
  /// (their size and modification time matched), and their tracks are what it read.
  package var openedFiles: Set<String> = []
  /// How many audio files were opened.
  package var filesOpened: Int { openedFiles.count }
  /// What the walk found, in a few bytes: every audio file's path, size and modification
  /// time, each folder's cover image, and what could not be listed. Two scans of a folder
  /// with the same fingerprint find the same albums.
  package var fingerprint = ""
  /// Whether the caller said an earlier scan had the same ``fingerprint``: no file was read
  /// and ``albums`` and ``skipped`` are empty (they are what that scan found; ``stamps(of:)``
  /// says the sizes and times of the files it skipped).
  package var isUnchanged = false
  /// The folders under ``folder`` that could not be listed: what an earlier scan found in
  /// them is not known to be gone.
  package var unreadableFolders: [String] = []
  /// In a scan that found the folder unchanged: the audio files and the folders that could
  /// not be listed, as the walk found them (``stamps(of:)``).
  var walked: (files: [FolderWalk.File], folders: [(path: String, stamp: FileStamp?)]) = ([], [])

  /// The stamps the walk read of those of `paths` that are audio files or folders it could
  /// not list, by path, in a scan that found the folder unchanged (``isUnchanged``): the
  /// files the earlier scan skipped are the caller's to name, and this says their sizes and
  /// times as they are now (the same as then: the fingerprint holds them) without a `stat`.
  /// Empty in a scan that read the files (its ``skipped`` carry their stamps).
  package func stamps(of paths: some Sequence<String>) -> [String: FileStamp] {
    let wanted = Set(paths)
    guard !wanted.isEmpty else { return [:] }
    var stamps: [String: FileStamp] = [:]
    for file in walked.files where wanted.contains(file.path) { stamps[file.path] = file.stamp }
    for folder in walked.folders where wanted.contains(folder.path) { stamps[folder.path] = folder.stamp }
    return stamps
  }

  /// The tracks of all the albums.
  package var trackCount: Int { albums.reduce(0) { $0 + $1.trackCount } }

  /// A scan result with every field given.
  package init(folder: String, albums: [MusicAlbum], skipped: [SkippedFile], filesScanned: Int) {
    self.folder = folder
    self.albums = albums
    self.skipped = skipped
    self.filesScanned = filesScanned
  }
}

/// A file a scan passed over, and why.
package struct SkippedFile: Sendable, Hashable {
  /// Why a file was skipped.
  package enum Reason: Sendable, Hashable, CustomStringConvertible {
    /// The file is empty.
    case empty
    /// TagLib finds no audio in it: it is corrupt, or not the format its name says.
    case noAudio
    /// It (or, for a folder, its listing) could not be opened.
    case cannotOpen(errno: Int32)
    /// Not a regular file by the time it was read (a FIFO or a device put in its place).
    case notRegularFile
    /// Its metadata declares more bytes than bluelib lets TagLib read (a cover of gigabytes).
    case metadataTooLarge(bytes: Int64)
    /// Its name is not UTF-8 (Latin-1 from an old collection): it cannot be stored as it is.
    case nameNotUTF8

    package var description: String {
      switch self {
      case .empty: return "empty"
      case .noAudio: return "no readable audio"
      case .cannotOpen(let code):
        return SystemError.reason(code)
      case .notRegularFile: return "not a regular file"
      case .nameNotUTF8: return "name not in UTF-8; rename it to import it"
      case .metadataTooLarge(let bytes): return "metadata of \(bytes >> 20) MiB, more than 64 MiB"
      }
    }
  }

  /// The file's (or folder's) path.
  package var path: String
  /// Why it was skipped.
  package var reason: Reason
  /// Its size, times and inode as the scan's walk read them; nil when the walk could not
  /// (a name that is not UTF-8, a path too long). Two scans that skip a file with the same
  /// stamp skipped the same file.
  package var stamp: FileStamp?

  /// A skipped file with its path and reason, without a stamp.
  package init(path: String, reason: Reason) {
    self.path = path
    self.reason = reason
  }

  /// A skipped file with every field given.
  package init(path: String, reason: Reason, stamp: FileStamp?) {
    self.path = path
    self.reason = reason
    self.stamp = stamp
  }
}
