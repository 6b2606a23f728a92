import AlbumModel
internal import BlueSQL
import BlueSystem
import FoundationEssentials
internal import MusicFolder

// `write`: albums' fields written into the tags of their files, as one step that undo and
// redo write back (see `Schema.addMissingAndWrites` for `change_tag`).
extension AlbumStore {
  /// The tags `write` sets in a file: album (the title), album artist, date (the year),
  /// genre, the rating (its stars as text) and favourite mark ("1"), and the track's artist,
  /// title and number. In an edit, nil
  /// leaves a tag alone and "" removes it; read from a file, nil is a tag it does not have.
  struct FileTags: Equatable {
    var album: String?
    var albumArtist: String?
    var date: String?
    var genre: String?
    var rating: String?
    var favourite: String?
    var artist: String?
    var title: String?
    var number: String?

    /// The tags as ``FileTags`` holds them, in its order, to go over each at once.
    private static var all: [WritableKeyPath<FileTags, String?>] {
      [\.album, \.albumArtist, \.date, \.genre, \.rating, \.favourite, \.artist, \.title, \.number]
    }

    /// The tags of `tags` that `edit` touches (nil for the others).
    init(of tags: TrackTags, touchedBy edit: FileTags) {
      self.init(of: FileTags(reading: tags), touchedBy: edit)
    }

    /// The tags of `tags` that `edit` touches (nil for the others).
    init(of tags: FileTags, touchedBy edit: FileTags) {
      for tag in Self.all where edit[keyPath: tag] != nil { self[keyPath: tag] = tags[keyPath: tag] }
    }

    /// Every tag `write` sets, as `tags` has them.
    init(reading tags: TrackTags) {
      self.init(
        album: tags.album, albumArtist: tags.albumArtist, date: tags.date, genre: tags.genre,
        rating: tags.rating.map(String.init), favourite: tags.favourite ? "1" : nil, artist: tags.artist,
        title: tags.title, number: tags.trackNumber.map(String.init))
    }

    init(
      album: String? = nil, albumArtist: String? = nil, date: String? = nil, genre: String? = nil,
      rating: String? = nil, favourite: String? = nil, artist: String? = nil, title: String? = nil,
      number: String? = nil
    ) {
      (self.album, self.albumArtist, self.date, self.genre) = (album, albumArtist, date, genre)
      (self.rating, self.favourite, self.artist, self.title, self.number) = (rating, favourite, artist, title, number)
    }

    /// These tags as read from a file, to write back over `edit`: a tag the file did not
    /// have is removed.
    func restoring(_ edit: FileTags) -> FileTags {
      var restored = FileTags()
      for tag in Self.all where edit[keyPath: tag] != nil { restored[keyPath: tag] = self[keyPath: tag] ?? "" }
      return restored
    }

    var tagEdit: TagEdit {
      // A number keeps the file's total (`3/12` given 5 becomes `5/12`: see `ctl_write`).
      TagEdit(
        album: album, artist: artist, albumArtist: albumArtist, title: title, trackNumber: number, date: date,
        genre: genre, rating: rating.map { Int($0) ?? 0 }, favourite: favourite.map { $0 == "1" })
    }

    /// These tags with "" (a removed tag) as nil (a missing one): how a file read back
    /// compares with what was written.
    var plain: FileTags {
      var plain = self
      for tag in Self.all where plain[keyPath: tag]?.isEmpty == true { plain[keyPath: tag] = nil }
      return plain
    }
  }

  /// One file of a `write`: its tags as they were and as they are written, and — when the
  /// write sets its rating or favourite mark — every tag that changes as the file held it
  /// (``TagEdit/ratingTags(of:)``), for undo to put back byte for byte.
  struct FileWrite {
    var path: String
    var before: FileTags
    var after: FileTags
    var ratingTags: [UInt8]? = nil

    /// The edit that gives the file back what it held before the write: the tags it set as
    /// they were (one it did not have removed), and its rating and favourite tags exactly
    /// as kept in ``ratingTags`` (other players' frames, values bluelib cannot read); a write
    /// recorded before they were kept writes the old rating back as stars.
    var restoringEdit: TagEdit {
      var edit = before.restoring(after).tagEdit
      if let ratingTags, after.rating != nil || after.favourite != nil {
        (edit.rating, edit.favourite, edit.ratingTags) = (nil, nil, ratingTags)
      }
      return edit
    }
  }

