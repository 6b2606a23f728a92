import AlbumModel
internal import BlueSQL

// Undo and redo of each kind of step, by album id: a step is acted on only while every
// album it wrote still carries the `step` value it left (see `Schema`); otherwise the
// conflict is thrown before anything is written, and the transaction changes nothing.
//
// Undo gives each album back the `step` it carried before the step, and redo the step's
// own id, so the albums always say which step's result they hold: undoing an earlier
// step after this one was undone is allowed, and after another shell's change it is not.
extension AlbumStore {
  /// After undo or redo of a folder import: what the files said is taken to be the fields
  /// the albums it updated now have (`side` of `step`), so the next import does not take
  /// them for your edits; and every folder's next import reads it whole (the last scans'
  /// albums are no longer what the library holds). An album the import found moved (its
  /// source key changed) takes its scan rows back to the key of `side`, so the next import
  /// finds it moved again rather than adding it twice.
  static func noteFilesSaid(by side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    let other: AlbumImage.Side = side == .before ? .after : .before
    let renames = try Row.fetchAll(
      db,
      sql: """
        SELECT this.source_key, that.source_key FROM change_album this JOIN change_album that
          ON that.change_id = this.change_id AND that.album_id = this.album_id AND that.image = ?3
        WHERE this.change_id = ?1 AND this.image = ?2 AND this.source_key IS NOT NULL AND that.source_key IS NOT NULL
          AND this.source_key <> that.source_key
        """, arguments: [step, side.rawValue, other.rawValue])
    for row in renames {
      let (to, from): (String, String) = (row[0], row[1])
      try db.execute(sql: "UPDATE OR REPLACE folder_album SET key = ? WHERE key = ?", arguments: [to, from])
      try db.execute(sql: "UPDATE track SET album_key = ? WHERE album_key = ?", arguments: [to, from])
    }
    try db.execute(
      sql: """
        UPDATE folder_album SET title = image.title, artist = image.artist, genre = image.genre, year = image.year,
          cover_url = image.coverUrl, folder = image.folder, rating = image.rating, fav = image.fav
        FROM (
          SELECT source_key, title, artist, genre, year, coverUrl, folder, rating, fav FROM change_album
          WHERE change_id = ? AND image = ? AND source_key IS NOT NULL
        ) AS image
        WHERE folder_album.key = image.source_key AND folder_album.title IS NOT NULL
        """, arguments: [step, side.rawValue])
    try Self.forgetEveryFingerprint(db)
  }

  /// Takes back the step in `row` (a `change` row); returns the album to select if the
  /// one selected before the step is gone (the album a delete restores), else nil.
  static func takeBack(_ row: Row, _ db: Database) throws -> Int64? {
    let step: Int64 = row["id"]
    switch try kind(of: row) {
    case .add:
      let after = try image(.after, of: step, db)
      try requireUnchanged(after.id, carrying: step, title: after.album.title, undoing: true, db)
      try record(after.id, as: .after, of: step, db)  // where redo puts it back
      try removeAlbum(id: after.id, db)
      return nil
    case .delete:
      if let restored = try restoreInPlace(step, db) { return restored }
      // In order: each album goes back after the one before it (its recorded neighbour).
      // An album whose id another took since comes back under an id no album and no log
      // entry has: one the step still mentions would merge two of its albums into one, and
      // its neighbours' references follow it.
      var restored: Int64?
      var fresh: Int64?  // read when first needed: it reads the whole log
      var renamed: [Int64: Int64] = [:]
      try forEachImage(.before, of: step, db) { image in
        var before = image
        before.previousID = before.previousID.map { renamed[$0] ?? $0 }
        before.nextID = before.nextID.map { renamed[$0] ?? $0 }
        let index = try placement(of: before, moving: nil, db)
        var id = before.id
        if try position(of: id, db) != nil {
          id = try fresh ?? unusedID(db)
          fresh = id + 1
          renamed[before.id] = id
        }
        _ = try insertAlbum(before.album, id: id, at: index, step: before.step, added: before.added, db)
        try renameAlbum(before.id, to: id, in: step, db)
        restored = restored ?? id
      }
      return restored
    case .edit where try imageCount(.before, of: step, db) > 1:
      // Several albums: each back to its fields, once none was changed since.
      let (befores, afters) = (try images(.before, of: step, db), try images(.after, of: step, db))
      for after in afters {
        try requireUnchanged(after.id, carrying: step, title: after.album.title, undoing: true, db)
      }
      for before in befores { try writeFields(of: before.album, to: before.id, step: before.step, db) }
      return befores.first?.id
    case .edit:
      let (before, after) = (try image(.before, of: step, db), try image(.after, of: step, db))
      try requireUnchanged(after.id, carrying: step, title: after.album.title, undoing: true, db)
      try writeFields(of: before.album, to: before.id, step: before.step, db)
      try applyTrackImages(.before, of: step, db)
      return before.id
    case .move where try imageCount(.before, of: step, db) > 1:
      // A block: back to where each was, in order, each with the step it carried.
      let befores = try images(.before, of: step, db)
      for before in befores {
        try requireUnchanged(before.id, carrying: step, title: before.album.title, undoing: true, db)
      }
      try db.execute(sql: "DELETE FROM change_album WHERE change_id = ? AND image = 'after'", arguments: [step])
      for before in befores { try appendImage(before.id, as: .after, of: step, db) }
      // The block kept its order when it moved: its albums stand in the order of `befores`.
      try placeBlock(
        befores.map(\.id), at: befores.map(\.album.position), step: nil, stepping: befores.map(\.step), db)
      return befores.first?.id
    case .move:
      let before = try image(.before, of: step, db)
      try requireUnchanged(before.id, carrying: step, title: before.album.title, undoing: true, db)
      try record(before.id, as: .after, of: step, db)
      try moveAlbum(id: before.id, to: try placement(of: before, moving: before.id, db), step: before.step, db)
      return before.id
    case .import:
      let updated = try updatedCount(of: step, db)
      if updated > 0 {
        try requireImagesUnchanged(.before, of: step, count: updated, carrying: step, undoing: true, db)
      }
      try removeInserted(row, undoing: true, keepingUpdated: updated > 0, db)
      if updated > 0 { try writeImages(.before, of: step, carrying: nil, db) }
      try noteFilesSaid(by: .before, of: step, db)
      return nil
    case .write:
      try prepareRewrite(step, back: true, db)
      return nil
    case .reset:
      try removeInserted(row, undoing: true, db)
      let removed: Int = row["removed"]
      try renumber(from: 0, to: removed, db)  // albums added since stay, after the old ones
      _ = try insertImages(.before, of: step, at: 0, carrying: nil, db)
      // An import that took the sample albums out: its folder's bookkeeping, as for an import.
      if try insertedMusic(step, db) { try noteFilesSaid(by: .before, of: step, db) }
      return nil
    }
  }

