import AlbumModel
internal import BlueSQL

// The marks (ratings, favourite marks) of a server's albums that the library changed and
// the server has not yet confirmed: one state row each, `share KEY<US>rating` (KEY the
// album's source key), written in the transaction of the change and removed when the
// server took the mark. A bluelib stopped between the two (a `kill -9` during `rate all`)
// leaves them, and the next sync sends those albums' marks as they stand before it lists
// anything (``Library/finishPendingShares()``); until then a sync keeps those albums'
// marks as the library has them, where it otherwise takes the server's.
extension AlbumStore {
  /// Which mark of an album waits for the server.
  package enum PendingMark: String, CaseIterable, Sendable {
    case rating, fav
  }

  private static let pendingPrefix = "share "

  private static func pendingKey(_ sourceKey: String, _ mark: PendingMark) -> String {
    pendingPrefix + sourceKey + "\u{1F}" + mark.rawValue
  }

  /// Notes, inside a transaction already open, that `mark` of the albums with the source
  /// keys `keys` waits for the server.
  static func notePending(_ mark: PendingMark, of keys: [String], _ db: Database) throws {
    let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO state (key, value) VALUES (?, '')")
    for key in keys { try statement.execute(arguments: [pendingKey(key, mark)]) }
  }

  /// ``notePending(_:of:_:)`` in a transaction of its own.
  func notePending(_ mark: PendingMark, of keys: [String]) throws(LibraryError) {
    guard !keys.isEmpty else { return }
    try writing { db in try Self.notePending(mark, of: keys, db) }
  }

  /// The marks that wait for the server: by mark, the source keys of their albums.
  func pendingMarks() throws(LibraryError) -> [PendingMark: [String]] {
    try reading { db in
      var pending: [PendingMark: [String]] = [:]
      for key in try String.fetchAll(
        db, sql: "SELECT key FROM state WHERE key >= ? AND key < ?", arguments: [Self.pendingPrefix, "share!"])
      {
        guard let separator = key.lastIndex(of: "\u{1F}"),
          let mark = PendingMark(rawValue: String(key[key.index(after: separator)...]))
        else { continue }
        pending[mark, default: []].append(String(key[key.index(key.startIndex, offsetBy: 6)..<separator]))
      }
      return pending
    }
  }

  /// The source keys of the albums any of whose marks waits for the server.
  static func pendingAlbumKeys(_ db: Database) throws -> Set<String> {
    var keys: Set<String> = []
    for key in try String.fetchAll(
      db, sql: "SELECT key FROM state WHERE key >= ? AND key < ?", arguments: [pendingPrefix, "share!"])
    {
      guard let separator = key.lastIndex(of: "\u{1F}") else { continue }
      keys.insert(String(key[key.index(key.startIndex, offsetBy: 6)..<separator]))
    }
    return keys
  }

  /// The server took `mark` of the albums with the source keys `keys`, as `value` (stars, or
  /// 1 for a favourite): nothing waits any more, and what the server says of them is that.
  /// What the last sync of the source at `root` saw is forgotten: the songs it saw no longer
  /// say what this library's albums do, so the next sync lists them whatever they are.
  func confirmShared(_ mark: PendingMark, value: Int?, of keys: [String], forgettingSyncOf root: String)
    throws(LibraryError)
  {
    guard !keys.isEmpty else { return }
    try writing { db in
      try Self.forgetFingerprint(of: root, db)
      let remove = try db.cachedStatement(sql: "DELETE FROM state WHERE key = ?")
      let update = try db.cachedStatement(sql: "UPDATE folder_album SET \(mark.rawValue) = ? WHERE key = ?")
      for key in keys {
        try remove.execute(arguments: [Self.pendingKey(key, mark)])
        try update.execute(arguments: [mark == .fav ? (value ?? 0) : value, key])
      }
    }
  }

  /// Forgets that `mark` of the albums with the source keys `keys` waits (the server refused
  /// it: it stays in this library only).
  func forgetPending(_ mark: PendingMark, of keys: [String]) throws(LibraryError) {
    guard !keys.isEmpty else { return }
    try writing { db in
      let remove = try db.cachedStatement(sql: "DELETE FROM state WHERE key = ?")
      for key in keys { try remove.execute(arguments: [Self.pendingKey(key, mark)]) }
    }
  }

  /// The albums with the source keys `keys`, the first of each key in order.
  func albums(sourceKeys keys: [String]) throws(LibraryError) -> [Album] {
    try reading { db in
      try keys.compactMap { key in
        try Album.fetchOne(
          db, sql: "SELECT \(Album.selection) FROM album WHERE source_key = ? ORDER BY position LIMIT 1",
          arguments: [key])
      }
    }
  }
}
