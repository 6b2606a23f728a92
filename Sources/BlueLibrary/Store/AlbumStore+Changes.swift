import AlbumModel
internal import BlueSQL

// The logged changes: each is one immediate transaction holding the albums it writes,
// its step in the undo log (with the mementos undo and redo need) and the selection.
// Undo and redo act on album ids, never on positions, so they stay right when another
// shell changed the library in between, and refuse a step whose albums it changed.
extension AlbumStore {
  // MARK: - Changes

  /// Inserts `album` at `index` (0...count) with a fresh id, logs it, and selects it.
  package func add(
    _ album: Album, at index: Int, origin: ChangeOrigin
  ) throws(LibraryError) -> (album: Album, step: ChangeStep) {
    try changing { db in
      let count = try Self.count(db)
      guard (0...count).contains(index) else { throw LibraryError.noAlbum(index: index, count: count) }
      let valid = try album.validated()
      let step = try Self.beginStep(.add, summary: "add \(Self.summaryTitle(valid.title))", origin: origin, db)
      let id = try Self.insertAlbum(valid, id: nil, at: index, step: step, added: Self.addedNow, db)
      try Self.record(id, as: .after, of: step, db)
      try Self.finishStep(step, selecting: index, db)
      return (try Self.album(id: id, db), try Self.changeStep(step, db))
    }
  }

  /// Stores new field values for the album with `album.id` (its position is kept) and logs
  /// the change. The selection stays `origin.selection`.
  package func edit(
    _ album: Album, origin: ChangeOrigin
  ) throws(LibraryError) -> (before: Album, after: Album, step: ChangeStep) {
    try changing { db in
      guard let id = album.id else { throw LibraryError.database("cannot edit an album that was never stored") }
      let valid = try album.validated()
      guard
        let before = try Album.fetchOne(db, sql: "SELECT \(Album.selection) FROM album WHERE id = ?", arguments: [id])
      else { throw LibraryError.noAlbumWithID(id) }
      let step = try Self.beginStep(.edit, summary: "edit \(Self.summaryTitle(valid.title))", origin: origin, db)
      try Self.record(id, as: .before, of: step, db)
      try Self.writeFields(of: valid, to: id, step: step, db)
      try Self.record(id, as: .after, of: step, db)
      try Self.finishStep(step, selecting: origin.selection, db)
      return (before, try Self.album(id: id, db), try Self.changeStep(step, db))
    }
  }

  /// Writes `albums` (each stored, named by its id, at most once) as one logged step: one
  /// undo puts back every album's fields as they were, one redo writes them again. Each
  /// album is checked first; a bad one changes nothing. Returns the albums as stored now.
  /// `summary` names the step in the log (`edit "X"`, `edit of 3 albums` by default).
  /// `pending`: a mark of albums of a server (by source key) that waits for the server from
  /// this change on (``notePending(_:of:_:)``), noted in its transaction.
  package func edit(
    _ albums: [Album], summary: String? = nil, pending: (mark: PendingMark, keys: [String])? = nil,
    origin: ChangeOrigin
  ) throws(LibraryError) -> (after: [Album], step: ChangeStep) {
    try changing { db in
      if let pending { try Self.notePending(pending.mark, of: pending.keys, db) }
      let valid = try albums.map { try $0.validated() }
      let summary =
        summary
        ?? (valid.count == 1
          ? "edit \(Self.summaryTitle(valid[0].title))" : "edit of \(Library.albumCount(valid.count))")
      let step = try Self.beginStep(.edit, summary: summary, origin: origin, db)
      var ids: [Int64] = []
      for album in valid {
        guard let id = album.id else { throw LibraryError.database("cannot edit an album that was never stored") }
        guard try Self.position(of: id, db) != nil else { throw LibraryError.noAlbumWithID(id) }
        try Self.appendImage(id, as: .before, of: step, db)
        try Self.writeFields(of: album, to: id, step: step, db)
        try Self.appendImage(id, as: .after, of: step, db)
        ids.append(id)
      }
      try Self.finishStep(step, selecting: origin.selection, db)
      return (try ids.map { try Self.album(id: $0, db) }, try Self.changeStep(step, db))
    }
  }

