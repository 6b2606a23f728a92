import AlbumModel
internal import BlueSQL
import BlueSystem

/// The library file's schema and its versions.
///
/// Versions live in SQLite's own header: `application_id` marks a file as a
/// bluelib library and `user_version` counts the migrations applied. Unlike a
/// bookkeeping table of migrations (GRDB's `DatabaseMigrator`, before BlueSQL, made one
/// outside the migration's transaction), this lets a new file be created, migrated and
/// seeded in one transaction, and lets a file be recognised with read-only
/// `PRAGMA` queries before anything is written to it.
enum Schema {
  /// `'BLib'`: the `application_id` of every bluelib library file.
  static let applicationID: Int32 = 0x424C_6962

  /// Migration `n` (1-based) brings a file from `user_version` n-1 to n. Append, never edit.
  static let migrations: [@Sendable (Database) throws -> Void] = [
    createVersion1, addChangeLog, addCoverLedger, addMusicFields, addViews, addTracks, addMissingAndWrites,
    addFileIdentity, addWriteJournal, addCoverNone, addRatings, addTrackArtistTag, addTrackEdits,
    foldArtistIndex, addKeptRatingTags, addLookupNone, addSources, addListenQueue,
    addSortKeys, addTrackAlbumArtistEdits, addTrackAudioFields,
  ]

  /// The newest schema this build knows.
  static var version: Int { migrations.count }

  /// Names of the tables and the columns this build reads, checked when a file is opened:
  /// a file at schema version v must hold those of every entry `since` v or earlier.
  static let requiredColumns: [(table: String, columns: [String], since: Int)] = [
    ("album", ["id", "title", "artist", "genre", "year", "coverUrl", "position"], 1),
    ("state", ["key", "value"], 1),
    ("album", ["step"], 2),
    (
      "change",
      [
        "id", "session", "kind", "summary", "undone", "undone_by", "selection_before", "selection_after", "first_id",
        "last_id",
        "count", "removed",
      ],
      2
    ),
    (
      "change_album",
      [
        "change_id", "image", "album_id", "title", "artist", "genre", "year", "coverUrl", "position", "prev_id",
        "next_id", "step",
      ],
      2
    ),
    ("cover", ["url"], 3),
    ("album", ["tracks", "duration", "folder", "source_key"], 4),
    ("change_album", ["tracks", "duration", "folder", "source_key"], 4),
    ("album", ["added"], 5),
    ("change_album", ["added"], 5),
    ("view", ["name", "query"], 5),
    (
      "track",
      [
        "path", "album_key", "position", "disc", "number", "title", "artist", "length", "format", "bitrate", "size",
        "modified", "mb_trackid", "album", "album_artist", "date", "genre", "disc_tag", "picture", "mb_albumid",
        "mb_releasegroupid",
      ],
      6
    ),
    (
      "folder_album",
      [
        "key", "ordinal", "title", "artist", "genre", "year", "tracks", "duration", "folder", "cover_url", "discs",
        "mb_albumid", "mb_releasegroupid", "left_out",
      ],
      6
    ),
    ("folder_album", ["missing"], 7),
    ("change_tag", ["change_id", "image", "file", "path", "album", "album_artist", "date", "genre"], 7),
    ("album_play", ["album_id", "played", "last_played"], 7),
    ("track", ["changed", "inode"], 8),
    ("write_journal", ["change_id", "direction", "owner"], 9),
    ("cover_none", ["url", "checked"], 10),
    ("album", ["rating", "fav"], 11),
    ("change_album", ["rating", "fav"], 11),
    ("folder_album", ["rating", "fav"], 11),
    ("track", ["rating", "fav"], 11),
    ("change_tag", ["rating", "fav"], 11),
    ("change_tag", ["artist"], 12),
    ("track_edit", ["path", "title", "artist", "number"], 13),
    ("change_track", ["change_id", "image", "path", "title", "artist", "number"], 13),
    ("change_tag", ["title", "track_number"], 13),
    ("change_tag", ["rating_tags"], 15),
    ("write_journal", ["cancelled"], 15),
    ("lookup_none", ["title", "artist", "checked"], 16),
    ("source", ["root", "kind", "fingerprint", "listed", "skipped_files", "skipped_digest"], 17),
    ("listen_queue", ["id", "listened_at", "listen", "sender"], 18),
    ("album", ["title_key", "artist_key"], 19),
    ("track_edit", ["album_artist"], 20),
    ("change_track", ["album_artist"], 20),
    ("track", ["samplerate", "composer"], 21),
  ]

