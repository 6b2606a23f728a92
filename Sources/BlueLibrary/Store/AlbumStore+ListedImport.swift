import AlbumModel
internal import BlueSQL
internal import MusicFolder
import MusicSource

// The import of tracks another program lists (a music server's songs) in memory that does
// not grow with them. The tracks are staged as they come in temporary tables of the
// library's connection (SQLite keeps those in a temporary file, with a few pages cached),
// which no other shell sees and which take no lock on the library file; they are grouped
// from there one album title at a time, exactly as a folder's files are
// (``MusicFolderScanner/albums(listed:)``), and brought into the library by the one importer
// of every source (``importAlbums(_:root:summary:origin:withDeleted:marksFollowSource:skipped:cover:)``).
extension AlbumStore {
  /// Makes the staging tables, empty (a listing that starts again forgets what it staged).
  func beginListing() throws(LibraryError) {
    try reading { db in
      try Self.dropListing(db)
      // A cache of the temporary tables' pages larger than SQLite's 2 MB while they are
      // filled and read: fewer of their pages go to and come back from the temporary file
      // (a first sync of 20,000 songs wrote 17,000 pages). Bounded, whatever the songs.
      try db.execute(sql: "PRAGMA temp.cache_size = -\(Self.listingCacheKiB)")
      try db.execute(
        sql: """
          CREATE TEMP TABLE listed (
            path TEXT NOT NULL UNIQUE, parent TEXT NOT NULL, title TEXT NOT NULL, folder TEXT NOT NULL,
            modified INTEGER NOT NULL, album TEXT, artist TEXT, album_artist TEXT, song_title TEXT, number INTEGER,
            date TEXT, genre TEXT, disc INTEGER, mb_trackid TEXT, mb_albumid TEXT, mb_releasegroupid TEXT,
            format TEXT NOT NULL, length REAL NOT NULL, rating INTEGER, fav INTEGER NOT NULL, bitrate INTEGER NOT NULL,
            samplerate INTEGER NOT NULL, composer TEXT);
          CREATE TEMP TABLE built (
            seq INTEGER PRIMARY KEY, key TEXT NOT NULL, sort TEXT NOT NULL, title TEXT NOT NULL, artist TEXT NOT NULL,
            year INTEGER, genre TEXT NOT NULL, tracks INTEGER NOT NULL, duration REAL NOT NULL, folder TEXT NOT NULL,
            mb_albumid TEXT, mb_releasegroupid TEXT, listed INTEGER NOT NULL DEFAULT 0, cover_url TEXT,
            rating INTEGER, rating_known INTEGER NOT NULL DEFAULT 0, fav INTEGER NOT NULL DEFAULT 0, plays INTEGER,
            last_played INTEGER, first_path TEXT, discs INTEGER NOT NULL DEFAULT 1, track_rating INTEGER,
            track_fav INTEGER NOT NULL DEFAULT 0, parent TEXT, member INTEGER NOT NULL DEFAULT 0);
          CREATE TEMP TABLE built_track (
            seq INTEGER NOT NULL, position INTEGER NOT NULL, disc INTEGER, song INTEGER NOT NULL,
            PRIMARY KEY (seq, position)) WITHOUT ROWID;
          """)
    }
  }

  /// Drops the staging tables.
  func endListing() {
    try? reading { db in
      try Self.dropListing(db)
      try db.execute(sql: "PRAGMA temp.cache_size = -2000")
    }
  }

  /// The cache of the temporary tables during a listing, KiB.
  static let listingCacheKiB = 16 << 10

  /// Drops the staging tables without overwriting their pages: SQLite as Debian builds it
  /// deletes securely (`secure_delete`, zeros over every freed page, each page first copied
  /// to the temporary file's journal), which for tables no other program sees, in a file
  /// deleted when the connection closes, only doubled a first sync's writes (6,800 of them
  /// for 20,000 songs) and their time. The library's own file keeps its secure deletes.
  private static func dropListing(_ db: Database) throws {
    let secure = try Int.fetchOne(db, sql: "PRAGMA temp.secure_delete") ?? 1
    try db.execute(sql: "PRAGMA temp.secure_delete = 0")
    defer { try? db.execute(sql: "PRAGMA temp.secure_delete = \(secure)") }
    try db.execute(
      sql: "DROP TABLE IF EXISTS temp.listed; DROP TABLE IF EXISTS temp.built; DROP TABLE IF EXISTS temp.built_track")
  }

