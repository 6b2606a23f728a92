import AlbumModel
internal import BlueSQL
internal import MusicFolder

// The one importer of every source's albums, whatever the source (a music folder's scan, a
// server's listing): the albums a scan grouped, those a listing staged in the library
// connection's temporary tables and grouped there (``groupListing(grouped:)``), or, for a
// folder found as it was, those its last scan built, are brought into the library one by
// one, in the order a scan gives them, each as the same code takes it, in one transaction
// that is one logged step (`takeScanned`, `folderAlbumValues`, `forgetAlbumsWithoutFiles`,
// `moves`).
extension AlbumStore {
  /// Where the albums of an import come from.
  enum ImportedAlbums {
    /// The albums a listing staged and grouped (``groupListing(grouped:)``), with what the
    /// source was seen as (kept for the next import).
    case listed(seen: Seen)
    /// The albums a scan of a music folder built, with what it knows of their files.
    case scanned(ScannedAlbums)
    /// The albums the last scan of a folder built, in its order (a scan that found the
    /// folder as it was, each file as the library has it): their tracks stand as they are.
    case asBefore([Album])
  }

  /// The albums a scan of a music folder built, in its order, each with the key it is
  /// stored under and its tracks as read, and what the scan knows of their files: the
  /// tracks stored under the folder before (``StoredTracks``), the files it opened (the
  /// others were taken as stored), and the folders it could not list; what it saw, kept
  /// for the next scan.
  struct ScannedAlbums {
    var albums: [(key: String, album: MusicAlbum)]
    var stored: StoredTracks
    var opened: Set<String>
    var unreadable: [String]
    var seen: Seen
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
  ///   another's, moved (``moves(of:sourcePrefix:isBuilt:vanished:stored:frozen:_:)``): the album stored
  ///   under the old key is updated (its id, place, edits and history kept).
  /// - An album none of whose files are found stays, marked missing, its track rows kept;
  ///   one that lost some loses their rows; one with a file under a folder the scan could
  ///   not list is left exactly as it was.
  /// - The sample albums make room: when the library holds only them, untouched, and the
  ///   import adds albums, they are taken out in the same step, which becomes a `reset`
  ///   (``retireSamples(_:from:_:)``), and the first album added is selected.
  ///
  /// Held in memory meanwhile, for a listing: one album, the ids of the stored albums
  /// taken, up to 512 albums to append, and the keys of the albums that moved, are gone, or
  /// lost tracks (its moves looked for only when an album of the library is not among those
  /// built); for a scan, which holds its albums already, what the folder's rows say of them.
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
      case .listed(let seen):
        let left: Int
        (gone, left) = try Self.takeSource(
          root: root, seen: seen, scan: nil, marksFollowSource: marksFollowSource, cover: cover, db, take: take,
          flush: flushAdded)
        outcome.leftAsTheyWere += left
      case .scanned(let scan):
        let left: Int
        (gone, left) = try Self.takeSource(
          root: root, seen: scan.seen, scan: scan, marksFollowSource: false, cover: cover, db, take: take,
          flush: flushAdded)
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

