import AlbumModel
import BlueSystem
internal import GRDB

extension AlbumStore {
  /// Up to `limit` distinct titles whose ``CollationKey`` starts with `prefix`'s (case and
  /// accents ignored: `emi` offers `Émile`): the candidates of tab completion. With `view`,
  /// only its albums, in its order when it sorts; otherwise in alphabetical order (by the
  /// sort key), as a sorted listing shows them, not in the library's order. Read with
  /// `LIMIT`: a prefix many titles share stops at the limit's worth of rows.
  package func titles(withPrefix prefix: String, limit: Int, in view: AlbumQuery? = nil) throws(LibraryError)
    -> [String]
  {
    let query = view ?? .all
    let sql = QuerySQL(query)
    let first = sql.arguments.count + 1
    let folded = CollationKey.key(prefix)
    let order = query.sort.isEmpty ? "\(Schema.titleSortKey), position" : sql.order
    // A title many albums share (a copy, a reissue) is read more than once: a few more rows
    // than asked for, the copies dropped here.
    let rows = max(0, limit) * 2 + 8
    return try reading { db in
      var seen: Set<String> = []
      var titles: [String] = []
      let found = try String.fetchCursor(
        db,
        sql: """
          SELECT title FROM album
          WHERE \(Schema.titleSortKey) >= ?\(first) AND \(Schema.titleSortKey) < ?\(first + 1) AND (\(sql.condition))
          ORDER BY \(order) LIMIT ?\(first + 2)
          """,
        arguments: StatementArguments(sql.arguments + [folded, folded + "\u{10FFFF}", rows]))
      while titles.count < limit, let title = try found.next() {
        if seen.insert(title).inserted { titles.append(title) }
      }
      return titles
    }
  }
}
