/// What `import DIR` did: the albums the folder holds and what became of them.
public struct FolderImport: Sendable, Equatable {
  /// A file (or folder) the scan passed over, and why.
  public struct Skipped: Sendable, Equatable {
    /// Its path.
    public var path: String
    /// Why: `empty`, `no readable audio`, or why it could not be opened.
    public var reason: String
  }

  /// The scanned folder's real path (symbolic links resolved).
  public var folder: String
  /// The albums the folder holds.
  public var albums: Int
  /// Their tracks.
  public var tracks: Int
  /// How many audio files the scan opened: the others had the size and modification time
  /// the last import of them recorded, and their tags were taken from the library.
  public var filesOpened: Int
  /// Albums appended to the library.
  public var added: Int
  /// Albums imported before (the same folder, album artist and title) whose fields changed.
  public var updated: Int
  /// Albums imported before and unchanged.
  public var unchanged: Int
  /// Albums the folder holds that you deleted from the library: left out (an import with
  /// `withDeleted` adds them again).
  public var leftOut = 0
  /// Audio files (by their extension) with no readable audio, and folders that could not be
  /// opened, ordered by path.
  public var skipped: [Skipped]
  /// Whether ``skipped`` are the very files (same paths, reasons, sizes and times) the last
  /// import of this folder skipped: said once, not at every re-import.
  public var skippedAsBefore = false
  /// The step `undo` takes back, or nil when nothing changed.
  public var summary: String?
}

/// How far the scan of an `import DIR` has got, for a progress line.
public struct FolderScanProgress: Sendable, Equatable {
  /// Audio files (by their extension) found so far; final once the folders are all listed.
  public var filesFound: Int
  /// Audio files read so far.
  public var filesScanned: Int
  /// Albums found so far (an estimate until the scan ends).
  public var albumsFound: Int

  /// A progress report with every field given.
  public init(filesFound: Int, filesScanned: Int, albumsFound: Int) {
    self.filesFound = filesFound
    self.filesScanned = filesScanned
    self.albumsFound = albumsFound
  }
}
