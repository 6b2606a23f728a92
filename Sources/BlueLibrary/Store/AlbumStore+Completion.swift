import AlbumModel
internal import GRDB

extension AlbumStore {
  /// Up to `limit` distinct titles starting with `prefix` (ASCII case-insensitively): the
  /// candidates of tab completion. With `view`, only its albums, in its order when it sorts;
  /// otherwise in alphabetical order (ignoring ASCII case), as a sorted listing shows them,
  /// not in the library's order. Read with `LIMIT`: a prefix many titles share stops at the
  /// limit's worth of rows.
  package func titles(withPrefix prefix: String, limit: Int, in view: AlbumQuery? = nil) throws(LibraryError)
    -> [String]
  {
    let query = view ?? .all
    let sql = QuerySQL(query)
    let pattern = sql.arguments.count + 1
    let order = query.sort.isEmpty ? "title COLLATE NOCASE, position" : sql.order
    // A title many albums share (a copy, a reissue) is read more than once: a few more rows
    // than asked for, the copies dropped here.
    let rows = max(0, limit) * 2 + 8
    return try reading { db in
      var seen: Set<String> = []
      var titles: [String] = []
      let found = try String.fetchCursor(
        db,
        sql: """
          SELECT title FROM album WHERE title LIKE ?\(pattern) ESCAPE '\\' AND (\(sql.condition))
          ORDER BY \(order) LIMIT ?\(pattern + 1)
          """,
        arguments: StatementArguments(sql.arguments + [Self.escapeLike(prefix) + "%", rows]))
      while titles.count < limit, let title = try found.next() {
        if seen.insert(title).inserted { titles.append(title) }
      }
      return titles
    }
  }
}
