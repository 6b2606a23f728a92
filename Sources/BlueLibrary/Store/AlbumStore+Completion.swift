import AlbumModel
import BlueSystem
internal import GRDB

extension AlbumStore {
  /// Up to `limit` distinct titles whose ``CollationKey`` starts with `prefix`'s (case and
  /// accents ignored: `emi` offers `Émile`), in scroller order: the candidates of tab completion.
  package func titles(withPrefix prefix: String, limit: Int) throws(LibraryError) -> [String] {
    let folded = CollationKey.key(prefix)
    return try reading { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT title FROM album WHERE \(Schema.titleSortKey) >= ?1 AND \(Schema.titleSortKey) < ?2 GROUP BY title
          ORDER BY MIN(position) LIMIT ?3
          """,
        arguments: [folded, folded + "\u{10FFFF}", max(0, limit)])
    }
  }
}
