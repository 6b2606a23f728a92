import AlbumModel
internal import BlueSQL
internal import MusicFolder

// `import DIR`: the albums of a music folder brought into the library as one logged step,
// adding the albums it has not seen and updating in place those it imported before.
extension AlbumStore {
  /// What bringing a source's albums into the library did: the counts and the few albums
  /// of each kind it names, and the step logged (nil when no album changed).
  typealias FolderImportOutcome = SourceImport

  /// Brings `albums` (from a music-folder scan, each with a source key) into the library
  /// in one transaction: an album whose source key a stored album has updates that album in
  /// place when any field differs (the first one in order, if several have it), and is
  /// appended after the last album otherwise. All of it is one logged step, summed up by
  /// `summary` (given the outcome's counts); when no album changes, no step is logged. The
  /// selection stays `origin.selection`.
  ///
  /// The step is an `import`: the ids it appended are a range (as for a file import) and
  /// each album it updated has a `before` and an `after` image (as for an edit), so undo
  /// puts back the old fields and removes the new albums, and redo does both again.
  ///
  /// `tracks`, the scan's tracks, are written in the same transaction, whether or not an
  /// album changed, with the scan's record (``ScannedTracks``), and so are the files it
  /// `skipped` (``SkippedFiles``: the outcome says whether they are the same as the last
  /// import's, which the user was told of), and `tracks` say what the scan found
  /// besides the albums' fields (``ScanChanges``): an album that moved updates the album stored under its old
  /// key (its id, place, edits and history kept); an album under a folder that could not be
  /// read is left as it is; albums whose files are gone are counted and named.
  ///
  /// The sample albums make room: when the library holds only them, untouched, and the
  /// import adds albums, they are taken out in the same step, which becomes a `reset`
  /// (``retireSamples(_:from:_:)``), and the first album added is selected.
  ///
  /// Deletions stick: an album you deleted from the library (``removeMarkedAlbums(_:)``) is
  /// left out and counted, unless `withDeleted`, which adds it again.
  ///
  /// Edits stick: `filesSaid` holds, by source key, the albums as the last scan of the folder
  /// built them. A stored album's title, artist, genre, year, cover, rating or favourite mark
  /// that differs from what the files said then was edited since, and is kept whatever the
  /// files say now.
  func importFolder(
    _ albums: [Album], summary: (FolderImportOutcome) -> String, origin: ChangeOrigin,
    filesSaid: [String: Album] = [:], withDeleted: Bool = false,
    tracks: ScannedTracks? = nil, skipped: SkippedFiles? = nil
  ) throws(LibraryError) -> FolderImportOutcome {
    try changing { db in
      let scan = try tracks.map { tracks in try tracks.write(db) } ?? ScanChanges()
      var outcome = FolderImportOutcome()
      outcome.skippedAsBefore = try skipped?.record(db) ?? false
      var added: [Album] = []
      var updates: [(id: Int64, album: Album)] = []
      var matched: Set<Int64> = []
      var returning: [String] = []
      let find = "SELECT \(Album.selection) FROM album WHERE source_key = ? ORDER BY position LIMIT 1"
      for scanned in albums {
        if let key = scanned.sourceKey, scan.frozen.contains(key) { continue }
        let old = scanned.sourceKey.flatMap { scan.moved[$0] }
        let key = scanned.sourceKey.map { old ?? $0 }
        switch try Self.takeScanned(
          scanned, key: scanned.sourceKey, old: old, filesSaid: key.flatMap { filesSaid[$0] },
          partlyGone: scanned.sourceKey.flatMap { scan.partlyGone[$0] }, withDeleted: withDeleted,
          matched: &matched, outcome: &outcome, db)
        {
        case .left, .unchanged: break
        case .added(let returns):
          if returns, let key = scanned.sourceKey { returning.append(key) }
          added.append(scanned)
        case .updated(let id, let album): updates.append((id, album))
        }
      }
      for key in scan.gone {
        guard let stored = try Album.fetchOne(db, sql: find, arguments: [key]) else { continue }
        outcome.gone += 1
        outcome.name(.gone, stored, stored.tracks.map { "all \(Library.counted($0, "file"))" })
      }
      for key in scan.frozen where try Album.fetchOne(db, sql: find, arguments: [key]) != nil {
        outcome.leftAsTheyWere += 1
      }
      guard !added.isEmpty || !updates.isEmpty else { return outcome }
      for key in returning {
        try db.execute(sql: "UPDATE folder_album SET left_out = 0 WHERE key = ?", arguments: [key])
      }
      outcome.added = added.count
      // Into a library of the untouched samples only: they make room, in this step.
      let samples = updates.isEmpty && !added.isEmpty ? try Self.untouchedSampleIDs(db) : nil
      outcome.samplesLeft = samples?.count ?? 0
      let step = try Self.beginStep(.import, summary: summary(outcome), origin: origin, db)
      for (id, album) in updates {
        try Self.appendImage(id, as: .before, of: step, db)
        try Self.writeFields(of: album, to: id, step: step, db)
        try Self.appendImage(id, as: .after, of: step, db)
      }
      if !added.isEmpty {
        let count = try Self.count(db)
        let firstID = try Self.maxID(db) + 1
        // From position 0 beside the samples, which leave (``retireSamples(_:from:_:)``).
        try Self.insertAll(added, from: samples == nil ? count : 0, firstID: firstID, step: step, db)
        if let samples { try Self.retireSamples(samples, from: step, db) }
        try Self.recordInserted(firstID: firstID, count: added.count, removed: outcome.samplesLeft, of: step, db)
      }
      try Self.finishStep(step, selecting: samples == nil ? origin.selection : 0, db)
      outcome.step = try Self.changeStep(step, db)
      return outcome
    }
  }
}

