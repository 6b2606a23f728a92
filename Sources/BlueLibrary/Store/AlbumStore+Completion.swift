import AlbumModel
internal import BlueSQL
import BlueSystem

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

extension AlbumStore {
  /// The titles of the first of `prefixes` that some title starts with, as
  /// ``titles(withPrefix:limit:in:)`` gives them, and its place among `prefixes`; nil when
  /// none does. One read of the library for them all (a title typed as several words is
  /// looked for from each of them: `The Gol`, then `Gol`).
  package func titles(withFirstOf prefixes: [String], limit: Int, in view: AlbumQuery? = nil) throws(LibraryError)
    -> (index: Int, titles: [String])?
  {
    guard !prefixes.isEmpty else { return nil }
    let query = view ?? .all
    let sql = QuerySQL(query)
    let first = sql.arguments.count + 1
    let patterns = prefixes.indices.map { "?\(first + $0)" }
    let which =
      "CASE "
      + patterns.enumerated().map { "WHEN title LIKE \($1) ESCAPE '\\' THEN \($0)" }
      .joined(separator: " ") + " END"
    let order = query.sort.isEmpty ? "title COLLATE NOCASE, position" : sql.order
    let rows = max(0, limit) * 2 + 8
    return try reading { db in
      let found = try Row.fetchCursor(
        db,
        sql: """
          SELECT title, \(which) AS run FROM album
          WHERE (\(patterns.map { "title LIKE \($0) ESCAPE '\\'" }.joined(separator: " OR "))) AND (\(sql.condition))
          ORDER BY run, \(order) LIMIT ?\(first + prefixes.count)
          """,
        arguments: StatementArguments(sql.arguments + prefixes.map { Self.escapeLike($0) + "%" } + [rows]))
      var index: Int?
      var seen: Set<String> = []
      var titles: [String] = []
      while titles.count < limit, let row = try found.next() {
        let run: Int = row[1]
        if index == nil { index = run }
        guard run == index else { break }
        let title: String = row[0]
        if seen.insert(title).inserted { titles.append(title) }
      }
      return index.map { ($0, titles) }
    }
  }
}
