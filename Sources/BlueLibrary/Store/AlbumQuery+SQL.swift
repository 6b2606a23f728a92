import AlbumModel
internal import BlueSQL
import BlueSystem
import BlueText
import FoundationEssentials
import Synchronization

/// A query as SQL over the `album` table: a `WHERE` condition with its arguments and an
/// `ORDER BY` that ends in library order.
///
/// Text terms are exact in SQL: SQLite's `LIKE` folds ASCII case, which is the whole
/// answer for a row of printable ASCII; only the other rows are folded by
/// `bluelib_fold` (case, accents and width, as ``AlbumQuery/fold(_:)``). Every term is
/// NULL-free (`IFNULL(…, 0)`), so a negated term takes in the albums that lack the field.
struct QuerySQL {
  var condition: String
  var arguments: [(any DatabaseValueConvertible)?]
  var order: String

  init(_ query: AlbumQuery) {
    var arguments: [(any DatabaseValueConvertible)?] = []
    func argument(_ value: any DatabaseValueConvertible) -> String {
      arguments.append(value)
      return "?\(arguments.count)"
    }
    // Within a group the cheap terms go first (SQLite tests them in order and stops at the
    // first false one): a range on a number skips most rows before any text is compared.
    let groups = query.groups.map { group in
      "(" + group.sorted { Self.cost($0) < Self.cost($1) }.map { Self.term($0, argument) }.joined(separator: " AND ")
        + ")"
    }
    condition = groups.isEmpty ? "1" : groups.joined(separator: " OR ")
    self.arguments = arguments
    order =
      (query.sort.map { key in
        guard let field = key.field else { return "bluelib_shuffle(album.id, \(key.seed))" }
        return Self.sortExpression(field) + (key.ascending ? " ASC" : " DESC")
      } + ["position"]).joined(separator: ", ")
  }

  /// How costly a term is to test, roughly: numbers, then exact text, then substrings, then patterns.
  private static func cost(_ term: QueryTerm) -> Int {
    switch term.match {
    case .number, .date: 0
    case .exact, .exactIgnoringCase: 1
    case .substring: term.field == nil ? 3 : 2
    case .regex: 4
    }
  }

  /// The column (or expression) a field reads.
  static func column(_ field: QueryField) -> String {
    switch field {
    case .title: "title"
    case .artist, .albumartist: "artist"
    case .genre: "genre"
    case .year: "year"
    case .tracks: "tracks"
    case .length: "duration"
    case .folder: "IFNULL(folder, '')"
    case .cover: "coverUrl"
    case .added: "IFNULL(added, \(addedBefore))"
    case .discs, .musicBrainzAlbumID:
      "(SELECT \(field.rawValue) FROM folder_album WHERE key = album.source_key)"
    // The files' id, else the one `lookup` found (kept as the cover `caa:release-group/ID`).
    case .musicBrainzReleaseGroupID:
      """
      IFNULL((SELECT mb_releasegroupid FROM folder_album WHERE key = album.source_key), \
      CASE WHEN coverUrl LIKE 'caa:release-group/%' THEN substr(coverUrl, 19, 36) END)
      """
    case .missing: "IFNULL((SELECT missing FROM folder_album WHERE key = album.source_key), 0)"
    case .played: "IFNULL((SELECT played FROM album_play WHERE album_id = album.id), 0)"
    case .lastPlayed: "(SELECT last_played FROM album_play WHERE album_id = album.id)"
    case .art: AlbumArt.sql
    // MusicBrainz had nothing like its title and artist (`lookup`), and it has no cover.
    case .lookup:
      """
      (CASE WHEN coverUrl = '' AND EXISTS (SELECT 1 FROM lookup_none n \
      WHERE n.title = album.title AND n.artist = album.artist) THEN 'none' ELSE '' END)
      """
    case .rating: "rating"
    case .fav: "fav"
    // One of the album's tracks: `t` in the EXISTS a track term is wrapped in.
    case .track: "IFNULL(t.title, '')"
    case .format: "t.format"
    case .composer: "IFNULL(t.composer, '')"
    case .samplerate: "t.samplerate"
    // The tracks' average weighed by their lengths (Tracklist.bitrate), of those that say.
    case .bitrate:
      """
      (SELECT CASE WHEN sum(max(length, 0)) > 0 THEN round(sum(bitrate * max(length, 0)) / sum(max(length, 0))) \
      ELSE round(avg(bitrate)) END FROM track WHERE album_key = album.source_key AND bitrate > 0)
      """
    case .duplicate: duplicateSQL
    }
  }

