import AlbumModel
internal import BlueSQL
internal import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The write journal (`Schema.addWriteJournal`): a `write` step, or the undo or redo of one,
// is committed with its journal before the first file is touched; the files are written
// after the commit, outside any lock; the journal is closed when the last one is. A writer
// that dies midway (a crash, `kill -9`) leaves the journal, and the next bluelib finishes
// the files or, when one cannot be written, puts every file back, so the files always end
// up as the library says. A writer stopped by a signal (SIGINT, SIGTERM: the user cancels)
// marks the journal cancelled and puts back the files it wrote; if it dies doing so, the
// next bluelib finishes putting them back. Files are compared one by one: a file that holds
// neither what the step found nor what it writes (another program changed it) is left
// alone, whichever way the journal goes.
extension AlbumStore {
  /// What a journal's files are being brought to: the step's `after` tags (a write, a
  /// redo) or its `before` ones (an undo).
  enum JournalDirection: String {
    case write, undo, redo
  }

  /// An open journal: its step, which way, the process writing, and whether a signal
  /// cancelled it (its files are being put back).
  struct Journal {
    var step: Int64
    var direction: JournalDirection
    var summary: String
    var owner: ProcessIdentity?
    var cancelled = false
  }

  /// What ``runJournal(_:shouldStop:whenStopped:)`` does when `shouldStop` says to stop.
  enum JournalStop {
    /// Puts back the files written and the library with them: the user stopped the write
    /// (or its undo or redo), and gets what was there before it.
    case cancel
    /// Leaves the journal open for the next bluelib to finish: what was being finished is
    /// a write a stopped bluelib left.
    case leave
  }

  /// How ``runJournal(_:shouldStop:)`` ended.
  enum JournalEnd: Equatable {
    /// Every file holds what the journal writes: `written` of `files` were written now;
    /// `leftAlone` (paths) held neither side's tags, and were not touched.
    case finished(written: Int, files: Int, leftAlone: [String])
    /// A file could not be written (`path`, `reason`): the files were put back as they were
    /// before the step (or its undo or redo), `putBack` of them now, and the library too;
    /// `stuck` (paths) could not be put back.
    case rolledBack(path: String, reason: String, putBack: Int, stuck: [String])
    /// Stopped by a signal (or found cancelled by one): the files written were put back,
    /// `putBack` of them now, and the library too; `stuck` (paths) could not be put back.
    case cancelled(putBack: Int, stuck: [String])
  }

  /// Opens the journal of `step`.
  static func openJournal(_ step: Int64, direction: JournalDirection, _ db: Database) throws {
    try db.execute(
      sql: "INSERT INTO write_journal (change_id, direction, owner) VALUES (?, ?, ?)",
      arguments: [step, direction.rawValue, ProcessIdentity.current.text])
  }

  /// Throws ``LibraryError/writeInProgress(summary:pid:)`` when a journal is open: one
  /// writer of files at a time, so no writer puts back or overwrites what another wrote.
  static func requireNoJournal(_ db: Database) throws {
    guard let journal = try journals(db).first else { return }
    throw LibraryError.writeInProgress(summary: journal.summary, pid: journal.owner?.pid ?? 0)
  }