  /// A listed song as the staging and the grouping take it: its place (its path's folder,
  /// the folder above, the title its album gets) and its track, whose ``ListedTrack/modified``
  /// is the staged row it is to get.
  typealias ListedSong = (place: (folder: Substring, parent: Substring, title: String), track: ListedTrack)

  /// A window of a listing made ready on the listing's thread (``window(of:root:firstRow:)``)
  /// for ``stage(_:grouped:into:)`` on the staging's.
  struct ListingWindow: Sendable {
    /// The songs, in the order listed, each with the staged row it is to get: the rows
    /// after the last window's, in order, unless a song was listed before.
    var songs: [ListedSong]
    /// Each song's modification time, seconds since 1970.
    var times: [Int64]
  }

  /// `songs` of the source whose root is `root`, each filed at `root/PATH` (its
  /// ``SourceTrack/path``), with its tags as a music-folder track has them
  /// (``SourceTrack/tags``), the first to be the staged row `firstRow`.
  static func window(of songs: [SourceTrack], root: String, firstRow: Int64) -> ListingWindow {
    let prefix = root + "/"
    var window = ListingWindow(songs: [], times: [])
    window.songs.reserveCapacity(songs.count)
    window.times.reserveCapacity(songs.count)
    for (offset, song) in songs.enumerated() {
      let path = prefix + song.path
      let tags = song.tags
      window.songs.append(
        (
          Self.place(of: path, album: tags.album),
          ListedTrack(path: path, modified: firstRow + Int64(offset), tags: tags)
        ))
      window.times.append(song.modified)
    }
    return window
  }

  /// Stages the songs of `window` (a path staged before is left as it was: the first listing
  /// of a song wins), then, while `staging` writes, the albums the grouping built as the
  /// songs came (`grouped`; nil: the grouper gave up). Returns how many songs were new. A
  /// song that does not get the row foreseen (listed before) ends the writing.
  func stage(_ window: ListingWindow, grouped: [GroupedCluster]?, into staging: inout BuiltStaging) throws(LibraryError)
    -> Int
  {
    try reading { db in
      var staged = 0
      // The songs go in `songsPerInsert` rows a statement, their texts bound in place from
      // one arena: a statement a song, each text copied by SQLite, was a third of the staging.
      let songsPerInsert = 32
      func insert(_ rows: Int) throws -> Statement {
        try db.cachedStatement(
          sql: """
            INSERT OR IGNORE INTO temp.listed (path, parent, title, folder, modified, album, artist, album_artist,
              song_title, number, date, genre, disc, mb_trackid, mb_albumid, mb_releasegroupid, format, length,
              rating, fav, bitrate, samplerate, composer)
            VALUES \(repeatElement("(" + repeatElement("?", count: 23).joined(separator: ", ") + ")", count: rows)
              .joined(separator: ", "))
            """)
      }
      var arena = TextArena()
      try db.inTransaction(.deferred) {
        let (many, one) = (try insert(songsPerInsert), try insert(1))
        var index = 0
        let songs = window.songs
        while index < songs.count {
          let count = songs.count - index >= songsPerInsert ? songsPerInsert : 1
          try Self.run(count == 1 ? one : many, db, arena: &arena) { row in
            for offset in index..<index + count {
              let (place, track) = songs[offset]
              let tags = track.tags
              row.bind(track.path)
              row.bind(place.parent)
              row.bind(place.title)
              row.bind(place.folder)
              row.bind(window.times[offset] &* 1_000_000_000)
              row.bindTags(of: tags)
              row.bind(tags.duration)
              row.bind(tags.rating)
              row.bind(tags.favourite)
              row.bind(tags.bitrate)
              row.bind(tags.sampleRate)
              row.bind(tags.composer)
            }
          }
          // A song listed twice (in one statement or two) counts once: the first stands.
          let inserted = db.changesCount
          staged += inserted
          index += count
          // The rows of one statement are consecutive; a song listed before takes none, and
          // the rows after it are not the ones the grouping was told.
          if staging.isWriting, inserted != count || db.lastInsertedRowID != songs[index - 1].track.modified {
            try staging.giveUp(db)
          }
        }
        try staging.write(grouped, db)
        return .commit
      }
      return staged
    }
  }