  /// Whether another album is the same release: the same artist, title and number of tracks
  /// (ignoring ASCII case), or the same MusicBrainz album id in its files. Each side is a
  /// subquery that does not depend on the row, which SQLite runs once per statement (a
  /// grouping of the library) and then probes: a million albums are grouped once, not
  /// compared with one another.
  static let duplicateSQL = """
    (CASE WHEN (lower(album.artist), lower(album.title), IFNULL(album.tracks, -1)) IN (\
    SELECT lower(artist), lower(title), IFNULL(tracks, -1) FROM album GROUP BY 1, 2, 3 HAVING count(*) > 1) \
    OR album.source_key IN (SELECT f.key FROM folder_album f WHERE f.mb_albumid IN (\
    SELECT g.mb_albumid FROM folder_album g JOIN album a ON a.source_key = g.key \
    WHERE g.mb_albumid IS NOT NULL AND g.mb_albumid <> '' GROUP BY g.mb_albumid HAVING count(*) > 1)) \
    THEN 1 ELSE 0 END)
    """

  /// What `added` is for albums stored before the field existed: the time of the migration
  /// that added it, kept in the `state` table.
  static let addedBefore = "(SELECT value FROM state WHERE key = 'addedBefore')"

  /// What a sort key orders by; a track field, by the album's first track. Text is ordered
  /// by its ``CollationKey`` (case and accents folded: `Émile` among the E's): the stored key
  /// of a title or an artist (the artist's is what the artist index holds, so a sort by
  /// artist reads it in order), the key made as the rows are read for the other fields.
  static func sortExpression(_ field: QueryField) -> String {
    let column =
      field.isTrackField
      ? "(SELECT \(field == .track ? "title" : field.rawValue) FROM track WHERE album_key = album.source_key "
        + "ORDER BY position LIMIT 1)" : column(field)
    if column == "title" { return Schema.titleSortKey }
    if column == "artist" { return Schema.artistSortKey }
    return field.kind == .text ? "IFNULL(bluelib_sortkey(\(column)), lower(\(column)))" : column
  }

  private static func term(_ term: QueryTerm, _ argument: (any DatabaseValueConvertible) -> String) -> String {
    let fields = term.field.map { [$0] } ?? QueryField.defaultFields
    let sql: String
    switch term.match {
    case .substring(let folded):
      let pattern = argument("%" + AlbumStore.escapeLike(folded) + "%")
      let word = argument(folded)
      sql = textColumns(fields).map { column in
        // CASE, not AND: SQLite may evaluate either side of an AND first, and folding every
        // row in Swift costs ten times the LIKE.
        return "CASE WHEN \(column) LIKE \(pattern) ESCAPE '\\' THEN 1 "
          + "WHEN \(column) GLOB '*[^ -~]*' THEN instr(bluelib_fold(\(column)), \(word)) > 0 ELSE 0 END"
      }.joined(separator: " OR ")
    case .exact(let value):
      let value = argument(value)
      sql = textColumns(fields).map { "\($0) = \(value)" }.joined(separator: " OR ")
    case .exactIgnoringCase(let value):
      let value = argument(value.lowercased())
      sql = textColumns(fields).map { "bluelib_lower(\($0)) = \(value)" }.joined(separator: " OR ")
    case .regex(let pattern):
      let pattern = argument(pattern)
      sql = textColumns(fields).map { "\($0) REGEXP \(pattern)" }.joined(separator: " OR ")
    case .number(let lower, let upper):
      let column = column(fields[0])
      // A length is compared to the second it is shown as: `length:..40:00` takes 40:00.4.
      let slack = fields[0] == .length ? 1.0 : 0
      var bounds: [String] = []
      if let lower, let upper, lower == upper, slack == 0 {
        // One value (a flag's 1 or 0): the column once; `duplicate`'s would be worked out twice.
        bounds.append("\(column) = \(lower)")
      } else {
        if let lower { bounds.append("\(column) >= \(lower)") }
        if let upper { bounds.append(slack > 0 ? "\(column) < \(upper + slack)" : "\(column) <= \(upper)") }
      }
      sql = bounds.joined(separator: " AND ")
    case .date(let from, let until):
      let column = column(fields[0])
      sql = ([from.map { "\(column) >= \($0)" }, until.map { "\(column) < \($0)" }].compactMap { $0 })
        .joined(separator: " AND ")
    }
    var condition = "IFNULL(\(sql.isEmpty ? "1" : sql), 0)"
    if let field = term.field, field.isTrackField {
      // Any of the album's tracks (the track table, by the album's key) matches.
      condition = "EXISTS (SELECT 1 FROM track t WHERE t.album_key = album.source_key AND \(condition))"
    }
    return (term.negated ? "NOT " : "") + condition
  }

  /// The text columns a term on `fields` compares: numbers as their digits (for
  /// `year::^19`), and a track by its title or its artist.
  private static func textColumns(_ fields: [QueryField]) -> [String] {
    fields.flatMap { field in
      field == .track
        ? ["IFNULL(t.title, '')", "IFNULL(t.artist, '')"]
        : [field.kind == .text ? column(field) : "CAST(\(column(field)) AS TEXT)"]
    }
  }
}