  /// One album of a `write`: the album (its new source key set), the undo log's step it
  /// carried when it was read, its key before, what its files said before (`folder_album`'s
  /// title, artist, year and genre) and say after.
  struct AlbumWrite {
    var album: Album
    var step: Int64?
    var oldKey: String
    var filesSaidBefore: FileTags
    var filesSayAfter: FileTags
    var files: [FileWrite]
  }

  /// Checks that every file at `paths` may be written (``TagEdit/checkWritable(_:)``): a
  /// read-only file or folder is found before any file is touched.
  static func checkWritable(_ paths: [String]) throws(LibraryError) {
    for path in paths {
      do {
        try TagEdit.checkWritable(path)
      } catch {
        throw .cannotWrite(path: path, reason: error.reason + "; nothing was written")
      }
    }
  }

  /// The undo log's step the album with `id` carries (see `Schema.addChangeLog`).
  func step(ofAlbum id: Int64) throws(LibraryError) -> Int64? {
    try reading { db in try Int64.fetchOne(db, sql: "SELECT step FROM album WHERE id = ?", arguments: [id]) }
  }

  /// The albums of the last scans (key, title, artist, year) with files in a folder beside
  /// one of `folders` (the same parent, another folder) and none in `folders`: those a scan
  /// joins with an album of `folders` that has their title and artist (a two-disc set).
  func albumsBeside(
    _ folders: Set<String>
  ) throws(LibraryError) -> [(key: String, title: String, artist: String, year: Int?, folder: String)] {
    let parents = Set(folders.compactMap(Self.parent(of:)))
    return try reading { db in
      var keys: Set<String> = []
      var inside: Set<String> = []
      for parent in parents {
        // The paths under `parent/` sort between `parent/` and `parent0` ('0' follows '/').
        for row in try Row.fetchAll(
          db, sql: "SELECT path, album_key FROM track WHERE path > ? AND path < ?",
          arguments: [parent + "/", parent + "0"])
        {
          let (path, key): (String, String) = (row[0], row[1])
          guard let folder = Self.parent(of: path) else { continue }
          if folders.contains(folder) {
            inside.insert(key)
          } else if Self.parent(of: folder) == parent {
            keys.insert(key)
          }
        }
      }
      return try keys.subtracting(inside).sorted().compactMap { key in
        guard
          let row = try Row.fetchOne(
            db,
            sql: """
              SELECT title, artist, year, folder FROM folder_album WHERE key = ? AND title IS NOT NULL AND missing = 0
              """, arguments: [key])
        else { return nil }
        return (key, row[0], row[1] ?? "", row[2], row[3] ?? "")
      }
    }
  }

  /// The folder `path` is in (nil at the root).
  static func parent(of path: String) -> String? {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
    return String(path[..<slash])
  }

  /// Whether a scan row (an album or a track) already has the album key `key`.
  func keyIsTaken(_ key: String) throws(LibraryError) -> Bool {
    try reading { db in
      try Bool.fetchOne(
        db,
        sql: """
          SELECT EXISTS (SELECT 1 FROM folder_album WHERE key = ?1)
            OR EXISTS (SELECT 1 FROM track WHERE album_key = ?1)
          """, arguments: [key]) ?? false
    }
  }

