import AlbumModel
internal import BlueSQL
internal import MusicFolder

// The one importer of every source's albums, whatever the source (a music folder's scan, a
// server's listing): the albums staged in the library connection's temporary tables, a
// listing's grouped there (``groupListing(grouped:)``), a scan's as it grouped them
// (``stageScan(_:built:)``), or, for a folder found as it was, the albums its last scan
// built, are brought into the library one by one, in the order a scan gives them, in one
// transaction that is one logged step (`takeScanned`, `folderAlbumValues`,
// `forgetAlbumsWithoutFiles`, `moves`).
extension AlbumStore {
  /// Where the albums of an import come from.
  enum ImportedAlbums {
    /// The albums staged, with what the source was seen as (kept for the next import) and,
    /// for a music folder, what its scan knows of its files.
    case staged(seen: Seen, files: ScannedFiles? = nil)
    /// The albums the last scan of a folder built, in its order (a scan that found the
    /// folder as it was, each file as the library has it): their tracks stand as they are.
    case asBefore([Album])
  }

  /// What the scan of a music folder knows of its files beside the albums it built: the
  /// tracks stored under it before (``StoredTracks``), the files it opened (the others were
  /// taken as stored), and the folders it could not list.
  struct ScannedFiles {
    var stored: StoredTracks
    var opened: Set<String>
    var unreadable: [String]
  }