  /// Takes the albums of the source whose root is `root` (``importAlbums``): those `scan`
  /// built, else those a listing staged, one by one with `take`, after writing their tracks
  /// and `folder_album` rows; and what they do not hold (files gone, albums not built,
  /// moved: found from the scan's files, or by SQL over the staging, whose songs may be
  /// more than memory holds); records `seen`. Returns the keys of the albums newly gone
  /// (none of their files found), and how many albums of the library were left as they were
  /// (a file of theirs under a folder the scan could not list).
  private static func takeSource(
    root: String, seen: Seen, scan: ScannedAlbums?, marksFollowSource: Bool,
    cover: (_ firstTrack: String) -> String?, _ db: Database,
    take: (
      _ album: Album, _ key: String, _ old: String?, _ filesSaid: Album?, _ following: Set<AlbumField>,
      _ partlyGone: (gone: Int, before: Int)?
    ) throws -> Void,
    flush: () throws -> Void
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
    let builtKeys = Set(scan?.albums.map(\.key) ?? [])

    // The folders a scan could not list: an album with a file under one is left as it was.
    let unreadable = (scan?.unreadable ?? []).map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    func isUnreadable(_ path: String) -> Bool { unreadable.contains(where: path.hasPrefix) }
    var frozen: Set<String> = []
    if let scan, !unreadable.isEmpty {
      for (path, place) in scan.stored.places where isUnreadable(path) { frozen.insert(place.key) }
    }

    let columns =
      "ordinal, title, artist, genre, year, tracks, duration, folder, cover_url, discs, mb_albumid, "
      + "mb_releasegroupid, rating, fav"
    // A scan's albums, which memory holds already: what the folder's rows say of them read
    // at once (a lookup an album cost a re-import of 20,000 files with one changed a tenth
    // more). A listing's, which may be more than memory holds, are looked up one by one.
    var known: (said: [String: Album], rows: [String: (missing: Bool, values: [DatabaseValue])])?
    if scan != nil, anyStored {
      var said: [String: Album] = [:]
      var rows: [String: (missing: Bool, values: [DatabaseValue])] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT key, missing, \(columns) FROM folder_album WHERE \(inRange)",
        arguments: StatementArguments(range))
      {
        rows[row[0]] = (row[1], Array(row.databaseValues.dropFirst(2)))
      }
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT key, title, artist, genre, year, tracks, duration, folder, cover_url, rating, fav FROM folder_album
          WHERE \(inRange) AND title IS NOT NULL
          """, arguments: StatementArguments(range))
      {
        said[row[0]] = scannedAlbum(row)
      }
      known = (said, rows)
    }
    // What the source does not hold: albums not built (some of whose files went to others),
    // and the rows of files gone from albums it built (deleted, counted).
    var regrouped: Set<String> = []
    var partlyGone: [String: (gone: Int, before: Int)] = [:]
    var moves: [String: String] = [:]
    if let scan {
      let storedKeys = Set(known?.rows.keys ?? [:].keys)
      let vanished = storedKeys.subtracting(builtKeys).subtracting(frozen)
      if !vanished.isEmpty {
        for (_, album) in scan.albums {
          for track in album.tracks {
            if let key = scan.stored.places[track.path]?.key, vanished.contains(key) { regrouped.insert(key) }
          }
        }
      }
      // Rows of files the scan did not find, when there are any: gone from an album it
      // built; of an album it did not build, kept with the album (all its files are gone).
      let kept = scan.albums.reduce(0) { kept, scanned in
        scanned.album.tracks.reduce(kept) { $0 + (scan.stored.places[$1.path] == nil ? 0 : 1) }
      }
      if kept < scan.stored.places.count {
        let found = Set(scan.albums.lazy.flatMap { $0.album.tracks.lazy.map(\.path) })
        let delete = try db.cachedStatement(sql: "DELETE FROM track WHERE path = ?")
        var before: [String: Int] = [:]
        for (path, place) in scan.stored.places where !found.contains(path) && builtKeys.contains(place.key) {
          guard !isUnreadable(path), !frozen.contains(place.key) else { continue }
          if before.isEmpty {
            for place in scan.stored.places.values where builtKeys.contains(place.key) {
              before[place.key, default: 0] += 1
            }
          }
          partlyGone[place.key, default: (0, before[place.key] ?? 0)].gone += 1
          try delete.execute(arguments: [path])
        }
      }
      // Looked for whether or not the folder was imported before: an album may come from another.
      let newcomers = scan.albums.filter { !storedKeys.contains($0.key) }
      if !newcomers.isEmpty {
        // Among music folders' albums only (their keys, their paths: absolute).
        moves = try Self.moves(
          of: newcomers, sourcePrefix: "/", isBuilt: builtKeys.contains, vanished: vanished, stored: scan.stored,
          frozen: frozen, db)
      }
    } else if anyStored {
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
        let key: String = row[1]
        if partlyGone[key] == nil {
          let before =
            try Int.fetchOne(
              db, sql: "SELECT count(*) FROM track WHERE album_key = ? AND path > ? AND path < ?",
              arguments: [key, paths.low, paths.high]) ?? 0
          partlyGone[key] = (0, before)
        }
        partlyGone[key]!.gone += 1
        try db.execute(sql: "DELETE FROM track WHERE path = ?", arguments: [row[0] as String])
      }
      moves = try listedMoves(root: root, notBuilt: notBuilt, range: range, db)
    }
    let movedFrom = Set(moves.values)
    let followEdits = try hasTrackEdits(db)

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
    /// Takes one album of the source: `music`, built under `key`, with what its source's
    /// list said of it (`listed`) and what its tracks say of it (`whole`).
    func takeAlbum(_ key: String, _ music: MusicAlbum, _ listed: ListedAlbumMarks?, _ whole: BuiltTracks) throws {
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
      } else if music.cover == nil, let first = whole.firstPath, let url = cover(first) {
        album.coverURL = url
      }
      let old = moves[key]
      // What the source said of it last time, before this one's row is written (moved: under
      // its old key, wherever that was, another folder imported too).
      let said =
        "SELECT key, title, artist, genre, year, tracks, duration, folder, cover_url, rating, fav FROM folder_album"
      var filesSaid: Album?
      if let old {
        filesSaid = try Row.fetchOne(
          db.cachedStatement(sql: said + " WHERE key = ? AND title IS NOT NULL"), arguments: [old]
        ).map(scannedAlbum)
      } else if let known {
        filesSaid = known.said[key]
      } else if anyStored {
        filesSaid = try Row.fetchOne(
          db.cachedStatement(sql: said + " WHERE key = ? AND title IS NOT NULL AND \(inRange)"),
          arguments: StatementArguments([key] + range)
        ).map(scannedAlbum)
      }
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
        if let scan {
          place = scan.stored.places[track.path]
          opened = scan.opened.contains(track.path)
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
      let unchanged: Bool
      if old == nil, let known {
        unchanged = known.rows[key].map { !$0.missing && $0.values == values } ?? false
      } else {
        let stored =
          try !anyStored && old == nil
          ? nil
          : Row.fetchOne(
            db.cachedStatement(sql: "SELECT missing, \(columns) FROM folder_album WHERE key = ?"), arguments: [key])
        unchanged = stored.map { $0[0] == false && Array($0.databaseValues.dropFirst()) == values } ?? false
      }
      if !unchanged { try upsertAlbum.execute(arguments: StatementArguments([key.databaseValue] + values)) }
      try take(
        album, key, old, filesSaid,
        !marksFollowSource || pending.contains(old ?? key)
          ? [] : listed?.ratingKnown == false ? [.fav] : [.rating, .fav],
        partlyGone[key])
    }
    if let scan {
      // The scan's albums, with their tracks, as it built them.
      for (key, music) in scan.albums {
        try takeAlbum(
          key, music, nil,
          BuiltTracks(
            firstPath: music.tracks.first?.path, discs: music.discs, rating: music.rating,
            favourite: music.favourite))
      }
    } else {
      // Into a library that holds nothing of the source (a first sync), the albums are read
      // without their tracks, which go in at the end in one statement (``storeBuiltTracks``):
      // there is no stored track to compare one with, nor a move to follow.
      try forEachListedAlbum(withTracks: anyStored, db, takeAlbum)
      if !anyStored { try storeBuiltTracks(db) }
    }
    // Every album taken is in the library before what follows looks at it (albums without
    // files the library does not hold are forgotten; plays go to albums).
    try flush()

    // Albums of this source it does not hold: missing, unless their files went to others or
    // are under a folder the scan could not list.
    var gone: [String] = []
    let notTaken =
      scan == nil
      ? try Row.fetchAll(
        db, sql: "SELECT key, ordinal IS NULL, missing, folder FROM folder_album WHERE \(notBuilt)",
        arguments: StatementArguments(range))
      : try Row.fetchAll(
        db, sql: "SELECT key, ordinal IS NULL, missing, folder FROM folder_album WHERE \(inRange)",
        arguments: StatementArguments(range)
      ).filter { !builtKeys.contains($0[0] as String) }
    for row in notTaken {
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
    if scan == nil { try takeListedPlays(db) }
    return (gone, left)
  }
}
