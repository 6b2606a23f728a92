import AlbumModel
internal import BlueSQL
import FoundationEssentials
internal import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The `track` and `folder_album` tables (see `Schema.addTracks`): what the last scan of a
// music folder read from its files, so `show` lists an album's tracks, queries reach them,
// and a re-import opens only the files that changed.
extension AlbumStore {
  /// The tracks stored under a scanned folder: what the scan may take as known, and where
  /// each stood, so that rows that did not change are not written again.
  struct StoredTracks {
    /// By path.
    var tracks: [String: MusicTrack] = [:]
    /// Each path's album key, place in that album and disc.
    var places: [String: Place] = [:]

    struct Place {
      var key: String
      var position: Int
      var disc: Int?
      /// The track's length, to tell the same file from another one at its path.
      var length: Double
      /// Whether the row holds the sample rate and composer (version 21): a row read before
      /// does not, and its file is read again.
      var hasAudioFields = true

      /// Whether the row stands where a scan puts the track: the same album, place and disc.
      func isAt(_ key: String, _ position: Int, disc: Int?) -> Bool {
        self.key == key && self.position == position && self.disc == disc
      }
    }
  }

  /// The tracks stored for files under `root` (a real path), with their tags.
  func storedTracks(under root: String) throws(LibraryError) -> StoredTracks {
    try reading { db in
      var stored = StoredTracks()
      let range = Self.pathRange(under: root)
      let count =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM track WHERE path > ? AND path < ?", arguments: [range.low, range.high]) ?? 0
      stored.tracks.reserveCapacity(count)
      stored.places.reserveCapacity(count)
      try Self.readTracks(where: "path > ? AND path < ?", [range.low, range.high], db) { track, place in
        // A row from before the sample rate and composer were read is the scanner's to read again.
        if place.hasAudioFields { stored.tracks[track.path] = track }
        stored.places[track.path] = place
      }
      return stored
    }
  }

  /// What a scan found besides the albums' fields, for the import to act on and report.
  struct ScanChanges {
    /// Albums that moved (or were retagged into a new key): by the key the scan gave them,
    /// the key they were stored under. Their rows now carry the new key.
    var moved: [String: String] = [:]
    /// Albums none of whose files the scan found, newly so (their rows stay, marked missing).
    var gone: [String] = []
    /// Albums the scan built that lost files since the last scan: how many, by key.
    var partlyGone: [String: (gone: Int, before: Int)] = [:]
    /// Albums with files under a folder the scan could not list: left as they were.
    var frozen: Set<String> = []
  }