  /// Brings `albums` from the source whose root is `root` into the library in one
  /// transaction: the tracks written where they changed, albums seen before updated in
  /// place (the fields you edited since kept), new ones appended, albums whose tracks are
  /// all gone marked missing, moved ones followed; one logged step (an `import`) when an
  /// album changed, summed up by `summary` (given the outcome's counts); the source's
  /// record (``Seen``) and the files the scan `skipped` (``SkippedFiles``: the outcome says
  /// whether they are the same as the last import's) kept for the next import. `cover`
  /// gives the cover URL of an album by its first track, when its files give none (a
  /// server's). The selection stays `origin.selection`.
  ///
  /// - An album whose source key a stored album has updates that album in place when any
  ///   field differs (the first one in order); undo puts back its old fields (its `before`
  ///   and `after` images) and removes the albums appended (a range of ids).
  /// - Edits stick: a stored album's title, artist, genre, year, cover, rating or favourite
  ///   mark that differs from what the source said of it at the last import was edited
  ///   since, and is kept whatever it says now, but, with `marksFollowSource` (a server that
  ///   keeps marks), its rating and favourite mark, which are the source's, unless a mark
  ///   the library changed still waits for the server (``pendingMarks()``).
  /// - Deletions stick: an album you deleted (``removeMarkedAlbums(_:)``) is left out and
  ///   counted, unless `withDeleted`, which adds it again.
  /// - An album the import built under a key no import built before, whose files were
  ///   another's, moved (``moves(of:isBuilt:vanished:stored:frozen:_:)``): the album stored
  ///   under the old key is updated (its id, place, edits and history kept).
  /// - An album none of whose files are found stays, marked missing, its track rows kept;
  ///   one that lost some loses their rows; one with a file under a folder the scan could
  ///   not list is left exactly as it was.
  /// - The sample albums make room: when the library holds only them, untouched, and the
  ///   import adds albums, they are taken out in the same step, which becomes a `reset`
  ///   (``retireSamples(_:from:_:)``), and the first album added is selected.
  ///
  /// Held in memory meanwhile: one album, the ids of the stored albums taken, up to 512
  /// albums to append, and the keys of the albums that moved, are gone, or lost tracks;
  /// the moves are looked for only when an album of the library is not among those built.
  func importAlbums(
    _ albums: ImportedAlbums, root: String, summary: (SourceImport) -> String, origin: ChangeOrigin,
    withDeleted: Bool = false, marksFollowSource: Bool = false, skipped: SkippedFiles? = nil,
    cover: (_ firstTrack: String) -> String? = { _ in nil }
  ) throws(LibraryError) -> SourceImport {
    try changing { db in
      var outcome = SourceImport()
      outcome.skippedAsBefore = try skipped?.record(db) ?? false
      // Into a library of the untouched samples only, the albums added take their place.
      let samples = try Self.untouchedSampleIDs(db)
      var step: Int64?
      func beginStep() throws -> Int64 {
        if let step { return step }
        let begun = try Self.beginStep(.import, summary: "", origin: origin, db)
        step = begun
        return begun
      }
      var matched: Set<Int64> = []
      var added: [Album] = []
      var firstID: Int64?
      var addedCount = 0
      var position = 0
      var returning: [String] = []
      func flushAdded() throws {
        guard !added.isEmpty else { return }
        let step = try beginStep()
        if firstID == nil {
          firstID = try Self.maxID(db) + 1
          // From position 0 beside the samples, which leave (``retireSamples(_:from:_:)``).
          position = samples == nil ? try Self.count(db) : 0
        }
        try Self.insertAll(added, from: position, firstID: firstID! + Int64(addedCount), step: step, db)
        position += added.count
        addedCount += added.count
        added.removeAll(keepingCapacity: true)
      }
      /// Takes `album`, built under `key` (`old`: the key it was stored under before it
      /// moved), into the library (``takeScanned``).
      func take(
        _ album: Album, key: String, old: String?, filesSaid: Album?, following: Set<AlbumField>,
        partlyGone: (gone: Int, before: Int)?
      ) throws {
        switch try Self.takeScanned(
          album, key: key, old: old, filesSaid: filesSaid, following: following, partlyGone: partlyGone,
          withDeleted: withDeleted, matched: &matched, outcome: &outcome, db)
        {
        case .left, .unchanged: break
        case .added(let returns):
          if returns { returning.append(key) }
          added.append(album)
          if added.count >= 512 { try flushAdded() }
        case .updated(let id, let album):
          let step = try beginStep()
          try Self.appendImage(id, as: .before, of: step, db)
          try Self.writeFields(of: album, to: id, step: step, db)
          try Self.appendImage(id, as: .after, of: step, db)
        }
      }

      var gone: [String] = []
      switch albums {
      case .asBefore(let albums):
        // What the files said at the last scan is what it built.
        for album in albums {
          guard let key = album.sourceKey else { continue }
          try take(album, key: key, old: nil, filesSaid: album, following: [], partlyGone: nil)
        }
      case .staged(let seen, let files):
        let left: Int
        (gone, left) = try Self.takeStaged(
          root: root, seen: seen, files: files, marksFollowSource: marksFollowSource, cover: cover, db, take: take)
        outcome.leftAsTheyWere += left
      }
      try flushAdded()
      let find = "SELECT \(Album.selection) FROM album WHERE source_key = ? ORDER BY position LIMIT 1"
      for key in gone {
        guard let stored = try Album.fetchOne(db, sql: find, arguments: [key]) else { continue }
        outcome.gone += 1
        outcome.name(.gone, stored, stored.tracks.map { "all \(Library.counted($0, "file"))" })
      }
      guard let step else { return outcome }
      for key in returning {
        try db.execute(sql: "UPDATE folder_album SET left_out = 0 WHERE key = ?", arguments: [key])
      }
      outcome.added = addedCount
      if addedCount > 0, let samples, !samples.isEmpty {
        outcome.samplesLeft = samples.count
        try Self.retireSamples(samples, from: step, db)
      }
      if let firstID {
        try Self.recordInserted(
          firstID: firstID, count: addedCount, removed: outcome.samplesLeft, of: step, db)
      }
      try db.execute(sql: "UPDATE change SET summary = ? WHERE id = ?", arguments: [summary(outcome), step])
      try Self.finishStep(step, selecting: outcome.samplesLeft > 0 ? 0 : origin.selection, db)
      outcome.step = try Self.changeStep(step, db)
      return outcome
    }
  }

