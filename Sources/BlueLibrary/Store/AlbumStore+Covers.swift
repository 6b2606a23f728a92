import AlbumModel
internal import BlueSQL

/// The cover ledger: which cover URLs this library has seen land in the cover cache
/// (schema version 3). Not part of the undo log: a cached cover is a fact about the
/// cache, not a change to the albums.
extension AlbumStore {
  /// Records that the cover at `url` is in the cover cache.
  func recordCachedCover(_ url: String) throws(LibraryError) {
    try writing { db in
      try db.cachedStatement(sql: "INSERT OR IGNORE INTO cover (url) VALUES (?)").execute(arguments: [url])
    }
  }

  /// Forgets the cover at `url` (its cached file is gone or damaged).
  func forgetCachedCover(_ url: String) throws(LibraryError) {
    try writing { db in
      try db.cachedStatement(sql: "DELETE FROM cover WHERE url = ?").execute(arguments: [url])
    }
  }

  /// Whether the covers already in the cache still have to be recorded (see ``recordCoversInCache(_:)``).
  func coverScanPending() throws(LibraryError) -> Bool {
    try reading { db in
      try Self.stateText("coverScan", db) != nil
    }
  }

  /// Records every album cover URL for which `isCached` is true, once: for a library made
  /// by an older bluelib (which looked in the cache for every card instead) or a new one
  /// beside an existing cache. One pass over the distinct URLs, in one transaction.
  /// Without `isCached` (an empty cache), only the request is cleared.
  func recordCoversInCache(_ isCached: ((String) -> Bool)?) throws(LibraryError) {
    try writing { db in
      if let isCached {
        let urls = try String.fetchCursor(db, sql: "SELECT DISTINCT coverUrl FROM album WHERE coverUrl <> ''")
        let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO cover (url) VALUES (?)")
        while let url = try urls.next() {
          if isCached(url) { try insert.execute(arguments: [url]) }
        }
      }
      try db.execute(sql: "DELETE FROM state WHERE key = 'coverScan'")
    }
  }

  // MARK: - None in the archive, or on the server

  /// Records that the Cover Art Archive (or the music server the URL names) has no cover at
  /// `url`, as of `time` (seconds since 1970).
  func recordNoCover(_ url: String, at time: Int64) throws(LibraryError) {
    try writing { db in
      try db.cachedStatement(sql: "INSERT OR REPLACE INTO cover_none (url, checked) VALUES (?, ?)")
        .execute(arguments: [url, time])
    }
  }

  /// Forgets that the archive (or the server) had no cover at `url` (one landed).
  func forgetNoCover(_ url: String) throws(LibraryError) {
    try writing { db in
      try db.cachedStatement(sql: "DELETE FROM cover_none WHERE url = ?").execute(arguments: [url])
    }
  }

  /// Those of `urls` the archive (or a server) had none of when asked between `since` and
  /// `now` (as ``noCovers(since:now:)``): one look for the few covers of a row of cards.
  func noCovers(among urls: [String], since: Int64, now: Int64) throws(LibraryError) -> Set<String> {
    guard !urls.isEmpty else { return [] }
    return try reading { db in
      var arguments = StatementArguments(urls)
      arguments += [since, now]
      let places = Array(repeating: "?", count: urls.count).joined(separator: ", ")
      return Set(
        try String.fetchAll(
          db, sql: "SELECT url FROM cover_none WHERE url IN (\(places)) AND checked BETWEEN ? AND ?",
          arguments: arguments))
    }
  }

  /// The covers the archive (or a server) had none of when asked between `since` and `now` (seconds
  /// since 1970, both included). An answer dated after `now` (recorded while the clock was
  /// wrong, or in a library copied from such a machine) counts as not asked: left out, it
  /// would not be asked again until that date, years ahead perhaps (H18).
  func noCovers(since: Int64, now: Int64) throws(LibraryError) -> Set<String> {
    try reading { db in
      Set(
        try String.fetchAll(
          db, sql: "SELECT url FROM cover_none WHERE checked BETWEEN ? AND ?", arguments: [since, now]))
    }
  }
}