  /// Makes again the undone step in `row`; returns the album to select if the one the
  /// step selected is gone, else nil.
  static func makeAgain(_ row: Row, _ db: Database) throws -> Int64? {
    let step: Int64 = row["id"]
    switch try kind(of: row) {
    case .add:
      let after = try image(.after, of: step, db)
      let index = try placement(of: after, moving: nil, db)
      let id = try insertAlbum(after.album, id: after.id, at: index, step: step, added: after.added, db)
      try renameAlbum(after.id, to: id, in: step, db)
      return id
    case .delete:
      try requireImagesUnchanged(.before, of: step, count: try imageCount(.before, of: step, db), undoing: false, db)
      // Where undo puts them back: all recorded before any goes.
      try markImages(.before, of: step, db)
      try db.execute(sql: "DELETE FROM change_album WHERE change_id = ? AND image = 'before'", arguments: [step])
      try appendMarkedImages(as: .before, of: step, db)
      try removeMarkedAlbums(db)
      return nil
    case .edit where try imageCount(.before, of: step, db) > 1:
      let (befores, afters) = (try images(.before, of: step, db), try images(.after, of: step, db))
      for before in befores {
        try requireUnchanged(before.id, carrying: before.step, title: before.album.title, undoing: false, db)
      }
      for after in afters { try writeFields(of: after.album, to: after.id, step: step, db) }
      return afters.first?.id
    case .edit:
      let (before, after) = (try image(.before, of: step, db), try image(.after, of: step, db))
      try requireUnchanged(before.id, carrying: before.step, title: before.album.title, undoing: false, db)
      try writeFields(of: after.album, to: before.id, step: step, db)
      try applyTrackImages(.after, of: step, db)
      return before.id
    case .move where try imageCount(.before, of: step, db) > 1:
      let (befores, afters) = (try images(.before, of: step, db), try images(.after, of: step, db))
      for before in befores {
        try requireUnchanged(before.id, carrying: before.step, title: before.album.title, undoing: false, db)
      }
      try db.execute(sql: "DELETE FROM change_album WHERE change_id = ? AND image = 'before'", arguments: [step])
      for before in befores { try appendImage(before.id, as: .before, of: step, db) }
      let count = try Self.count(db)
      let start = min(afters.first?.album.position ?? 0, count - afters.count)
      try placeBlock(afters.map(\.id), at: afters.indices.map { start + $0 }, step: step, db)
      return afters.first?.id
    case .move:
      let (before, after) = (try image(.before, of: step, db), try image(.after, of: step, db))
      try requireUnchanged(before.id, carrying: before.step, title: before.album.title, undoing: false, db)
      try record(before.id, as: .before, of: step, db)
      try moveAlbum(id: before.id, to: try placement(of: after, moving: before.id, db), step: step, db)
      return before.id
    case .import:
      let count: Int = row["count"]
      let updated = try updatedCount(of: step, db)
      if updated > 0 { try requireImagesUnchanged(.before, of: step, count: updated, undoing: false, db) }
      try requireNotImportedSince(step, db)
      // The copies of the inserted albums stay in the `after` side until the next undo
      // replaces them (deleting a million rows here would double the cost of a redo).
      if count > 0 {
        let inserted = try insertImages(
          .after, of: step, at: try Self.count(db), carrying: step, skippingUpdated: updated > 0, db)
        try recordInserted(firstID: inserted.firstID, count: inserted.count, removed: 0, of: step, db)
      }
      if updated > 0 { try writeImages(.after, of: step, carrying: step, db) }
      try noteFilesSaid(by: .after, of: step, db)
      return nil
    case .write:
      try prepareRewrite(step, back: false, db)
      return nil
    case .reset:
      let (count, removed): (Int, Int) = (row["count"], row["removed"])
      // An import that took the samples out: imported again since is the news, not the
      // samples that import took out again.
      let music = try insertedMusic(step, db)
      if music { try requireNotImportedSince(step, db) }
      try requireImagesUnchanged(.before, of: step, count: removed, undoing: false, db)
      try db.execute(
        sql:
          "DELETE FROM album WHERE id IN (SELECT album_id FROM change_album WHERE change_id = ? AND image = 'before')",
        arguments: [step])
      try renumber(from: 0, to: count, db)
      if count > 0 {
        let inserted = try insertImages(.after, of: step, at: 0, carrying: step, db)
        try recordInserted(firstID: inserted.firstID, count: inserted.count, removed: removed, of: step, db)
      }
      if music { try noteFilesSaid(by: .after, of: step, db) }
      return nil
    }
  }

