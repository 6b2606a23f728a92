import AlbumModel
internal import BlueSQL
import BlueSystem
import FoundationEssentials

/// Queries (``AlbumQuery``) over the library, the saved views and the view memento.
extension AlbumStore {
  /// The ids of the albums matching `query`, in its order (ties, and a query without sort
  /// keys, in library order). A million ids are 8 MB; no album is read.
  package func albumIDs(matching query: AlbumQuery) throws(LibraryError) -> [Int64] {
    let sql = QuerySQL(query)
    return try reading { db in
      let statement = try db.makeStatement(
        sql: "SELECT id FROM album WHERE \(sql.condition) ORDER BY \(sql.order)")
      try statement.setArguments(StatementArguments(sql.arguments))
      let handle = statement.sqliteStatement
      defer { sqlite3_reset(handle) }
      var ids: [Int64] = []
      while true {
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else {
          throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
        }
        ids.append(sqlite3_column_int64(handle, 0))
      }
      return ids
    }
  }

  /// The ids of the albums whose rating, and those whose favourite mark, differ between the
  /// before and after images of the edit step `step`: what its undo or redo changes of
  /// the marks a music server keeps too.
  package func marksChanged(by step: Int64) throws(LibraryError) -> (rated: [Int64], favoured: [Int64]) {
    try reading { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT b.album_id, b.rating IS NOT a.rating, b.fav IS NOT a.fav
          FROM change_album b JOIN change_album a
            ON a.change_id = b.change_id AND a.album_id = b.album_id AND a.image = 'after'
          WHERE b.change_id = ? AND b.image = 'before' AND (b.rating IS NOT a.rating OR b.fav IS NOT a.fav)
          """, arguments: [step])
      return (rows.filter { $0[1] as Bool }.map { $0[0] }, rows.filter { $0[2] as Bool }.map { $0[0] })
    }
  }

  /// The albums with `ids`, in that order; an id no longer stored is left out.
  package func albums(ids: some Collection<Int64>) throws(LibraryError) -> [Album] {
    guard !ids.isEmpty else { return [] }
    return try reading { db in
      var byID: [Int64: Album] = [:]
      // SQLite takes up to 32,766 parameters; pages of a thousand keep statements small.
      var rest = ids[...]
      while !rest.isEmpty {
        let page = rest.prefix(1000)
        rest = rest.dropFirst(page.count)
        let marks = Array(repeating: "?", count: page.count).joined(separator: ",")
        // A page of cards is the same few ids again and again: its statement is cached.
        for album in try Self.fastAlbums(
          db, sql: "SELECT \(Album.selection) FROM album WHERE id IN (\(marks))", bindings: Array(page))
        {
          if let id = album.id { byID[id] = album }
        }
      }
      return ids.compactMap { byID[$0] }
    }
  }

  /// The ids of the albums titled exactly `title`, and of those titled so ignoring case.
  package func albumIDs(titled title: String) throws(LibraryError) -> (exact: Set<Int64>, ignoringCase: Set<Int64>) {
    try reading { db in
      let exact = try Int64.fetchSet(db, sql: "SELECT id FROM album WHERE title = ?", arguments: [title])
      // SQLite's NOCASE folds ASCII only; compare in Swift for the rest.
      let folded = title.lowercased()
      var ignoringCase = Set<Int64>()
      let cursor = try Row.fetchCursor(
        db, sql: "SELECT id, title FROM album WHERE title = ? COLLATE NOCASE OR title GLOB '*[^ -~]*'",
        arguments: [title])
      while let row = try cursor.next() {
        if (row[1] as String).lowercased() == folded { ignoringCase.insert(row[0]) }
      }
      return (exact, ignoringCase)
    }
  }

  /// The album with `id`, or nil when it is no longer stored.
  package func album(id: Int64) throws(LibraryError) -> Album? {
    try reading { db in
      try Self.fastAlbums(db, sql: "SELECT \(Album.selection) FROM album WHERE id = ?", id).first
    }
  }

  /// The id of the album at the 0-based library position `position`.
  package func albumID(atPosition position: Int) throws(LibraryError) -> Int64? {
    try reading { db in try Self.albumID(at: position, db) }
  }

  /// When the album with `id` entered the library, in seconds since 1970.
  package func addedTime(ofAlbumID id: Int64) throws(LibraryError) -> Int64? {
    try reading { db in
      try Int64.fetchOne(db, sql: "SELECT \(QuerySQL.column(.added)) FROM album WHERE id = ?", arguments: [id])
    }
  }

  /// Figures over the albums matching `query`.
  package func statistics(_ query: AlbumQuery) throws(LibraryError) -> LibraryStatistics {
    let sql = QuerySQL(query)
    let arguments = StatementArguments(sql.arguments)
    // Genres grouped as a reader groups them: `Électronique` and `electronique` are one.
    let genreKey = QuerySQL.sortExpression(.genre)
    return try reading { db in
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT COUNT(*), IFNULL(SUM(tracks), 0), IFNULL(SUM(duration), 0), COUNT(DISTINCT \(Schema.artistSortKey)),
            COUNT(tracks)
          FROM album WHERE \(sql.condition)
          """, arguments: arguments)
      // The most common genres only: a library of a million genres would be a million rows.
      let genres = try Row.fetchAll(
        db,
        sql: """
          SELECT genre, COUNT(*) FROM album WHERE \(sql.condition)
          GROUP BY \(genreKey) ORDER BY 2 DESC, \(genreKey) LIMIT \(LibraryStatistics.genresShown)
          """, arguments: arguments
      ).map { (name: $0[0] as String, count: $0[1] as Int) }
      let decades = try Row.fetchAll(
        db,
        sql: """
          SELECT year / 10 * 10, COUNT(*) FROM album WHERE \(sql.condition)
          GROUP BY 1 ORDER BY 1
          """, arguments: arguments
      ).map { (decade: $0[0] as Int?, count: $0[1] as Int) }
      let albums: Int = row?[0] ?? 0
      return LibraryStatistics(
        albums: albums, tracks: row?[1] ?? 0, length: row?[2] ?? 0, artists: row?[3] ?? 0,
        albumsWithTracks: row?[4] ?? 0, genres: genres,
        albumsOfOtherGenres: albums - genres.reduce(0) { $0 + $1.count }, decades: decades)
    }
  }

  /// The albums whose `field` sorts under `prefix` — a text field's ``CollationKey`` starts
  /// with the prefix's, a number's digits (as `list` shows them) with the prefix itself — in
  /// library order, at most `limit` (all when nil).
  package func albumIDs(of field: QueryField, sortingUnder prefix: String, limit: Int?) throws(LibraryError)
    -> [Int64]
  {
    // A number as its text, compared byte by byte: `scroll to '19'` in a view by year, with
    // no regular expression (and so no ICU) to read digits.
    let sorted = QuerySQL.sortExpression(field)
    let (key, start) = field.kind == .text ? (sorted, CollationKey.key(prefix)) : ("CAST(\(sorted) AS TEXT)", prefix)
    return try reading { db in
      try Int64.fetchAll(
        db, sql: "SELECT id FROM album WHERE \(key) >= ?1 AND \(key) < ?2 ORDER BY position LIMIT ?3",
        arguments: [start, start + "\u{10FFFF}", limit ?? -1])
    }
  }

  /// Distinct values of a text field that start with `prefix` (ignoring case), in
  /// alphabetical order, at most `limit`: what `artist:Rad<Tab>` offers. An artist is
  /// offered once however its albums spell it (`Abba`, `ABBA`): as the first of them
  /// stored spells it, since a query matches both.
  package func values(of field: QueryField, withPrefix prefix: String, limit: Int) throws(LibraryError) -> [String] {
    // A flag is true or false; an album's bitrate is worked out from its tracks (no column
    // to read values from).
    if field == .duplicate { return ["false", "true"].filter { $0.hasPrefix(prefix.lowercased()) } }
    if field == .bitrate { return [] }
    let stored = QuerySQL.column(field)
    // `artist` and `albumartist` both read the artist column, whose index is folded.
    if stored == "artist" && !field.isTrackField { return try artists(withPrefix: prefix, limit: limit) }
    let pattern = Self.escapeLike(prefix) + "%"
    // A text column is read as it is; numbers as their digits.
    let column = field.kind == .text ? stored : "CAST(\(stored) AS TEXT)"
    // A track field offers the tracks' titles or formats.
    let table = field.isTrackField ? "track t" : "album"
    return try reading { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT DISTINCT \(column) FROM \(table)
          WHERE \(column) LIKE ? ESCAPE '\\' AND \(column) <> '' ORDER BY \(column) COLLATE NOCASE LIMIT ?
          """,
        arguments: [pattern, limit])
    }
  }

  /// The artists whose ``CollationKey`` starts with `prefix`'s (case and accents ignored),
  /// one per folded spelling, in order, at most `limit`.
  ///
  /// The artist index holds the artists' keys alone (Schema's `addSortKeys`): the
  /// prefix folded as SQLite folds is a range of it, and each step seeks the next folded
  /// artist after the last one, reading one row of the table for its spelling. A million
  /// albums by a hundred artists take as many steps as artists offered, where reading
  /// every album of the range took 110,000 look-ups for `Artist 4`.
  private func artists(withPrefix prefix: String, limit: Int) throws(LibraryError) -> [String] {
    // Folded as the index is: `bjö` finds Björk and Bjork alike.
    let folded = CollationKey.key(prefix)
    // Past every text that starts with the prefix (U+10FFFF is the greatest code point).
    let end = folded + "\u{10FFFF}"
    let key = Schema.artistSortKey
    return try reading { db in
      // The first folded artist from `bound` on (`>=`) or after it (`>`); '' is no artist.
      func step(_ comparison: String) throws -> Statement {
        try db.cachedStatement(
          sql: """
            SELECT \(key), artist FROM album WHERE \(key) \(comparison) ? AND \(key) > ''
            AND \(key) < ? ORDER BY \(key) LIMIT 1
            """)
      }
      var artists: [String] = []
      // The first step takes the prefix itself (an artist named just that).
      var row = try Row.fetchOne(step(">="), arguments: [folded, end])
      while let found = row, artists.count < limit {
        let key: String = found[0]
        artists.append(found[1])
        row = try Row.fetchOne(step(">"), arguments: [key, end])
      }
      return artists
    }
  }

  // MARK: - Saved views

  /// The saved views, by name.
  package func savedViews() throws(LibraryError) -> [(name: String, query: String)] {
    try reading { db in
      try Row.fetchAll(db, sql: "SELECT name, query FROM view ORDER BY name").map { ($0[0], $0[1]) }
    }
  }

  /// The query saved as `name`, or nil.
  package func savedView(_ name: String) throws(LibraryError) -> String? {
    try reading { db in try String.fetchOne(db, sql: "SELECT query FROM view WHERE name = ?", arguments: [name]) }
  }

  /// Saves `query` as `name`, replacing a view of that name; returns whether it replaced one.
  @discardableResult
  package func saveView(_ name: String, query: String) throws(LibraryError) -> Bool {
    try writing { db in
      let existed = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM view WHERE name = ?)", arguments: [name])
      try db.execute(sql: "INSERT OR REPLACE INTO view (name, query) VALUES (?, ?)", arguments: [name, query])
      return existed ?? false
    }
  }

  /// Deletes the view `name`; returns its query, nil when there was none.
  package func deleteView(_ name: String) throws(LibraryError) -> String? {
    try writing { db in
      let query = try String.fetchOne(db, sql: "SELECT query FROM view WHERE name = ?", arguments: [name])
      try db.execute(sql: "DELETE FROM view WHERE name = ?", arguments: [name])
      return query
    }
  }

  // MARK: - The current view (memento)

  /// The query of the view the shell showed last, nil for the whole library.
  package func currentViewQuery() throws(LibraryError) -> String? {
    try reading { db in try Self.stateText("view", db) }
  }

  /// Remembers the current view's query (nil: the whole library) and the selected album's
  /// library position, in one transaction.
  package func setCurrentView(_ query: String?, selection: Int?) throws(LibraryError) {
    try writing { db in
      if let query {
        try db.execute(sql: "INSERT OR REPLACE INTO state (key, value) VALUES ('view', ?)", arguments: [query])
      } else {
        try db.execute(sql: "DELETE FROM state WHERE key = 'view'")
      }
      try Self.writeSelection(selection, db)
    }
  }
}

extension AlbumStore {
  /// How many steps moved albums in this library (added, deleted, moved, imported, reset,
  /// or one of those undone or made again): the library's numbering, with no view. Kept in
  /// the library file, so every shell of it counts the same.
  package func numberingCount() throws(LibraryError) -> Int {
    try reading { db in try Self.fastInteger(db, sql: "SELECT value FROM state WHERE key = 'numbering'") ?? 0 }
  }

  /// Counts one step that moved albums (see ``numberingCount()``): call inside its transaction.
  static func countRenumbering(_ db: Database) throws {
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO state (key, value)
        VALUES ('numbering', IFNULL((SELECT value FROM state WHERE key = 'numbering'), 0) + 1)
        """)
  }

  /// The listing that last printed album numbers (`list`), and the numbering it showed.
  package func listing() throws(LibraryError) -> (source: String, numbering: String)? {
    try reading { db in
      guard let source = try Self.stateText("listing", db), let numbering = try Self.stateText("listingNumbering", db)
      else { return nil }
      return (source, numbering)
    }
  }

  /// Remembers the listing that printed album numbers last (see ``listing()``).
  package func setListing(source: String, numbering: String) throws(LibraryError) {
    try writing { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO state (key, value) VALUES ('listing', ?), ('listingNumbering', ?)",
        arguments: [source, numbering])
    }
  }
}

/// What `stats` prints.
package struct LibraryStatistics: Sendable {
  package var albums: Int
  package var tracks: Int
  /// Seconds.
  package var length: Double
  package var artists: Int
  /// Albums whose track count is known (from a music folder).
  package var albumsWithTracks: Int
  /// Albums per genre, most first ("" for none): the ``genresShown`` most common.
  package var genres: [(name: String, count: Int)]
  /// The albums of the other genres, together.
  package var albumsOfOtherGenres: Int
  /// How many genres ``genres`` holds at most.
  package static let genresShown = 12
  /// Albums per decade (1990 for the 1990s; nil for no year), in order.
  package var decades: [(decade: Int?, count: Int)]
}