  /// Deletes the album with `id` and logs it. Then selects `selecting` (clamped), or when
  /// nil the album `origin.selection` held if it is still there, else that index clamped.
  package func delete(
    id: Int64, selecting: Int?, origin: ChangeOrigin
  ) throws(LibraryError) -> (album: Album, step: ChangeStep) {
    let deleted = try delete(ids: [id], selecting: selecting, origin: origin)
    return (deleted.albums.first[0], deleted.step)
  }

  /// Deletes the albums with `ids` (at least one) as one logged step: one undo brings them
  /// all back where they were. Selection as ``delete(id:selecting:origin:)``.
  ///
  /// Set-based: the albums are never loaded, only the first three (for the step's summary
  /// and the message), so a `delete all` of a million albums is a few statements.
  package func delete(
    ids: [Int64], selecting: Int?, origin: ChangeOrigin
  ) throws(LibraryError) -> (albums: DeletedAlbums, step: ChangeStep) {
    try changing { db in
      try Self.mark(ids, db)
      let missing = try Int64.fetchOne(
        db,
        sql: """
          SELECT d.id FROM temp.doomed d WHERE NOT EXISTS (SELECT 1 FROM album a WHERE a.id = d.id) ORDER BY d.id LIMIT 1
          """)
      if let missing { throw LibraryError.noAlbumWithID(missing) }
      let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM temp.doomed") ?? 0
      let named = try Album.fetchAll(
        db,
        sql: "SELECT \(Album.selection) FROM album WHERE id IN (SELECT id FROM temp.doomed) ORDER BY position LIMIT 3")
      guard let first = named.first else { throw LibraryError.database("a delete of no album") }
      let deleted = DeletedAlbums(count: count, first: named)
      let selectedID = try origin.selection.flatMap { index in try Self.albumID(at: index, db) }
      let step = try Self.beginStep(.delete, summary: Self.deleteSummary(deleted), origin: origin, db)
      // Every image is taken before any album goes, so each keeps its first neighbours:
      // undo puts them back in order, each after the one before it.
      try Self.appendMarkedImages(as: .before, of: step, db)
      try Self.removeMarkedAlbums(db)
      var next = selecting
      if next == nil {
        if let selectedID, !ids.contains(selectedID), let position = try Self.position(of: selectedID, db) {
          next = position
        } else {
          next = origin.selection.map { min($0, first.position) }
        }
      }
      try Self.finishStep(step, selecting: next, db)
      return (deleted, try Self.changeStep(step, db))
    }
  }

  /// `delete "Title"`, or `delete 3 albums ("A", "B", "C")`, at most three titles named.
  static func deleteSummary(_ deleted: DeletedAlbums) -> String {
    guard deleted.count > 1 else { return "delete \(summaryTitle(deleted.first[0].title))" }
    let named = deleted.first.prefix(3).map { summaryTitle($0.title) }.joined(separator: ", ")
    return "delete \(Library.albumCount(deleted.count)) (\(named)\(deleted.count > 3 ? ", …" : ""))"
  }

  /// Moves the album with `id` to index `index` (0..<count), logs it, and selects it there.
  package func move(
    id: Int64, to index: Int, origin: ChangeOrigin
  ) throws(LibraryError) -> (album: Album, from: Int, step: ChangeStep) {
    try changing { db in
      let album = try Self.album(id: id, db)
      let count = try Self.count(db)
      guard (0..<count).contains(index) else { throw LibraryError.noAlbum(index: index, count: count) }
      let step = try Self.beginStep(
        .move, summary: "move \(Self.summaryTitle(album.title))", origin: origin, db)
      try Self.record(id, as: .before, of: step, db)
      try Self.moveAlbum(id: id, to: index, step: step, db)
      try Self.record(id, as: .after, of: step, db)
      try Self.finishStep(step, selecting: index, db)
      return (try Self.album(id: id, db), album.position, try Self.changeStep(step, db))
    }
  }

