import BlueSystem
internal import GRDB
internal import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `write`: albums' fields written into the tags of their files, as one step that undo and
// redo write back (see `Schema.addMissingAndWrites` for `change_tag`).
extension AlbumStore {
  /// The tags `write` sets in a file: album (the title), album artist, date (the year) and
  /// genre. In an edit, nil leaves a tag alone and "" removes it; read from a file, nil is a
  /// tag it does not have.
  struct FileTags: Equatable {
    var album: String?
    var albumArtist: String?
    var date: String?
    var genre: String?

    /// The tags of `tags` that `edit` touches (nil for the others).
    init(of tags: TrackTags, touchedBy edit: FileTags) {
      album = edit.album == nil ? nil : tags.album
      albumArtist = edit.albumArtist == nil ? nil : tags.albumArtist
      date = edit.date == nil ? nil : tags.date
      genre = edit.genre == nil ? nil : tags.genre
    }

    /// The tags of `tags` that `edit` touches (nil for the others).
    init(of tags: FileTags, touchedBy edit: FileTags) {
      album = edit.album == nil ? nil : tags.album
      albumArtist = edit.albumArtist == nil ? nil : tags.albumArtist
      date = edit.date == nil ? nil : tags.date
      genre = edit.genre == nil ? nil : tags.genre
    }

    init(album: String? = nil, albumArtist: String? = nil, date: String? = nil, genre: String? = nil) {
      (self.album, self.albumArtist, self.date, self.genre) = (album, albumArtist, date, genre)
    }

    /// These tags as read from a file, to write back over `edit`: a tag the file did not
    /// have is removed.
    func restoring(_ edit: FileTags) -> FileTags {
      FileTags(
        album: edit.album == nil ? nil : album ?? "", albumArtist: edit.albumArtist == nil ? nil : albumArtist ?? "",
        date: edit.date == nil ? nil : date ?? "", genre: edit.genre == nil ? nil : genre ?? "")
    }

    var tagEdit: TagEdit { TagEdit(album: album, albumArtist: albumArtist, date: date, genre: genre) }
  }

  /// One file of a `write`: its tags as they were and as they are written.
  struct FileWrite {
    var path: String
    var before: FileTags
    var after: FileTags
  }

  /// One album of a `write`: the album (its new source key set), its key before, what its
  /// files said before (`folder_album`'s title, artist, year and genre) and say after.
  struct AlbumWrite {
    var album: Album
    var oldKey: String
    var filesSaidBefore: FileTags
    var filesSayAfter: FileTags
    var files: [FileWrite]
  }

  /// Writes `files` (each its `after` tags, or its `before` ones when `back`) with
  /// ``TagEdit/writeSafely(to:)``, all or nothing: when one fails, those written are put
  /// back and the error names the file.
  static func writeFiles(_ files: [FileWrite], back: Bool = false) throws(LibraryError) {
    // A read-only file or folder is found before any file is touched.
    for file in files {
      do {
        try TagEdit.checkWritable(file.path)
      } catch {
        throw .cannotWrite(path: file.path, reason: error.reason + "; nothing was written")
      }
    }
    for (index, file) in files.enumerated() {
      do {
        try (back ? file.before.restoring(file.after) : file.after).tagEdit.writeSafely(to: file.path)
      } catch {
        var stuck: [String] = []
        for done in files[..<index].reversed() {
          do {
            try (back ? done.after : done.before.restoring(done.after)).tagEdit.writeSafely(to: done.path)
          } catch {
            stuck.append(done.path)
          }
        }
        guard stuck.isEmpty else {
          throw .cannotWrite(
            path: file.path,
            reason: error.reason + "; and \(Library.counted(stuck.count, "file")) written before it could not be put "
              + "back: " + stuck.reversed().map { "'\($0)'" }.joined(separator: ", "))
        }
        let putBack =
          index == 0
          ? "" : "; the \(Library.counted(index, "file")) written before it \(index == 1 ? "was" : "were") put back"
        throw .cannotWrite(path: file.path, reason: error.reason + putBack + "; nothing changed")
      }
    }
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

  /// Records a `write` whose files are written: one step with each album's images (its
  /// source key follows its new tags), each file's tags before and after, and what the files
  /// say now in the track rows and `folder_album`.
  func recordWrite(_ writes: [AlbumWrite], summary: String, origin: ChangeOrigin) throws(LibraryError) -> ChangeStep {
    try changing { db in
      let step = try Self.beginStep(.write, summary: summary, origin: origin, db)
      for write in writes {
        guard let id = write.album.id else { continue }
        // Another shell may have changed the album while the files were written.
        var stored = try Self.album(id: id, db)
        stored.sourceKey = write.album.sourceKey
        guard stored.hasSameFields(as: write.album) else {
          throw LibraryError.changedSince(title: write.album.title, undoing: false)
        }
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
          try Self.insertTags(file.before, file: true, path: file.path, side: .before, of: step, db)
          try Self.insertTags(file.after, file: true, path: file.path, side: .after, of: step, db)
        }
        try Self.noteWritten(from: write.oldKey, to: newKey, filesSay: write.filesSayAfter, db)
        try Self.rereadTracks(write.files.map(\.path), db)
      }
      try Self.finishStep(step, selecting: origin.selection, db)
      return try Self.changeStep(step, db)
    }
  }