  /// The schema objects (tables, indexes, triggers, views) a file at `version` holds, as
  /// this build writes them: `type name ON table: sql`, sorted. SQLite's own objects
  /// (`sqlite_…`) are left out. Built by running the migrations in memory, so a file
  /// created fresh and one migrated from an older version compare alike.
  static func objects(atVersion version: Int) throws -> [String] {
    if version == Schema.version { return currentObjects }
    return try migratedObjects(atVersion: version)
  }

  /// ``objects(atVersion:)`` found by running the migrations in an in-memory database.
  static func migratedObjects(atVersion version: Int) throws -> [String] {
    let queue = try DatabaseQueue()
    try queue.write { db in
      for migration in migrations.prefix(version) { try migration(db) }
    }
    return try queue.read { db in try objects(in: db) }
  }

  /// The schema's objects, `type`, `name`, `tbl_name`, `sql`, in the order both reads below
  /// take them (one text, so both use one cached statement).
  private static let objectsSQL = """
    SELECT type, name, tbl_name, sql FROM sqlite_master
    WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name
    """

  /// The schema objects in `db`, as ``objects(atVersion:)`` lists them.
  static func objects(in db: Database) throws -> [String] {
    // Through SQLite's C API: generic rows read by column name (BlueSQL's ``Row``) cost
    // several times the reading.
    try AlbumStore.fastTexts(db, sql: objectsSQL).map { row in
      row[0] + " '" + row[1] + "' on '" + row[2] + "': " + row[3]
    }
  }

  /// Whether `db` holds exactly ``currentObjects``, in the order ``objects(in:)`` reads them,
  /// compared as SQLite's bytes: every start checks this, and making each object's text
  /// first cost a tenth of a start.
  static func holdsTheCurrentObjects(_ db: Database) throws -> Bool {
    try AlbumStore.fastRowsMatch(
      db, sql: objectsSQL,
      format: [nil, Array(" '".utf8), nil, Array("' on '".utf8), nil, Array("': ".utf8), nil],
      expected: currentObjectBytes)
  }

  /// ``currentObjects`` as bytes, for ``holdsTheCurrentObjects(_:)``.
  static let currentObjectBytes = currentObjects.map { Array($0.utf8) }

  /// Creates the schema in an empty database and seeds it: call inside a transaction.
  static func create(_ db: Database, seed: [Album]) throws {
    try createCurrent(db)
    try db.execute(sql: "PRAGMA application_id = \(applicationID)")
    try AlbumStore.insertAll(seed, from: 0, db)
    try AlbumStore.keyMarkedAlbums(db)
    try AlbumStore.writeSelection(seed.isEmpty ? nil : 0, db)
  }

  /// The current schema at once, from ``currentObjects`` (tables, then what is built on
  /// them), with the state rows the migrations leave in a new file. Running the migrations
  /// instead made SQLite parse the whole schema again after each `ALTER TABLE`: 30 times
  /// for a new library, a sixth of a small import's instructions.
  static func createCurrent(_ db: Database) throws {
    let kinds = ["table", "view", "index", "trigger"]
    let statements = currentObjects.compactMap { object -> (kind: Int, sql: String)? in
      guard let space = object.firstIndex(of: " "), let colon = object.firstRange(of: "': ") else { return nil }
      return (kinds.firstIndex(of: String(object[..<space])) ?? kinds.count, String(object[colon.upperBound...]))
    }
    try db.execute(sql: statements.sorted { $0.kind < $1.kind }.map(\.sql).joined(separator: ";\n"))
    try db.execute(
      sql: """
        INSERT INTO state (key, value) VALUES ('coverScan', 'pending'),
          ('addedBefore', CAST(strftime('%s', 'now') AS INTEGER));
        PRAGMA user_version = \(Schema.version)
        """)
  }

  /// Applies the migrations after `version`: call inside a transaction.
  static func migrate(_ db: Database, from version: Int) throws {
    for migration in migrations[version...] {
      try migration(db)
    }
    try db.execute(sql: "PRAGMA user_version = \(Schema.version)")
  }