  private static func journals(_ db: Database) throws -> [Journal] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT j.change_id, j.direction, c.summary, j.owner, j.cancelled FROM write_journal j
        LEFT JOIN change c ON c.id = j.change_id ORDER BY j.change_id
        """
    ).map { row in
      Journal(
        step: row[0], direction: JournalDirection(rawValue: row[1]) ?? .write, summary: row[2] ?? "a write",
        owner: ProcessIdentity(text: row[3]), cancelled: row[4])
    }
  }

  /// The journals whose writer is gone (or is this process, which runs one write at a
  /// time): those to finish before anything else writes files.
  func abandonedJournals() throws(LibraryError) -> [Journal] {
    try reading { db in
      // One probe of an empty table on the usual start.
      guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM write_journal)") == true else { return [] }
      return try Self.journals(db).filter { journal in
        guard let owner = journal.owner else { return true }
        return owner == ProcessIdentity.current || !owner.isRunning
      }
    }
  }

  /// Writes the files of the journal of `step` and closes it: each file that holds the
  /// tags the step found gets the ones it writes; one that already holds them is left as it
  /// is (a writer stopped after it); one that holds neither is left alone. When a file
  /// cannot be written, every file that holds what the journal wrote is put back and the
  /// library goes back to before the step (a write is dropped from the log, an undo or
  /// redo is taken back). The hidden copies a stopped writer left beside the files are
  /// removed first. A journal a signal cancelled is put back so.
  ///
  /// `shouldStop` is asked before each file and between blocks of its copy. When it says so
  /// (a signal), `whenStopped` decides: ``JournalStop/cancel`` marks the journal cancelled
  /// and puts back the files written, whatever more signals come (``withoutInterrupts(_:)``),
  /// and returns ``JournalEnd/cancelled(putBack:stuck:)``; ``JournalStop/leave`` throws
  /// ``LibraryError/writeStopped(summary:done:files:)``, the journal left open for the next
  /// bluelib to finish.
  func runJournal(
    _ step: Int64, shouldStop: () -> Bool, whenStopped: JournalStop
  ) throws(LibraryError) -> JournalEnd {
    let found = try reading { db -> (Journal, [FileWrite])? in
      guard let journal = try Self.journals(db).first(where: { $0.step == step }) else { return nil }
      return (journal, try Self.journalFiles(step, db))
    }
    guard let (journal, files) = found else { return .finished(written: 0, files: 0, leftAlone: []) }
    let forward = journal.direction != .undo
    func target(_ file: FileWrite) -> FileTags { forward ? file.after : file.before.restoring(file.after) }
    func source(_ file: FileWrite) -> FileTags { forward ? file.before.restoring(file.after) : file.after }
    // What the files are given: the step's tags, or back as before it (rating tags exactly).
    func targetEdit(_ file: FileWrite) -> TagEdit { forward ? file.after.tagEdit : file.restoringEdit }
    func sourceEdit(_ file: FileWrite) -> TagEdit { forward ? file.restoringEdit : file.after.tagEdit }
    func current(_ file: FileWrite) -> FileTags? {
      guard case .track(let tags) = TrackTags.read(file.path) else { return nil }
      return FileTags(of: tags, touchedBy: file.after).plain
    }
    // Back as before: each file that holds what the journal wrote (now or before a stop),
    // and the library with them.
    func putBack() throws(LibraryError) -> (putBack: Int, stuck: [String]) {
      var putBack = 0
      var stuck: [String] = []
      for file in files where target(file).plain != source(file).plain && current(file) == target(file).plain {
        do {
          try sourceEdit(file).writeSafely(to: file.path)
          putBack += 1
        } catch {
          stuck.append(file.path)
        }
      }
      try changing { db in
        try Self.takeBackRecords(of: journal, db)
        try db.execute(sql: "DELETE FROM write_journal WHERE change_id = ?", arguments: [step])
        try Self.rereadTracks(files.map(\.path), db)
      }
      return (putBack, stuck)
    }
    func cancel() throws(LibraryError) -> JournalEnd {
      try withoutInterrupts { () throws(LibraryError) -> JournalEnd in
        if !journal.cancelled {
          try changing { db in
            try db.execute(sql: "UPDATE write_journal SET cancelled = 1 WHERE change_id = ?", arguments: [step])
          }
        }
        let (count, stuck) = try putBack()
        return .cancelled(putBack: count, stuck: stuck)
      }
    }
    func stopped(after done: Int) throws(LibraryError) -> JournalEnd {
      guard whenStopped == .cancel else {
        throw .writeStopped(summary: journal.summary, done: done, files: files.count)
      }
      return try cancel()
    }
    if journal.owner != ProcessIdentity.current {
      for stray in TagEdit.strayCopies(of: files.map(\.path)) { unlink(stray) }
    }
    if journal.cancelled { return try cancel() }

    var written = 0
    var leftAlone: [String] = []
    var failure: (path: String, reason: String)?
    for (index, file) in files.enumerated() {
      if shouldStop() { return try stopped(after: index) }
      guard let now = current(file) else {
        failure = (file.path, "it can no longer be read as audio")
        break
      }
      if now == target(file).plain { continue }
      guard now == source(file).plain else {
        leftAlone.append(file.path)
        continue
      }
      do {
        try targetEdit(file).writeSafely(to: file.path, shouldStop: shouldStop)
        written += 1
      } catch .stopped {
        return try stopped(after: index)
      } catch {
        failure = (file.path, error.reason)
        break
      }
    }
    guard let failure else {
      try changing { db in
        try db.execute(sql: "DELETE FROM write_journal WHERE change_id = ?", arguments: [step])
        try Self.rereadTracks(files.map(\.path), db)
      }
      return .finished(written: written, files: files.count, leftAlone: leftAlone)
    }
    let back = try putBack()
    return .rolledBack(path: failure.path, reason: failure.reason, putBack: back.putBack, stuck: back.stuck)
  }

  /// The library as before `journal`'s step, or before its undo or redo: what the files
  /// say and the albums' keys always (the files are back), the albums' fields only where
  /// no one changed them since. A write is dropped from the log; an undo is redone, a redo
  /// undone.
  private static func takeBackRecords(of journal: Journal, _ db: Database) throws {
    let step = journal.step
    let (left, back): (AlbumImage.Side, AlbumImage.Side) =
      journal.direction == .undo ? (.before, .after) : (.after, .before)
    try noteKeys(back, of: step, db)
    try db.execute(
      sql: """
        UPDATE album SET source_key = c.source_key FROM change_album c
        WHERE c.change_id = ?1 AND c.image = ?2 AND album.id = c.album_id
        """, arguments: [step, back.rawValue])
    // An album carries the step after it, and what its `before` image carried before it.
    try db.execute(
      sql: """
        UPDATE album SET title = c.title, artist = c.artist, genre = c.genre, year = c.year, coverUrl = c.coverUrl,
          step = \(back == .after ? "?1" : "c.step"), tracks = c.tracks, duration = c.duration, folder = c.folder,
          rating = c.rating, fav = c.fav
        FROM change_album c JOIN change_album b ON b.change_id = c.change_id AND b.album_id = c.album_id
          AND b.image = 'before'
        WHERE c.change_id = ?1 AND c.image = ?2 AND album.id = c.album_id
          AND album.step IS \(left == .after ? "?1" : "b.step")
        """, arguments: [step, back.rawValue])
    switch journal.direction {
    case .write:
      try db.execute(sql: "DELETE FROM change_album WHERE change_id = ?", arguments: [step])
      try db.execute(sql: "DELETE FROM change_tag WHERE change_id = ?", arguments: [step])
      try db.execute(sql: "DELETE FROM change WHERE id = ?", arguments: [step])
    case .redo:
      try db.execute(
        sql: """
          UPDATE change SET undone = (SELECT COALESCE(MAX(undone), 0) + 1 FROM change), undone_by = session
          WHERE id = ?
          """, arguments: [step])
    case .undo:
      try db.execute(sql: "UPDATE change SET undone = NULL, undone_by = NULL WHERE id = ?", arguments: [step])
    }
  }
}