  /// Writes what a scan of `root` read: each track of `albums` (each album with the key it
  /// is stored under) that was `opened` or whose place changed (the others are `stored`'s
  /// rows, taken as known), the rows of files under `root` that are gone, and each album as
  /// the scan `built` it (the `Album` of each of `albums`, in order), with its discs and
  /// MusicBrainz ids. Call inside the import's transaction.
  ///
  /// - An album the scan built under a key no scan built before, which is an album whose
  ///   files the scan did not find where they were, moved: its rows take the new key
  ///   (``ScanChanges/moved``). It is the same album when it holds most of the same files
  ///   (retagged), has the same MusicBrainz album id, or has the same album artist and title
  ///   and the same files' names and sizes; and none of the old album's files is left.
  /// - An album none of whose files the scan found stays, marked missing, its track rows
  ///   kept; an album that lost some of its files loses their rows.
  /// - An album with a file under one of the `unreadable` folders (which the scan could not
  ///   list) is left exactly as it was: not written, not missing, not moved.
  static func writeTracks(
    of albums: [(key: String, album: MusicAlbum)], built: [Album], root: String, stored: StoredTracks,
    opened: Set<String>, unreadable: [String], _ db: Database
  ) throws -> ScanChanges {
    var changes = ScanChanges()
    let unreadablePrefixes = unreadable.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    func isUnreadable(_ path: String) -> Bool { unreadablePrefixes.contains(where: path.hasPrefix) }
    if !unreadablePrefixes.isEmpty {
      for (path, place) in stored.places where isUnreadable(path) { changes.frozen.insert(place.key) }
    }

    let keys = keyRanges(under: root)
    let inRange = "(key > ? AND key < ?) OR (key > ? AND key < ?)"
    let rangeArguments: StatementArguments = [keys.0.low, keys.0.high, keys.1.low, keys.1.high]
    let columns =
      "ordinal, title, artist, genre, year, tracks, duration, folder, cover_url, discs, mb_albumid, "
      + "mb_releasegroupid, rating, fav"
    var storedAlbums: [String: [DatabaseValue]] = [:]
    var wasMissing: Set<String> = []
    for row in try Row.fetchAll(
      db, sql: "SELECT key, missing, \(columns) FROM folder_album WHERE \(inRange)", arguments: rangeArguments)
    {
      let key: String = row[0]
      if row[1] == true { wasMissing.insert(key) }
      storedAlbums[key] = Array(row.databaseValues.dropFirst(2))
    }

    let builtKeys = Set(albums.map(\.key))
    // Albums of this folder the scan did not build, and those of them some of whose files it
    // found (in other albums: regrouped, not gone).
    let vanished = Set(storedAlbums.keys.filter { !builtKeys.contains($0) && !changes.frozen.contains($0) })
    var regrouped: Set<String> = []
    if !vanished.isEmpty {
      for (_, album) in albums {
        for track in album.tracks {
          if let key = stored.places[track.path]?.key, vanished.contains(key) { regrouped.insert(key) }
        }
      }
    }
    let newcomers = albums.filter { storedAlbums[$0.key] == nil }
    if !newcomers.isEmpty {
      changes.moved = try moves(
        of: newcomers, isBuilt: builtKeys.contains, vanished: vanished, stored: stored, frozen: changes.frozen, db)
    }
    for (new, old) in changes.moved {
      if let album = albums.first(where: { $0.key == new }) {
        try moveTrackEdits(from: old, to: album.album.tracks.map(\.path), db)
      }
      try db.execute(sql: "DELETE FROM folder_album WHERE key = ?", arguments: [new])
      try db.execute(sql: "UPDATE folder_album SET key = ?, missing = 0 WHERE key = ?", arguments: [new, old])
      try db.execute(sql: "DELETE FROM track WHERE album_key = ?", arguments: [old])
      if let values = storedAlbums.removeValue(forKey: old) { storedAlbums[new] = values }
      wasMissing.remove(old)
    }
    let movedFrom = Set(changes.moved.values)
    let followEdits = try hasTrackEdits(db)

    var kept = 0  // stored rows the scan found again
    for (key, album) in albums where !changes.frozen.contains(key) {
      for (position, track) in album.tracks.enumerated() {
        let place = stored.places[track.path]
        if place != nil { kept += 1 }
        if !opened.contains(track.path), !movedFrom.contains(place?.key ?? ""),
          place?.isAt(key, position, disc: track.disc) == true
        {
          continue
        }
        // A file read again (changed since) says what it says now: an edit it said already follows it.
        if followEdits, place != nil, opened.contains(track.path) { try followFile(track.path, db) }
        try upsertTrack(track, key: key, position: position, db)
      }
    }
    // Rows of files the scan did not find, when there are any: gone from an album it built;
    // of an album it did not build, kept with the album (all its files are gone).
    if kept < stored.places.count {
      let found = Set(albums.lazy.flatMap { $0.album.tracks.lazy.map(\.path) })
      let delete = try db.cachedStatement(sql: "DELETE FROM track WHERE path = ?")
      var before: [String: Int] = [:]
      for (path, place) in stored.places where !found.contains(path) && builtKeys.contains(place.key) {
        guard !isUnreadable(path), !changes.frozen.contains(place.key) else { continue }
        if before.isEmpty {
          for place in stored.places.values where builtKeys.contains(place.key) { before[place.key, default: 0] += 1 }
        }
        changes.partlyGone[place.key, default: (0, before[place.key] ?? 0)].gone += 1
        try delete.execute(arguments: [path])
      }
    }

    // An upsert, not a replace: whether you deleted the album (`left_out`) stays.
    // Split by hand: Foundation's trimming bridged each name through NSString (1.2 M
    // instructions for the first import of a run).
    let assignments = columns.split(separator: ",").map { $0.drop { $0 == " " } }
      .map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
    let upsertAlbum = try db.cachedStatement(
      sql: """
        INSERT INTO folder_album (key, \(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET \(assignments), missing = 0
        """)
    for (ordinal, ((key, music), album)) in zip(albums, built).enumerated() where !changes.frozen.contains(key) {
      let values = folderAlbumValues(ordinal: ordinal, album: album, music: music)
      if storedAlbums.removeValue(forKey: key) == values && !wasMissing.contains(key) { continue }
      try upsertAlbum.execute(arguments: StatementArguments([key.databaseValue] + values))
    }
    // Albums of this folder the scan did not build are no longer among its albums; those not
    // under a folder it could not list are missing (their files gone, or all taken by others).
    let unplace = try db.cachedStatement(sql: "UPDATE folder_album SET ordinal = NULL WHERE key = ?")
    let markMissing = try db.cachedStatement(sql: "UPDATE folder_album SET ordinal = NULL, missing = 1 WHERE key = ?")
    for (key, values) in storedAlbums where !builtKeys.contains(key) {
      if changes.frozen.contains(key) || String.fromDatabaseValue(values[7]).map({ isUnreadable($0 + "/") }) == true {
        if !values[0].isNull { try unplace.execute(arguments: [key]) }
      } else if regrouped.contains(key) {
        if !values[0].isNull { try unplace.execute(arguments: [key]) }
      } else if !wasMissing.contains(key) {
        try markMissing.execute(arguments: [key])
        changes.gone.append(key)
      }
    }
    try forgetAlbumsWithoutFiles(under: root, db)
    return changes
  }

