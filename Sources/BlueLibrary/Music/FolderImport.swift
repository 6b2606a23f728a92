/// What `import DIR` did: the albums the folder holds and what became of them.
public struct FolderImport: Sendable, Equatable {
  /// A file (or folder) the scan passed over, and why.
  public struct Skipped: Sendable, Equatable {
    /// Its path.
    public var path: String
    /// Why: `empty`, `no readable audio`, or why it could not be opened.
    public var reason: String
    /// Whether it is a folder the scan could not list (which may hide albums), as the scan
    /// found it.
    public var isFolder = false
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
  /// Albums found in another folder (or retagged) and updated in place.
  public var moved = 0
  /// Albums of the folder none of whose files the scan found (newly so): they stay, and
  /// `missing:true` finds them.
  public var gone = 0
  /// Albums that lost some of their files (and were updated).
  public var partlyGone = 0
  /// Albums under a folder the scan could not list: left exactly as they were.
  public var leftAsTheyWere = 0
  /// The sample albums the import took out, in the same step: the library held only them,
  /// untouched (undo puts them back).
  public var samplesLeft = 0
  /// A few albums of each kind of change, in the library's words, for the summary.
  public var named: [Change] = []

  /// One album an import changed, for the summary.
  public struct Change: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
      case added, updated, moved
      case leftOut = "left out"
      case gone
      case partlyGone = "files gone"
    }
    public var kind: Kind
    /// `Title — Artist`.
    public var album: String
    /// What changed: the fields updated, the folder it came from, the files gone.
    public var detail: String?
  }

  /// How many albums of each kind ``named`` holds at most (the counts say how many in all).
  public static let namedPerKind = 3

  /// How many albums of `kind` the import changed.
  public func count(of kind: Change.Kind) -> Int {
    switch kind {
    case .added: added
    case .updated: updated
    case .moved: moved
    case .leftOut: leftOut
    case .gone: gone
    case .partlyGone: partlyGone
    }
  }
  /// Audio files (by their extension) with no readable audio, and folders that could not be
  /// opened, ordered by path.
  public var skipped: [Skipped]
  /// Whether ``skipped`` are the very files (same paths, reasons, sizes and times) the last
  /// import of this folder skipped: said once, not at every re-import.
  public var skippedAsBefore = false
  /// The step `undo` takes back, or nil when nothing changed.
  public var summary: String?
}