  /// Writes the albums the grouping built of the songs it held at the end of the listing
  /// (`grouped`; nil: it gave up) while `staging` writes; whether every album of the
  /// listing was staged as the songs came.
  func finishStaging(_ grouped: [GroupedCluster]?, _ staging: inout BuiltStaging) throws(LibraryError) -> Bool {
    try reading { db in
      var done = false
      try db.inTransaction(.deferred) {
        try staging.write(grouped, db)
        done = try staging.finish(db)
        return .commit
      }
      return done
    }
  }

  /// Stages the albums of a source that lists albums without their tracks
  /// (``SourceListing/albums(_:)``), each as an album of its own, filed at `root/PATH`,
  /// keyed by its folder alone (a retagged album stays the same album), ordered by its
  /// artist and title: not grouped (``groupListing(grouped:)`` leaves them as they are). Returns how
  /// many.
  @discardableResult
  func stageAlbums(_ albums: [SourceAlbum], root: String) throws(LibraryError) -> Int {
    try reading { db in
      try db.inTransaction(.deferred) {
        let insert = try db.cachedStatement(
          sql: """
            INSERT INTO temp.built (key, sort, title, artist, year, genre, tracks, duration, folder, mb_albumid,
              listed, cover_url, rating, rating_known, fav, plays, last_played)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)
            """)
        for album in albums {
          let folder = root + "/" + album.path
          let title = album.title
          try Self.run(insert, db) { row in
            row.bind(Self.listedAlbumKey(folder: folder))
            row.bind(Self.sortKey(of: album.artist.lowercased() + "/" + title.lowercased() + "/" + album.path))
            row.bind(title)
            row.bind(album.artist)
            row.bind(album.year)
            row.bind(album.genre ?? "")
            row.bind(max(0, album.trackCount))
            row.bind(album.duration.isFinite ? max(0, album.duration) : 0)
            row.bind(folder)
            row.bind(album.musicBrainzAlbumID)
            row.bind(album.coverURL)
            row.bind(album.rating.map { min(max($0, 1), 5) })
            row.bind(album.ratingKnown)
            row.bind(album.favourite)
            row.bind(album.plays.map { max(0, $0) })
            row.bind(album.lastPlayed)
          }
        }
        return .commit
      }
      return albums.count
    }
  }

  /// The key of an album a source listed without its tracks, filed at `folder`: its folder
  /// alone, so its title or artist changed on the source is the same album, updated.
  static func listedAlbumKey(folder: String) -> String {
    MusicAlbum.key(folder: folder, artist: "", title: "")
  }

  /// Where the grouping puts the track at `path` whose album tag is `album`: its folder, the
  /// folder above (whose subfolders' albums may merge as discs), and the title its album
  /// gets (the album tag, else the folder's name). Tracks of different (parent, title) never
  /// end in one album, so each such set is grouped on its own.
  private static func place(of path: String, album: String?) -> (folder: Substring, parent: Substring, title: String) {
    let folder: Substring
    let parent: Substring
    if MusicFolderScanner.slashesStandAlone(path) {
      // Slashes that are characters of their own found from the bytes: walking a path's
      // characters back from the end was a tenth of the staging.
      let slash = UInt8(ascii: "/")
      folder = path.utf8.lastIndex(of: slash).map { path[..<$0] } ?? ""
      parent = folder.utf8.lastIndex(of: slash).map { folder[..<$0] } ?? ""
    } else {
      folder = path.lastIndex(of: "/").map { path[..<$0] } ?? ""
      parent = folder.lastIndex(of: "/").map { folder[..<$0] } ?? ""
    }
    let title = album ?? MusicFolderScanner.folderName(folder)
    return (folder, parent, title)
  }