extension SourceImport {
  /// Names `album` among the changes of `kind`, when fewer than a few are named.
  mutating func name(_ kind: Change.Kind, _ album: Album, _ detail: String? = nil) {
    guard named.lazy.filter({ $0.kind == kind }).count < Self.namedPerKind else { return }
    let name = album.artist.isEmpty ? album.title : album.title + " — " + album.artist
    named.append(Change(kind: kind, album: name, detail: detail))
  }
}

extension AlbumStore {
  /// What an import does with one album a scan built.
  enum ScannedAlbumTaking {
    /// Left out: you deleted it from the library.
    case left
    /// Appended (`returns`: an album you deleted, brought back).
    case added(returns: Bool)
    /// The stored album it is, as it is.
    case unchanged
    /// The stored album `id` it is, to be stored as `album` (the scan's, with your edits).
    case updated(id: Int64, album: Album)
  }

  /// How an import takes `scanned` (an album a scan built, its source key `key`; `old`, the
  /// key it had before it moved), counted and named in `outcome`: the stored album with that
  /// key (the first one in order, unless an album of this import took it: `matched`) is
  /// updated in place, keeping the fields you edited since the scan built `filesSaid` (but
  /// those in `following`, which are the source's); an album you deleted is left out unless
  /// `withDeleted`; any other is added.
  static func takeScanned(
    _ scanned: Album, key: String?, old: String?, filesSaid: Album?, following: Set<AlbumField> = [],
    partlyGone: (gone: Int, before: Int)?, withDeleted: Bool, matched: inout Set<Int64>,
    outcome: inout FolderImportOutcome, _ db: Database
  ) throws -> ScannedAlbumTaking {
    try scanned.validate()
    // The first by position, without ordering them: `ORDER BY position LIMIT 1` made SQLite
    // a temporary B-tree for each album taken (a fiftieth of a server's first sync).
    let find = """
      SELECT \(Album.selection) FROM album
      WHERE source_key = ?1 AND position = (SELECT min(position) FROM album WHERE source_key = ?1)
      """
    guard let key, let stored = try Album.fetchOne(db, sql: find, arguments: [old ?? key]),
      let id = stored.id, matched.insert(id).inserted
    else {
      var returns = false
      if let key,
        try Bool.fetchOne(
          db.cachedStatement(sql: "SELECT left_out FROM folder_album WHERE key = ?"), arguments: [key]) == true
      {
        guard withDeleted else {
          outcome.leftOut += 1
          outcome.name(.leftOut, scanned)
          return .left
        }
        returns = true
      }
      outcome.name(.added, scanned)
      return .added(returns: returns)
    }
    let album = filesSaid.map { scanned.keepingEdits(of: stored, filesSaid: $0, following: following) } ?? scanned
    if let partlyGone {
      outcome.partlyGone += 1
      outcome.name(.partlyGone, album, "\(partlyGone.gone) of \(Library.counted(partlyGone.before, "file"))")
    }
    if stored.hasSameFields(as: album) {
      outcome.unchanged += 1
      return .unchanged
    } else if old != nil && stored.folder != album.folder {
      outcome.moved += 1
      outcome.name(.moved, album, stored.folder)
    } else {
      outcome.updated += 1
      let fields = album.changedFields(comparedWith: stored)
      outcome.name(.updated, album, fields.isEmpty ? nil : fields.joined(separator: ", "))
    }
    return .updated(id: id, album: album)
  }
}