  private static func insertTags(
    _ tags: FileTags, file: Bool, path: String, side: AlbumImage.Side, of step: Int64, _ db: Database
  ) throws {
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO change_tag (change_id, image, file, path, album, album_artist, date, genre)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [step, side.rawValue, file, path, tags.album, tags.albumArtist, tags.date, tags.genre])
  }

  /// Undo (`back`) or redo of the `write` `step`: its files' tags written back (or again),
  /// all or nothing, then the albums' images, keys and what their files say.
  static func rewrite(_ step: Int64, back: Bool, _ db: Database) throws {
    let count = try imageCount(.before, of: step, db)
    try requireImagesUnchanged(
      back ? .after : .before, of: step, count: count, carrying: back ? step : nil,
      undoing: back, db)
    func tags(_ row: Row) -> FileTags { FileTags(album: row[1], albumArtist: row[2], date: row[3], genre: row[4]) }
    var files: [String: FileWrite] = [:]
    var order: [String] = []
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT path, album, album_artist, date, genre, image FROM change_tag
        WHERE change_id = ? AND file = 1 ORDER BY path, image
        """, arguments: [step])
    {
      let path: String = row[0]
      if files[path] == nil {
        order.append(path)
        files[path] = FileWrite(path: path, before: FileTags(), after: FileTags())
      }
      if row[5] == "before" { files[path]?.before = tags(row) } else { files[path]?.after = tags(row) }
    }
    // The files must hold what the step left in them: tags changed since by another program
    // are not overwritten.
    func plain(_ tags: FileTags) -> FileTags {
      func value(_ text: String?) -> String? { text?.isEmpty == true ? nil : text }
      return FileTags(
        album: value(tags.album), albumArtist: value(tags.albumArtist), date: value(tags.date),
        genre: value(tags.genre))
    }
    for path in order {
      guard let file = files[path] else { continue }
      let current: FileTags
      switch TrackTags.read(path) {
      case .track(let tags): current = FileTags(of: tags, touchedBy: file.after)
      default:
        throw LibraryError.cannotWrite(
          path: path, reason: "it can no longer be read as audio; nothing \(back ? "undone" : "redone")")
      }
      let expected = back ? file.after : FileTags(of: file.before, touchedBy: file.after)
      guard plain(current) == plain(expected) else {
        throw LibraryError.cannotWrite(
          path: path,
          reason: "its tags changed since the write (another program?); nothing \(back ? "undone" : "redone")")
      }
    }
    try writeFiles(order.compactMap { files[$0] }, back: back)
    try rereadTracks(order, db)
    // The keys and what the files say, album by album.
    let side: AlbumImage.Side = back ? .before : .after
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
          sql:
            "SELECT '', album, album_artist, date, genre FROM change_tag WHERE change_id = ? AND image = ? AND file = 0 AND path = ?",
          arguments: [step, side.rawValue, to])
      else { continue }
      try noteWritten(from: from, to: to, filesSay: tags(said), db)
    }
    try writeImages(side, of: step, carrying: back ? nil : step, db)
  }

  /// The album stored under `from` is now under `to` (its tags say another title or album
  /// artist), and its files say `filesSay`: its scan rows follow, so the next import finds it
  /// unchanged.
  private static func noteWritten(from: String, to: String, filesSay: FileTags, _ db: Database) throws {
    if from != to {
      try db.execute(sql: "UPDATE folder_album SET key = ? WHERE key = ?", arguments: [to, from])
      try db.execute(sql: "UPDATE track SET album_key = ? WHERE album_key = ?", arguments: [to, from])
    }
    try db.execute(
      sql: """
        UPDATE folder_album SET title = ?, artist = ?, year = ?, genre = ?
        WHERE key = ? AND title IS NOT NULL
        """,
      arguments: [filesSay.album, filesSay.albumArtist, filesSay.date.flatMap { Int($0) }, filesSay.genre, to])
  }

  /// Reads the files at `paths` again into their track rows (size, time and the tags
  /// `write` sets), so the next import takes them as known.
  static func rereadTracks(_ paths: [String], _ db: Database) throws {
    let update = try db.cachedStatement(
      sql: """
        UPDATE track SET size = ?, modified = ?, changed = ?, inode = ?, album = ?, album_artist = ?, date = ?,
          genre = ?
        WHERE path = ?
        """)
    for path in paths {
      guard let stamp = FileStamp(path: path), case .track(let tags) = TrackTags.read(path) else { continue }
      try update.execute(
        arguments: [
          stamp.size, stamp.modified, stamp.changed, stamp.inode, tags.album, tags.albumArtist, tags.date, tags.genre,
          path,
        ])
    }
    // The files changed under the scans: each folder's next import reads it whole.
    try db.execute(sql: "DELETE FROM state WHERE substr(key, 1, 5) = 'scan '")
  }
}
