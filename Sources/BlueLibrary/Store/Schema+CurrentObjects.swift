extension Schema {
  /// ``objects(atVersion:)`` of the current version, written out so that opening a library
  /// checks its schema without building one in memory first (a fifth of start-up). A test
  /// compares it with what the migrations make and prints the list to paste when they differ.
  static let currentObjects: [String] = [
    "index 'album_artist' on 'album': CREATE INDEX album_artist ON album(IFNULL(artist_key, lower(artist)))",
    "index 'album_position' on 'album': CREATE INDEX album_position ON album(position)",
    "index 'album_source_key' on 'album': CREATE INDEX album_source_key ON album(source_key) WHERE source_key IS NOT NULL",
    "index 'album_unkeyed' on 'album': CREATE INDEX album_unkeyed ON album(id) WHERE title_key = ''",
    "index 'change_album_change' on 'change_album': CREATE INDEX change_album_change ON change_album(change_id, image, position)",
    "index 'folder_album_mb_albumid' on 'folder_album': CREATE INDEX folder_album_mb_albumid ON folder_album(mb_albumid) WHERE mb_albumid IS NOT NULL",
    "index 'track_album' on 'track': CREATE INDEX track_album ON track(album_key, position)",
    """
    table 'album' on 'album': CREATE TABLE album (
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL CONSTRAINT "title must not be empty" CHECK (title <> ''),
      artist TEXT NOT NULL DEFAULT '',
      genre TEXT NOT NULL DEFAULT '',
      year INTEGER CONSTRAINT "year must be between 0 and 9999" CHECK (year BETWEEN 0 AND 9999),
      coverUrl TEXT NOT NULL DEFAULT '',
      position INTEGER NOT NULL CONSTRAINT "position must not be negative" CHECK (position >= 0)
    , step INTEGER, tracks INTEGER
      CONSTRAINT "tracks must not be negative" CHECK (tracks >= 0), duration REAL
      CONSTRAINT "duration must not be negative" CHECK (duration >= 0), folder TEXT, source_key TEXT, added INTEGER, rating INTEGER
      CONSTRAINT "rating must be between 1 and 5" CHECK (rating BETWEEN 1 AND 5), fav INTEGER NOT NULL DEFAULT 0
      CONSTRAINT "fav must be 0 or 1" CHECK (fav IN (0, 1)), title_key TEXT, artist_key TEXT)
    """,
    """
    table 'album_play' on 'album_play': CREATE TABLE album_play (
      album_id INTEGER PRIMARY KEY,
      played INTEGER NOT NULL,
      last_played INTEGER NOT NULL
    )
    """,
    """
    table 'change' on 'change': CREATE TABLE "change" (
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
    )
    """,
    """
    table 'change_album' on 'change_album': CREATE TABLE change_album (
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
    , tracks INTEGER, duration REAL, folder TEXT, source_key TEXT, added INTEGER, rating INTEGER, fav INTEGER NOT NULL DEFAULT 0)
    """,
    """
    table 'change_tag' on 'change_tag': CREATE TABLE change_tag (
      change_id INTEGER NOT NULL,
      image TEXT NOT NULL CHECK (image IN ('before', 'after')),
      file INTEGER NOT NULL,
      path TEXT NOT NULL,
      album TEXT,
      album_artist TEXT,
      date TEXT,
      genre TEXT, rating TEXT, fav TEXT, artist TEXT, title TEXT, track_number TEXT, rating_tags BLOB,
      PRIMARY KEY (change_id, image, file, path)
    ) WITHOUT ROWID
    """,
    """
    table 'change_track' on 'change_track': CREATE TABLE change_track (
      change_id INTEGER NOT NULL,
      image TEXT NOT NULL CHECK (image IN ('before', 'after')),
      path TEXT NOT NULL,
      title TEXT,
      artist TEXT,
      number INTEGER, album_artist TEXT,
      PRIMARY KEY (change_id, image, path)
    ) WITHOUT ROWID
    """,
    "table 'cover' on 'cover': CREATE TABLE cover (url TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID",
    "table 'cover_none' on 'cover_none': CREATE TABLE cover_none (url TEXT PRIMARY KEY NOT NULL, checked INTEGER NOT NULL) WITHOUT ROWID",
    """
    table 'folder_album' on 'folder_album': CREATE TABLE folder_album (
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
    , missing INTEGER NOT NULL DEFAULT 0, rating INTEGER, fav INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID
    """,
    """
    table 'listen_queue' on 'listen_queue': CREATE TABLE listen_queue (
      id INTEGER PRIMARY KEY,
      listened_at INTEGER NOT NULL,
      listen TEXT NOT NULL,
      sender TEXT
    )
    """,
    """
    table 'lookup_none' on 'lookup_none': CREATE TABLE lookup_none (
      title TEXT NOT NULL,
      artist TEXT NOT NULL,
      checked INTEGER NOT NULL,
      PRIMARY KEY (title, artist)
    ) WITHOUT ROWID
    """,
    """
    table 'source' on 'source': CREATE TABLE source (
      root TEXT NOT NULL PRIMARY KEY,
      kind TEXT NOT NULL CONSTRAINT "kind must be folder or server" CHECK (kind IN ('folder', 'server')),
      fingerprint TEXT,
      listed TEXT,
      skipped_files TEXT,
      skipped_digest TEXT
    ) WITHOUT ROWID
    """,
    "table 'state' on 'state': CREATE TABLE state (key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID",
    """
    table 'track' on 'track': CREATE TABLE track (
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
    , changed INTEGER, inode INTEGER, rating INTEGER, fav INTEGER NOT NULL DEFAULT 0, samplerate INTEGER, composer TEXT) WITHOUT ROWID
    """,
    """
    table 'track_edit' on 'track_edit': CREATE TABLE track_edit (
      path TEXT PRIMARY KEY NOT NULL,
      title TEXT CONSTRAINT "a track's title must not be empty" CHECK (title <> ''),
      artist TEXT,
      number INTEGER CONSTRAINT "a track's number must be between 1 and 9999" CHECK (number BETWEEN 1 AND 9999)
    , album_artist TEXT) WITHOUT ROWID
    """,
    "table 'view' on 'view': CREATE TABLE view (name TEXT PRIMARY KEY NOT NULL, query TEXT NOT NULL) WITHOUT ROWID",
    """
    table 'write_journal' on 'write_journal': CREATE TABLE write_journal (
      change_id INTEGER PRIMARY KEY,
      direction TEXT NOT NULL CHECK (direction IN ('write', 'undo', 'redo')),
      owner TEXT NOT NULL
    , cancelled INTEGER NOT NULL DEFAULT 0)
    """,
    """
    trigger 'album_sort_key_insert' on 'album': CREATE TRIGGER album_sort_key_insert AFTER INSERT ON album
      WHEN NEW.title GLOB '*[^ -~]*' OR NEW.artist GLOB '*[^ -~]*'
    BEGIN
      UPDATE album SET title_key = '' WHERE id = NEW.id;
    END
    """,
    """
    trigger 'album_sort_key_update' on 'album': CREATE TRIGGER album_sort_key_update AFTER UPDATE OF title, artist ON album
      WHEN NEW.title IS NOT OLD.title OR NEW.artist IS NOT OLD.artist
    BEGIN
      UPDATE album SET title_key = CASE WHEN NEW.title GLOB '*[^ -~]*' OR NEW.artist GLOB '*[^ -~]*' THEN '' END,
        artist_key = NULL
      WHERE id = NEW.id;
    END
    """,
  ]
}
