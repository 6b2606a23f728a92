internal import GRDB

// `import DIR`: the albums of a music folder brought into the library as one logged step,
// adding the albums it has not seen and updating in place those it imported before.
extension AlbumStore {
  /// What bringing a folder's albums into the library did.
  struct FolderImportOutcome {
    /// Albums appended (no stored album had their source key).
    var added: Int
    /// Stored albums with the same source key whose fields changed.
    var updated: Int
    /// Stored albums with the same source key and the same fields.
    var unchanged: Int
    /// Albums the scan found that you deleted from the library, left out.
    var leftOut = 0
    /// The logged step, nil when nothing changed (no step is logged then).
    var step: ChangeStep?
  }

  /// Brings `albums` (from a music-folder scan, each with a source key) into the library
  /// in one transaction: an album whose source key a stored album has updates that album in
  /// place when any field differs (the first one in order, if several have it), and is
  /// appended after the last album otherwise. All of it is one logged step, summed up by
  /// `summary(added, updated)`; when nothing changes, nothing is written or logged. The
  /// selection stays `origin.selection`.
  ///
  /// The step is an `import`: the ids it appended are a range (as for a file import) and
  /// each album it updated has a `before` and an `after` image (as for an edit), so undo
  /// puts back the old fields and removes the new albums, and redo does both again.
  ///
  /// `alongside` writes what goes with the albums in the same transaction (the tracks),
  /// whether or not an album changed.
  ///
  /// Deletions stick: an album you deleted from the library (``removeAlbums(ids:_:)``) is
  /// left out and counted, unless `withDeleted`, which adds it again.
  ///
  /// Edits stick: `filesSaid` holds, by source key, the albums as the last scan of the folder
  /// built them. A stored album's title, artist, genre, year or cover that differs from
  /// what the files said then was edited since, and is kept whatever the files say now.
  func importFolder(
    _ albums: [Album], summary: (_ added: Int, _ updated: Int) -> String, origin: ChangeOrigin,
    filesSaid: [String: Album] = [:], withDeleted: Bool = false, alongside: (Database) throws -> Void = { _ in }
  ) throws(LibraryError) -> FolderImportOutcome {
    try changing { db in
      try alongside(db)
      var added: [Album] = []
      var updates: [(id: Int64, album: Album)] = []
      var matched: Set<Int64> = []
      var unchanged = 0
      var leftOut = 0
      var returning: [String] = []
      let find = "SELECT \(Album.selection) FROM album WHERE source_key = ? ORDER BY position LIMIT 1"
      for scanned in albums {
        try scanned.validate()
        guard let key = scanned.sourceKey, let stored = try Album.fetchOne(db, sql: find, arguments: [key]),
          let id = stored.id, matched.insert(id).inserted
        else {
          if let key = scanned.sourceKey,
            try Bool.fetchOne(db, sql: "SELECT left_out FROM folder_album WHERE key = ?", arguments: [key]) == true
          {
            guard withDeleted else {
              leftOut += 1
              continue
            }
            returning.append(key)
          }
          added.append(scanned)
          continue
        }
        let album = filesSaid[key].map { scanned.keepingEdits(of: stored, filesSaid: $0) } ?? scanned
        if stored.hasSameFields(as: album) {
          unchanged += 1
        } else {
          updates.append((id, album))
        }
      }
      guard !added.isEmpty || !updates.isEmpty else {
        return FolderImportOutcome(added: 0, updated: 0, unchanged: unchanged, leftOut: leftOut, step: nil)
      }
      for key in returning {
        try db.execute(sql: "UPDATE folder_album SET left_out = 0 WHERE key = ?", arguments: [key])
      }
      let step = try Self.beginStep(
        .import, summary: summary(added.count, updates.count), origin: origin, db)
      for (id, album) in updates {
        try Self.appendImage(id, as: .before, of: step, db)
        try Self.writeFields(of: album, to: id, step: step, db)
        try Self.appendImage(id, as: .after, of: step, db)
      }
      if !added.isEmpty {
        let count = try Self.count(db)
        let firstID = try Self.maxID(db) + 1
        try Self.insertAll(added, from: count, firstID: firstID, step: step, db)
        try Self.recordInserted(firstID: firstID, count: added.count, removed: 0, of: step, db)
      }
      try Self.finishStep(step, selecting: origin.selection, db)
      return FolderImportOutcome(
        added: added.count, updated: updates.count, unchanged: unchanged, leftOut: leftOut,
        step: try Self.changeStep(step, db))
    }
  }
}

extension Album {
  /// This album (as a scan built it now) with each field of `stored` that differs from what
  /// the files said before (`filesSaid`): the fields the user edited.
  func keepingEdits(of stored: Album, filesSaid before: Album) -> Album {
    var album = self
    for field in AlbumField.allCases where field.value(in: stored) != field.value(in: before) {
      album.set(field, to: stored)
    }
    return album
  }

  /// The fields ``AlbumField`` names that differ between this album and `other`.
  public func editedFields(comparedWith other: Album) -> [AlbumField] {
    AlbumField.allCases.filter { $0.value(in: self) != $0.value(in: other) }
  }

  /// This album with `fields` set to `filesSay`'s: what `unedit` stores.
  public func followingFiles(_ filesSay: Album, in fields: [AlbumField]) -> Album {
    var album = self
    for field in fields { album.set(field, to: filesSay) }
    return album
  }

  /// Sets `field` to `other`'s (no check: `other` is a stored or scanned album).
  private mutating func set(_ field: AlbumField, to other: Album) {
    switch field {
    case .title: title = other.title
    case .artist: artist = other.artist
    case .genre: genre = other.genre
    case .year: year = other.year
    case .cover: coverURL = other.coverURL
    }
  }

  /// Whether every field an import writes is the same in both: title, artist, genre, year,
  /// cover, the music-folder fields and the source key (not the id, position or cache state).
  func hasSameFields(as other: Album) -> Bool {
    title == other.title && artist == other.artist && genre == other.genre && year == other.year
      && coverURL == other.coverURL && tracks == other.tracks && duration == other.duration && folder == other.folder
      && sourceKey == other.sourceKey
  }
}