  /// Moves the albums with `ids` (at least two, no repeats) as one block, in their order, so
  /// the first lands at index `index`, as one logged step; selects the first there.
  package func move(
    ids: [Int64], to index: Int, origin: ChangeOrigin
  ) throws(LibraryError) -> (albums: [Album], step: ChangeStep) {
    try changing { db in
      let albums = try ids.map { id in try Self.album(id: id, db) }.sorted { $0.position < $1.position }
      let count = try Self.count(db)
      guard (0...(count - albums.count)).contains(index) else {
        throw LibraryError.noAlbum(index: index + albums.count - 1, count: count)
      }
      let block = albums.compactMap(\.id)
      let step = try Self.beginStep(.move, summary: Self.moveSummary(albums), origin: origin, db)
      for id in block { try Self.appendImage(id, as: .before, of: step, db) }
      try Self.placeBlock(block, at: block.indices.map { index + $0 }, step: step, db)
      for id in block { try Self.appendImage(id, as: .after, of: step, db) }
      try Self.finishStep(step, selecting: index, db)
      return (try block.map { id in try Self.album(id: id, db) }, try Self.changeStep(step, db))
    }
  }

  /// `move 3 albums ("A", "B", "C")`, at most three titles named.
  static func moveSummary(_ albums: [Album]) -> String {
    let named = albums.prefix(3).map { summaryTitle($0.title) }.joined(separator: ", ")
    return "move \(Library.albumCount(albums.count)) (\(named)\(albums.count > 3 ? ", …" : ""))"
  }

  /// Puts the albums `block` (in their current order) at `positions` (ascending): all go
  /// to the end first, in order, and then each from there to its place, so the others keep
  /// their order around them. Each is marked written by `step`, or keeps its own when nil.
  static func placeBlock(
    _ block: [Int64], at positions: [Int], step: Int64?, stepping steps: [Int64?]? = nil, _ db: Database
  ) throws {
    let last = try count(db) - 1
    for (offset, id) in block.enumerated() {
      try moveAlbum(id: id, to: last, step: steps?[offset] ?? step, db)
    }
    for (offset, id) in block.enumerated() {
      // Another shell may have removed albums since: a place past the end is the end.
      try moveAlbum(id: id, to: min(positions[offset], last), step: steps?[offset] ?? step, db)
    }
  }

  /// Appends `albums` after the last one, all or nothing, as one logged step, and returns
  /// their indices. The selection stays `origin.selection`.
  ///
  /// The fast path of a million-album import: one prepared statement, and the step
  /// records only the range of fresh, contiguous ids the albums get, not the albums.
  package func importAlbums(
    _ albums: [Album], origin: ChangeOrigin
  ) throws(LibraryError) -> (range: Range<Int>, step: ChangeStep) {
    try changing { db in
      let count = try Self.count(db)
      let firstID = try Self.maxID(db) + 1
      let step = try Self.beginStep(
        .import, summary: "import of \(Library.albumCount(albums.count))", origin: origin, db)
      try Self.insertAll(albums, from: count, firstID: firstID, step: step, db)
      try Self.recordInserted(firstID: firstID, count: albums.count, removed: 0, of: step, db)
      try Self.finishStep(step, selecting: origin.selection, db)
      return (count..<(count + albums.count), try Self.changeStep(step, db))
    }
  }

  /// Replaces every album with `albums` (`reset`) as one logged step, selects the first,
  /// and returns how many albums it removed.
  ///
  /// The removed albums are copied into the log by SQLite (`INSERT … SELECT`), never
  /// loaded into memory, so resetting a million albums costs no more memory than five.
  package func reset(
    to albums: [Album], origin: ChangeOrigin
  ) throws(LibraryError) -> (removed: Int, step: ChangeStep) {
    try changing { db in
      let removed = try Self.count(db)
      // Ids above every old one, so undo can give the old albums their ids back.
      let firstID = try Self.maxID(db) + 1
      let step = try Self.beginStep(.reset, summary: "reset", origin: origin, db)
      try db.execute(
        sql: """
          INSERT INTO change_album (change_id, image, \(Self.imageColumns))
          SELECT ?, 'before', id, title, artist, genre, year, coverUrl, position, NULL, NULL, step, \(Self.musicColumns)
          FROM album
          """,
        arguments: [step])
      try db.execute(sql: "DELETE FROM album")
      try Self.insertAll(albums, from: 0, firstID: firstID, step: step, db)
      try Self.recordInserted(firstID: firstID, count: albums.count, removed: removed, of: step, db)
      try Self.finishStep(step, selecting: albums.isEmpty ? nil : 0, db)
      return (removed, try Self.changeStep(step, db))
    }
  }