  /// The values of an album's `folder_album` row after its key, as a scan built it (`album`
  /// from `music`), the `ordinal`th of the scan.
  static func folderAlbumValues(ordinal: Int, album: Album, music: MusicAlbum) -> [DatabaseValue] {
    folderAlbumValues(ordinal: ordinal, album: album, music: music, discs: music.discs)
  }

  /// ``folderAlbumValues(ordinal:album:music:)`` with its number of discs given (`music`
  /// read without its tracks).
  static func folderAlbumValues(ordinal: Int, album: Album, music: MusicAlbum, discs: Int) -> [DatabaseValue] {
    [
      ordinal.databaseValue, album.title.databaseValue, album.artist.databaseValue, album.genre.databaseValue,
      album.year.databaseValue, album.tracks.databaseValue, album.duration.databaseValue,
      album.folder.databaseValue, album.coverURL.databaseValue, discs.databaseValue,
      music.musicBrainzAlbumID.databaseValue, music.musicBrainzReleaseGroupID.databaseValue,
      album.rating.databaseValue, album.favourite.databaseValue,
    ]
  }

  /// Forgets, with their tracks, the albums of the folder `root` none of whose files is left
  /// and which the library does not hold or leave out (a folder unmounted for a while must
  /// not lose your edits and deletes).
  static func forgetAlbumsWithoutFiles(under root: String, _ db: Database) throws {
    let keys = keyRanges(under: root)
    let forgotten = """
      SELECT key FROM folder_album WHERE ((key > ? AND key < ?) OR (key > ? AND key < ?)) AND left_out = 0
        AND (missing = 1 OR NOT EXISTS (SELECT 1 FROM track WHERE album_key = folder_album.key))
        AND NOT EXISTS (SELECT 1 FROM album WHERE source_key = folder_album.key)
      """
    let arguments: StatementArguments = [keys.0.low, keys.0.high, keys.1.low, keys.1.high]
    try db.execute(sql: "DELETE FROM track WHERE album_key IN (\(forgotten))", arguments: arguments)
    try db.execute(sql: "DELETE FROM folder_album WHERE key IN (\(forgotten))", arguments: arguments)
  }