extension Album {
  /// This album (as a scan built it now) with each field of `stored` that differs from what
  /// the files said before (`filesSaid`): the fields the user edited, but those the source
  /// says (`following`: a server's marks, which are every library's of that server).
  func keepingEdits(of stored: Album, filesSaid before: Album, following: Set<AlbumField> = []) -> Album {
    var album = self
    for field in AlbumField.allCases
    where !following.contains(field) && field.value(in: stored) != field.value(in: before) {
      album.set(field, to: stored)
    }
    return album
  }

  /// The fields ``AlbumField`` names that differ between this album and `other`.
  package func editedFields(comparedWith other: Album) -> [AlbumField] {
    AlbumField.allCases.filter { $0.value(in: self) != $0.value(in: other) }
  }

  /// This album with `fields` set to `filesSay`'s: what `unedit` stores.
  package func followingFiles(_ filesSay: Album, in fields: [AlbumField]) -> Album {
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
    case .rating: rating = other.rating
    case .fav: favourite = other.favourite
    }
  }

  /// The names of the fields an import writes that differ from `other`'s: `genre, year`,
  /// `tracks`, `folder`.
  func changedFields(comparedWith other: Album) -> [String] {
    editedFields(comparedWith: other).map(\.rawValue)
      + [
        (tracks != other.tracks, "tracks"), (!Self.sameLength(duration, other.duration), "length"),
        (folder != other.folder, "folder"),
      ].filter(\.0).map(\.1)
  }

  /// Whether two albums' lengths are the same to the millisecond the tracks' lengths are read
  /// to: a sum of the same lengths in another order (a track renumbered) may differ in its
  /// last bit, which is no change.
  static func sameLength(_ one: Double?, _ other: Double?) -> Bool {
    guard let one, let other else { return one == nil && other == nil }
    return abs(one - other) < 0.0005
  }

  /// Whether every field an import writes is the same in both: title, artist, genre, year,
  /// cover, rating, favourite mark, the music-folder fields and the source key (not the id,
  /// position or cache state).
  func hasSameFields(as other: Album) -> Bool {
    title == other.title && artist == other.artist && genre == other.genre && year == other.year
      && coverURL == other.coverURL && tracks == other.tracks && Self.sameLength(duration, other.duration)
      && folder == other.folder
      && sourceKey == other.sourceKey && rating == other.rating && favourite == other.favourite
  }
}

extension AlbumStore {
  /// What a scan read that is not the albums' fields: the tracks of each album (by the key
  /// it is stored under), what the store held under the folder before, the files opened and
  /// the folders that could not be read, and the scan's record (``recordScan(of:_:_:)``).
  struct ScannedTracks {
    var albums: [(key: String, album: MusicAlbum)]
    var built: [Album]
    var root: String
    var stored: StoredTracks
    var opened: Set<String>
    var unreadable: [String]
    /// What the scan saw, kept for the next one.
    var seen: Seen

    /// Writes the tracks and what the scan saw inside the import's transaction.
    func write(_ db: Database) throws -> ScanChanges {
      let changes = try AlbumStore.writeTracks(
        of: albums, built: built, root: root, stored: stored, opened: opened, unreadable: unreadable, db)
      try AlbumStore.record(seen, of: root, db)
      return changes
    }
  }

  /// The tracks stored under the source key `key`, with every tag they were read with.
  func storedMusicTracks(forKey key: String) throws(LibraryError) -> [MusicTrack] {
    try reading { db in try Self.musicTracks(forKey: key, db) }
  }
}