  // MARK: - Undo and redo

  /// Takes back `session`'s latest standing step or, if `session` has no step in the log,
  /// the library's latest; selects what was selected before it.
  ///
  /// Throws ``LibraryError/nothingToUndo`` when there is none, and
  /// ``LibraryError/changedSince(title:undoing:)`` or ``LibraryError/deletedSince(title:undoing:)``
  /// (changing nothing) when an album the step wrote was changed or deleted since.
  package func undo(session: String) throws(LibraryError) -> StepResult {
    try changing { db in
      let (row, restored, step) = try Self.replay(undoing: true, session: session, db)
      try db.execute(
        sql: "UPDATE change SET undone = (SELECT COALESCE(MAX(undone), 0) + 1 FROM change), undone_by = ? WHERE id = ?",
        arguments: [session, step])
      let preferred: Int64? = try Int64.fetchOne(
        db, sql: "SELECT selection_before FROM change WHERE id = ?", arguments: [step])
      // Undoing a delete brings the album back and selects it (SPEC §3, the original's trash).
      let order = try Self.kind(of: row) == .delete ? [restored, preferred] : [preferred, restored]
      let selection = try Self.selectFirstStored(order, db)
      return StepResult(step: try Self.changeStep(step, db), selection: selection)
    }
  }

  /// Makes again the most recently undone step of `session` or, if `session` has no step
  /// in the log, of the library; selects what the step selected.
  ///
  /// Throws ``LibraryError/nothingToRedo`` when there is none, and the same conflicts as ``undo(session:)``.
  package func redo(session: String) throws(LibraryError) -> StepResult {
    try changing { db in
      let (_, restored, step) = try Self.replay(undoing: false, session: session, db)
      try db.execute(sql: "UPDATE change SET undone = NULL, undone_by = NULL WHERE id = ?", arguments: [step])
      let preferred: Int64? = try Int64.fetchOne(
        db, sql: "SELECT selection_after FROM change WHERE id = ?", arguments: [step])
      let selection = try Self.selectFirstStored([preferred, restored], db)
      return StepResult(step: try Self.changeStep(step, db), selection: selection)
    }
  }

  /// Takes back (`undoing`) or makes again the step ``undo(session:)`` or ``redo(session:)``
  /// picks, counting the renumbering of a step that moves albums: its row, the album it
  /// brought back (if any) and its id.
  private static func replay(
    undoing: Bool, session: String, _ db: Database
  ) throws -> (row: Row, restored: Int64?, step: Int64) {
    guard let row = try pickStep(undone: !undoing, session: session, db) else {
      throw undoing ? LibraryError.nothingToUndo : LibraryError.nothingToRedo
    }
    let restored = try undoing ? takeBack(row, db) : makeAgain(row, db)
    if try kind(of: row).movesAlbums { try countRenumbering(db) }
    return (row, restored, row["id"])
  }

  /// The latest `limit` steps of the log, newest first, standing and undone (`undo --list`).
  package func changeLog(limit: Int) throws(LibraryError) -> [ChangeStep] {
    try reading { db in
      try Row.fetchAll(
        db, sql: "SELECT \(Self.stepColumns) FROM change ORDER BY id DESC LIMIT ?", arguments: [max(0, limit)]
      ).map(Self.changeStep(row:))
    }
  }

  /// SQLite's `PRAGMA data_version`: it changes when another connection (another shell)
  /// has committed to the file since this store last looked, so cached counts are stale.
  /// Within a snapshot, the version it read as it began.
  package func dataVersion() throws(LibraryError) -> Int {
    let read = snapshotDataVersion.load(ordering: .relaxed)
    if read != Self.noDataVersion { return read }
    return try reading { db in try Self.fastInteger(db, sql: "PRAGMA data_version") ?? 0 }
  }
}