  /// The albums among `newcomers` (keys no scan built before) that are albums stored before
  /// under another key, moved or retagged: by the new key, the old one. A candidate is an
  /// album a scan built before, which this scan did not build and which is not `frozen`:
  /// - most of the newcomer's files were the candidate's, one of the `vanished` albums of
  ///   the scanned folder (retagged in place);
  /// - or the same MusicBrainz album id, none of the candidate's files left where they were;
  /// - or the same album artist and title (ignoring case) and the same files' names and
  ///   sizes, none of the candidate's files left where they were.
  static func moves(
    of newcomers: [(key: String, album: MusicAlbum)], isBuilt: (String) throws -> Bool, vanished: Set<String>,
    stored: StoredTracks, frozen: Set<String>, _ db: Database
  ) throws -> [String: String] {
    var byID: [String: [String]] = [:]
    var byName: [String: [String]] = [:]
    func name(_ artist: String, _ title: String) -> String { artist.lowercased() + "\u{1F}" + title.lowercased() }
    for row in try Row.fetchAll(
      db, sql: "SELECT key, mb_albumid, artist, title FROM folder_album WHERE title IS NOT NULL")
    {
      let key: String = row[0]
      guard !frozen.contains(key), try !isBuilt(key) else { continue }
      if let id: String = row[1], !id.isEmpty { byID[id, default: []].append(key) }
      byName[name(row[2] ?? "", row[3] ?? ""), default: []].append(key)
    }
    guard !byID.isEmpty || !byName.isEmpty else { return [:] }
    var storedCounts: [String: Int] = [:]
    for place in stored.places.values where vanished.contains(place.key) { storedCounts[place.key, default: 0] += 1 }

    func files(of key: String) throws -> [(path: String, size: Int64)] {
      try Row.fetchAll(db, sql: "SELECT path, size FROM track WHERE album_key = ?", arguments: [key]).map {
        ($0[0], $0[1])
      }
    }
    func signature(_ files: [(path: String, size: Int64)]) -> [String] {
      files.map { ($0.path.split(separator: "/").last.map(String.init) ?? $0.path) + "\u{1F}\($0.size)" }.sorted()
    }
    func allGone(_ files: [(path: String, size: Int64)]) -> Bool {
      files.allSatisfy { access($0.path, F_OK) != 0 && errno == ENOENT }
    }

    var moves: [String: String] = [:]
    var taken: Set<String> = []
    let idCounts = newcomers.reduce(into: [String: Int]()) { counts, newcomer in
      if let id = newcomer.album.musicBrainzAlbumID { counts[id, default: 0] += 1 }
    }
    for (key, album) in newcomers {
      // Retagged in place: most of its files were one candidate's.
      var shares: [String: Int] = [:]
      for track in album.tracks {
        // The same file at the path (its length), not another one put where it was.
        if let place = stored.places[track.path], vanished.contains(place.key),
          abs(place.length - track.tags.duration) < 0.5
        {
          shares[place.key, default: 0] += 1
        }
      }
      if let (old, count) = shares.max(by: { $0.value < $1.value }), !taken.contains(old),
        count * 2 >= max(album.tracks.count, storedCounts[old] ?? 0)
      {
        moves[key] = old
        taken.insert(old)
        continue
      }
      if let id = album.musicBrainzAlbumID, idCounts[id] == 1, let olds = byID[id] {
        let free = olds.filter { !taken.contains($0) }
        if free.count == 1, let old = free.first, allGone(try files(of: old)) {
          moves[key] = old
          taken.insert(old)
          continue
        }
      }
      let mine = signature(album.tracks.map { ($0.path, $0.size) })
      for old in byName[name(album.artist, album.title)] ?? [] where !taken.contains(old) {
        let theirs = try files(of: old)
        if signature(theirs) == mine, allGone(theirs) {
          moves[key] = old
          taken.insert(old)
          break
        }
      }
    }
    return moves
  }