  /// Positions are not UNIQUE: shifting them with one `UPDATE … SET position =
  /// position + 1` would trip a per-row uniqueness check halfway. The store keeps
  /// them dense 0..<count instead, and every shift happens inside one transaction.
  private static func createVersion1(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE album (
          id INTEGER PRIMARY KEY,
          title TEXT NOT NULL CONSTRAINT "title must not be empty" CHECK (title <> ''),
          artist TEXT NOT NULL DEFAULT '',
          genre TEXT NOT NULL DEFAULT '',
          year INTEGER CONSTRAINT "year must be between 0 and 9999" CHECK (year BETWEEN 0 AND 9999),
          coverUrl TEXT NOT NULL DEFAULT '',
          position INTEGER NOT NULL CONSTRAINT "position must not be negative" CHECK (position >= 0)
        );
        CREATE INDEX album_position ON album(position);
        CREATE TABLE state (key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;
        """)
  }

  /// The undo log (version 2): one `change` row per step, and `change_album` rows holding
  /// the albums a step changed as they were before and after it (the mementos).
  ///
  /// `album.step` is the id of the last logged step that wrote the album: a step may be
  /// undone or redone only while its albums still carry the value it left, so an edit,
  /// move or delete by anyone since is seen without comparing fields. Shifting positions
  /// never touches it. `ADD COLUMN` with no default rewrites nothing, so a million-album
  /// library migrates at once.
  ///
  /// A `change` row: `undone` is NULL while the step stands and a growing sequence number
  /// once undone (redo takes the largest), and `undone_by` the session that undid it;
  /// `selection_before`/`selection_after` are album
  /// ids; an import or reset records the ids it inserted, `first_id...last_id` (`count`
  /// of them, contiguous), and a reset how many albums it `removed`.
  ///
  /// A `change_album` row: `image` is `before` or `after`; `position`, `prev_id` and
  /// `next_id` say where the album stood (its neighbours' ids, NULL at an end) and `step`
  /// the value it carried. No foreign keys: pruning and dropping steps are range deletes.
  private static func addChangeLog(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE album ADD COLUMN step INTEGER;
        CREATE TABLE change (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          session TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('add', 'edit', 'delete', 'move', 'import', 'reset')),
          summary TEXT NOT NULL,
          undone INTEGER,
          undone_by TEXT,
          selection_before INTEGER,
          selection_after INTEGER,
          first_id INTEGER,
          last_id INTEGER,
          count INTEGER NOT NULL DEFAULT 0,
          removed INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE change_album (
          change_id INTEGER NOT NULL,
          image TEXT NOT NULL CHECK (image IN ('before', 'after')),
          album_id INTEGER NOT NULL,
          title TEXT NOT NULL,
          artist TEXT NOT NULL,
          genre TEXT NOT NULL,
          year INTEGER,
          coverUrl TEXT NOT NULL,
          position INTEGER NOT NULL,
          prev_id INTEGER,
          next_id INTEGER,
          step INTEGER
        );
        CREATE INDEX change_album_change ON change_album(change_id, image, position);
        """)
  }

  /// The cover ledger (version 3): the cover URLs this library has seen land in the cover
  /// cache, so a card or a `list` line knows a cover is cached without a file probe per
  /// album (one primary-key probe instead). A row is added when a download or a cache hit
  /// is reported and removed when the cached file turns out to be gone or damaged.
  ///
  /// The `coverScan` state row asks the shell to record the covers already in the cache
  /// once (a library from an older bluelib, or a new one beside an existing cache); the
  /// scan deletes it.
  private static func addCoverLedger(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE cover (url TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
        INSERT OR REPLACE INTO state (key, value) VALUES ('coverScan', 'pending');
        """)
  }

  /// The music-folder fields (version 4): an album imported from a folder of audio files
  /// (`import DIR`) knows its track count, its total length in seconds and its folder;
  /// `source_key` identifies it across imports of that folder (its folder, album artist
  /// and title, see `MusicAlbum.key`), so importing the folder again updates it in place.
  /// All four are NULL for other albums; only those with a key are indexed.
  ///
  /// `change_album` gains the same columns, so undoing or redoing an edit, a delete or an
  /// import puts them back too. A folder import is an `import` step whose inserted albums are
  /// its id range, as for a file, and which also holds a `before` and an `after` image of
  /// each album it updated in place (once it has been undone, its `after` side also holds
  /// copies of the albums it inserted, told apart by having no `before` image). `ADD COLUMN`
  /// rewrites nothing: a million-album library migrates at once.
  private static func addMusicFields(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE album ADD COLUMN tracks INTEGER
          CONSTRAINT "tracks must not be negative" CHECK (tracks >= 0);
        ALTER TABLE album ADD COLUMN duration REAL
          CONSTRAINT "duration must not be negative" CHECK (duration >= 0);
        ALTER TABLE album ADD COLUMN folder TEXT;
        ALTER TABLE album ADD COLUMN source_key TEXT;
        CREATE INDEX album_source_key ON album(source_key) WHERE source_key IS NOT NULL;
        ALTER TABLE change_album ADD COLUMN tracks INTEGER;
        ALTER TABLE change_album ADD COLUMN duration REAL;
        ALTER TABLE change_album ADD COLUMN folder TEXT;
        ALTER TABLE change_album ADD COLUMN source_key TEXT;
        """)
  }