  /// Undo of a delete when nothing was logged after it (undo right after, the usual case):
  /// the library is as the delete left it, so every album goes back at its recorded position
  /// with its recorded id, in three statements whatever their number. Nil, having changed
  /// nothing, when a later step exists or a recorded id is taken: the caller places them one
  /// by one by their neighbours. Returns the first album put back.
  private static func restoreInPlace(_ step: Int64, _ db: Database) throws -> Int64? {
    let blocked =
      try Bool.fetchOne(
        db,
        sql: """
          SELECT EXISTS (SELECT 1 FROM change WHERE id > ?1)
            OR EXISTS (SELECT 1 FROM change_album c JOIN album a ON a.id = c.album_id
                       WHERE c.change_id = ?1 AND c.image = 'before')
            OR (SELECT MAX(position) FROM change_album WHERE change_id = ?1 AND image = 'before')
               >= (SELECT COUNT(*) FROM album) + (SELECT COUNT(*) FROM change_album WHERE change_id = ?1 AND image = 'before')
          """,
        arguments: [step]) ?? true
    guard !blocked else { return nil }
    // The albums left move up past the gaps: in one order of both, each gap keyed by the
    // number of albums left before it (its recorded position less the gaps before it), an
    // album's place in that order is its position once the gaps are filled.
    try db.execute(
      sql: """
        UPDATE album SET position = r.final
        FROM (
          SELECT id, final FROM (
            SELECT id, ROW_NUMBER() OVER (ORDER BY key, kind) - 1 AS final FROM (
              SELECT id, position AS key, 1 AS kind FROM album
              UNION ALL
              SELECT NULL, position - (ROW_NUMBER() OVER (ORDER BY position) - 1), 0
              FROM change_album WHERE change_id = ?1 AND image = 'before'
            )
          ) WHERE id IS NOT NULL
        ) AS r
        WHERE album.id = r.id AND album.position <> r.final
        """,
      arguments: [step])
    try db.execute(
      sql: """
        INSERT INTO album (id, title, artist, genre, year, coverUrl, position, step, \(musicColumns))
        SELECT album_id, title, artist, genre, year, coverUrl, position, step, \(musicColumns)
        FROM change_album WHERE change_id = ?1 AND image = 'before'
        """,
      arguments: [step])
    // Back in the library: their folders' imports take them again.
    try db.execute(
      sql: """
        UPDATE folder_album SET left_out = 0
        WHERE key IN (SELECT source_key FROM change_album WHERE change_id = ?1 AND image = 'before')
        """,
      arguments: [step])
    return try Int64.fetchOne(
      db, sql: "SELECT album_id FROM change_album WHERE change_id = ? AND image = 'before' ORDER BY position LIMIT 1",
      arguments: [step])
  }

