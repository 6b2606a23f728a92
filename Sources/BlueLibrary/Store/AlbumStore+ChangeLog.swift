import AlbumModel
internal import BlueSQL

// The undo log's bookkeeping and the id-based album moves it is built from; every
// function here runs inside the caller's transaction.
extension AlbumStore {
  /// How many steps the log keeps; a new step prunes older ones.
  static let keptSteps = 1_000

  /// The `change_album` columns after `change_id, image`, in ``AlbumImage/selection`` order.
  static let imageColumns = AlbumImage.selection

  /// The music-folder columns, then the rating and favourite mark, named alike in `album`
  /// and `change_album`, in the order ``imageColumns`` ends with.
  static let musicColumns = "tracks, duration, folder, source_key, added, rating, fav"

  /// The `change` columns ``changeStep(row:)`` reads.
  static let stepColumns = "id, kind, summary, session, undone"

  // MARK: - Transactions

  /// Runs `body` in an immediate transaction: the write lock is taken first, so a step
  /// chosen or checked inside it cannot be changed by another shell before the commit.
  func changing<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
    try transaction(.immediate) { db in
      let result = try body(db)
      try Self.keyMarkedAlbums(db)
      return result
    }
  }

  /// Marks the albums from id `first` on whose title or artist is beyond ASCII (its bytes
  /// outnumber its characters), as the sort-key trigger would have: for a bulk insert that
  /// ran without it.
  static func markUnkeyedAlbums(from first: Int64, _ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE album SET title_key = '' WHERE id >= ? AND (length(CAST(title AS BLOB)) <> length(title)
          OR length(CAST(artist AS BLOB)) <> length(artist))
        """, arguments: [first])
  }

  /// Gives the albums the sort-key triggers marked (an empty `title_key`: a title or artist
  /// beyond ASCII written since) their keys (Schema's `addSortKeys`); through the partial
  /// index `album_unkeyed`, a change that marked none pays one probe of an empty index.
  static func keyMarkedAlbums(_ db: Database) throws {
    try db.cachedStatement(
      sql: """
        UPDATE album SET title_key = bluelib_sortkey(title), artist_key = bluelib_sortkey(artist)
        WHERE title_key = ''
        """
    ).execute()
  }

  // MARK: - Steps

  /// Starts a step: drops the undone steps the session made or undid (a new change clears
  /// its redo; another shell's stay redoable, so a change here does not take away theirs),
  /// logs this one with the album `origin` had selected, prunes the log to ``keptSteps``,
  /// and returns its id.
  static func beginStep(_ kind: ChangeKind, summary: String, origin: ChangeOrigin, _ db: Database) throws -> Int64 {
    let undone = "SELECT id FROM change WHERE undone IS NOT NULL AND (session = ?1 OR undone_by = ?1)"
    try db.execute(sql: "DELETE FROM change_album WHERE change_id IN (\(undone))", arguments: [origin.session])
    try db.execute(sql: "DELETE FROM change_tag WHERE change_id IN (\(undone))", arguments: [origin.session])
    try db.execute(sql: "DELETE FROM change_track WHERE change_id IN (\(undone))", arguments: [origin.session])
    try db.execute(sql: "DELETE FROM change WHERE id IN (\(undone))", arguments: [origin.session])
    let selected = try origin.selection.flatMap { index in try albumID(at: index, db) }
    try db.execute(
      sql: "INSERT INTO change (session, kind, summary, selection_before) VALUES (?, ?, ?, ?)",
      arguments: [origin.session, kind.rawValue, summary, selected])
    let step = db.lastInsertedRowID
    if kind.movesAlbums { try countRenumbering(db) }
    if let cutoff = try Int64.fetchOne(
      db, sql: "SELECT id FROM change ORDER BY id DESC LIMIT 1 OFFSET ?", arguments: [keptSteps])
    {
      try db.execute(sql: "DELETE FROM change_album WHERE change_id <= ?", arguments: [cutoff])
      try db.execute(sql: "DELETE FROM change_tag WHERE change_id <= ?", arguments: [cutoff])
      try db.execute(sql: "DELETE FROM change_track WHERE change_id <= ?", arguments: [cutoff])
      try db.execute(sql: "DELETE FROM change WHERE id <= ?", arguments: [cutoff])
    }
    return step
  }

  /// Ends a step: selects `index` (clamped to the library) and logs the album selected after it.
  static func finishStep(_ step: Int64, selecting index: Int?, _ db: Database) throws {
    let count = try count(db)
    let selection = count == 0 ? nil : index.map { min(max($0, 0), count - 1) }
    try writeSelection(selection, db)
    try db.execute(
      sql: "UPDATE change SET selection_after = ? WHERE id = ?",
      arguments: [try selection.flatMap { try albumID(at: $0, db) }, step])
  }

  /// Logs the ids an import or reset inserted (contiguous) and how many albums it removed.
  static func recordInserted(firstID: Int64, count: Int, removed: Int, of step: Int64, _ db: Database) throws {
    try db.execute(
      sql: "UPDATE change SET first_id = ?, last_id = ?, count = ?, removed = ? WHERE id = ?",
      arguments: [count == 0 ? nil : firstID, count == 0 ? nil : firstID + Int64(count) - 1, count, removed, step])
  }

  /// Logs the album with `id` as it is now stored, with its neighbours, as `side` of `step`
  /// (replacing what that side held: undo and redo refresh where the album stands).
  static func record(_ id: Int64, as side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    try db.execute(
      sql: "DELETE FROM change_album WHERE change_id = ? AND image = ?", arguments: [step, side.rawValue])
    try appendImage(id, as: side, of: step, db)
  }

  /// Logs the album with `id` as it is now stored, with its neighbours, as one more album
  /// of `side` of `step` (a step that touches several albums, such as a folder import).
  static func appendImage(_ id: Int64, as side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    try appendImages(of: "a.id = ?", arguments: [id], as: side, of: step, db)
  }

  /// Appends the albums marked with ``mark(_:_:)`` to `side` of `step`, as
  /// ``appendImage(_:as:of:_:)`` does each, in one statement.
  static func appendMarkedImages(as side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    try appendImages(of: "a.id IN (SELECT id FROM temp.doomed)", arguments: [], as: side, of: step, db)
  }

  private static func appendImages(
    of condition: String, arguments: StatementArguments, as side: AlbumImage.Side, of step: Int64, _ db: Database
  ) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO change_album (change_id, image, \(imageColumns))
        SELECT ?, ?, id, title, artist, genre, year, coverUrl, position,
          (SELECT p.id FROM album p WHERE p.position = a.position - 1),
          (SELECT n.id FROM album n WHERE n.position = a.position + 1),
          step, \(musicColumns)
        FROM album a WHERE \(condition)
        """
    ).execute(arguments: [step, side.rawValue] + arguments)
  }

  /// The one album `side` of a single-album step recorded.
  static func image(_ side: AlbumImage.Side, of step: Int64, _ db: Database) throws -> AlbumImage {
    guard
      let row = try Row.fetchOne(
        db,
        sql: "SELECT \(AlbumImage.selection) FROM change_album WHERE change_id = ? AND image = ?",
        arguments: [step, side.rawValue])
    else {
      throw LibraryError.database("the undo log has no '\(side.rawValue)' album for step \(step)")
    }
    return AlbumImage(row: row)
  }

  /// Every album `side` of `step` recorded, in the order of their positions then.
  static func images(_ side: AlbumImage.Side, of step: Int64, _ db: Database) throws -> [AlbumImage] {
    try Row.fetchAll(
      db,
      sql: "SELECT \(AlbumImage.selection) FROM change_album WHERE change_id = ? AND image = ? ORDER BY position",
      arguments: [step, side.rawValue]
    ).map(AlbumImage.init(row:))
  }

  /// Calls `body` with every album `side` of `step` recorded, in the order of their
  /// positions then, a page of them at a time: undoing the delete of a million albums holds
  /// a page in memory, not the million.
  static func forEachImage(
    _ side: AlbumImage.Side, of step: Int64, _ db: Database, _ body: (AlbumImage) throws -> Void
  ) throws {
    let page = try db.cachedStatement(
      sql: """
        SELECT \(AlbumImage.selection) FROM change_album
        WHERE change_id = ? AND image = ? AND position > ? ORDER BY position LIMIT 4096
        """)
    var after = -1
    while true {
      let images = try Row.fetchAll(page, arguments: [step, side.rawValue, after]).map(AlbumImage.init(row:))
      for image in images { try body(image) }
      guard let last = images.last, images.count == 4096 else { return }
      after = last.album.position
    }
  }

  /// The standing (or, with `undone`, the most recently undone) step to act on: `session`'s
  /// own if it has any step in the log, else the library's.
  static func pickStep(undone: Bool, session: String, _ db: Database) throws -> Row? {
    let hasOwn =
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM change WHERE session = ?)", arguments: [session])
      ?? false
    let condition = (undone ? "undone IS NOT NULL" : "undone IS NULL") + (hasOwn ? " AND session = ?" : "")
    return try Row.fetchOne(
      db, sql: "SELECT * FROM change WHERE \(condition) ORDER BY \(undone ? "undone" : "id") DESC LIMIT 1",
      arguments: hasOwn ? [session] : [])
  }

  static func changeStep(_ step: Int64, _ db: Database) throws -> ChangeStep {
    guard let row = try Row.fetchOne(db, sql: "SELECT \(stepColumns) FROM change WHERE id = ?", arguments: [step])
    else { throw LibraryError.database("the undo log has no step \(step)") }
    return changeStep(row: row)
  }

  static func changeStep(row: Row) -> ChangeStep {
    ChangeStep(
      id: row[0], kind: ChangeKind(rawValue: row[1]) ?? .edit, summary: row[2], session: row[3],
      isUndone: row[4] as Int64? != nil)
  }

  /// After an album of `step` had to take a fresh id, makes the step's log rows name it.
  static func renameAlbum(_ old: Int64, to new: Int64, in step: Int64, _ db: Database) throws {
    guard old != new else { return }
    try db.execute(
      sql: "UPDATE change_album SET album_id = ? WHERE change_id = ? AND album_id = ?", arguments: [new, step, old])
    try db.execute(
      sql: """
        UPDATE change SET
          selection_before = CASE WHEN selection_before = ?1 THEN ?2 ELSE selection_before END,
          selection_after = CASE WHEN selection_after = ?1 THEN ?2 ELSE selection_after END
        WHERE id = ?3
        """,
      arguments: [old, new, step])
  }

  /// `"Title"` for a step's summary, escaped as error messages quote values.
  static func summaryTitle(_ title: String) -> String {
    // Stored as typed: whoever prints a summary escapes control characters for its medium.
    "\"" + title + "\""
  }

  // MARK: - Conflicts

  /// The album with `id`, if it still carries `step` (the value the step being undone or
  /// redone left); else throws the conflict, naming the album by `title`.
  static func requireUnchanged(_ id: Int64, carrying step: Int64?, title: String, undoing: Bool, _ db: Database) throws
  {
    let statement = try db.cachedStatement(sql: "SELECT step FROM album WHERE id = ?")
    guard let carried = try Row.fetchOne(statement, arguments: [id]) else {
      throw LibraryError.deletedSince(title: title, undoing: undoing)
    }
    guard carried[0] as Int64? == step else { throw LibraryError.changedSince(title: title, undoing: undoing) }
  }

  /// Checks that the `count` albums with ids `first...last` all still carry `step`.
  static func requireRangeUnchanged(
    first: Int64, last: Int64, count: Int, carrying step: Int64, undoing: Bool, _ db: Database
  ) throws {
    let standing =
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM album WHERE id BETWEEN ? AND ? AND step IS ?", arguments: [first, last, step])
      ?? 0
    guard standing != count else { return }
    // Only on a conflict: find an album to name.
    if let changed = try String.fetchOne(
      db, sql: "SELECT title FROM album WHERE id BETWEEN ? AND ? AND step IS NOT ? ORDER BY id LIMIT 1",
      arguments: [first, last, step])
    {
      throw LibraryError.changedSince(title: changed, undoing: undoing)
    }
    var expected = first
    let ids = try Int64.fetchCursor(
      db, sql: "SELECT id FROM album WHERE id BETWEEN ? AND ? ORDER BY id", arguments: [first, last])
    while let id = try ids.next(), id == expected { expected += 1 }
    throw LibraryError.deletedSince(title: try deletedTitle(expected, db), undoing: undoing)
  }

  /// Checks that every album `side` of `step` recorded is stored and still carries the step
  /// it recorded (or, when given, `carrying`).
  static func requireImagesUnchanged(
    _ side: AlbumImage.Side, of step: Int64, count: Int, carrying: Int64? = nil, undoing: Bool, _ db: Database
  ) throws {
    let expected = carrying == nil ? "c.step" : "?3"
    var arguments: StatementArguments = [step, side.rawValue]
    if let carrying { arguments += [carrying] }
    let standing =
      try Int.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) FROM change_album c JOIN album a ON a.id = c.album_id AND a.step IS \(expected)
          WHERE c.change_id = ?1 AND c.image = ?2
          """,
        arguments: arguments) ?? 0
    guard standing != count else { return }
    guard
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT c.title, a.id IS NULL FROM change_album c LEFT JOIN album a ON a.id = c.album_id
          WHERE c.change_id = ?1 AND c.image = ?2 AND (a.id IS NULL OR a.step IS NOT \(expected))
          ORDER BY c.position LIMIT 1
          """,
        arguments: arguments)
    else { return }
    let title: String = row[0]
    throw (row[1] as Bool)
      ? LibraryError.deletedSince(title: title, undoing: undoing)
      : LibraryError.changedSince(title: title, undoing: undoing)
  }

  /// The title a deleted album had, from the step that deleted it if it is still logged.
  private static func deletedTitle(_ id: Int64, _ db: Database) throws -> String {
    try String.fetchOne(
      db, sql: "SELECT title FROM change_album WHERE album_id = ? ORDER BY change_id DESC LIMIT 1", arguments: [id])
      ?? "album id \(id)"
  }

  // MARK: - Albums by id

  static func album(id: Int64, _ db: Database) throws -> Album {
    guard let album = try Album.fetchOne(db, sql: "SELECT \(Album.selection) FROM album WHERE id = ?", arguments: [id])
    else { throw LibraryError.noAlbumWithID(id) }
    return album
  }

  static func albumID(at index: Int, _ db: Database) throws -> Int64? {
    try Int64.fetchOne(db, sql: "SELECT id FROM album WHERE position = ?", arguments: [index])
  }

  static func position(of id: Int64, _ db: Database) throws -> Int? {
    try Int.fetchOne(db.cachedStatement(sql: "SELECT position FROM album WHERE id = ?"), arguments: [id])
  }

  /// An id above every album's and every id the undo log mentions.
  static func unusedID(_ db: Database) throws -> Int64 {
    let logged = try Int64.fetchOne(
      db, sql: "SELECT MAX(MAX(album_id), IFNULL(MAX(prev_id), 0), IFNULL(MAX(next_id), 0)) FROM change_album")
    return max(try maxID(db), logged ?? 0) + 1
  }

  static func maxID(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM album") ?? 0
  }

  /// Selects the first of `ids` still stored, else keeps (clamped) the current selection;
  /// returns the selection.
  static func selectFirstStored(_ ids: [Int64?], _ db: Database) throws -> Int? {
    for case let id? in ids {
      if let position = try position(of: id, db) {
        try writeSelection(position, db)
        return position
      }
    }
    try select(nil, db)
    return try readSelection(db)
  }

  /// Inserts `album` at `index` (0...count), shifting the later albums, with `id` unless
  /// nil or taken (then SQLite picks a fresh one); returns the id it got.
  /// A new album (`add`) gets `added` now; one put back by undo or redo gets the `added`
  /// its image recorded, NULL included (an album from before the field reads the migration's time).
  static func insertAlbum(
    _ album: Album, id: Int64?, at index: Int, step: Int64?, added: Int64?, _ db: Database
  ) throws -> Int64 {
    let free = try id.map { id in try position(of: id, db) == nil } ?? false
    // Back in the library (an undone delete): its folder's imports take it again.
    // Cached statements: undoing a delete of a million albums makes these a million times.
    if let key = album.sourceKey {
      try db.cachedStatement(sql: "UPDATE folder_album SET left_out = 0 WHERE key = ?").execute(arguments: [key])
    }
    let shift = try db.cachedStatement(sql: "UPDATE album SET position = position + 1 WHERE position >= ?")
    try shift.execute(arguments: [index])
    try db.cachedStatement(
      sql: """
        INSERT INTO album (id, title, artist, genre, year, coverUrl, position, step, \(musicColumns))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(
      arguments: [
        free ? id : nil, album.title, album.artist, album.genre, album.year, album.coverURL, index, step,
        album.tracks, album.duration, album.folder, album.sourceKey, added, album.rating, album.favourite,
      ])
    return db.lastInsertedRowID
  }

  /// Deletes the album with `id`, shifting the later albums down.
  static func removeAlbum(id: Int64, _ db: Database) throws {
    guard let position = try position(of: id, db) else { throw LibraryError.noAlbumWithID(id) }
    try db.execute(sql: "DELETE FROM album WHERE id = ?", arguments: [id])
    try db.execute(sql: "UPDATE album SET position = position - 1 WHERE position > ?", arguments: [position])
  }

  /// Marks the albums with `ids` for ``appendMarkedImages(as:of:_:)`` and
  /// ``removeMarkedAlbums(_:)`` (a temporary table), in place of any marked before.
  static func mark(_ ids: [Int64], _ db: Database) throws {
    try clearMarks(db)
    let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO temp.doomed (id) VALUES (?)")
    for id in ids { try insert.execute(arguments: [id]) }
  }

  /// Marks the albums `side` of `step` recorded, as ``mark(_:_:)`` does.
  static func markImages(_ side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    try clearMarks(db)
    try db.execute(
      sql: "INSERT OR IGNORE INTO temp.doomed (id) SELECT album_id FROM change_album WHERE change_id = ? AND image = ?",
      arguments: [step, side.rawValue])
  }

  private static func clearMarks(_ db: Database) throws {
    try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS doomed (id INTEGER PRIMARY KEY)")
    try db.execute(sql: "DELETE FROM temp.doomed")
  }

  /// Deletes the albums marked with ``mark(_:_:)`` and closes the gaps in one pass:
  /// deleting them one by one shifted every later position once per album (a `delete all`
  /// of a large view never ended).
  ///
  /// A delete is yours: an album of a music folder among them is left out of the folder's
  /// next import (`folder_album.left_out`) until it is back.
  static func removeMarkedAlbums(_ db: Database) throws {
    // One statement for all of them: a `delete all` of a million albums stays one pass.
    try db.execute(
      sql: """
        UPDATE folder_album SET left_out = 1
        WHERE key IN (SELECT source_key FROM album WHERE id IN (SELECT id FROM temp.doomed) AND source_key IS NOT NULL)
        """)
    let low = try Int.fetchOne(
      db, sql: "SELECT MIN(position) FROM album WHERE id IN (SELECT id FROM temp.doomed)")
    try db.execute(sql: "DELETE FROM album WHERE id IN (SELECT id FROM temp.doomed)")
    try db.execute(sql: "DELETE FROM temp.doomed")
    if let low { try renumber(from: low, to: low, db) }
  }

  /// Moves the album with `id` to index `index` (0..<count) and marks it written by `step`.
  static func moveAlbum(id: Int64, to index: Int, step: Int64?, _ db: Database) throws {
    guard let from = try position(of: id, db) else { throw LibraryError.noAlbumWithID(id) }
    if from < index {
      try db.execute(
        sql: "UPDATE album SET position = position - 1 WHERE position > ? AND position <= ?", arguments: [from, index])
    } else if from > index {
      try db.execute(
        sql: "UPDATE album SET position = position + 1 WHERE position >= ? AND position < ?", arguments: [index, from])
    }
    try db.execute(sql: "UPDATE album SET position = ?, step = ? WHERE id = ?", arguments: [index, step, id])
  }

  /// Writes `album`'s fields (the music-folder ones, its source key, rating and mark too) to the album
  /// with `id` and marks it written by `step`.
  static func writeFields(of album: Album, to id: Int64, step: Int64?, _ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE album SET title = ?, artist = ?, genre = ?, year = ?, coverUrl = ?, step = ?,
          tracks = ?, duration = ?, folder = ?, source_key = ?, rating = ?, fav = ?
        WHERE id = ?
        """,
      arguments: [
        album.title, album.artist, album.genre, album.year, album.coverURL, step, album.tracks, album.duration,
        album.folder, album.sourceKey, album.rating, album.favourite, id,
      ])
  }

  /// Where an album goes back: just after `image`'s old previous neighbour if it is still
  /// stored, else just before its old next one, else its old index, clamped. `moving` is
  /// an album now in the library that is taken out first (a move); it is not a neighbour.
  static func placement(of image: AlbumImage, moving: Int64?, _ db: Database) throws -> Int {
    let current = try moving.flatMap { try position(of: $0, db) }
    func withoutMoving(_ position: Int) -> Int {
      if let current, position > current { position - 1 } else { position }
    }
    if let previous = image.previousID, previous != moving, let position = try position(of: previous, db) {
      return withoutMoving(position) + 1
    }
    if let next = image.nextID, next != moving, let position = try position(of: next, db) {
      return withoutMoving(position)
    }
    let count = try count(db) - (current == nil ? 0 : 1)
    return min(max(image.album.position, 0), count)
  }

  // MARK: - Albums in bulk (import and reset)

  /// Copies the albums with ids `first...last` into `side` of `step` (replacing what that
  /// side held, unless `replacing` is false) and deletes them; the positions are left with
  /// gaps for the caller to close with ``renumber(from:to:_:)``.
  static func removeRange(
    first: Int64, last: Int64, into side: AlbumImage.Side, of step: Int64, replacing: Bool = true, _ db: Database
  ) throws {
    if replacing {
      try db.execute(
        sql: "DELETE FROM change_album WHERE change_id = ? AND image = ?", arguments: [step, side.rawValue])
    }
    try db.execute(
      sql: """
        INSERT INTO change_album (change_id, image, \(imageColumns))
        SELECT ?, ?, id, title, artist, genre, year, coverUrl, position, NULL, NULL, step, \(musicColumns)
        FROM album WHERE id BETWEEN ? AND ?
        """,
      arguments: [step, side.rawValue, first, last])
    try db.execute(sql: "DELETE FROM album WHERE id BETWEEN ? AND ?", arguments: [first, last])
  }

  /// Numbers the albums at positions `low` and after densely from `base`, keeping their order.
  static func renumber(from low: Int, to base: Int, _ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE album SET position = r.position
        FROM (SELECT id, ?2 + ROW_NUMBER() OVER (ORDER BY position) - 1 AS position FROM album WHERE position >= ?1) AS r
        WHERE album.id = r.id AND album.position <> r.position
        """,
      arguments: [low, base])
  }

  /// Inserts the albums `side` of `step` recorded, in their recorded order, at positions
  /// `start`, `start + 1`, … (which the caller has freed), with their recorded ids; if any
  /// of those ids is taken, all get fresh contiguous ids. Each carries `step` when given,
  /// else the step it recorded. With `skippingUpdated`, the albums that also have a
  /// `before` image (those a folder import updated rather than inserted) are left out.
  /// Returns the first id and how many were inserted.
  static func insertImages(
    _ side: AlbumImage.Side, of step: Int64, at start: Int, carrying: Int64?, skippingUpdated: Bool = false,
    _ db: Database
  ) throws -> (firstID: Int64, count: Int) {
    let rows =
      "change_id = ?1 AND image = ?2"
      + (skippingUpdated ? " AND album_id NOT IN (\(updatedIDs))" : "")
    let count =
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM change_album WHERE \(rows)", arguments: [step, side.rawValue])
      ?? 0
    let taken =
      try Bool.fetchOne(
        db,
        sql: """
          SELECT EXISTS (SELECT 1 FROM change_album JOIN album a ON a.id = album_id WHERE \(rows))
          """,
        arguments: [step, side.rawValue]) ?? false
    let fresh = try maxID(db) + 1
    var arguments: StatementArguments = [step, side.rawValue, start]
    if let carrying { arguments += [carrying] }
    try db.execute(
      sql: """
        INSERT INTO album (id, title, artist, genre, year, coverUrl, position, step, \(musicColumns))
        SELECT \(taken ? "NULL" : "album_id"), title, artist, genre, year, coverUrl,
          ?3 + ROW_NUMBER() OVER (ORDER BY position) - 1, \(carrying == nil ? "step" : "?4"), \(musicColumns)
        FROM change_album WHERE \(rows) ORDER BY position
        """,
      arguments: arguments)
    guard taken else {
      return (
        try Int64.fetchOne(
          db, sql: "SELECT MIN(album_id) FROM change_album WHERE \(rows)", arguments: [step, side.rawValue])
          ?? fresh, count
      )
    }
    return (fresh, count)
  }

  /// The ids of the albums step `?1` updated in place (a folder import): those with a
  /// `before` image, as a subquery.
  static let updatedIDs = "SELECT album_id FROM change_album WHERE change_id = ?1 AND image = 'before'"
}