  /// Views (version 5): `album.added` is when the album entered the library (seconds since
  /// 1970; NULL for the albums stored before this version, which read the `addedBefore`
  /// state row: the time of this migration), and `change_album` keeps it so undo brings it
  /// back. `view` holds the named views (`view save NAME QUERY`). The artist index (ignoring
  /// case) lets `artist:Rad<Tab>` and `artist+` read a million albums in order without a
  /// scan; it is built once here for an existing library. `ADD COLUMN` rewrites
  /// nothing: a million-album library migrates at once.
  /// The artist index, as ``addSortKeys(_:)`` makes it and an import into a new library
  /// makes it again once its albums are in.
  static let artistIndex = "CREATE INDEX album_artist ON album(\(artistSortKey))"

  /// What a sort by title or artist orders by, and the artist index holds (version 18): the
  /// stored key (``CollationKey``), else — for the ASCII text of most albums, whose key is
  /// not stored, and a row not keyed yet (`title_key` empty) — the text in lower case.
  static let titleSortKey = "IFNULL(NULLIF(title_key, ''), lower(title))"
  static let artistSortKey = "IFNULL(artist_key, lower(artist))"

  private static func addViews(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE album ADD COLUMN added INTEGER;
        ALTER TABLE change_album ADD COLUMN added INTEGER;
        CREATE TABLE view (name TEXT PRIMARY KEY NOT NULL, query TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX album_artist ON album(artist COLLATE NOCASE);
        INSERT OR REPLACE INTO state (key, value) VALUES ('addedBefore', CAST(strftime('%s', 'now') AS INTEGER));
        """)
  }

  /// Tracks (version 6): what the last scan of a music folder read from each audio file,
  /// by path. `album_key` is the `source_key` of the album the file was grouped into and
  /// `position` its place in that album (disc, number, file name); `disc` is its disc (the
  /// tag, else its disc folder's place), `disc_tag` the tag alone. `size` and `modified`
  /// (nanoseconds since 1970) let a re-import take an unchanged file's row for its tags
  /// without opening it, which is why the row keeps every tag the grouping reads (`album`,
  /// `album_artist`, `date`, `genre`, `picture`: the embedded picture's MIME type, '' when
  /// it does not say, NULL without one).
  ///
  /// `folder_album` holds, per album key, what its files said at the last scan: the album
  /// as the scan built it (`ordinal` is its place in the scan's order; the fields an album
  /// takes from it), its discs and its MusicBrainz release and release-group ids. With the
  /// scan's fingerprint (the `scan ROOT` state row), a re-import of a folder in which no
  /// file changed takes its albums from here without reading or grouping a track. Albums
  /// read from an exported file have only the last three. `left_out` is 1 once you delete
  /// the album from the library (until it is back): an import leaves it out.
  ///
  /// Both describe the files, not the user's albums: no undo step writes them, and an album
  /// deleted from the library keeps its rows, so undoing the delete shows its tracks again.
  private static func addTracks(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE track (
          path TEXT PRIMARY KEY NOT NULL,
          album_key TEXT NOT NULL,
          position INTEGER NOT NULL,
          disc INTEGER,
          number INTEGER,
          title TEXT,
          artist TEXT,
          length REAL NOT NULL,
          format TEXT NOT NULL,
          bitrate INTEGER NOT NULL,
          size INTEGER NOT NULL,
          modified INTEGER NOT NULL,
          mb_trackid TEXT,
          album TEXT,
          album_artist TEXT,
          date TEXT,
          genre TEXT,
          disc_tag INTEGER,
          picture TEXT,
          mb_albumid TEXT,
          mb_releasegroupid TEXT
        ) WITHOUT ROWID;
        CREATE INDEX track_album ON track(album_key, position);
        CREATE TABLE folder_album (
          key TEXT PRIMARY KEY NOT NULL,
          ordinal INTEGER,
          title TEXT,
          artist TEXT,
          genre TEXT,
          year INTEGER,
          tracks INTEGER,
          duration REAL,
          folder TEXT,
          cover_url TEXT,
          discs INTEGER NOT NULL,
          mb_albumid TEXT,
          mb_releasegroupid TEXT,
          left_out INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        """)
  }

