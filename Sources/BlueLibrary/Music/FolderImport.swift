/// What `import DIR` did: the albums the folder holds and what became of them.
package struct FolderImport: Sendable, Equatable {
  /// A file (or folder) the scan passed over, and why.
  package struct Skipped: Sendable, Equatable {
    /// Its path.
    package var path: String
    /// Why: `empty`, `no readable audio`, or why it could not be opened.
    package var reason: String
    /// Whether it is a folder the scan could not list (which may hide albums), as the scan
    /// found it.
    package var isFolder = false
  }

  /// The scanned folder's real path (symbolic links resolved).
  package var folder: String
  /// The albums the folder holds.
  package var albums: Int
  /// Their tracks.
  package var tracks: Int
  /// How many audio files the scan opened: the others had the size and modification time
  /// the last import of them recorded, and their tags were taken from the library.
  package var filesOpened: Int
  /// Albums appended to the library.
  package var added: Int
  /// Albums imported before (the same folder, album artist and title) whose fields changed.
  package var updated: Int
  /// Albums imported before and unchanged.
  package var unchanged: Int
  /// Albums the folder holds that you deleted from the library: left out (an import with
  /// `withDeleted` adds them again).
  package var leftOut = 0
  /// Albums found in another folder (or retagged) and updated in place.
  package var moved = 0
  /// Albums of the folder none of whose files the scan found (newly so): they stay, and
  /// `missing:true` finds them.
  package var gone = 0
  /// Albums that lost some of their files (and were updated).
  package var partlyGone = 0
  /// Albums under a folder the scan could not list: left exactly as they were.
  package var leftAsTheyWere = 0
  /// The sample albums the import took out, in the same step: the library held only them,
  /// untouched (undo puts them back).
  package var samplesLeft = 0
  /// A few albums of each kind of change, in the library's words, for the summary.
  package var named: [Change] = []

  /// One album an import changed, for the summary.
  package struct Change: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
      case added, updated, moved
      case leftOut = "left out"
      case gone
      case partlyGone = "files gone"
    }
    package var kind: Kind
    /// `Title — Artist`.
    package var album: String
    /// What changed: the fields updated, the folder it came from, the files gone.
    package var detail: String?
  }

  /// How many albums of each kind ``named`` holds at most (the counts say how many in all).
  package static let namedPerKind = 3

  /// How many albums of `kind` the import changed.
  package func count(of kind: Change.Kind) -> Int {
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
  package var skipped: [Skipped]
  /// Whether ``skipped`` are the very files (same paths, reasons, sizes and times) the last
  /// import of this folder skipped: said once, not at every re-import.
  package var skippedAsBefore = false
  /// The step `undo` takes back, or nil when nothing changed.
  package var summary: String?
}