  /// Undo of an import or reset: checks and removes the albums it inserted, keeping a copy
  /// in the step's `after` side for redo, and closes the gap they leave. With
  /// `keepingUpdated` (an import), the `after` images of the albums it updated in place stay.
  private static func removeInserted(_ row: Row, undoing: Bool, keepingUpdated: Bool = false, _ db: Database) throws {
    let (step, count): (Int64, Int) = (row["id"], row["count"])
    guard count > 0, let first = row["first_id"] as Int64?, let last = row["last_id"] as Int64? else { return }
    try requireRangeUnchanged(first: first, last: last, count: count, carrying: step, undoing: undoing, db)
    let low =
      try Int.fetchOne(db, sql: "SELECT MIN(position) FROM album WHERE id BETWEEN ? AND ?", arguments: [first, last])
      ?? 0
    if keepingUpdated { try dropInsertedCopies(of: step, db) }
    try removeRange(first: first, last: last, into: .after, of: step, replacing: !keepingUpdated, db)
    try renumber(from: low, to: low, db)
  }

  /// Checks that no album the import `step` inserted was imported again while the step
  /// was undone (the same source key: a later import of the same folder, by any shell);
  /// redoing it would put every album of the folder in the library twice.
  private static func requireNotImportedSince(_ step: Int64, _ db: Database) throws {
    let again = try String.fetchOne(
      db,
      sql: """
        SELECT c.title FROM change_album c JOIN album a ON a.source_key = c.source_key
        WHERE c.change_id = ?1 AND c.image = 'after' AND c.source_key IS NOT NULL
          AND c.album_id NOT IN (\(updatedIDs))
        ORDER BY c.position LIMIT 1
        """,
      arguments: [step])
    if let again { throw LibraryError.importedSince(title: again) }
  }

  /// Whether the albums `step` inserted (kept in its `after` side while it is undone, and
  /// copied there again by the undo) came from a music folder: a `reset` that is an import
  /// which took the sample albums out, whose undo and redo keep the folder's bookkeeping.
  private static func insertedMusic(_ step: Int64, _ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql:
        "SELECT EXISTS (SELECT 1 FROM change_album WHERE change_id = ? AND image = 'after' AND source_key IS NOT NULL)",
      arguments: [step]) ?? false
  }

  /// How many albums `side` of `step` recorded.
  static func imageCount(_ side: AlbumImage.Side, of step: Int64, _ db: Database) throws -> Int {
    try Int.fetchOne(
      db, sql: "SELECT COUNT(*) FROM change_album WHERE change_id = ? AND image = ?", arguments: [step, side.rawValue])
      ?? 0
  }

  // MARK: - Albums an import updated in place

  /// How many albums `step` updated in place (a folder import imported them before).
  private static func updatedCount(of step: Int64, _ db: Database) throws -> Int {
    try Int.fetchOne(
      db, sql: "SELECT COUNT(*) FROM change_album WHERE change_id = ? AND image = 'before'", arguments: [step]) ?? 0
  }

  /// Removes from `step`'s `after` side the copies of the albums it inserted (kept there
  /// while it is undone), leaving the images of the albums it updated.
  private static func dropInsertedCopies(of step: Int64, _ db: Database) throws {
    try db.execute(
      sql: "DELETE FROM change_album WHERE change_id = ?1 AND image = 'after' AND album_id NOT IN (\(updatedIDs))",
      arguments: [step])
  }

  /// Writes the fields `side` of `step` recorded back to the albums it updated in place,
  /// each marked with `carrying`, or with the step it recorded when nil.
  static func writeImages(_ side: AlbumImage.Side, of step: Int64, carrying: Int64?, _ db: Database) throws {
    var arguments: StatementArguments = [step, side.rawValue]
    if let carrying { arguments += [carrying] }
    try db.execute(
      sql: """
        UPDATE album SET title = c.title, artist = c.artist, genre = c.genre, year = c.year, coverUrl = c.coverUrl,
          step = \(carrying == nil ? "c.step" : "?3"), tracks = c.tracks, duration = c.duration, folder = c.folder,
          source_key = c.source_key, rating = c.rating, fav = c.fav
        FROM change_album c
        WHERE c.change_id = ?1 AND c.image = ?2 AND album.id = c.album_id AND c.album_id IN (\(updatedIDs))
        """,
      arguments: arguments)
  }

  static func kind(of row: Row) throws -> ChangeKind {
    let name: String = row["kind"]
    guard let kind = ChangeKind(rawValue: name) else {
      throw LibraryError.database("the undo log has a step of unknown kind '\(name)'")
    }
    return kind
  }
}