  /// Files gone, and tags written (version 7). `folder_album.missing` is 1 when the last scan
  /// of the album's folder found none of its files (its track rows stay, so `show` still
  /// lists them and a later scan that finds them elsewhere knows the album: a move).
  ///
  /// A `write` step (tags written to the files) is a new kind of change, so `change` is
  /// made again with the wider check (SQLite cannot alter one), its rows and id sequence
  /// kept. `change_tag` holds, for a `write` step, each file's tags that it sets (`file` 1,
  /// `path` the file) as they were `before` and as it wrote them (`after`; NULL is a tag it
  /// left alone, '' one it removed); and each album's fields as its files said them (`file`
  /// 0, `path` the album's key before and after: `album` the title, `album_artist` the
  /// artist, `date` the year), which undo and redo give back to `folder_album`.
  ///
  /// `album_play` counts, by album id, how often each album was played (a track of it played
  /// past half, once per queue) and when last (seconds since 1970): outside the undo log,
  /// as playing is not a change to take back.
  private static func addMissingAndWrites(_ db: Database) throws {
    let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'change'")
    try db.execute(
      sql: """
        ALTER TABLE folder_album ADD COLUMN missing INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE change_new (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          session TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('add', 'edit', 'delete', 'move', 'import', 'reset', 'write')),
          summary TEXT NOT NULL,
          undone INTEGER,
          undone_by TEXT,
          selection_before INTEGER,
          selection_after INTEGER,
          first_id INTEGER,
          last_id INTEGER,
          count INTEGER NOT NULL DEFAULT 0,
          removed INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO change_new SELECT id, session, kind, summary, undone, undone_by, selection_before,
          selection_after, first_id, last_id, count, removed FROM change;
        DROP TABLE change;
        ALTER TABLE change_new RENAME TO change;
        CREATE TABLE change_tag (
          change_id INTEGER NOT NULL,
          image TEXT NOT NULL CHECK (image IN ('before', 'after')),
          file INTEGER NOT NULL,
          path TEXT NOT NULL,
          album TEXT,
          album_artist TEXT,
          date TEXT,
          genre TEXT,
          PRIMARY KEY (change_id, image, file, path)
        ) WITHOUT ROWID;
        CREATE TABLE album_play (
          album_id INTEGER PRIMARY KEY,
          played INTEGER NOT NULL,
          last_played INTEGER NOT NULL
        );
        """)
    if let sequence {
      try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'change'", arguments: [sequence])
      try db.execute(
        sql: """
          INSERT INTO sqlite_sequence (name, seq) SELECT 'change', ?
          WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'change')
          """, arguments: [sequence])
    }
  }

