internal import GRDB
internal import MusicFolder

// The `track` and `folder_album` tables (see `Schema.addTracks`): what the last scan of a
// music folder read from its files, so `show` lists an album's tracks, queries reach them,
// and a re-import opens only the files that changed.
extension AlbumStore {
  /// The tracks stored under a scanned folder: what the scan may take as known, and where
  /// each stood, so that rows that did not change are not written again.
  struct StoredTracks {
    /// By path.
    var tracks: [String: MusicTrack] = [:]
    /// Each path's album key and place in that album.
    var places: [String: (key: String, position: Int)] = [:]
  }

  /// The tracks stored for files under `root` (a real path), with their tags.
  func storedTracks(under root: String) throws(LibraryError) -> StoredTracks {
    try reading { db in
      var stored = StoredTracks()
      let range = Self.pathRange(under: root)
      let rows = try Row.fetchCursor(
        db.cachedStatement(
          sql: """
            SELECT path, size, modified, disc, album_key, position, album, artist, album_artist, title, number,
              date, genre, disc_tag, mb_trackid, mb_albumid, mb_releasegroupid, format, bitrate, length, picture
            FROM track WHERE path > ? AND path < ?
            """), arguments: [range.low, range.high])
      while let row = try rows.next() {
        let path: String = row[0]
        let picture: String? = row[20]
        let tags = TrackTags(
          album: row[6], artist: row[7], albumArtist: row[8], title: row[9], trackNumber: row[10], date: row[11],
          genre: row[12], discNumber: row[13], musicBrainzTrackID: row[14], musicBrainzAlbumID: row[15],
          musicBrainzReleaseGroupID: row[16], format: row[17], bitrate: row[18], duration: row[19],
          hasPicture: picture != nil, pictureMimeType: picture.flatMap { $0.isEmpty ? nil : $0 })
        stored.tracks[path] = MusicTrack(path: path, size: row[1], modified: row[2], disc: row[3], tags: tags)
        stored.places[path] = (row[4], row[5])
      }
      return stored
    }
  }

  /// Writes what a scan of `root` read: each track of `albums` (each album with the key it
  /// is stored under) whose row differs from `stored`, the rows of files under `root` that
  /// are gone (not those under `unreadable` folders, which the scan could not list), and
  /// each album's discs and MusicBrainz ids. Call inside the import's transaction.
  static func writeTracks(
    of albums: [(key: String, album: MusicAlbum)], root: String, stored: StoredTracks, unreadable: [String],
    _ db: Database
  ) throws {
    let upsert = try db.cachedStatement(
      sql: """
        INSERT OR REPLACE INTO track (path, size, modified, disc, album_key, position, album, artist, album_artist,
          title, number, date, genre, disc_tag, mb_trackid, mb_albumid, mb_releasegroupid, format, bitrate, length,
          picture)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    var seen: Set<String> = []
    seen.reserveCapacity(stored.tracks.count)
    for (key, album) in albums {
      for (position, track) in album.tracks.enumerated() {
        seen.insert(track.path)
        if stored.tracks[track.path] == track, let place = stored.places[track.path], place.key == key,
          place.position == position
        {
          continue
        }
        let tags = track.tags
        let picture = tags.hasPicture ? tags.pictureMimeType ?? "" : nil
        try upsert.execute(arguments: [
          track.path, track.size, track.modified, track.disc, key, position, tags.album, tags.artist,
          tags.albumArtist, tags.title, tags.trackNumber, tags.date, tags.genre, tags.discNumber,
          tags.musicBrainzTrackID, tags.musicBrainzAlbumID, tags.musicBrainzReleaseGroupID, tags.format,
          tags.bitrate, tags.duration, picture,
        ])
      }
    }
    let unreadablePrefixes = unreadable.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    let delete = try db.cachedStatement(sql: "DELETE FROM track WHERE path = ?")
    for path in stored.tracks.keys where !seen.contains(path) {
      guard !unreadablePrefixes.contains(where: path.hasPrefix) else { continue }
      try delete.execute(arguments: [path])
    }

    let albumRow = try db.cachedStatement(
      sql: "SELECT discs, mb_albumid, mb_releasegroupid FROM folder_album WHERE key = ?")
    let upsertAlbum = try db.cachedStatement(
      sql: "INSERT OR REPLACE INTO folder_album (key, discs, mb_albumid, mb_releasegroupid) VALUES (?, ?, ?, ?)")
    for (key, album) in albums {
      let values: [DatabaseValue] = [
        album.discs.databaseValue, album.musicBrainzAlbumID.databaseValue,
        album.musicBrainzReleaseGroupID.databaseValue,
      ]
      if let row = try Row.fetchOne(albumRow, arguments: [key]), Array(row.databaseValues) == values { continue }
      try upsertAlbum.execute(arguments: StatementArguments([key.databaseValue] + values))
    }
    // Albums of this folder none of whose files is left.
    let keys = keyRanges(under: root)
    try db.execute(
      sql: """
        DELETE FROM folder_album
        WHERE ((key > ? AND key < ?) OR (key > ? AND key < ?))
          AND NOT EXISTS (SELECT 1 FROM track WHERE album_key = folder_album.key)
        """, arguments: [keys.0.low, keys.0.high, keys.1.low, keys.1.high])
  }

  /// The track list of the album stored under `key`, nil when no scan stored one.
  func tracklist(forKey key: String) throws(LibraryError) -> Tracklist? {
    try reading { db in
      let tracks = try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT disc, number, title, artist, length, path, format, bitrate, size, modified, mb_trackid
            FROM track WHERE album_key = ? ORDER BY position
            """), arguments: [key]
      ).map { row in
        Tracklist.Track(
          disc: row[0], number: row[1], title: row[2], artist: row[3], duration: row[4], path: row[5],
          format: row[6], bitrate: row[7], size: row[8], modified: row[9], musicBrainzTrackID: row[10])
      }
      let album = try Row.fetchOne(
        db.cachedStatement(sql: "SELECT discs, mb_albumid, mb_releasegroupid FROM folder_album WHERE key = ?"),
        arguments: [key])
      guard album != nil || !tracks.isEmpty else { return nil }
      return Tracklist(
        tracks: tracks, discs: album?[0] ?? 1, musicBrainzAlbumID: album?[1], musicBrainzReleaseGroupID: album?[2])
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
