import AlbumModel
import BlueCovers
internal import BlueSQL
import BlueSystem
internal import MusicFolder

// The last scan of a music folder as the library file keeps it: what a new scan of the folder
// takes from it (``EarlierScan``), and the record each import leaves for the next one.
extension AlbumStore {
  /// The last scan of a music folder, read from the library file when the scanner asks (with
  /// the folder's real path): whether it saw the same fingerprint (its `source` row), and the
  /// tracks it read, which the scanner takes. Keeps what the import needs once the scan is
  /// done: where each stored track's row stood, and the record of a scan that found the
  /// folder unchanged.
  final class StoredScan: EarlierScan {
    private let store: AlbumStore
    /// Where each track stored under the folder stood, by path, for the import to write only
    /// the rows that changed; its tags went to the scanner. Empty until the scanner asks
    /// (and when it found the folder unchanged).
    private(set) var stored = StoredTracks()
    /// The record of the last scan, when the scanner found the folder as that scan did.
    private(set) var unchangedRecord: SourceRecord?

    init(_ store: AlbumStore) {
      self.store = store
    }

    func sawFingerprint(_ fingerprint: String, of root: String) -> Bool {
      // The last scan of this folder saw the very same files: its albums stand.
      guard let last = try? store.source(root), last.kind == .folder, last.fingerprint == fingerprint else {
        return false
      }
      unchangedRecord = last
      return true
    }

    func takeTracks(under root: String) -> [String: MusicTrack] {
      // What the last scan read (nothing, if the file cannot be read: every file is opened).
      stored = (try? store.storedTracks(under: root)) ?? StoredTracks()
      // The scanner's copy only, let go when it has read the files: the import needs only
      // where each row stood.
      defer { stored.tracks = [:] }
      return stored.tracks
    }

    /// The files the last scan skipped, when the scanner found the folder as it did.
    var unchangedSkipped: [FolderImport.Skipped] {
      unchangedRecord?.skippedFiles ?? []
    }
  }

  /// The files a scan of a music folder skipped, each with its reason and the size and
  /// modification time the scan read (none for a name it could not read), as the folder's
  /// `source` row keeps them: a digest, so that the next import can tell the very same files
  /// (and say so, instead of listing them again).
  struct SkippedFiles {
    /// The scanned folder's real path.
    var root: String
    var files: [(path: String, reason: String, stamp: FileStamp?)]

    /// The SHA-256 of each file's path, reason, size and modification time, in hex; nil
    /// when no file was skipped.
    var digest: String? {
      guard !files.isEmpty else { return nil }
      var signature: [UInt8] = []
      for file in files {
        signature += Array(file.path.utf8) + [0] + Array(file.reason.utf8) + [0]
        signature += Array((file.stamp.map { "\($0.size) \($0.modified)" } ?? "-").utf8) + [0]
      }
      return SHA256.hex(SHA256.digest(signature))
    }

    /// Keeps these as the files the last import of ``root`` skipped, inside the import's
    /// transaction (so an import that fails leaves the last ones); returns whether they are
    /// the very ones kept before. No file is never the same as before.
    func record(_ db: Database) throws -> Bool {
      let value = digest
      let before = try AlbumStore.source(root, db)?.skippedDigest
      if before != value { try AlbumStore.recordSkippedDigest(value, of: root, db) }
      return value != nil && before == value
    }
  }
}