extension AlbumStore {
  /// Adds the functions queries use to a connection: `bluelib_fold(text)` (case, accents
  /// and width folded), `bluelib_lower(text)` (case folded, every script) and
  /// `regexp(pattern, text)`, which SQLite calls for `text REGEXP pattern`, and
  /// `bluelib_shuffle(id, seed)`, the `random` sort key's order.
  static func installQueryFunctions(_ db: Database, stop: StatementStop) {
    db.add(
      function: DatabaseFunction("bluelib_shuffle", argumentCount: 2, pure: true) { values in
        guard let id = Int64.fromDatabaseValue(values[0]), let seed = Int64.fromDatabaseValue(values[1]) else {
          return 0
        }
        return AlbumStore.shuffled(id, seed: seed)
      })
    db.add(
      function: DatabaseFunction("bluelib_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(AlbumQuery.fold)
      })
    // A text's key where it is not its ASCII lower case, else NULL (Schema.addSortKeys).
    db.add(
      function: DatabaseFunction("bluelib_sortkey", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).flatMap(CollationKey.storedKey)
      })
    db.add(
      function: DatabaseFunction("bluelib_lower", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0])?.lowercased()
      })
    db.add(
      function: DatabaseFunction("regexp", argumentCount: 2, pure: true) { values in
        guard let pattern = String.fromDatabaseValue(values[0]), let text = String.fromDatabaseValue(values[1]),
          let regex = RegexCache.shared.regex(pattern)
        else { return false }
        return try BoundedMatch.matches(regex, pattern: pattern, in: text, statementStop: stop)
      })
  }
}

extension AlbumStore {
  /// Where the album `id` goes in `random`'s order for `seed`: SplitMix64 of the two, so
  /// each seed orders the albums differently, every time the same.
  static func shuffled(_ id: Int64, seed: Int64) -> Int64 {
    var z = UInt64(bitPattern: id) &+ UInt64(bitPattern: seed) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int64(bitPattern: z ^ (z >> 31))
  }
}

/// A regular expression's match that cannot run without end: ICU backtracks exponentially
/// on patterns such as `(a+)+$`, and one match is one step of SQLite's machine, which its
/// progress handler never interrupts. ICU calls back as it works (as NSRegularExpression's
/// `reportProgress` did), and there the match stops at the shell's stop check (a signal) or
/// after ``budget`` on one text.
enum BoundedMatch {
  /// The longest one text may take, in milliseconds.
  static let budgetMilliseconds = AlbumQuery.patternBudgetMilliseconds
  static let budget: Duration = .milliseconds(budgetMilliseconds)
  /// The start of the message of a match over its budget, followed by the pattern.
  static let tooSlowMarker = "bluelib: pattern too slow: "

  /// Whether `regex` matches somewhere in `text`.
  /// - Throws: A `DatabaseError` SQLite reports for the statement: `SQLITE_INTERRUPT` when
  ///   asked to stop, and one whose message starts with ``tooSlowMarker`` over the budget.
  static func matches(
    _ regex: RegularExpression, pattern: String, in text: String, statementStop: AlbumStore.StatementStop
  ) throws -> Bool {
    var stopped = false
    var tooSlow = false
    var calls = 0
    let deadline = ContinuousClock.now + budget
    let found = regex.matches(in: text) {
      calls += 1
      if statementStop.isRequested {
        stopped = true
        return false
      } else if calls & 15 == 0, ContinuousClock.now > deadline {
        tooSlow = true
        return false
      }
      return true
    }
    if stopped { throw DatabaseError(resultCode: .SQLITE_INTERRUPT) }
    if tooSlow && found != true { throw DatabaseError(resultCode: .SQLITE_ERROR, message: tooSlowMarker + pattern) }
    return found ?? false
  }
}

extension AlbumArt {
  /// The SQL expression of a row of `album` that ``Album/art`` computes for a value.
  static let sql = """
    (CASE WHEN coverUrl = '' THEN 'none' \
    WHEN coverUrl LIKE 'file:%' OR coverUrl LIKE 'embedded:%' THEN 'local' \
    WHEN EXISTS (SELECT 1 FROM cover WHERE url = album.coverUrl) THEN 'downloaded' ELSE 'url' END)
    """
}

/// Compiled patterns by their text, so a query's pattern is compiled once, not per row.
final class RegexCache: Sendable {
  static let shared = RegexCache()
  private let compiled = Mutex<[String: CompiledRegex]>([:])

  /// A `RegularExpression` is immutable once made, and safe to use from any thread.
  struct CompiledRegex: Sendable {
    let regex: RegularExpression
  }

  func regex(_ pattern: String) -> RegularExpression? {
    if let found = compiled.withLock({ $0[pattern] }) { return found.regex }
    guard let regex = try? RegularExpression(pattern) else { return nil }
    compiled.withLock { cache in
      if cache.count > 64 { cache.removeAll() }
      cache[pattern] = CompiledRegex(regex: regex)
    }
    return regex
  }
}
