import AlbumModel
internal import BlueSQL

// Tracks you edit (see `Schema.addTrackEdits`): a track's title, artist and number as you
// gave them, by the file's path, beside what the file says (`track`). An edit of a track is
// an `edit` step of its album: the album carries the step, and `change_track` keeps the
// track's edit before and after it, which undo and redo give back.
extension AlbumStore {
  /// What the file at `path` says (its title, artist and number at the last import) and the
  /// edit you gave it, if any.
  func trackEditState(
    path: String
  ) throws(LibraryError) -> (edit: TrackEdit, file: FileSays) {
    try trackEditStates(paths: [path])[0]
  }

  /// What a file says of the fields of a track you edit, at the last import.
  typealias FileSays = (title: String?, artist: String?, number: Int?, albumArtist: String?)

  /// ``trackEditState(path:)`` of each of `paths`, in one read.
  func trackEditStates(
    paths: [String]
  ) throws(LibraryError) -> [(edit: TrackEdit, file: FileSays)] {
    try reading { db in
      try paths.map { path in
        let file = try Row.fetchOne(
          db.cachedStatement(sql: "SELECT title, artist, number, album_artist FROM track WHERE path = ?"),
          arguments: [path])
        return (try Self.trackEdit(path, db), (file?[0], file?[1], file?[2], file?[3]))
      }
    }
  }

  /// The edit of the track at `path` (empty when it has none).
  static func trackEdit(_ path: String, _ db: Database) throws -> TrackEdit {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT title, artist, number, album_artist FROM track_edit WHERE path = ?", arguments: [path])
    else { return TrackEdit() }
    return TrackEdit(title: row[0], artist: row[1], number: row[2], albumArtist: row[3])
  }

  /// Gives the tracks at `edits`' paths, of the album with `id`, their edits (an empty one:
  /// the track is as its file says), and the album `album`'s fields when given, as one
  /// logged `edit` step named `summary`: one undo takes them all back. The selection stays.
  package func editTracks(
    _ edits: [(path: String, edit: TrackEdit)], ofAlbum id: Int64, album: Album? = nil, summary: String,
    origin: ChangeOrigin
  ) throws(LibraryError) -> ChangeStep {
    let valid = try album?.validated()
    return try changing { db in
      guard try Self.position(of: id, db) != nil else { throw LibraryError.noAlbumWithID(id) }
      let step = try Self.beginStep(.edit, summary: summary, origin: origin, db)
      try Self.appendImage(id, as: .before, of: step, db)
      for (path, _) in edits { try Self.recordTrack(path, as: .before, of: step, db) }
      if let valid {
        try Self.writeFields(of: valid, to: id, step: step, db)
      } else {
        // The album carries the step: a later undo of an earlier step of it sees the change.
        try db.execute(sql: "UPDATE album SET step = ? WHERE id = ?", arguments: [step, id])
      }
      for (path, edit) in edits { try Self.setTrackEdit(path, edit, db) }
      try Self.appendImage(id, as: .after, of: step, db)
      for (path, _) in edits { try Self.recordTrack(path, as: .after, of: step, db) }
      try Self.finishStep(step, selecting: origin.selection, db)
      return try Self.changeStep(step, db)
    }
  }

  /// Logs the edit of the track at `path` as it stands (all NULL: none) as `side` of `step`.
  private static func recordTrack(_ path: String, as side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    let edit = try trackEdit(path, db)
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO change_track (change_id, image, path, title, artist, number, album_artist)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """, arguments: [step, side.rawValue, path, edit.title, edit.artist, edit.number, edit.albumArtist])
  }

  /// Stores `edit` as the edit of the track at `path` (an empty one removes it).
  static func setTrackEdit(_ path: String, _ edit: TrackEdit, _ db: Database) throws {
    guard !edit.isEmpty else {
      try db.execute(sql: "DELETE FROM track_edit WHERE path = ?", arguments: [path])
      return
    }
    try db.execute(
      sql: "INSERT OR REPLACE INTO track_edit (path, title, artist, number, album_artist) VALUES (?, ?, ?, ?, ?)",
      arguments: [path, edit.title, edit.artist, edit.number, edit.albumArtist])
  }

  /// Gives the tracks `side` of the `edit` step `step` recorded their edits back (none for an
  /// edit of albums' fields).
  static func applyTrackImages(_ side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    for row in try Row.fetchAll(
      db, sql: "SELECT path, title, artist, number, album_artist FROM change_track WHERE change_id = ? AND image = ?",
      arguments: [step, side.rawValue])
    {
      try setTrackEdit(row[0], TrackEdit(title: row[1], artist: row[2], number: row[3], albumArtist: row[4]), db)
    }
  }

  /// Before the file at `path` is read again into its row: the edits it already says (those
  /// equal to what its row said) are dropped, so those fields follow the file from now on, as
  /// an album's fields do once `write` put them there; the others stay yours.
  static func followFile(_ path: String, _ db: Database) throws {
    try db.cachedStatement(
      sql: """
        UPDATE track_edit SET
          title = CASE WHEN track_edit.title IS t.title THEN NULL ELSE track_edit.title END,
          artist = CASE WHEN track_edit.artist IS IFNULL(t.artist, '') THEN NULL ELSE track_edit.artist END,
          number = CASE WHEN track_edit.number IS t.number THEN NULL ELSE track_edit.number END,
          album_artist = CASE WHEN track_edit.album_artist IS t.album_artist THEN NULL ELSE track_edit.album_artist END
        FROM (SELECT title, artist, number, album_artist FROM track WHERE path = ?1) AS t
        WHERE track_edit.path = ?1
        """
    ).execute(arguments: [path])
    try db.cachedStatement(
      sql: """
        DELETE FROM track_edit
        WHERE path = ? AND title IS NULL AND artist IS NULL AND number IS NULL AND album_artist IS NULL
        """
    ).execute(arguments: [path])
  }

  /// Whether any track is edited: an import that finds none skips ``followFile(_:_:)``.
  static func hasTrackEdits(_ db: Database) throws -> Bool {
    try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM track_edit)") ?? false
  }

  /// The album stored under `old` moved to `new` (another folder): the edits of its tracks
  /// follow their files, matched by name.
  static func moveTrackEdits(from old: String, to newTracks: [String], _ db: Database) throws {
    let oldPaths = try String.fetchAll(
      db, sql: "SELECT t.path FROM track t JOIN track_edit e ON e.path = t.path WHERE t.album_key = ?",
      arguments: [old])
    guard !oldPaths.isEmpty else { return }
    func name(_ path: String) -> Substring {
      path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...]
    }
    var byName: [Substring: String] = [:]
    for path in newTracks { byName[name(path)] = path }
    for path in oldPaths {
      guard let moved = byName[name(path)], moved != path else { continue }
      try db.execute(sql: "UPDATE OR REPLACE track_edit SET path = ? WHERE path = ?", arguments: [moved, path])
    }
  }
}