  /// Groups the staged tracks into albums, one (parent folder, title) at a time, and stages
  /// the albums with their source keys: as an import keys them, the later of two albums
  /// with one key (in the import's order) gets a suffix. Returns how many albums. What
  /// When the listing was `grouped` as the songs came (``ListingGrouper``, its albums all
  /// staged), they are not grouped again.
  func groupListing(grouped: Bool = false) throws(LibraryError) -> Int {
    try reading { db in
      // SQLite sorts in memory up to the main database's cache size (2 MB by default), and
      // the staged songs in order of their albums take some 7 MB for 20,000 songs: sorted
      // in runs written to the temporary file and merged, a sixth of the grouping. The same
      // bound as the staging tables' cache, whatever the songs; the library's own after.
      let mainCache = try Int.fetchOne(db, sql: "PRAGMA main.cache_size") ?? -2000
      try db.execute(sql: "PRAGMA main.cache_size = -\(Self.listingCacheKiB)")
      defer { try? db.execute(sql: "PRAGMA main.cache_size = \(mainCache)") }
      try db.inTransaction(.deferred) {
        if !grouped {
          var writer = try BuiltAlbumWriter(db)
          var cluster: [ListedTrack] = []
          var current: (parent: String, title: String)?
          let read = try db.makeStatement(
            sql: """
              SELECT rowid, parent, title, \(Self.groupingColumns) FROM temp.listed
              ORDER BY parent, title, folder, path
              """)
          try Self.readListed(read, offset: 3) { row, track in
            let parent = Self.text(row, 1) ?? ""
            let title = Self.text(row, 2) ?? ""
            if current?.parent != parent || current?.title != title {
              if let current { try writer.write(MusicFolderScanner.albums(listed: cluster), parent: current.parent) }
              cluster.removeAll(keepingCapacity: true)
              current = (parent, title)
            }
            cluster.append(track)
          }
          if let current { try writer.write(MusicFolderScanner.albums(listed: cluster), parent: current.parent) }
          try writer.finish()
        }
        // One key for one album: the later ones of a key (in the import's order) get `US n`.
        try db.execute(sql: "CREATE INDEX temp.built_key ON built (key)")
        try db.execute(sql: "CREATE INDEX temp.built_order ON built (\(Self.builtOrder))")
        for key in try String.fetchAll(db, sql: "SELECT key FROM temp.built GROUP BY key HAVING count(*) > 1") {
          let seqs = try Int64.fetchAll(
            db, sql: "SELECT seq FROM temp.built WHERE key = ? ORDER BY \(Self.builtOrder)", arguments: [key])
          for (index, seq) in seqs.enumerated().dropFirst() {
            try db.execute(
              sql: "UPDATE temp.built SET key = ? WHERE seq = ?", arguments: [key + "\u{1F}\(index + 1)", seq])
          }
        }
        return .commit
      }
      return try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.built") ?? 0
    }
  }

  /// The order of the built albums, an import's: by folder (``sortKey(of:)``), title and
  /// artist, then those of one folder, title and artist by their clusters' parent folders
  /// and their places among their clusters' albums (the order a grouping of the songs
  /// sorted by parent and title makes them in, whether they were grouped so or as they came).
  static let builtOrder = "sort, title, artist, parent, member, seq"

