import AlbumModel
internal import BlueSQL

// The sources of albums the library holds (the `source` table, schema version 17): what the
// last scan of each music folder and the last sync of each server saw, so the next one reads
// or lists only when something changed.
extension AlbumStore {
  /// What the library keeps of one source.
  struct SourceRecord: Equatable {
    enum Kind: String {
      case folder, server
    }

    var root: String
    var kind: Kind
    /// What the last scan or sync saw; nil once forgotten.
    var fingerprint: String?
    /// A server's: the fingerprint of the tracks it listed.
    var listed: String?
    /// A folder's: the files its last scan skipped, and why.
    var skippedFiles: [FolderImport.Skipped] = []
    /// A folder's: the digest of those files with their sizes and times (``SkippedFiles``).
    var skippedDigest: String?
  }

  /// The record of the source at `root`, nil when none is kept.
  func source(_ root: String) throws(LibraryError) -> SourceRecord? {
    try reading { db in try Self.source(root, db) }
  }

  static func source(_ root: String, _ db: Database) throws -> SourceRecord? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT kind, fingerprint, listed, skipped_files, skipped_digest FROM source WHERE root = ?",
        arguments: [root])
    else { return nil }
    let kind: String = row[0]
    return SourceRecord(
      root: root, kind: SourceRecord.Kind(rawValue: kind) ?? .folder, fingerprint: row[1], listed: row[2],
      skippedFiles: (row[3] as String?).map(Self.skippedFiles(in:)) ?? [], skippedDigest: row[4])
  }

  /// What a scan or a sync saw, kept for the next one (``record(_:of:_:)``).
  enum Seen {
    /// A music folder's files (their fingerprint), and those the scan skipped.
    case folder(fingerprint: String, skipped: [FolderImport.Skipped])
    /// A server's fingerprint, and that of the tracks it listed.
    case server(fingerprint: String, listed: String)
  }

  /// Keeps what a sync of the server at `root` saw.
  func recordSync(of root: String, fingerprint: String, listed: String) throws(LibraryError) {
    try writing { db in try Self.record(.server(fingerprint: fingerprint, listed: listed), of: root, db) }
  }

  /// Keeps what the scan or sync of the source at `root` saw; for a folder, forgets the last
  /// scans of the folders above and below it: their albums and tracks were just written by
  /// this one.
  static func record(_ seen: Seen, of root: String, _ db: Database) throws {
    switch seen {
    case .server(let fingerprint, let listed):
      try db.execute(
        sql: """
          INSERT INTO source (root, kind, fingerprint, listed) VALUES (?, 'server', ?, ?)
          ON CONFLICT (root) DO UPDATE SET kind = 'server', fingerprint = excluded.fingerprint, listed = excluded.listed
          """, arguments: [root, fingerprint, listed])
    case .folder(let fingerprint, let skipped):
      try recordScan(of: root, fingerprint: fingerprint, skipped: skipped, db)
    }
  }

  private static func recordScan(
    of root: String, fingerprint: String, skipped: [FolderImport.Skipped], _ db: Database
  ) throws {
    let overlapping = try String.fetchAll(db, sql: "SELECT root FROM source WHERE kind = 'folder'").filter {
      $0 != root && ($0.hasPrefix(root + "/") || root.hasPrefix($0 + "/") || $0 == "/" || root == "/")
    }
    for other in overlapping {
      try db.execute(sql: "UPDATE source SET fingerprint = NULL WHERE root = ?", arguments: [other])
    }
    try db.execute(
      sql: """
        INSERT INTO source (root, kind, fingerprint, skipped_files) VALUES (?, 'folder', ?, ?)
        ON CONFLICT (root) DO UPDATE SET kind = 'folder', fingerprint = excluded.fingerprint,
          skipped_files = excluded.skipped_files
        """, arguments: [root, fingerprint, skippedText(skipped)])
  }

  /// Forgets what the last scan or sync of the source at `root` saw (the fingerprint, and
  /// the tracks a server listed), so that the next one reads or lists it again and takes
  /// what it finds (its skipped files are kept).
  static func forgetFingerprint(of root: String, _ db: Database) throws {
    try db.execute(sql: "UPDATE source SET fingerprint = NULL, listed = NULL WHERE root = ?", arguments: [root])
  }

  /// Forgets what every last scan and sync saw: a change of the albums' rows (undo, redo, a
  /// write) that the next import must not take for the files' own.
  static func forgetEveryFingerprint(_ db: Database) throws {
    try db.execute(
      sql: "UPDATE source SET fingerprint = NULL, listed = NULL WHERE fingerprint IS NOT NULL OR listed IS NOT NULL")
  }

  /// Keeps `digest` as that of the files the last import of the folder at `root` skipped.
  static func recordSkippedDigest(_ digest: String?, of root: String, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO source (root, kind, skipped_digest) VALUES (?, 'folder', ?)
        ON CONFLICT (root) DO UPDATE SET skipped_digest = excluded.skipped_digest
        """, arguments: [root, digest])
  }

  /// The skipped files as `skipped_files` keeps them.
  static func skippedText(_ skipped: [FolderImport.Skipped]) -> String {
    skipped.map { $0.path + "\u{1F}" + $0.reason + "\u{1E}" }.joined()
  }

  /// The skipped files of a `skipped_files` text.
  static func skippedFiles(in text: String) -> [FolderImport.Skipped] {
    text.split(separator: "\u{1E}").compactMap { entry in
      let parts = entry.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
      return parts.count == 2 ? FolderImport.Skipped(path: String(parts[0]), reason: String(parts[1])) : nil
    }
  }
}
