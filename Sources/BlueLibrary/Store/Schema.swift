import GRDB

/// The library file's schema and its versions.
///
/// Versions live in SQLite's own header: `application_id` marks a file as a
/// bluelib library and `user_version` counts the migrations applied. Unlike
/// GRDB's `DatabaseMigrator` (which creates its bookkeeping table outside the
/// migration's transaction), this lets a new file be created, migrated and
/// seeded in one transaction, and lets a file be recognised with read-only
/// `PRAGMA` queries before anything is written to it.
enum Schema {
  /// `'BLib'`: the `application_id` of every bluelib library file.
  static let applicationID: Int32 = 0x424C_6962

  /// Migration `n` (1-based) brings a file from `user_version` n-1 to n. Append, never edit.
  static let migrations: [@Sendable (Database) throws -> Void] = [createVersion1]

  /// The newest schema this build knows.
  static var version: Int { migrations.count }

  /// Names of the tables and the columns this build reads, checked when a file is opened.
  static let requiredColumns: [(table: String, columns: [String])] = [
    ("album", ["id", "title", "artist", "genre", "year", "coverUrl", "position"]),
    ("state", ["key", "value"]),
  ]

  /// Creates the schema in an empty database and seeds it: call inside a transaction.
  static func create(_ db: Database, seed: [Album]) throws {
    try migrate(db, from: 0)
    try db.execute(sql: "PRAGMA application_id = \(applicationID)")
    try AlbumStore.insertAll(seed, from: 0, db)
    try AlbumStore.writeSelection(seed.isEmpty ? nil : 0, db)
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
}
