import GRDB

/// Albums are rows of the `album` table (see `Schema`).
extension Album: FetchableRecord, MutablePersistableRecord {
  /// The table's name.
  public static let databaseTableName = "album"

  /// The `album` table's columns, for GRDB's query interface.
  public enum Columns {
    /// The row id (`INTEGER PRIMARY KEY`).
    public static let id = Column("id")
    /// `title TEXT NOT NULL`, never empty.
    public static let title = Column("title")
    /// `artist TEXT NOT NULL`.
    public static let artist = Column("artist")
    /// `genre TEXT NOT NULL`.
    public static let genre = Column("genre")
    /// `year INTEGER`, NULL when unknown.
    public static let year = Column("year")
    /// `coverUrl TEXT NOT NULL`, empty for no cover.
    public static let coverURL = Column("coverUrl")
    /// `position INTEGER NOT NULL`, dense 0..<count, indexed.
    public static let position = Column("position")
  }

  /// The column list every query selects, in the order ``init(row:)`` reads them.
  static let selection = "id, title, artist, genre, year, coverUrl, position"

  /// Reads a row selected as ``selection`` (by index: it is the hot path of `all()`).
  public init(row: Row) throws {
    self.init(
      id: row[0],
      title: row[1],
      artist: row[2],
      genre: row[3],
      year: row[4],
      coverURL: row[5],
      position: row[6])
  }

  /// Writes every column; a nil `id` lets SQLite choose one.
  public func encode(to container: inout PersistenceContainer) throws {
    container[Columns.id] = id
    container[Columns.title] = title
    container[Columns.artist] = artist
    container[Columns.genre] = genre
    container[Columns.year] = year
    container[Columns.coverURL] = coverURL
    container[Columns.position] = position
  }

  /// Takes the row id SQLite chose.
  public mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}