  /// Takes the staged albums of the source whose root is `root` (``importAlbums``), one by
  /// one with `take`, after writing their tracks and `folder_album` rows, and what the
  /// staging does not hold (files gone, albums not built, moved); records `seen`. Returns
  /// the keys of the albums newly gone (none of their files found), and how many albums of
  /// the library were left as they were (a file of theirs under a folder the scan could not list).
  private static func takeStaged(
    root: String, seen: Seen, files: ScannedFiles?, marksFollowSource: Bool,
    cover: (_ firstTrack: String) -> String?, _ db: Database,
    take: (
      _ album: Album, _ key: String, _ old: String?, _ filesSaid: Album?, _ following: Set<AlbumField>,
      _ partlyGone: (gone: Int, before: Int)?
    ) throws -> Void
  ) throws -> (gone: [String], leftAsTheyWere: Int) {
    let pending = marksFollowSource ? try pendingAlbumKeys(db) : []
    let keys = keyRanges(under: root)
    let inRange = "((key > ? AND key < ?) OR (key > ? AND key < ?))"
    let range: [String] = [keys.0.low, keys.0.high, keys.1.low, keys.1.high]
    let paths = pathRange(under: root)
    let anyStored =
      try Bool.fetchOne(
        db,
        sql: """
          SELECT EXISTS (SELECT 1 FROM track WHERE path > ? AND path < ?)
            OR EXISTS (SELECT 1 FROM folder_album WHERE \(inRange))
          """, arguments: StatementArguments([paths.low, paths.high] + range)) ?? false
    let notBuilt = "\(inRange) AND key NOT IN (SELECT key FROM temp.built)"

    // The folders a scan could not list: an album with a file under one is left as it was.
    let unreadable = (files?.unreadable ?? []).map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    func isUnreadable(_ path: String) -> Bool { unreadable.contains(where: path.hasPrefix) }
    var frozen: Set<String> = []
    if let files, !unreadable.isEmpty {
      for (path, place) in files.stored.places where isUnreadable(path) { frozen.insert(place.key) }
    }

    // What the staging does not hold: albums not built (some of whose files went to others),
    // and the rows of files gone from albums it built (deleted, counted).
    var regrouped: Set<String> = []
    var partlyGone: [String: (gone: Int, before: Int)] = [:]
    var moves: [String: String] = [:]
    if anyStored {
      regrouped = Set(
        try String.fetchAll(
          db,
          sql: """
            SELECT DISTINCT t.album_key FROM track t JOIN temp.listed l ON l.path = t.path
            WHERE t.album_key IN (SELECT key FROM folder_album WHERE \(notBuilt))
            """, arguments: StatementArguments(range)))
      let goneRows = try Row.fetchAll(
        db,
        sql: """
          SELECT t.path, t.album_key FROM track t WHERE t.path > ? AND t.path < ?
            AND t.album_key IN (SELECT key FROM temp.built WHERE listed = 0)
            AND t.path NOT IN (SELECT path FROM temp.listed)
          """, arguments: [paths.low, paths.high])
      for row in goneRows {
        let path: String = row[0]
        let key: String = row[1]
        guard !frozen.contains(key), !isUnreadable(path) else { continue }
        if partlyGone[key] == nil {
          let before =
            try Int.fetchOne(
              db, sql: "SELECT count(*) FROM track WHERE album_key = ? AND path > ? AND path < ?",
              arguments: [key, paths.low, paths.high]) ?? 0
          partlyGone[key] = (0, before)
        }
        partlyGone[key]!.gone += 1
        try db.execute(sql: "DELETE FROM track WHERE path = ?", arguments: [path])
      }
      moves = try listedMoves(root: root, notBuilt: notBuilt, range: range, frozen: frozen, db)
    }
    let movedFrom = Set(moves.values)
    let followEdits = try hasTrackEdits(db)

    let columns =
      "ordinal, title, artist, genre, year, tracks, duration, folder, cover_url, discs, mb_albumid, "
      + "mb_releasegroupid, rating, fav"
    // Split by hand: Foundation's trimming bridged each name through NSString.
    let assignments = columns.split(separator: ",").map { $0.drop { $0 == " " } }.map { "\($0) = excluded.\($0)" }
      .joined(separator: ", ")
    // An upsert, not a replace: whether you deleted the album (`left_out`) stays.
    let upsertAlbum = try db.makeStatement(
      sql: """
        INSERT INTO folder_album (key, \(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET \(assignments), missing = 0
        """)
    let upsertTrack = try upsertTrackStatement(db)
    var ordinal = 0
    // Into a library that holds nothing of the source (a first import), the albums are read
    // without their tracks, which go in at the end in one statement (``storeBuiltTracks``):
    // there is no stored track to compare one with, nor a move to follow.
    try forEachListedAlbum(withTracks: anyStored, db) { key, music, listed, whole in
      defer { ordinal += 1 }
      // Under a folder the scan could not list: left as it was.
      guard !frozen.contains(key) else { return }
      var album = Album(music: music, key: key)
      // What the tracks say, the same whether they were read or not.
      album.rating = whole.rating
      album.favourite = whole.favourite
      if let listed {
        // What the source's list of albums says: its cover (else the Cover Art Archive's,
        // by its MusicBrainz id), its marks.
        if let url = listed.coverURL, url.utf8.count <= Album.maximumLocalCoverBytes { album.coverURL = url }
        album.rating = listed.rating
        album.favourite = listed.favourite
      } else if let url = whole.cover {
        // What its files give: a music folder's cover image, a file's picture.
        album.coverURL = url
      } else if let first = whole.firstPath, let url = cover(first) {
        album.coverURL = url
      }
      let old = moves[key]
      // What the source said of it last time, before this one's row is written.
      let filesSaid =
        try !anyStored
        ? nil
        : Row.fetchOne(
          db.cachedStatement(
            sql: """
              SELECT key, title, artist, genre, year, tracks, duration, folder, cover_url, rating, fav FROM folder_album
              WHERE key = ? AND title IS NOT NULL AND \(inRange)
              """), arguments: StatementArguments([old ?? key] + range)
        ).map(scannedAlbum)
      // A rating its list does not say (a source that rates songs only): what the library
      // last took stands, so it is not told as changed.
      if listed?.ratingKnown == false { album.rating = filesSaid?.rating }
      if let old {
        try moveTrackEdits(from: old, to: music.tracks.map(\.path), db)
        try db.execute(sql: "DELETE FROM folder_album WHERE key = ?", arguments: [key])
        try db.execute(sql: "UPDATE folder_album SET key = ?, missing = 0 WHERE key = ?", arguments: [key, old])
        try db.execute(sql: "DELETE FROM track WHERE album_key = ?", arguments: [old])
      }
      for (position, track) in music.tracks.enumerated() {
        // Where the file's row stood, and whether the file was read again (a scan says; a
        // listing's song is, when it differs from the row).
        let place: StoredTracks.Place?
        let opened: Bool
        if let files {
          place = files.stored.places[track.path]
          opened = files.opened.contains(track.path)
        } else {
          var known: (track: MusicTrack, place: StoredTracks.Place)?
          if anyStored { try readTracks(where: "path = ?", [track.path], db) { known = ($0, $1) } }
          place = known?.place
          opened = known.map { $0.track.modified != track.modified || $0.track.tags != track.tags } ?? true
        }
        if !opened, let place, !movedFrom.contains(place.key), place.isAt(key, position, disc: track.disc) {
          continue
        }
        // A file read again (changed since) says what it says now: an edit it said already follows it.
        if followEdits, place != nil, opened { try followFile(track.path, db) }
        try Self.upsertTrack(track, key: key, position: position, db, using: upsertTrack)
      }
      var values = folderAlbumValues(ordinal: ordinal, album: album, music: music, discs: whole.discs)
      if listed != nil, anyStored {
        try keepOrForgetFetchedTracks(of: album, key: key, values: &values, db)
      }
      let stored =
        try !anyStored
        ? nil
        : Row.fetchOne(
          db.cachedStatement(sql: "SELECT missing, \(columns) FROM folder_album WHERE key = ?"), arguments: [key])
      if stored.map({ $0[0] == false && Array($0.databaseValues.dropFirst()) == values }) != true {
        try upsertAlbum.execute(arguments: StatementArguments([key.databaseValue] + values))
      }
      try take(
        album, key, old, filesSaid,
        !marksFollowSource || pending.contains(old ?? key)
          ? [] : listed?.ratingKnown == false ? [.fav] : [.rating, .fav],
        partlyGone[key])
    }
    if !anyStored { try storeBuiltTracks(db) }

    // Albums of this source the staging does not hold: missing, unless their files went to
    // others or are under a folder the scan could not list.
    var gone: [String] = []
    for row in try Row.fetchAll(
      db, sql: "SELECT key, ordinal IS NULL, missing, folder FROM folder_album WHERE \(notBuilt)",
      arguments: StatementArguments(range))
    {
      let key: String = row[0]
      let folder: String? = row[3]
      if regrouped.contains(key) || frozen.contains(key) || folder.map({ isUnreadable($0 + "/") }) == true {
        if row[1] == false {
          try db.execute(sql: "UPDATE folder_album SET ordinal = NULL WHERE key = ?", arguments: [key])
        }
      } else if row[2] == false {
        try db.execute(sql: "UPDATE folder_album SET ordinal = NULL, missing = 1 WHERE key = ?", arguments: [key])
        gone.append(key)
      }
    }
    var left = 0
    for key in frozen
    where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM album WHERE source_key = ?)", arguments: [key])
      == true
    {
      left += 1
    }
    // Into a library that held nothing of the source, every album was built with tracks
    // now: none is left to forget (the look would read back every page just written).
    if anyStored { try forgetAlbumsWithoutFiles(under: root, db) }
    try record(seen, of: root, db)
    try takeListedPlays(db)
    return (gone, left)
  }
}
