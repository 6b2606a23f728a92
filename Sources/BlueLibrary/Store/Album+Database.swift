import AlbumModel
internal import BlueSQL

/// An album as a row of the `album` table (see `Schema`), read as BlueSQL's record type,
/// kept internal so that BlueSQL is not part of BlueLibrary's API (`internal import`).
struct AlbumRow: FetchableRecord {
  /// The album the row holds.
  var album: Album

  /// Reads a row selected as ``Album/selection`` (by index: it is the hot path of `all()`).
  init(row: Row) throws {
    album = Album(
      id: row[0], title: row[1], artist: row[2], genre: row[3], year: row[4], coverURL: row[5], position: row[6],
      coverCached: row[7], tracks: row[8], duration: row[9], folder: row[10], rating: row[12], favourite: row[13])
    album.sourceKey = row[11]
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

  // The statements are prepared once per connection and kept (``Database/cachedStatement(sql:)``):
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

}