  /// Records a `write` before any of its files is touched: one step with each album's
  /// images (its source key follows its new tags), each file's tags before and after, what
  /// the files will say in `folder_album`, and the step's journal (see
  /// `Schema.addWriteJournal`), all committed together; ``runJournal(_:shouldStop:)`` then
  /// writes the files.
  ///
  /// - Throws: ``LibraryError/changedBeforeWriting(title:)`` when another shell changed an
  ///   album (or wrote its files) since it was read, ``LibraryError/writeInProgress(summary:pid:)``
  ///   while another bluelib writes files; nothing is recorded then.
  func beginWrite(_ writes: [AlbumWrite], summary: String, origin: ChangeOrigin) throws(LibraryError) -> ChangeStep {
    try changing { db in
      try Self.requireNoJournal(db)
      for write in writes {
        guard let id = write.album.id else { continue }
        // Another shell may have changed the album, or written its files, since it was read.
        var stored = try Self.album(id: id, db)
        stored.sourceKey = write.album.sourceKey
        let carried = try Int64.fetchOne(db, sql: "SELECT step FROM album WHERE id = ?", arguments: [id])
        guard stored.hasSameFields(as: write.album), carried == write.step else {
          throw LibraryError.changedBeforeWriting(title: write.album.title)
        }
      }
      let step = try Self.beginStep(.write, summary: summary, origin: origin, db)
      for write in writes {
        guard let id = write.album.id else { continue }
        try Self.appendImage(id, as: .before, of: step, db)
        try Self.writeFields(of: write.album, to: id, step: step, db)
        try Self.appendImage(id, as: .after, of: step, db)
        let newKey = write.album.sourceKey ?? write.oldKey
        for (side, key, tags) in [
          (AlbumImage.Side.before, write.oldKey, write.filesSaidBefore), (.after, newKey, write.filesSayAfter),
        ] {
          try Self.insertTags(tags, file: false, path: key, side: side, of: step, db)
        }
        for file in write.files {
          try Self.insertTags(
            file.before, file: true, path: file.path, side: .before, of: step, ratingTags: file.ratingTags, db)
          try Self.insertTags(file.after, file: true, path: file.path, side: .after, of: step, db)
        }
        try Self.noteWritten(from: write.oldKey, to: newKey, filesSay: write.filesSayAfter, db)
      }
      try Self.openJournal(step, direction: .write, db)
      try Self.finishStep(step, selecting: origin.selection, db)
      return try Self.changeStep(step, db)
    }
  }

