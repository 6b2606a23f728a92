import AlbumModel
internal import BlueSQL

// What `lookup` keeps: the release group of each album it found, committed as it is found
// into one undo step that grows, and the titles and artists MusicBrainz had nothing like
// (`lookup_none`, schema version 15). Each is a short transaction of its own: `lookup`
// holds no lock while it waits for MusicBrainz.
extension AlbumStore {
  /// How one album of a plan stands: 0 left alone (a cover or an id, or nothing to ask
  /// by), 1 a "not found" remembered, 2 to ask about. `?1`/`?2`: the span of dates in which a
  /// "not found" stands (NULL: none does).
  private static let lookupStanding = """
    CASE WHEN title = '' OR artist = '' OR coverUrl <> '' THEN 0
    WHEN ?1 IS NOT NULL AND EXISTS (
      SELECT 1 FROM lookup_none n WHERE n.title = album.title AND n.artist = album.artist AND n.checked BETWEEN ?1 AND ?2
    ) THEN 1 ELSE 2 END
    """

  /// The albums `lookup` asks about among those with `ids`, in their order (nil: the whole
  /// library, in its order), read a page at a time and kept as ids; a "not found" recorded
  /// between `missesSince` and `now` (both seconds since 1970) leaves its album out, one
  /// dated later counts as not asked (H18). Ids no album has any more are skipped.
  func lookupPlan(among ids: [Int64]?, missesSince: Int64?, now: Int64) throws(LibraryError) -> LookupPlan {
    try reading { db in
      var plan = LookupPlan()
      func note(_ id: Int64, _ standing: Int) {
        switch standing {
        case 0: plan.leftAlone += 1
        case 1: plan.remembered += 1
        default: plan.ids.append(id)
        }
      }
      guard let ids else {
        let rows = try Row.fetchCursor(
          db, sql: "SELECT id, \(Self.lookupStanding) FROM album ORDER BY position", arguments: [missesSince, now])
        while let row = try rows.next() { note(row[0], row[1]) }
        return plan
      }
      let page = 500
      for start in stride(from: 0, to: ids.count, by: page) {
        let chunk = ids[start..<min(start + page, ids.count)]
        let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
        var standing: [Int64: Int] = [:]
        let rows = try Row.fetchCursor(
          db, sql: "SELECT id, \(Self.lookupStanding) FROM album WHERE id IN (\(marks))",
          arguments: StatementArguments([missesSince, now] as [(any DatabaseValueConvertible)?])
            + StatementArguments(chunk.map { $0 as (any DatabaseValueConvertible)? }))
        while let row = try rows.next() { standing[row[0]] = row[1] }
        for id in chunk { if let value = standing[id] { note(id, value) } }
      }
      return plan
    }
  }

  /// What ``recordLookupFound(id:title:artist:coverURL:extending:origin:)`` did.
  enum LookupWrite: Equatable {
    /// The album was given its cover in `step`.
    case written(step: Int64)
    /// The album is gone, has a cover now, or another title or artist than it was asked
    /// about by: nothing was written.
    case changedSince
  }

  /// Gives the album with `id` the cover `coverURL` — if it still has no cover and the
  /// `title` and `artist` it was asked about by — as one more album of `step` when that is
  /// still `origin`'s standing step (not undone, not pruned), else of a new step, and
  /// forgets any "not found" of its title and artist. One immediate transaction.
  ///
  /// A step that grows stays sound for undo: each album is logged before and after, and
  /// carries the step's id, as in an edit of several albums made at once; an album another
  /// shell changes after its commit makes undo refuse, as for any step.
  func recordLookupFound(
    id: Int64, title: String, artist: String, coverURL: String, extending step: Int64?, origin: ChangeOrigin
  ) throws(LibraryError) -> LookupWrite {
    try changing { db in
      guard
        let album = try Album.fetchOne(db, sql: "SELECT \(Album.selection) FROM album WHERE id = ?", arguments: [id]),
        album.title == title, album.artist == artist, album.coverURL.isEmpty
      else { return .changedSince }
      var current = step
      if let step {
        let standing =
          try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM change WHERE id = ? AND session = ? AND undone IS NULL)",
            arguments: [step, origin.session]) ?? false
        if !standing { current = nil }
      }
      let written =
        try current ?? Self.beginStep(.edit, summary: "lookup \(Self.summaryTitle(title))", origin: origin, db)
      try Self.appendImage(id, as: .before, of: written, db)
      try db.execute(sql: "UPDATE album SET coverUrl = ?, step = ? WHERE id = ?", arguments: [coverURL, written, id])
      try Self.appendImage(id, as: .after, of: written, db)
      let count =
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM change_album WHERE change_id = ? AND image = 'before'", arguments: [written])
        ?? 1
      if count > 1 {
        try db.execute(
          sql: "UPDATE change SET summary = ? WHERE id = ?",
          arguments: ["lookup of \(Library.albumCount(count))", written])
      }
      try Self.finishStep(written, selecting: origin.selection, db)
      try db.execute(sql: "DELETE FROM lookup_none WHERE title = ? AND artist = ?", arguments: [title, artist])
      return .written(step: written)
    }
  }

  /// The summary of `step`, if the log still has it.
  func stepSummary(_ step: Int64) throws(LibraryError) -> String? {
    try reading { db in try String.fetchOne(db, sql: "SELECT summary FROM change WHERE id = ?", arguments: [step]) }
  }

  /// Records that MusicBrainz had nothing like `title` by `artist`, as of `time` (seconds since 1970).
  func recordLookupNotFound(title: String, artist: String, at time: Int64) throws(LibraryError) {
    try writing { db in
      try db.cachedStatement(sql: "INSERT OR REPLACE INTO lookup_none (title, artist, checked) VALUES (?, ?, ?)")
        .execute(arguments: [title, artist, time])
    }
  }

  /// Forgets a "not found" of `title` by `artist` (MusicBrainz has candidates for it now).
  func forgetLookupNotFound(title: String, artist: String) throws(LibraryError) {
    try writing { db in
      try db.cachedStatement(sql: "DELETE FROM lookup_none WHERE title = ? AND artist = ?")
        .execute(arguments: [title, artist])
    }
  }

  /// Whether MusicBrainz had nothing like `title` by `artist` when last asked.
  func lookupFoundNothing(title: String, artist: String) throws(LibraryError) -> Bool {
    try reading { db in
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM lookup_none WHERE title = ? AND artist = ?)",
        arguments: [title, artist]) ?? false
    }
  }
}
