import AlbumModel

/// What bringing a source's albums into the library did (`import DIR`, a sync with a music
/// server): one result for every source (``Library/importSource(_:named:withDeleted:progress:isCancelled:)``),
/// the albums it holds and what became of them; what a kind of source does not have (a
/// server skips no file) is left empty.
package struct SourceImport: Sendable, Equatable {
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

  /// The source's root: a scanned folder's real path (symbolic links resolved), a server's
  /// root (`mpd://127.0.0.1:6600`).
  package var folder = ""
  /// Whether the source was read: false when it was as the last import found it (a server
  /// whose database has the same version), so nothing was asked or read.
  package var listed = false
  /// The albums the source holds (a server's, when listed).
  package var albums = 0
  /// Their tracks.
  package var tracks = 0
  /// How many audio files the scan opened: the others had the size and modification time
  /// the last import of them recorded, and their tags were taken from the library.
  package var filesOpened = 0
  /// Audio files (by their extension) with no readable audio, and folders that could not be
  /// opened, ordered by path.
  package var skipped: [Skipped] = []
  /// Whether ``skipped`` are the very files (same paths, reasons, sizes and times) the last
  /// import of this folder skipped: said once, not at every re-import.
  package var skippedAsBefore = false
  /// Albums appended to the library.
  package var added = 0
  /// Albums imported before (the same folder, album artist and title) whose fields changed.
  package var updated = 0
  /// Albums imported before and unchanged.
  package var unchanged = 0
  /// Albums the source holds that you deleted from the library: left out (an import with
  /// `withDeleted` adds them again).
  package var leftOut = 0
  /// Albums found in another folder (or retagged) and updated in place.
  package var moved = 0
  /// Albums none of whose files the source has (newly so): they stay, and `missing:true`
  /// finds them.
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
  /// The step `undo` takes back, or nil when nothing changed.
  package var step: ChangeStep?
  /// What that step says, or nil when nothing changed.
  package var summary: String? { step?.summary }
  /// Lines to tell the user: marks a stopped bluelib had not shared, sent now (or not).
  package var notices: [String] = []

  /// Whether any album was added, updated, moved or gone.
  package var changedAlbums: Bool { added + updated + moved + gone > 0 }

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
}

/// What `import DIR` did: the one result of every source's import.
package typealias FolderImport = SourceImport
