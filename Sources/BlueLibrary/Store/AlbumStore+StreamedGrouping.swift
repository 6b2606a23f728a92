import AlbumModel
internal import BlueSQL
import BlueSystem
internal import MusicFolder

// A first sync's songs grouped as they are listed, without reading them back. A server that
// lists its songs in the order of its folders' tree (MPD walks its database a folder at a
// time: a folder's songs, then each subfolder's in turn) has listed every song of a parent
// folder — every song the grouping's (parent folder, title) clusters of it can hold — once
// it lists a song outside that folder. Each parent's songs are held from its first song to
// that moment, grouped then, and let go: what is held is the songs of the folders on the
// way down to the song being listed. The grouping runs on the thread that lists, the
// writing of its albums (``AlbumStore/BuiltAlbumWriter``) on the staging's
// (``AlbumStore/ListingFiler``), each song known by the staged row it is to get (the
// listing's songs are staged in order, one row each). A listing in another order (a song
// whose parent was let go comes again), a song listed twice (rows not as foreseen), or more
// songs held at once than ``ListingGrouper/mostHeld``, and the grouping gives up: the albums
// written are dropped and ``AlbumStore/groupListing(grouped:)`` groups every staged song
// after the listing, in the order it sorts them. Either way the same albums in the same
// order (a test lists the same songs both ways).
extension AlbumStore {
  /// The songs of one (parent folder, title) cluster, complete, each track's
  /// ``ListedTrack/modified`` its staged row: the staging's thread builds its albums
  /// (``MusicFolderScanner/albums(listed:)``), which balances the two threads' work.
  typealias GroupedCluster = (parent: String, songs: [ListedTrack])

  /// The grouping of a listing as its songs come (the comment above), on the listing's thread.
  final class ListingGrouper {
    /// The parents whose songs are held (their bytes), each under the one before, with
    /// their songs.
    private var open: [(parent: [UInt8], songs: [(title: String, track: ListedTrack)])] = []
    /// The parents let go (hashes of them: a collision only makes the grouper give up).
    private var closed: Set<Int> = []
    /// How many songs are held.
    private var held = 0
    /// The clusters grouped and not yet taken (``takeGrouped()``).
    private var grouped: [GroupedCluster] = []
    /// Whether it still groups (false once it gave up, or was never asked to).
    private(set) var isGrouping: Bool

    /// The most songs held at once: a flat folder of many albums would hold the whole
    /// listing (the staged path sorts it on disk instead).
    static let mostHeld = 8_192

    /// A grouper that groups (`grouping`) or does nothing.
    init(grouping: Bool) { isGrouping = grouping }

    /// Where a song's parent folder is against the innermost parent held.
    private enum Place { case same, inside, outside }

    /// Takes the songs just listed, in order, each with its place (its path's parent folder
    /// and the title its album gets) and its staged row where its time would be.
    func take(_ songs: [ListedSong]) {
      guard isGrouping else { return }
      for song in songs {
        var parent = song.place.parent
        // Compared as bytes in place (a generic walk of two UTF-8 views was a tenth of a sync).
        let taken = parent.withUTF8 { bytes -> Bool in
          // The parents the listing has left: each of them is complete.
          var place = Place.outside
          while let last = open.last {
            place = Self.place(of: bytes, against: last.parent)
            if place != .outside { break }
            close()
          }
          if place == .same {
            open[open.count - 1].songs.append((song.place.title, song.track))
          } else {
            guard !closed.contains(Self.hash(bytes)) else { return false }
            open.append((Array(bytes), [(song.place.title, song.track)]))
          }
          return true
        }
        guard taken else { return giveUp() }
        held += 1
        if held > Self.mostHeld { return giveUp() }
      }
    }

    /// The clusters grouped since the last call, in the order grouped; nil once it gave up
    /// (``AlbumStore/groupListing(grouped:)`` then groups every song).
    func takeGrouped() -> [GroupedCluster]? {
      guard isGrouping else { return nil }
      defer { grouped = [] }
      return grouped
    }

    /// Groups what is still held (the listing ended).
    func finish() {
      guard isGrouping else { return }
      while !open.isEmpty { close() }
    }

    /// Stops grouping and lets go of what it holds.
    func giveUp() {
      isGrouping = false
      open = []
      closed = []
      grouped = []
      held = 0
    }

    /// Groups the songs of the innermost parent held, one title at a time.
    private func close() {
      guard let last = open.popLast() else { return }
      closed.insert(last.parent.withUnsafeBufferPointer(Self.hash))
      held -= last.songs.count
      // By the titles' bytes, as the staged grouping tells clusters apart (not by their
      // canonical equivalence, as a dictionary of strings would).
      var clusters: [[UInt8]: [ListedTrack]] = [:]
      for song in last.songs { clusters[Array(song.title.utf8), default: []].append(song.track) }
      let parent = String(decoding: last.parent, as: UTF8.self)
      // In the titles' order, as the staged grouping builds them: the track rows go into the
      // library in the order the albums were built, and in their paths' order they cost less.
      for title in clusters.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        grouped.append((parent, clusters[title]!))
      }
    }

