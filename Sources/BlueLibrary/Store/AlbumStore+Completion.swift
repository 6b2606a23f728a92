import AlbumModel
internal import BlueSQL

extension AlbumStore {
  /// Up to `limit` distinct titles starting with `prefix` (ASCII case-insensitively), in
  /// scroller order: the candidates of tab completion.
  package func titles(withPrefix prefix: String, limit: Int) throws(LibraryError) -> [String] {
    try reading { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT title FROM album WHERE title LIKE ? ESCAPE '\\' GROUP BY title
          ORDER BY MIN(position) LIMIT ?
          """,
        arguments: [Self.escapeLike(prefix) + "%", max(0, limit)])
    }
  }
}