  /// What a file is, besides its size and modification time (version 8): `track.changed`, the
  /// status-change time (nanoseconds since 1970), and `track.inode`. A tagger can keep a
  /// file's size and put its modification time back, but not these two, so a re-import that
  /// compares all four sees every retag (round 4, G14). NULL for rows from before, and for
  /// tracks read from an exported file: their files are read again at the next import.
  private static func addFileIdentity(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE track ADD COLUMN changed INTEGER;
        ALTER TABLE track ADD COLUMN inode INTEGER;
        """)
  }

  /// The write journal (version 9): a row while the files of a `write` step are being
  /// written — by the write itself (`direction` 'write'), or by the undo or redo of it —
  /// and until the last is. The step and its files' tags before and after (`change_tag`)
  /// are committed with the row, before the first file is touched, so whatever stops the
  /// writer (a crash, `kill -9`, a power cut) the next bluelib finishes the files or puts
  /// them back. `owner` names the process writing (`PID START BOOT`: its id, its start time
  /// and the boot it runs in), so a journal whose writer is gone is told apart from one
  /// being written now; while one is open no other write, undo or redo of a write starts.
  private static func addWriteJournal(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE write_journal (
          change_id INTEGER PRIMARY KEY,
          direction TEXT NOT NULL CHECK (direction IN ('write', 'undo', 'redo')),
          owner TEXT NOT NULL
        );
        """)
  }

  /// Covers the Cover Art Archive has none of (version 10): each `caa:` URL the archive
  /// answered 404 for, release and release group both, with when (`checked`, seconds since
  /// 1970). `download all` leaves them out for 30 days, or until `download --retry`; a cover
  /// that lands later takes its row out. A fact about the archive, not a change: no step.
  private static func addCoverNone(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE cover_none (url TEXT PRIMARY KEY NOT NULL, checked INTEGER NOT NULL) WITHOUT ROWID;
        """)
  }

  /// Ratings and favourites (version 11): `album.rating` is the album's stars (1 to 5, NULL
  /// unrated) and `album.fav` whether it is a favourite (`rate`, `fav`, `unfav`); an edit
  /// step's images (`change_album`) keep them, so undo gives them back. What the files say
  /// is kept as for the other fields: per file in `track` (as the scan read them) and per
  /// album in `folder_album` (the rating all its tracks agree on, and whether every one is a
  /// favourite), so an import knows a rating you gave from one another player wrote since.
  /// `change_tag` holds what a `write` set in each file, as text like its other tags: the
  /// stars or '1' for a favourite, '' for a mark removed, NULL for one left alone. NOT NULL columns take their default
  /// in every existing row: `ADD COLUMN` rewrites nothing, so a million-album library
  /// migrates at once.
  private static func addRatings(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE album ADD COLUMN rating INTEGER
          CONSTRAINT "rating must be between 1 and 5" CHECK (rating BETWEEN 1 AND 5);
        ALTER TABLE album ADD COLUMN fav INTEGER NOT NULL DEFAULT 0
          CONSTRAINT "fav must be 0 or 1" CHECK (fav IN (0, 1));
        ALTER TABLE change_album ADD COLUMN rating INTEGER;
        ALTER TABLE change_album ADD COLUMN fav INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE folder_album ADD COLUMN rating INTEGER;
        ALTER TABLE folder_album ADD COLUMN fav INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE track ADD COLUMN rating INTEGER;
        ALTER TABLE track ADD COLUMN fav INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE change_tag ADD COLUMN rating TEXT;
        ALTER TABLE change_tag ADD COLUMN fav TEXT;
        """)
  }

  /// A track's artist written with the album artist (version 12): `write` of an album whose
  /// artist you edited also writes the artist tag (TPE1, ARTIST) of each file that had the
  /// old album artist, so the two stay in agreement as they were; `change_tag.artist` holds
  /// it before and after, as the other tags.
  private static func addTrackArtistTag(_ db: Database) throws {
    try db.execute(sql: "ALTER TABLE change_tag ADD COLUMN artist TEXT")
  }

  /// Tracks you edit (version 13): `track_edit` holds, by the file's path, the title, artist
  /// and number you gave a track (`edit ALBUM track N title=…`; NULL: not edited, an artist
  /// of '' removed). Unlike `track`, which says what the files say, these are yours: an
  /// `edit` step keeps each track's row before and after in `change_track` (all NULL: no
  /// row), and marks the album with the step, so undo, redo and their conflicts work as for
  /// the album's fields; an import keeps them (a file read again drops the edits it already
  /// says), and `write` puts them into the files, with `change_tag.title` and
  /// `change_tag.track_number` in its journal.
  private static func addTrackEdits(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE track_edit (
          path TEXT PRIMARY KEY NOT NULL,
          title TEXT CONSTRAINT "a track's title must not be empty" CHECK (title <> ''),
          artist TEXT,
          number INTEGER CONSTRAINT "a track's number must be between 1 and 9999" CHECK (number BETWEEN 1 AND 9999)
        ) WITHOUT ROWID;
        CREATE TABLE change_track (
          change_id INTEGER NOT NULL,
          image TEXT NOT NULL CHECK (image IN ('before', 'after')),
          path TEXT NOT NULL,
          title TEXT,
          artist TEXT,
          number INTEGER,
          PRIMARY KEY (change_id, image, path)
        ) WITHOUT ROWID;
        ALTER TABLE change_tag ADD COLUMN title TEXT;
        ALTER TABLE change_tag ADD COLUMN track_number TEXT;
        """)
  }

  /// The artist index of a folded copy (version 14): `lower(artist)`, compared as bytes, in
  /// place of `artist COLLATE NOCASE`. The order is the same (SQLite's NOCASE and its
  /// `lower()` both fold ASCII alone), but SQLite sorts a BINARY text key with `memcmp`,
  /// where NOCASE went through its generic record comparison: building the index of
  /// 100,000 albums takes 403 M instructions instead of 695 M, most of an import's SQLite
  /// work (docs/benchmarks.md, "Where the time went"). The queries that read it name
  /// `lower(artist)` (``QuerySQL``'s sort, completion's skip from artist to artist).
  private static func foldArtistIndex(_ db: Database) throws {
    try db.execute(sql: "DROP INDEX album_artist; CREATE INDEX album_artist ON album(lower(artist))")
  }

  /// Rating tags as the files held them, and cancelled writes (version 15).
  /// `change_tag.rating_tags` is, in a file's `before` row of a `write` that sets its rating or
  /// favourite mark, every tag that write changes as the file held it (the TagLib plug-in's
  /// `ctl_read_rating_tags`: other players' POPM frames with their play counts, values
  /// bluelib cannot read), which undo puts back byte for byte; NULL otherwise (and in rows
  /// from before, whose undo writes the old rating back as stars). `write_journal.cancelled`
  /// is 1 once a signal (SIGINT, SIGTERM) stopped the writer of the journal's files: the files
  /// it wrote are being put back, and a bluelib that finds the journal later finishes putting
  /// them back instead of finishing the write.
  private static func addKeptRatingTags(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE change_tag ADD COLUMN rating_tags BLOB;
        ALTER TABLE write_journal ADD COLUMN cancelled INTEGER NOT NULL DEFAULT 0;
        """)
  }

  /// Albums MusicBrainz had nothing like (version 16): each title and artist `lookup` asked
  /// about and found nothing for, with when (`checked`, seconds since 1970). `lookup all`
  /// leaves such albums out for 30 days, or until `lookup --retry`; `find lookup:none`
  /// lists them. Kept by what was asked, not by album: an album whose title or artist you
  /// correct is asked about again, and two copies of one album share the answer. A fact
  /// about MusicBrainz, not a change: no step (as `cover_none`, version 10).
  private static func addLookupNone(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE lookup_none (
          title TEXT NOT NULL,
          artist TEXT NOT NULL,
          checked INTEGER NOT NULL,
          PRIMARY KEY (title, artist)
        ) WITHOUT ROWID;
        """)
  }

  /// The sources of albums (version 17): a row a music folder imported or a server synced,
  /// by its root (`/home/u/Music`, `mpd://127.0.0.1:6600`), in place of the `scan ROOT` and
  /// `skipped ROOT` state rows. `fingerprint` is what the last scan or sync saw (a folder's
  /// files; a server's own fingerprint), NULL once forgotten (a change that makes the next
  /// import read again); `listed` the fingerprint of the tracks a server listed;
  /// `skipped_files` the files a folder's last scan skipped (path U+001F reason, U+001E after
  /// each); `skipped_digest` their digest with the sizes and times the scan read.
  private static func addSources(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE source (
          root TEXT NOT NULL PRIMARY KEY,
          kind TEXT NOT NULL CONSTRAINT "kind must be folder or server" CHECK (kind IN ('folder', 'server')),
          fingerprint TEXT,
          listed TEXT,
          skipped_files TEXT,
          skipped_digest TEXT
        ) WITHOUT ROWID;
        INSERT INTO source (root, kind, fingerprint, listed, skipped_files)
          SELECT substr(key, 6), CASE WHEN substr(key, 6, 1) = '/' THEN 'folder' ELSE 'server' END,
            substr(value, 1, instr(value, char(10)) - 1),
            CASE WHEN substr(key, 6, 1) = '/' THEN NULL ELSE substr(value, instr(value, char(10)) + 1) END,
            CASE WHEN substr(key, 6, 1) = '/' THEN substr(value, instr(value, char(10)) + 1) END
          FROM state WHERE substr(key, 1, 5) = 'scan ' AND instr(value, char(10)) > 0;
        INSERT INTO source (root, kind, skipped_digest)
          SELECT substr(key, 9), 'folder', value FROM state WHERE substr(key, 1, 8) = 'skipped ' AND true
          ON CONFLICT (root) DO UPDATE SET skipped_digest = excluded.skipped_digest;
        DELETE FROM state WHERE substr(key, 1, 5) = 'scan ' OR substr(key, 1, 8) = 'skipped ';
        """)
  }

  /// Listens waiting for ListenBrainz (version 18): each track played past half (or four
  /// minutes), written here the moment it counts, before anything is sent, so that a crash,
  /// `kill -9` or a stretch offline loses none; a row goes only once the server took it
  /// (200). `listen` is the listen as ListenBrainz takes it (a JSON object, `listened_at`
  /// the time the track started, also in `listened_at` for the order); `sender` the process
  /// sending it now (`PID START BOOT`, as the write journal names its writer), NULL while it
  /// waits: two shells on one library never send one listen twice, and one a killed sender
  /// left is sent by the next. Not a change: no step, `undo` does not take a listen back.
  private static func addListenQueue(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE listen_queue (
          id INTEGER PRIMARY KEY,
          listened_at INTEGER NOT NULL,
          listen TEXT NOT NULL,
          sender TEXT
        );
        """)
  }

  /// Sort keys (version 19): `album.title_key` and `album.artist_key` hold the title's and
  /// the artist's ``CollationKey`` where it is not the text in lower case (a text with a
  /// letter beyond ASCII: `Émile` → `emile`, `Øystein` → `oystein`), NULL otherwise; a sort
  /// orders by ``titleSortKey`` and ``artistSortKey``, and the artist index holds the
  /// latter, so `artist+` and `artist:Bjö<Tab>` still read it in order.
  ///
  /// Every writer keeps them, whoever it is (an insert, an edit, an undo copying a row
  /// back, another program): two triggers of plain SQL mark a row whose title or artist
  /// has a byte beyond ASCII with an empty `title_key` (an ASCII row costs them one `GLOB`),
  /// and each change of the store, before it commits, gives the marked rows their keys
  /// (``AlbumStore/keyMarkedAlbums(_:)``, through the partial index `album_unkeyed`,
  /// empty but for them). No trigger calls a function of bluelib's, so `sqlite3` can still
  /// write the file; what it writes is keyed at bluelib's next change, and sorts by its
  /// lower case until then. The albums already stored get their keys here.
  private static func addSortKeys(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE album ADD COLUMN title_key TEXT;
        ALTER TABLE album ADD COLUMN artist_key TEXT;
        """)
    let rows = try Row.fetchAll(
      db, sql: "SELECT id, title, artist FROM album WHERE title GLOB '*[^ -~]*' OR artist GLOB '*[^ -~]*'")
    for row in rows {
      let (id, title, artist): (Int64, String, String) = (row[0], row[1], row[2])
      try db.execute(
        sql: "UPDATE album SET title_key = ?, artist_key = ? WHERE id = ?",
        arguments: [CollationKey.storedKey(title), CollationKey.storedKey(artist), id])
    }
    try db.execute(sql: "DROP INDEX album_artist; \(artistIndex); \(sortKeyObjects)")
  }

  /// The trigger of version 19 that marks an inserted row beyond ASCII; a bulk import drops
  /// it while it inserts (a trigger runs a program per row: a quarter of an import's
  /// instructions) and marks its rows in one pass (``AlbumStore/markUnkeyedAlbums(from:_:)``).
  static let sortKeyInsertTrigger = """
    CREATE TRIGGER album_sort_key_insert AFTER INSERT ON album
      WHEN NEW.title GLOB '*[^ -~]*' OR NEW.artist GLOB '*[^ -~]*'
    BEGIN
      UPDATE album SET title_key = '' WHERE id = NEW.id;
    END
    """

  /// The triggers and the index of version 18 that keep `title_key` and `artist_key` in step.
  static let sortKeyObjects = """
    CREATE INDEX album_unkeyed ON album(id) WHERE title_key = '';
    \(sortKeyInsertTrigger);
    CREATE TRIGGER album_sort_key_update AFTER UPDATE OF title, artist ON album
      WHEN NEW.title IS NOT OLD.title OR NEW.artist IS NOT OLD.artist
    BEGIN
      UPDATE album SET title_key = CASE WHEN NEW.title GLOB '*[^ -~]*' OR NEW.artist GLOB '*[^ -~]*' THEN '' END,
        artist_key = NULL
      WHERE id = NEW.id;
    END
    """

  /// The album artist as an edit of tracks (version 20): `track_edit.album_artist` is the
  /// album-artist tag you gave a track's file (`edit ALBUM albumartist=…`, which gives it to
  /// every track of the album, or `edit ALBUM track N albumartist=…`), NULL for none, which
  /// `write` puts into the file even where it is what bluelib inferred (a compilation's
  /// "Various Artists"); `change_track.album_artist` keeps it before and after an `edit`
  /// step, as the other fields.
  private static func addTrackAlbumArtistEdits(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE track_edit ADD COLUMN album_artist TEXT;
        ALTER TABLE change_track ADD COLUMN album_artist TEXT;
        """)
  }

  /// A track's sample rate and composer (version 21): `track.samplerate` in Hz (0 when the
  /// file or server does not say), `track.composer` the tag (NULL without one), read with the
  /// other tags at a scan (the TagLib plug-in's interface 3) or a sync. NULL `samplerate` marks
  /// a row read before this version: the next import reads its file again (and only those),
  /// for which every source's fingerprint is forgotten here, once; an unchanged folder is then
  /// found unchanged again without a file opened. `ADD COLUMN` rewrites nothing. The index of
  /// the albums' MusicBrainz ids lets `duplicate:true` (and `list -f '$duplicate'`) find
  /// another album of the same release without reading every album's row.
  private static func addTrackAudioFields(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE track ADD COLUMN samplerate INTEGER;
        ALTER TABLE track ADD COLUMN composer TEXT;
        CREATE INDEX folder_album_mb_albumid ON folder_album(mb_albumid) WHERE mb_albumid IS NOT NULL;
        UPDATE source SET fingerprint = NULL, listed = NULL WHERE fingerprint IS NOT NULL OR listed IS NOT NULL;
        """)
  }
}
