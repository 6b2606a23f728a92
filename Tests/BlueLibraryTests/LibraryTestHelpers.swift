import AlbumModel
import BlueSQL
// Every file of this target sees the shared helpers (TemporaryDirectory, FileSnapshot, …),
// also the files that do not import TestSupport themselves.
@_exported import TestSupport
import Testing

@testable import BlueLibrary

extension AlbumStore {
  /// The `position` column as stored, in position order.
  func storedPositions() throws -> [Int] {
    try queue.read { db in try Int.fetchAll(db, sql: "SELECT position FROM album ORDER BY position") }
  }

  /// The titles in position order.
  func titles() throws -> [String] {
    try all().map(\.title)
  }

  /// SQLite's plan for `sql`, one detail line each.
  func queryPlan(_ sql: String) throws -> [String] {
    try queue.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] } }
  }
}

extension Schema {
  /// Takes a library file back from the current schema to `version` (9 or more): drops what
  /// the later migrations added, newest first, so the file is what that release made (SQLite
  /// gives the tables their old text back). For tests that open an older library.
  static func downgrade(to version: Int, _ db: Database) throws {
    if version < 21 {
      try db.execute(
        sql: """
          DROP INDEX folder_album_mb_albumid;
          ALTER TABLE track DROP COLUMN composer; ALTER TABLE track DROP COLUMN samplerate
          """)
    }
    if version < 20 {
      try db.execute(
        sql: "ALTER TABLE track_edit DROP COLUMN album_artist; ALTER TABLE change_track DROP COLUMN album_artist")
    }
    if version < 19 {
      try db.execute(
        sql: """
          DROP TRIGGER album_sort_key_insert; DROP TRIGGER album_sort_key_update; DROP INDEX album_unkeyed;
          DROP INDEX album_artist; CREATE INDEX album_artist ON album(lower(artist));
          ALTER TABLE album DROP COLUMN title_key; ALTER TABLE album DROP COLUMN artist_key
          """)
    }
    if version < 18 {
      try db.execute(sql: "DROP TABLE listen_queue")
    }
    if version < 17 {
      // The sources back in the state rows they were.
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO state (key, value)
            SELECT 'scan ' || root, fingerprint || char(10)
              || coalesce(CASE kind WHEN 'server' THEN listed ELSE skipped_files END, '')
            FROM source WHERE fingerprint IS NOT NULL;
          INSERT OR REPLACE INTO state (key, value)
            SELECT 'skipped ' || root, skipped_digest FROM source WHERE skipped_digest IS NOT NULL;
          DROP TABLE source;
          """)
    }
    if version < 16 {
      try db.execute(sql: "DROP TABLE lookup_none")
    }
    if version < 15 {
      try db.execute(
        sql: "ALTER TABLE change_tag DROP COLUMN rating_tags; ALTER TABLE write_journal DROP COLUMN cancelled")
    }
    if version < 14 {
      try db.execute(sql: "DROP INDEX album_artist; CREATE INDEX album_artist ON album(artist COLLATE NOCASE)")
    }
    if version < 13 {
      try db.execute(
        sql: """
          DROP TABLE track_edit; DROP TABLE change_track;
          ALTER TABLE change_tag DROP COLUMN track_number; ALTER TABLE change_tag DROP COLUMN title
          """)
    }
    if version < 12 {
      try db.execute(sql: "ALTER TABLE change_tag DROP COLUMN artist")
    }
    if version < 11 {
      // Ratings and favourites: each NOT NULL column added after its nullable one.
      for table in ["album", "change_album", "folder_album", "track", "change_tag"] {
        try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN fav; ALTER TABLE \(table) DROP COLUMN rating")
      }
    }
    if version < 10 {
      try db.execute(sql: "DROP TABLE cover_none")
    }
    try db.execute(sql: "PRAGMA user_version = \(version)")
  }
}

/// An album with just a title and a year, for tests that only need distinct albums.
func album(_ title: String, year: Int? = nil) -> Album {
  Album(title: title, artist: "Artist of \(title)", genre: "Test", year: year, coverURL: "")
}

/// The albums without their store-assigned id and position, for comparing content.
func content(_ albums: [Album]) -> [Album] {
  albums.map { Album(title: $0.title, artist: $0.artist, genre: $0.genre, year: $0.year, coverURL: $0.coverURL) }
}

/// The error thrown by `body`, or nil when it threw none.
func libraryError<T>(_ body: () throws(LibraryError) -> T) -> LibraryError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}
