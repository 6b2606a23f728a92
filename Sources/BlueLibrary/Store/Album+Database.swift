import AlbumModel
internal import BlueSQL

/// An album as a row of the `album` table (see `Schema`): GRDB's record type, kept
/// internal so that GRDB is not part of BlueLibrary's public API (`internal import`).
struct AlbumRow: FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "album"

  /// The album the row holds.
  var album: Album

  init(_ album: Album) { self.album = album }

  /// Reads a row selected as ``Album/selection`` (by index: it is the hot path of `all()`).
  init(row: Row) throws {
    album = Album(
      id: row[0], title: row[1], artist: row[2], genre: row[3], year: row[4], coverURL: row[5], position: row[6],
      coverCached: row[7], tracks: row[8], duration: row[9], folder: row[10], rating: row[12], favourite: row[13])
    album.sourceKey = row[11]
  }

  /// Writes every column; a nil `id` lets SQLite choose one.
  func encode(to container: inout PersistenceContainer) throws {
    container["id"] = album.id
    container["title"] = album.title
    container["artist"] = album.artist
    container["genre"] = album.genre
    container["year"] = album.year
    container["coverUrl"] = album.coverURL
    container["position"] = album.position
    container["tracks"] = album.tracks
    container["duration"] = album.duration
    container["folder"] = album.folder
    container["source_key"] = album.sourceKey
    container["rating"] = album.rating
    container["fav"] = album.favourite
  }

  /// Takes the row id SQLite chose.
  mutating func didInsert(_ inserted: InsertionSuccess) {
    album.id = inserted.rowID
  }
}

extension Album {
  /// The column list every query `FROM album` selects, in the order ``AlbumRow/init(row:)``
  /// and `AlbumStore.fastAlbums` read them: the eighth is whether the `cover` table records
  /// the cover as cached (one primary-key probe per row), then the music-folder fields, the
  /// rating and the favourite mark.
  static let selection =
    "id, title, artist, genre, year, coverUrl, position, EXISTS (SELECT 1 FROM cover WHERE url = album.coverUrl), "
    + "tracks, duration, folder, source_key, rating, fav"

  // The statements are prepared once per connection and kept (GRDB's statement cache):
  // a command that runs the same query as the last one does not parse SQL again.

  /// The albums `sql` selects (as ``selection``).
  static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Album] {
    try AlbumRow.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(\.album)
  }

  /// The first album `sql` selects, if any.
  static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Album? {
    try AlbumRow.fetchOne(db.cachedStatement(sql: sql), arguments: arguments)?.album
  }

  /// The albums `sql` selects, read one at a time.
  static func fetchCursor(
    _ db: Database, sql: String, arguments: StatementArguments = []
  ) throws -> MapCursor<RecordCursor<AlbumRow>, Album> {
    try AlbumRow.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments).map(\.album)
  }

  /// Inserts the album as a new row and takes the id SQLite chose.
  mutating func insert(_ db: Database) throws {
    var row = AlbumRow(self)
    try row.insert(db)
    self = row.album
  }
}