  /// A text that sorts as the grouping orders albums' folders (by their names, a folder
  /// before its subfolders): the names joined by U+0001, below every character a name has.
  static func sortKey(of folder: String) -> String {
    guard MusicFolderScanner.slashesStandAlone(folder) else {
      return folder.split(separator: "/").joined(separator: "\u{1}")
    }
    // Each slash a character of its own: the same from the bytes (splitting the
    // characters cost a twentieth of the grouping of a server's songs).
    var bytes: [UInt8] = []
    bytes.reserveCapacity(folder.utf8.count)
    var slash = false
    for byte in folder.utf8 {
      if byte == UInt8(ascii: "/") {
        slash = !bytes.isEmpty
        continue
      }
      if slash { bytes.append(1) }
      slash = false
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ``listedColumns`` as the grouping reads them: what plays no part in it (the MusicBrainz
  /// track id, the format, the rates, the composer) left out, sorted and read for nothing,
  /// and the song's row where its time would be: the time plays no part either, and the
  /// grouping hands each track's back with it (a dictionary of the paths cost a twentieth
  /// of the grouping).
  private static let groupingColumns =
    "path, rowid, album, artist, album_artist, song_title, number, date, genre, disc, NULL, mb_albumid, "
    + "mb_releasegroupid, '', length, rating, fav, 0, 0, NULL"

  /// The columns ``readListed(_:offset:_:)`` reads, in its order.
  private static let listedColumns =
    "path, modified, album, artist, album_artist, song_title, number, date, genre, disc, mb_trackid, mb_albumid, "
    + "mb_releasegroupid, format, length, rating, fav, bitrate, samplerate, composer"

  /// Steps `statement` (whose columns from `offset` on are ``listedColumns``, prefixed by
  /// the staging table's alias or not), handing each row and its track to `body`.
  private static func readListed(
    _ statement: Statement, offset: Int32, _ body: (OpaquePointer, ListedTrack) throws -> Void
  ) throws {
    let row = statement.sqliteStatement
    defer { sqlite3_reset(row) }
    func integer(_ column: Int32) -> Int? {
      sqlite3_column_type(row, offset + column) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, offset + column))
    }
    func string(_ column: Int32) -> String? { text(row, offset + column) }
    while true {
      let code = sqlite3_step(row)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
      let tags = TrackTags(
        album: string(2), artist: string(3), albumArtist: string(4), title: string(5), trackNumber: integer(6),
        date: string(7), genre: string(8), discNumber: integer(9), musicBrainzTrackID: string(10),
        musicBrainzAlbumID: string(11), musicBrainzReleaseGroupID: string(12), format: string(13) ?? "",
        bitrate: integer(17) ?? 0, duration: sqlite3_column_double(row, offset + 14), rating: integer(15),
        favourite: integer(16) == 1, sampleRate: integer(18) ?? 0, composer: string(19))
      try body(
        row, ListedTrack(path: string(0) ?? "", modified: sqlite3_column_int64(row, offset + 1), tags: tags))
    }
  }

  private static func text(_ row: OpaquePointer?, _ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(row, column) else { return nil }
    return String(
      decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(row, column))), as: UTF8.self)
  }

  /// What a source's list of albums said of an album it listed without its tracks
  /// (``stageAlbums(_:root:)``), beside what an album has.
  struct ListedAlbumMarks {
    var coverURL: String?
    var rating: Int?
    var ratingKnown: Bool
    var favourite: Bool
  }

  /// What an album's tracks say of it as a whole (``groupListing(grouped:)`` keeps it beside the
  /// album): its first track's path, its number of discs, the rating all its tracks carry
  /// and whether all are favourites (``MusicAlbum/discs``, ``MusicAlbum/rating``,
  /// ``MusicAlbum/favourite``). For an album listed without its tracks: none, 1, nil, false.
  struct BuiltTracks {
    var firstPath: String?
    var discs: Int
    var rating: Int?
    var favourite: Bool
  }

  /// Hands each album ``groupListing(grouped:)`` staged (those `condition` selects, of the table
  /// `b`) to `body`, in the order a folder import gives them (by folder, title and artist),
  /// with its key, its tracks (none without `withTracks`: what they say of the album is in
  /// ``BuiltTracks``), and, for an album listed without its tracks, what its list said of it.
  static func forEachListedAlbum(
    where condition: String = "1", withTracks: Bool = true, _ db: Database,
    _ body: (String, MusicAlbum, ListedAlbumMarks?, BuiltTracks) throws -> Void
  ) throws {
    let listed = listedColumns.split(separator: ",").map { "l." + $0.trimmed }.joined(separator: ", ")
    let albumColumns = """
      b.seq, b.key, b.title, b.artist, b.year, b.genre, b.tracks, b.duration, b.folder, b.mb_albumid,
        b.mb_releasegroupid, b.listed, b.cover_url, b.rating, b.rating_known, b.fav, b.first_path, b.discs,
        b.track_rating, b.track_fav
      """
    let read = try db.makeStatement(
      sql: withTracks
        ? """
        SELECT \(albumColumns), t.disc, \(listed)
        FROM temp.built b LEFT JOIN temp.built_track t ON t.seq = b.seq LEFT JOIN temp.listed l ON l.rowid = t.song
        WHERE \(condition) ORDER BY b.sort, b.title, b.artist, b.parent, b.member, b.seq, t.position
        """
        : """
        SELECT \(albumColumns), NULL, \(listed.split(separator: ",").map { _ in "NULL" }.joined(separator: ", "))
        FROM temp.built b WHERE \(condition) ORDER BY b.sort, b.title, b.artist, b.parent, b.member, b.seq
        """)
    var current: (seq: Int64, key: String, album: MusicAlbum, listed: ListedAlbumMarks?, whole: BuiltTracks)?
    try readListed(read, offset: 21) { row, track in
      let seq = sqlite3_column_int64(row, 0)
      if current?.seq != seq {
        if let (_, key, album, listed, whole) = current { try body(key, album, listed, whole) }
        var album = MusicAlbum(
          key: text(row, 1) ?? "", title: text(row, 2) ?? "", artist: text(row, 3) ?? "",
          year: sqlite3_column_type(row, 4) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, 4)),
          genre: text(row, 5) ?? "", trackCount: Int(sqlite3_column_int64(row, 6)),
          duration: sqlite3_column_double(row, 7), folder: text(row, 8) ?? "", cover: nil)
        album.musicBrainzAlbumID = text(row, 9)
        album.musicBrainzReleaseGroupID = text(row, 10)
        let listed =
          sqlite3_column_int64(row, 11) == 0
          ? nil
          : ListedAlbumMarks(
            coverURL: text(row, 12),
            rating: sqlite3_column_type(row, 13) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, 13)),
            ratingKnown: sqlite3_column_int64(row, 14) != 0, favourite: sqlite3_column_int64(row, 15) != 0)
        let whole = BuiltTracks(
          firstPath: text(row, 16), discs: Int(sqlite3_column_int64(row, 17)),
          rating: sqlite3_column_type(row, 18) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, 18)),
          favourite: sqlite3_column_int64(row, 19) != 0)
        current = (seq, album.key, album, listed, whole)
      }
      // An album listed without its tracks has none here (its row joined to nothing), nor
      // has any album read without them.
      guard sqlite3_column_type(row, 21) != SQLITE_NULL else { return }
      let disc = sqlite3_column_type(row, 20) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, 20))
      current!.album.tracks.append(
        MusicTrack(path: track.path, size: 0, modified: track.modified, disc: disc, tags: track.tags))
    }
    if let (_, key, album, listed, whole) = current { try body(key, album, listed, whole) }
  }

  /// Writes the tracks of every album ``groupListing(grouped:)`` built as the library's, each the
  /// `position`th of its album's key, in one statement: what ``upsertTrack(_:key:position:_:using:)``
  /// writes for each, without a `MusicTrack` of them made and bound again (a first sync,
  /// where no track of the source is stored to compare them with). In the order the albums
  /// were built, which is nearly their paths' (the table's key): in another, the rows cost
  /// two fifths more.
  static func storeBuiltTracks(_ db: Database) throws {
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO track (path, size, modified, disc, album_key, position, album, artist, album_artist,
          title, number, date, genre, disc_tag, mb_trackid, mb_albumid, mb_releasegroupid, format, bitrate, length,
          picture, changed, inode, rating, fav, samplerate, composer)
        SELECT l.path, 0, l.modified, t.disc, b.key, t.position, l.album, l.artist, l.album_artist, l.song_title,
          l.number, l.date, l.genre, l.disc, l.mb_trackid, l.mb_albumid, l.mb_releasegroupid, l.format, l.bitrate,
          l.length, NULL, NULL, NULL, l.rating, l.fav, l.samplerate, l.composer
        FROM temp.built b INDEXED BY built_order JOIN temp.built_track t ON t.seq = b.seq
          JOIN temp.listed l ON l.rowid = t.song
        ORDER BY \(builtOrder.split(separator: ", ").map { "b." + $0 }.joined(separator: ", ")), t.position
        """)
  }

  /// The moves among the albums of a listing of `root` new to the library
  /// (``moves(of:sourcePrefix:isBuilt:vanished:stored:frozen:_:)``): looked for only when an album a scan
  /// built before is not among the listing's, and then with the new albums and the stored
  /// tracks of those not listed read for it.
  static func listedMoves(
    root: String, notBuilt: String, range: [String], _ db: Database
  ) throws -> [String: String] {
    let candidates =
      try Bool.fetchOne(
        db,
        sql: """
          SELECT EXISTS (SELECT 1 FROM folder_album WHERE title IS NOT NULL AND key NOT IN (SELECT key FROM temp.built))
          """) ?? false
    guard candidates else { return [:] }
    let vanished = Set(
      try String.fetchAll(
        db, sql: "SELECT key FROM folder_album WHERE \(notBuilt)", arguments: StatementArguments(range))
    )
    var newcomers: [(key: String, album: MusicAlbum)] = []
    try forEachListedAlbum(where: "b.key NOT IN (SELECT key FROM folder_album)", db) { key, album, _, _ in
      newcomers.append((key, album))
    }
    // An album listed without its tracks keeps its key (its folder) when retagged: no move.
    newcomers.removeAll { $0.album.tracks.isEmpty }
    guard !newcomers.isEmpty else { return [:] }
    var stored = StoredTracks()
    let keysOf = "SELECT key FROM folder_album WHERE \(notBuilt)"
    try readTracks(where: "album_key IN (\(keysOf))", StatementArguments(range), db) { track, place in
      stored.tracks[track.path] = track
      stored.places[track.path] = place
    }
    for track in newcomers.lazy.flatMap(\.album.tracks) where stored.places[track.path] == nil {
      try readTracks(where: "path = ?", [track.path], db) { track, place in stored.places[track.path] = place }
    }
    let isBuilt = try db.makeStatement(sql: "SELECT EXISTS (SELECT 1 FROM temp.built WHERE key = ?)")
    return try moves(
      of: newcomers, sourcePrefix: root + "/", isBuilt: { try Bool.fetchOne(isBuilt, arguments: [$0]) ?? false },
      vanished: vanished, stored: stored, frozen: [], db)
  }
}

// Albums a source listed without their tracks (``SourceListing/albums(_:)``): the tracks
// the library asked for since (``AlbumStore/keepFetchedTracks(_:forKey:)``) stay while the
// album's entry says what it said; its plays are the source's where it counts more.
extension AlbumStore {
  /// Keeps the tracks fetched for the album listed under `key` while its entry says what it
  /// said when they were (title, artist, genre, year, track count, length, cover), and then
  /// its number of discs too (`values`, ``folderAlbumValues(ordinal:album:music:)``, says
  /// one: the list says nothing of discs); otherwise forgets them, to be asked again.
  static func keepOrForgetFetchedTracks(
    of album: Album, key: String, values: inout [DatabaseValue], _ db: Database
  ) throws {
    guard
      let stored = try Row.fetchOne(
        db.cachedStatement(
          sql: "SELECT title, artist, genre, year, tracks, duration, cover_url, discs FROM folder_album WHERE key = ?"),
        arguments: [key])
    else { return }
    let same =
      stored[0] as String? == album.title && stored[1] as String? == album.artist
      && stored[2] as String? == album.genre && stored[3] as Int? == album.year && stored[4] as Int? == album.tracks
      && stored[5] as Double? == album.duration && stored[6] as String? == album.coverURL
    if same {
      values[9] = stored[7] as DatabaseValue
    } else {
      try db.execute(sql: "DELETE FROM track WHERE album_key = ?", arguments: [key])
    }
  }

  /// The plays the source counted of each album it listed without its tracks, where it
  /// counts more than the library (its `played`, and when last, where it says).
  static func takeListedPlays(_ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO album_play (album_id, played, last_played)
        SELECT a.id, b.plays, coalesce(b.last_played, 0) FROM temp.built b JOIN album a ON a.source_key = b.key
        WHERE b.listed = 1 AND b.plays > 0
        ON CONFLICT (album_id) DO UPDATE SET played = max(played, excluded.played),
          last_played = max(last_played, excluded.last_played)
        """)
  }

  /// Keeps `tracks`, fetched from the source for the album stored under `key` (listed
  /// without them), as its tracks, in their order, and its number of discs: no step of the
  /// undo log (nothing of the album changes), no lock held but this short write's.
  func keepFetchedTracks(_ tracks: [MusicTrack], forKey key: String) throws(LibraryError) {
    try changing { db in
      try db.execute(sql: "DELETE FROM track WHERE album_key = ?", arguments: [key])
      for (position, track) in tracks.enumerated() { try Self.upsertTrack(track, key: key, position: position, db) }
      try db.execute(
        sql: "UPDATE folder_album SET discs = ? WHERE key = ?",
        arguments: [tracks.reduce(1) { max($0, $1.disc ?? 1) }, key])
    }
  }
}

extension Substring {
  /// Without the blanks it starts with.
  fileprivate var trimmed: Substring { drop { $0 == " " } }
}