  private static func insertTags(
    _ tags: FileTags, file: Bool, path: String, side: AlbumImage.Side, of step: Int64, ratingTags: [UInt8]? = nil,
    _ db: Database
  ) throws {
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO change_tag (change_id, image, file, path, \(tagColumns), rating_tags)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        step, side.rawValue, file, path, tags.album, tags.albumArtist, tags.date, tags.genre, tags.rating,
        tags.favourite, tags.artist, tags.title, tags.number, ratingTags,
      ])
  }

  /// Undo (`back`) or redo of the `write` `step`, in the library: once its albums and
  /// each of its files hold what the step left in them (tags changed since by another
  /// program are not overwritten) and every file may be written, the albums' images, keys
  /// and what their files say are set, and the step's journal opened: the caller commits,
  /// then ``runJournal(_:shouldStop:)`` writes the files.
  static func prepareRewrite(_ step: Int64, back: Bool, _ db: Database) throws {
    try requireNoJournal(db)
    let count = try imageCount(.before, of: step, db)
    try requireImagesUnchanged(
      back ? .after : .before, of: step, count: count, carrying: back ? step : nil,
      undoing: back, db)
    let files = try journalFiles(step, db)
    for file in files {
      let current: FileTags
      switch TrackTags.read(file.path) {
      case .track(let tags): current = FileTags(of: tags, touchedBy: file.after)
      default:
        throw LibraryError.cannotWrite(
          path: file.path, reason: "it can no longer be read as audio; nothing \(back ? "undone" : "redone")")
      }
      let expected = back ? file.after : FileTags(of: file.before, touchedBy: file.after)
      guard current.plain == expected.plain else {
        throw LibraryError.cannotWrite(
          path: file.path,
          reason: "its tags changed since the write (another program?); nothing \(back ? "undone" : "redone")")
      }
    }
    try checkWritable(files.map(\.path))
    try applyRecords(back ? .before : .after, of: step, db)
    try openJournal(step, direction: back ? .undo : .redo, db)
  }

  /// The `change_tag` columns of a ``FileTags``, in its order (``tags(_:from:)`` reads them).
  static let tagColumns = "album, album_artist, date, genre, rating, fav, artist, title, track_number"

  /// The ``FileTags`` of a row selecting ``tagColumns`` from column `start` on.
  static func tags(_ row: Row, from start: Int = 1) -> FileTags {
    FileTags(
      album: row[start], albumArtist: row[start + 1], date: row[start + 2], genre: row[start + 3],
      rating: row[start + 4], favourite: row[start + 5], artist: row[start + 6], title: row[start + 7],
      number: row[start + 8])
  }

  /// Each file of the `write` `step` with its tags before and after, in path order.
  static func journalFiles(_ step: Int64, _ db: Database) throws -> [FileWrite] {
    var files: [FileWrite] = []
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT path, \(tagColumns), image, rating_tags FROM change_tag
        WHERE change_id = ? AND file = 1 ORDER BY path, image
        """, arguments: [step])
    {
      let path: String = row[0]
      if files.last?.path != path { files.append(FileWrite(path: path, before: FileTags(), after: FileTags())) }
      if row[10] == "before" {
        files[files.count - 1].before = tags(row)
        files[files.count - 1].ratingTags = row[11] as [UInt8]?
      } else {
        files[files.count - 1].after = tags(row)
      }
    }
    return files
  }

  /// Gives the albums of the `write` `step` the images, keys and what-the-files-say of its
  /// `side` (after: the step made; before: undone), each album carrying the step (after) or
  /// what it carried before it.
  static func applyRecords(_ side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    try noteKeys(side, of: step, db)
    try writeImages(side, of: step, carrying: side == .after ? step : nil, db)
  }

  /// What the files of the `write` `step`'s albums say, as its `side` recorded it, into
  /// `folder_album`, and their scan rows under the key of that side.
  static func noteKeys(_ side: AlbumImage.Side, of step: Int64, _ db: Database) throws {
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT this.source_key, that.source_key FROM change_album this JOIN change_album that
          ON that.change_id = this.change_id AND that.album_id = this.album_id AND that.image <> this.image
        WHERE this.change_id = ? AND this.image = ?
        """, arguments: [step, side.rawValue])
    {
      let (to, from): (String?, String?) = (row[0], row[1])
      guard let to, let from,
        let said = try Row.fetchOne(
          db,
          sql: "SELECT \(tagColumns) FROM change_tag WHERE change_id = ? AND image = ? AND file = 0 AND path = ?",
          arguments: [step, side.rawValue, to])
      else { continue }
      try noteWritten(from: from, to: to, filesSay: tags(said, from: 0), db)
    }
  }

  /// The album stored under `from` is now under `to` (its tags say another title or album
  /// artist), and its files say `filesSay`: its scan rows follow, so the next import finds it
  /// unchanged.
  static func noteWritten(from: String, to: String, filesSay: FileTags, _ db: Database) throws {
    if from != to {
      try db.execute(sql: "UPDATE folder_album SET key = ? WHERE key = ?", arguments: [to, from])
      try db.execute(sql: "UPDATE track SET album_key = ? WHERE album_key = ?", arguments: [to, from])
    }
    try db.execute(
      sql: """
        UPDATE folder_album SET title = ?, artist = ?, year = ?, genre = ?, rating = ?, fav = ?
        WHERE key = ? AND title IS NOT NULL
        """,
      arguments: [
        filesSay.album, filesSay.albumArtist, filesSay.date.flatMap { Int($0) }, filesSay.genre,
        filesSay.rating.flatMap { Int($0) }, filesSay.favourite == "1", to,
      ])
  }

  /// Reads the files at `paths` again into their track rows (size, time and the tags
  /// `write` sets), so the next import takes them as known.
  static func rereadTracks(_ paths: [String], _ db: Database) throws {
    let update = try db.cachedStatement(
      sql: """
        UPDATE track SET size = ?, modified = ?, changed = ?, inode = ?, album = ?, album_artist = ?, date = ?,
          genre = ?, rating = ?, fav = ?, artist = ?, title = ?, number = ?
        WHERE path = ?
        """)
    for path in paths {
      guard let stamp = FileStamp(path: path), case .track(let tags) = TrackTags.read(path) else { continue }
      try update.execute(
        arguments: [
          stamp.size, stamp.modified, stamp.changed, stamp.inode, tags.album, tags.albumArtist, tags.date, tags.genre,
          tags.rating, tags.favourite, tags.artist, tags.title, tags.trackNumber, path,
        ])
    }
    // The files changed under the scans: each folder's next import reads it whole.
    try Self.forgetEveryFingerprint(db)
  }
}