  /// The statement of ``upsertTrack(_:key:position:_:using:)``, for a caller that writes
  /// many tracks: found once, not by its text for each track (hashing the text of a cached
  /// statement cost a few percent of a server's first sync).
  static func upsertTrackStatement(_ db: Database) throws -> Statement {
    try db.cachedStatement(
      sql: """
        INSERT OR REPLACE INTO track (path, size, modified, disc, album_key, position, album, artist, album_artist,
          title, number, date, genre, disc_tag, mb_trackid, mb_albumid, mb_releasegroupid, format, bitrate, length,
          picture, changed, inode, rating, fav, samplerate, composer)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
  }

  /// Writes `track`'s row: the file at its path, the `position`th track of the album `key`
  /// (with `statement`, ``upsertTrackStatement(_:)``, when given).
  static func upsertTrack(
    _ track: MusicTrack, key: String, position: Int, _ db: Database, using statement: Statement? = nil
  ) throws {
    let tags = track.tags
    let picture = tags.hasPicture ? tags.pictureMimeType ?? "" : nil
    let statement = try statement ?? upsertTrackStatement(db)
    try run(statement, db) { row in
      row.bind(track.path)
      row.bind(track.size)
      row.bind(track.modified)
      row.bind(track.disc)
      row.bind(key)
      row.bind(position)
      row.bindTags(of: tags)
      row.bind(tags.bitrate)
      row.bind(tags.duration)
      row.bind(picture)
      row.bind(track.changed < 0 ? nil : track.changed)
      row.bind(track.changed < 0 ? nil : track.inode)
      row.bind(tags.rating)
      row.bind(tags.favourite)
      row.bind(tags.sampleRate)
      row.bind(tags.composer)
    }
  }

  /// Writes the tracks of an album read from an exported file (a JSON `tracks` array), in
  /// their order, as the album `key`'s, with its discs and MusicBrainz ids (those most of
  /// them carry). Rows of the same files are replaced.
  static func writeImportedTracks(_ tracks: [MusicTrack], key: String, _ db: Database) throws {
    for (position, track) in tracks.enumerated() { try upsertTrack(track, key: key, position: position, db) }
    // The tracks of a folder changed without a scan: its next import reads it whole.
    try Self.forgetEveryFingerprint(db)
    func mostCommon(_ values: [String]) -> String? {
      var counts: [String: Int] = [:]
      for value in values { counts[value, default: 0] += 1 }
      let most = counts.values.max()
      return values.first { counts[$0] == most }
    }
    try db.execute(
      sql: """
        INSERT INTO folder_album (key, discs, mb_albumid, mb_releasegroupid) VALUES (?, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET discs = excluded.discs, mb_albumid = excluded.mb_albumid,
          mb_releasegroupid = excluded.mb_releasegroupid
        """,
      arguments: [
        key, tracks.reduce(1) { max($0, $1.disc ?? 1) }, mostCommon(tracks.compactMap(\.tags.musicBrainzAlbumID)),
        mostCommon(tracks.compactMap(\.tags.musicBrainzReleaseGroupID)),
      ])
  }

  /// The tracks of the album stored under `key`, with every tag they were read with, in
  /// album order: what `export` writes.
  static func musicTracks(forKey key: String, _ db: Database) throws -> [MusicTrack] {
    var tracks: [MusicTrack] = []
    try readTracks(where: "album_key = ? ORDER BY position", [key], db) { track, _ in tracks.append(track) }
    return tracks
  }

  /// Hands each track row `condition` selects to `body`, with every tag it was read with and
  /// where it stands. Read with SQLite's C API (as `AlbumStore+FastReads`): a re-import of
  /// 20,000 unchanged files reads them all, and generic rows (BlueSQL's ``Row``, read by
  /// column, as GRDB's were when this was measured) cost three times as much.
  static func readTracks(
    where condition: String, _ arguments: StatementArguments, _ db: Database,
    _ body: (MusicTrack, StoredTracks.Place) -> Void
  ) throws {
    let statement = try db.cachedStatement(
      sql: """
        SELECT path, size, modified, disc, album_key, position, album, artist, album_artist, title, number,
          date, genre, disc_tag, mb_trackid, mb_albumid, mb_releasegroupid, format, bitrate, length, picture,
          changed, inode, rating, fav, samplerate, composer
        FROM track WHERE \(condition)
        """)
    try statement.setArguments(arguments)
    let row = statement.sqliteStatement
    defer { sqlite3_reset(row) }
    func text(_ column: Int32) -> String? {
      guard let bytes = sqlite3_column_text(row, column) else { return nil }
      return String(
        decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(row, column))), as: UTF8.self)
    }
    func integer(_ column: Int32) -> Int? {
      sqlite3_column_type(row, column) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, column))
    }
    while true {
      let code = sqlite3_step(row)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
      let picture = text(20)
      let tags = TrackTags(
        album: text(6), artist: text(7), albumArtist: text(8), title: text(9), trackNumber: integer(10),
        date: text(11), genre: text(12), discNumber: integer(13), musicBrainzTrackID: text(14),
        musicBrainzAlbumID: text(15), musicBrainzReleaseGroupID: text(16), format: text(17) ?? "",
        bitrate: integer(18) ?? 0, duration: sqlite3_column_double(row, 19), hasPicture: picture != nil,
        pictureMimeType: picture.flatMap { $0.isEmpty ? nil : $0 }, rating: integer(23),
        favourite: sqlite3_column_int64(row, 24) != 0, sampleRate: integer(25) ?? 0, composer: text(26))
      body(
        MusicTrack(
          path: text(0) ?? "", size: sqlite3_column_int64(row, 1), modified: sqlite3_column_int64(row, 2),
          changed: integer(21).map(Int64.init) ?? -1, inode: integer(22).map(Int64.init) ?? -1, disc: integer(3),
          tags: tags),
        StoredTracks.Place(
          key: text(4) ?? "", position: integer(5) ?? 0, disc: integer(3), length: sqlite3_column_double(row, 19),
          hasAudioFields: sqlite3_column_type(row, 25) != SQLITE_NULL))
    }
  }

  /// What the scans of `root` built, read once: the albums the last scan built
  /// (``writeTracks(of:built:root:stored:opened:unreadable:_:)``), in its order, each with its
  /// source key — what a scan that finds the folder unchanged (the same fingerprint) gives
  /// again — and, by key, what the files said of every album a scan built, those of the
  /// last one and those whose files are gone for now, so their edits are known.
  func scannedAlbums(under root: String) throws(LibraryError) -> (lastScan: [Album], filesSaid: [String: Album]) {
    let keys = Self.keyRanges(under: root)
    return try reading { db in
      var lastScan: [Album] = []
      var filesSaid: [String: Album] = [:]
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT key, title, artist, genre, year, tracks, duration, folder, cover_url, rating, fav, ordinal FROM folder_album
          WHERE ((key > ? AND key < ?) OR (key > ? AND key < ?)) AND title IS NOT NULL ORDER BY ordinal
          """, arguments: [keys.0.low, keys.0.high, keys.1.low, keys.1.high])
      {
        let album = Self.scannedAlbum(row)
        filesSaid[row[0]] = album
        if !row.hasNull(atIndex: 11) { lastScan.append(album) }
      }
      return (lastScan, filesSaid)
    }
  }

