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
  /// album a scan built before from the same kind of source (its key starts with
  /// `sourcePrefix`: `/` for music folders, a server's root for its own albums — a server's
  /// files are never where a folder's are, so one would always look "moved"), which this
  /// scan did not build and which is not `frozen`:
  /// - most of the newcomer's files were the candidate's, one of the `vanished` albums of
  ///   the scanned folder (retagged in place);
  /// - or the same MusicBrainz album id, none of the candidate's files left where they were;
  /// - or the same album artist and title (ignoring case) and the same files' names and
  ///   sizes, none of the candidate's files left where they were.
  static func moves(
    of newcomers: [(key: String, album: MusicAlbum)], sourcePrefix: String, isBuilt: (String) throws -> Bool,
    vanished: Set<String>, stored: StoredTracks, frozen: Set<String>, _ db: Database
  ) throws -> [String: String] {
    var byID: [String: [String]] = [:]
    var byName: [String: [String]] = [:]
    func name(_ artist: String, _ title: String) -> String { artist.lowercased() + "\u{1F}" + title.lowercased() }
    for row in try Row.fetchAll(
      db, sql: "SELECT key, mb_albumid, artist, title FROM folder_album WHERE title IS NOT NULL")
    {
      let key: String = row[0]
      guard key.hasPrefix(sourcePrefix), !frozen.contains(key), try !isBuilt(key) else { continue }
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

  /// The albums the last scan of `root` built, in its order, each with its source key, as
  /// its files said then: what a scan that finds the folder as it was (the same
  /// fingerprint) gives again.
  func lastScannedAlbums(under root: String) throws(LibraryError) -> [Album] {
    let keys = Self.keyRanges(under: root)
    return try reading { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT key, title, artist, genre, year, tracks, duration, folder, cover_url, rating, fav FROM folder_album
          WHERE ((key > ? AND key < ?) OR (key > ? AND key < ?)) AND title IS NOT NULL AND ordinal IS NOT NULL
          ORDER BY ordinal
          """, arguments: [keys.0.low, keys.0.high, keys.1.low, keys.1.high]
      ).map(Self.scannedAlbum)
    }
  }

  /// How many albums the last scan of `root` built (``lastScannedAlbums(under:)``).
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