    /// Whether `folder` is `parent`, a folder inside it, or neither.
    private static func place(of folder: UnsafeBufferPointer<UInt8>, against parent: [UInt8]) -> Place {
      guard parent.withUnsafeBufferPointer({ folder.starts(withBytes: $0) }) else { return .outside }
      if folder.count == parent.count { return .same }
      return parent.isEmpty || folder[parent.count] == UInt8(ascii: "/") ? .inside : .outside
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
      var hasher = Hasher()
      hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
      return hasher.finalize()
    }
  }

  /// The albums grouped as the songs came, written into the staging tables on the staging's
  /// thread: until a song's row is not the one foreseen, or the grouper gave up.
  ///
  /// - Important: Its writer holds statements of the library's connection, which is used
  ///   without SQLite's own mutex: it is let go (or replaced) only with the database's lock
  ///   held (in a ``AlbumStore/reading(_:)`` block), never by a thread that happens to drop it.
  struct BuiltStaging {
    private var writer: BuiltAlbumWriter?
    /// Whether the albums written are all the grouping built so far.
    private(set) var isWriting: Bool

    /// Staging that writes grouped albums (`grouping`) or none.
    init(grouping: Bool) { isWriting = grouping }

    /// Writes `clusters`' albums; nil: the grouper gave up, and so does the writing.
    mutating func write(_ clusters: [GroupedCluster]?, _ db: Database) throws {
      guard let clusters else { return try giveUp(db) }
      guard isWriting, !clusters.isEmpty else { return }
      if writer == nil { writer = try BuiltAlbumWriter(db) }
      for cluster in clusters {
        try writer!.write(MusicFolderScanner.albums(listed: cluster.songs), parent: cluster.parent)
      }
    }

    /// Stops writing and drops the albums written so far.
    mutating func giveUp(_ db: Database) throws {
      guard isWriting else { return }
      isWriting = false
      writer = nil
      try db.execute(sql: "DELETE FROM temp.built WHERE listed = 0; DELETE FROM temp.built_track")
    }

    /// Writes what waits; whether every album of the listing was written. Its statements
    /// are let go here, with the database's lock held.
    mutating func finish(_ db: Database) throws -> Bool {
      guard isWriting else { return false }
      try writer?.finish()
      writer = nil
      return true
    }
  }

  /// Writes the albums the grouping builds of a cluster of listed songs into the staging
  /// tables: each album a row of `built` (with its cluster's parent folder and its place
  /// among the cluster's albums, which order albums of one folder, title and artist as a
  /// sorted grouping would), its tracks' places into `built_track`, `tracksPerInsert` rows
  /// a statement (a statement a row was a tenth of the grouping).
  struct BuiltAlbumWriter {
    private let db: Database
    private let insertAlbum: Statement
    private let insertTracks: Statement
    private static let tracksPerInsert = 128
    private var trackRows: [(seq: Int64, position: Int, disc: Int?, song: Int64)] = []

    init(_ db: Database) throws {
      self.db = db
      insertAlbum = try db.makeStatement(
        sql: """
          INSERT INTO temp.built (key, sort, title, artist, year, genre, tracks, duration, folder, mb_albumid,
            mb_releasegroupid, first_path, discs, track_rating, track_fav, parent, member)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      insertTracks = try Self.insertTracks(Self.tracksPerInsert, db)
      trackRows.reserveCapacity(Self.tracksPerInsert)
    }

    private static func insertTracks(_ count: Int, _ db: Database) throws -> Statement {
      try db.makeStatement(
        sql: "INSERT INTO temp.built_track (seq, position, disc, song) VALUES "
          + repeatElement("(?, ?, ?, ?)", count: count).joined(separator: ", "))
    }

    /// Writes `albums`, what the grouping built of one cluster (the songs of one parent
    /// folder and title, each with its staged row where its time would be).
    mutating func write(_ albums: [MusicAlbum], parent: String) throws {
      for (member, album) in albums.enumerated() {
        try AlbumStore.run(insertAlbum, db) { row in
          row.bind(album.key)
          row.bind(AlbumStore.sortKey(of: album.folder))
          row.bind(album.title)
          row.bind(album.artist)
          row.bind(album.year)
          row.bind(album.genre)
          row.bind(album.trackCount)
          row.bind(album.duration)
          row.bind(album.folder)
          row.bind(album.musicBrainzAlbumID)
          row.bind(album.musicBrainzReleaseGroupID)
          // What its tracks say of it as a whole, kept beside it: the import of a first
          // sync reads the albums without their tracks (``forEachListedAlbum``).
          row.bind(album.tracks.first?.path)
          row.bind(album.discs)
          row.bind(album.rating)
          row.bind(album.favourite)
          row.bind(parent)
          row.bind(member)
        }
        let seq = db.lastInsertedRowID
        for (position, track) in album.tracks.enumerated() {
          // The song's row, carried where its time would be.
          trackRows.append((seq, position, track.disc, track.modified))
          if trackRows.count == Self.tracksPerInsert { try writeTrackRows(insertTracks) }
        }
      }
    }

    /// Writes the track rows still waiting.
    mutating func finish() throws {
      if !trackRows.isEmpty { try writeTrackRows(Self.insertTracks(trackRows.count, db)) }
    }

    private mutating func writeTrackRows(_ statement: Statement) throws {
      try Self.write(trackRows, statement, db)
      trackRows.removeAll(keepingCapacity: true)
    }

    private static func write(
      _ rows: [(seq: Int64, position: Int, disc: Int?, song: Int64)], _ statement: Statement, _ db: Database
    ) throws {
      try AlbumStore.run(statement, db) { row in
        for track in rows {
          row.bind(track.seq)
          row.bind(track.position)
          row.bind(track.disc)
          row.bind(track.song)
        }
      }
    }
  }
}