  /// How many albums the last scan of `root` built (``scannedAlbums(under:)``'s `lastScan`).
  func scannedAlbumCount(under root: String) throws(LibraryError) -> Int {
    let keys = Self.keyRanges(under: root)
    return try reading { db in
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM folder_album WHERE ((key > ? AND key < ?) OR (key > ? AND key < ?))
            AND title IS NOT NULL AND ordinal IS NOT NULL
          """, arguments: [keys.0.low, keys.0.high, keys.1.low, keys.1.high]) ?? 0
    }
  }

  /// The album the last scan built under `key`, if a scan did (and still has it).
  func scannedAlbum(forKey key: String) throws(LibraryError) -> Album? {
    try reading { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT key, title, artist, genre, year, tracks, duration, folder, cover_url, rating, fav FROM folder_album
          WHERE key = ? AND title IS NOT NULL
          """, arguments: [key]
      ).map(Self.scannedAlbum)
    }
  }

  /// An album from a `folder_album` row selected as ``scannedAlbum(forKey:)`` selects it.
  static func scannedAlbum(_ row: Row) -> Album {
    var album = Album(
      title: row[1], artist: row[2], genre: row[3], year: row[4], coverURL: row[8], tracks: row[5],
      duration: row[6], folder: row[7], rating: row[9], favourite: row[10])
    album.sourceKey = row[0]
    return album
  }

  /// The track list of the album stored under `key`, nil when no scan stored one.
  func tracklist(forKey key: String) throws(LibraryError) -> Tracklist? {
    try reading { db in
      let tracks = try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT t.disc, t.number, t.title, t.artist, t.length, t.path, t.format, t.bitrate, t.size, t.modified,
              t.mb_trackid, e.title, e.artist, e.number, e.album_artist, t.album_artist, t.samplerate, t.composer
            FROM track t LEFT JOIN track_edit e ON e.path = t.path WHERE t.album_key = ? ORDER BY t.position
            """), arguments: [key]
      ).map { row in
        var track = Tracklist.Track(
          disc: row[0], number: row[1], title: row[2], artist: row[3], duration: row[4], path: row[5],
          format: row[6], bitrate: row[7], size: row[8], modified: row[9], musicBrainzTrackID: row[10])
        track.sampleRate = row[16] ?? 0
        track.composer = row[17]
        // Your edits over what the file says, and what it says where they differ.
        if let title: String = row[11], title != track.title {
          track.fileSays[.title] = track.title ?? ""
          track.title = title
        }
        if let artist: String = row[12], artist != (track.artist ?? "") {
          track.fileSays[.artist] = track.artist ?? ""
          track.artist = artist.isEmpty ? nil : artist
        }
        if let number: Int = row[13], number != track.number {
          track.fileSays[.number] = track.number.map(String.init) ?? ""
          track.number = number
        }
        let fileAlbumArtist: String? = row[15]
        if let albumArtist: String = row[14], albumArtist != fileAlbumArtist {
          track.fileSays[.albumartist] = fileAlbumArtist ?? ""
          track.albumArtist = albumArtist
        }
        return track
      }
      let album = try Row.fetchOne(
        db.cachedStatement(
          sql: "SELECT discs, mb_albumid, mb_releasegroupid, missing FROM folder_album WHERE key = ?"),
        arguments: [key])
      guard album != nil || !tracks.isEmpty else { return nil }
      return Tracklist(
        tracks: tracks, discs: album?[0] ?? 1, musicBrainzAlbumID: album?[1], musicBrainzReleaseGroupID: album?[2],
        missing: album?[3] ?? false)
    }
  }

  /// The text range of the paths under `root`: greater than `root/`, less than `root0`
  /// (`0` follows `/` in byte order), so a sibling `root2/` is not in it.
  static func pathRange(under root: String) -> (low: String, high: String) {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    return (prefix, String(prefix.dropLast()) + "0")
  }

  /// The ranges of the album keys of folders under `root`: those of subfolders (`root/…`)
  /// and those of `root` itself (`root` then U+001F, the keys' separator).
  static func keyRanges(under root: String) -> ((low: String, high: String), (low: String, high: String)) {
    let folder = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
    return (pathRange(under: root), (folder + "\u{1F}", folder + "\u{20}"))
  }
}

extension AlbumStore {
  /// The album (the first in library order) of the track at each of `paths` the library
  /// holds; paths of no track are left out.
  func albumsOfTracks(at paths: [String]) throws(LibraryError) -> [String: Album] {
    try reading { db in
      var albums: [String: Album] = [:]
      var byKey: [String: Album?] = [:]
      let key = try db.cachedStatement(sql: "SELECT album_key FROM track WHERE path = ?")
      let find = "SELECT \(Album.selection) FROM album WHERE source_key = ? ORDER BY position LIMIT 1"
      for path in paths {
        guard let found = try String.fetchOne(key, arguments: [path]) else { continue }
        if byKey[found] == nil { byKey[found] = try Album.fetchOne(db, sql: find, arguments: [found]) }
        if let stored = byKey[found] ?? nil { albums[path] = stored }
      }
      return albums
    }
  }
}

extension AlbumStore.Bindings {
  /// Binds the tags a track's row and a listed track's row both hold, in this order: album,
  /// artist, album artist, title, track number, date, genre, disc number, the three
  /// MusicBrainz ids, format.
  mutating func bindTags(of tags: TrackTags) {
    bind(tags.album)
    bind(tags.artist)
    bind(tags.albumArtist)
    bind(tags.title)
    bind(tags.trackNumber)
    bind(tags.date)
    bind(tags.genre)
    bind(tags.discNumber)
    bind(tags.musicBrainzTrackID)
    bind(tags.musicBrainzAlbumID)
    bind(tags.musicBrainzReleaseGroupID)
    bind(tags.format)
  }
}
