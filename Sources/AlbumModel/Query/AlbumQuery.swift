import BlueText
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A query in beets' syntax (its `docs/reference/query.rst`), for albums: what `find`,
/// `list`, `stats` and `export` take.
///
/// - bare words match as substrings, ignoring case and accents, in the title, artist and
///   genre; words are ANDed; a word ending in a comma closes an OR group;
/// - `field:value` (substring), `field:=Value` (exact), `field:=~value` (exact ignoring
///   case), `field::regex`; `=Value`, `=~value` and `:regex` alone look in every text field;
/// - numbers and ranges on `year`, `tracks`, `length`, `bitrate`, `samplerate`… (`1990..1999`,
///   `..40:00`, `10..`), and comparisons (`bitrate:>256`, `year:<=1999`);
/// - dates and date ranges on `added` (`2026-11`, `2026-11-01..2026-11-20`, `-1w..`);
/// - `^` or `-` before a term negates it; a known field followed by `+` or `-` is a sort key.
///
/// Parsing never touches the library: a malformed query throws ``LibraryError/badQuery(word:reason:)``
/// (or ``LibraryError/unknownField(_:)``-like text naming the known fields) before anything runs.
package struct AlbumQuery: Sendable, Equatable {
  /// Terms ANDed within a group; groups ORed. No groups: every album.
  package let groups: [[QueryTerm]]
  /// Sort keys in the order typed; ties keep library order.
  package let sort: [SortKey]
  /// The words as parsed (quoting resolved).
  package let words: [String]

  /// The query that matches every album in library order.
  package static let all = AlbumQuery(groups: [], sort: [], words: [])

  init(groups: [[QueryTerm]], sort: [SortKey], words: [String]) {
    self.groups = groups
    self.sort = sort
    self.words = words
  }

  /// The words as one could type them again: joined by spaces, the value of a word with a
  /// space or a quote in it double-quoted after its operator (`artist:="Dave Matthews"`):
  /// what the prompt, `view list` and messages show.
  package var text: String {
    words.map { word in
      guard word.isEmpty || word.contains(where: { $0.isWhitespace || "'\";\\#".contains($0) }) else { return word }
      let head = Self.operatorPrefix(of: word)
      var quoted = "\""
      for character in word.dropFirst(head.count) {
        if character == "\"" || character == "\\" { quoted.append("\\") }
        quoted.append(character)
      }
      return head + quoted + "\""
    }.joined(separator: " ")
  }

  /// `^artist:=~`, `title::`, `=`: what comes before a word's value.
  private static func operatorPrefix(of word: String) -> String {
    var rest = Substring(word)
    var head = ""
    if let first = rest.first, first == "^" || first == "-", rest.count > 1 {
      head.append(first)
      rest = rest.dropFirst()
    }
    if let colon = rest.firstIndex(of: ":"), rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }) {
      head += rest[...colon]
      rest = rest[rest.index(after: colon)...]
    }
    for mark in ["=~", "=", ":"] where rest.hasPrefix(mark) {
      head += mark
      break
    }
    return head
  }

  /// The words as stored in the library file (a JSON array), so a word with spaces
  /// comes back as one word.
  package var storedText: String {
    let data = (try? JSONEncoder().encode(words)) ?? Data("[]".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  /// Reads a query stored as ``storedText``.
  package init(
    storedText: String, now: Date = Date(), timeZone: QueryTimeZone = .local, savedViews: SavedViews? = nil
  ) throws(LibraryError) {
    try self.init(words: Self.words(storedText: storedText), now: now, timeZone: timeZone, savedViews: savedViews)
  }

  /// The words of a query stored as ``storedText``.
  package static func words(storedText: String) throws(LibraryError) -> [String] {
    guard let words = try? JSONDecoder().decode([String].self, from: Data(storedText.utf8)) else {
      throw .badQuery(word: storedText, reason: "a stored query must be a JSON array of words")
    }
    return words
  }

  /// True when the query neither filters nor sorts.
  package var isEverything: Bool { groups.isEmpty && sort.isEmpty }

  /// Parses `words` (shell quoting already resolved: `artist:="Dave Matthews"` is one word).
  /// `now` anchors relative dates (`-1w`); `timeZone` reads calendar dates (local time).
  /// The words of the view saved as a name; throws ``LibraryError/noView(name:known:)``.
  package typealias SavedViews = (String) throws(LibraryError) -> [String]

  /// The most OR groups a query may have once saved views are ANDed in (each pair of groups
  /// multiplies): SQLite's expressions stop at 1,000 deep.
  package static let maximumGroups = 100

  /// The name in `@NAME` when `word` is one (a name is letters, digits, `-`, `_` and `.`,
  /// at most 64 bytes); nil for any other word, which is a word to search for.
  package static func viewName(_ word: String) -> String? {
    guard word.hasPrefix("@") else { return nil }
    let name = String(word.dropFirst())
    return isViewName(name) ? name : nil
  }

  /// Whether `name` can name a saved view: at most 64 bytes (a single accented letter can be
  /// any number of combining marks, so characters are no limit).
  package static func isViewName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 64
      && name.unicodeScalars.allSatisfy({ ScalarSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) })
  }

  /// The most terms a query may have once saved views are ANDed in, and the most a parse
  /// reads on the way (a view naming another a hundred times, three deep, would be a
  /// million): SQLite's expressions stop at 1,000 deep, and each term ANDed is one more.
  package static let maximumTerms = 500

  /// The most saved views a query may reach through one another, one inside the next.
  package static let maximumViewDepth = 8

  /// What a parse has expanded so far: the views being read, outermost first (a name seen
  /// twice is a circle), and the terms read, views included, which stop at ``maximumTerms``.
  private final class Expansion {
    var chain: [String] = []
    var terms = 0
  }

  /// Parses `words`; with `savedViews`, an `@NAME` word is the view saved as NAME, ANDed with
  /// the rest as a whole (its OR groups stay its own), read again each time (so a view made
  /// with `@NAME` follows a later `view save NAME`). A view that reaches itself, nests more
  /// than ``maximumViewDepth`` deep or makes more than ``maximumTerms`` terms is refused
  /// before the work grows: the expansion counts as it goes.
  package init(
    words: [String], now: Date = Date(), timeZone: QueryTimeZone = .local, savedViews: SavedViews? = nil
  ) throws(LibraryError) {
    try self.init(words: words, now: now, timeZone: timeZone, savedViews: savedViews, expansion: Expansion())
  }

  private init(
    words: [String], now: Date, timeZone: QueryTimeZone, savedViews: SavedViews?, expansion: Expansion
  ) throws(LibraryError) {
    var typed: [String] = []
    var saved: [AlbumQuery] = []
    for word in words {
      if let savedViews, let name = Self.viewName(word) {
        if let start = expansion.chain.firstIndex(of: name) {
          let circle = (expansion.chain[start...] + [name]).map { "@" + $0 }.joined(separator: " → ")
          throw .badQuery(word: word, reason: "saved views refer to each other in a circle (\(circle))")
        }
        guard expansion.chain.count < Self.maximumViewDepth else {
          throw .badQuery(word: word, reason: "saved views nest more than \(Self.maximumViewDepth) deep")
        }
        expansion.chain.append(name)
        saved.append(
          try AlbumQuery(
            words: try savedViews(name), now: now, timeZone: timeZone, savedViews: savedViews, expansion: expansion))
        expansion.chain.removeLast()
      } else {
        typed.append(word)
      }
    }
    var query = try AlbumQuery(parsing: typed, now: now, timeZone: timeZone)
    expansion.terms += query.groups.reduce(0) { $0 + $1.count }
    let firstView = "@" + (words.first { Self.viewName($0) != nil }?.dropFirst() ?? "")
    for view in saved.reversed() {
      query = view.narrowed(by: query)
      if query.groups.count > Self.maximumGroups {
        throw .badQuery(
          word: firstView, reason: "the saved views' OR groups make more than \(Self.maximumGroups) combinations")
      }
    }
    if expansion.terms > Self.maximumTerms || query.groups.reduce(0, { $0 + $1.count }) > Self.maximumTerms {
      // Named by the outermost view being read: the one the user typed.
      throw .badQuery(
        word: expansion.chain.first.map { "@" + $0 } ?? firstView,
        reason: "the saved views it names expand to more than \(Self.maximumTerms) terms")
    }
    self.init(groups: query.groups, sort: query.sort, words: words)
  }

  private init(parsing words: [String], now: Date, timeZone: QueryTimeZone) throws(LibraryError) {
    if words.count > Self.maximumWords || words.contains(where: { $0.utf8.count > Self.maximumWordBytes }) {
      throw .queryTooLong(words: Self.maximumWords, bytes: Self.maximumWordBytes)
    }
    var groups: [[QueryTerm]] = []
    var sort: [SortKey] = []
    var current: [QueryTerm] = []
    let context = QueryTerm.Context(now: now, timeZone: timeZone)
    for word in words + [","] {
      if word.hasSuffix(",") {
        let last = String(word.dropLast())
        if !last.isEmpty { current.append(try QueryTerm(parsing: last, context)) }
        if !current.isEmpty { groups.append(current) }
        current = []
      } else if let key = SortKey(word) {
        sort.append(key)
      } else {
        current.append(try QueryTerm(parsing: word, context))
      }
    }
    self.init(groups: groups, sort: sort, words: words)
  }

  /// This query with its words replaced by `words` (for ``text``), its terms and sort kept.
  package func withWords(_ words: [String]) -> AlbumQuery {
    AlbumQuery(groups: groups, sort: sort, words: words)
  }

  /// This query's filter and `other`'s, ANDed; `other`'s sort keys when it has any, else this one's.
  package func narrowed(by other: AlbumQuery) -> AlbumQuery {
    let groups: [[QueryTerm]]
    switch (self.groups.isEmpty, other.groups.isEmpty) {
    case (true, _): groups = other.groups
    case (_, true): groups = self.groups
    default:
      // (a OR b) AND (c OR d) = ac OR ad OR bc OR bd.
      groups = self.groups.flatMap { left in other.groups.map { left + $0 } }
    }
    return AlbumQuery(groups: groups, sort: other.sort.isEmpty ? sort : other.sort, words: words + other.words)
  }
}

extension AlbumQuery {
  /// The most words a query may have (SQLite allows an expression 1,000 deep).
  package static let maximumWords = 100
  /// The most bytes a query word may have (SQLite's LIKE patterns stop at 50,000).
  package static let maximumWordBytes = 4 << 10
  /// The longest a regular expression may take on one album, in milliseconds.
  package static let patternBudgetMilliseconds = 250

  /// `text` without case or accents, as searches compare it.
  package static func fold(_ text: String) -> String {
    TextFolding.folded(text)
  }

  /// Whether the query's matches or order depend on `art` (which a cover landing changes).
  package var readsArt: Bool {
    groups.contains { $0.contains { $0.field == .art } } || sort.contains { $0.field == .art }
  }
}

/// A field a query can name.
package enum QueryField: String, Sendable, CaseIterable {
  case title, artist, albumartist, genre, year, tracks, length, folder, cover, added
  /// What the files of an album from a music folder say (its last import): its discs, its
  /// MusicBrainz ids, and, matched by any of its tracks, a track's title or artist and a
  /// track's format.
  case discs
  case musicBrainzAlbumID = "mb_albumid"
  case musicBrainzReleaseGroupID = "mb_releasegroupid"
  case track, format
  /// Whether none of the album's files was found by the last scan of its folder
  /// (`missing:true`); albums not from a music folder are never missing.
  case missing
  /// How often the album was played, and when last (`play`).
  case played
  case lastPlayed = "last_played"
  /// Where its art stands: `none`, `local`, `downloaded` or `url` (``AlbumArt``).
  case art
  /// Its rating in stars, 1 to 5 (`rate`; unrated albums have none), and whether it is a
  /// favourite (`fav`).
  case rating, fav
  /// What `lookup` last heard of it: `none` when MusicBrainz had nothing like its title
  /// and artist and it still has no cover.
  case lookup
  /// What its files hold (a music folder's, a server's songs where it says): a track's
  /// composer and sample rate in Hz (matched by any of its tracks), and the album's bitrate
  /// in kb/s (its tracks' average, each weighed by its length).
  case composer, samplerate, bitrate
  /// Whether another album of the library is the same release (`duplicate:true`): the same
  /// MusicBrainz album id, or the same artist, title and number of tracks, ignoring case.
  case duplicate

  /// What a value of the field is compared as.
  package enum Kind { case text, number, date, flag }

  package var kind: Kind {
    switch self {
    case .title, .artist, .albumartist, .genre, .folder, .cover, .musicBrainzAlbumID, .musicBrainzReleaseGroupID,
      .track, .format, .art, .lookup, .composer:
      .text
    case .year, .tracks, .length, .discs, .played, .rating, .samplerate, .bitrate: .number
    case .added, .lastPlayed: .date
    case .missing, .fav, .duplicate: .flag
    }
  }

  /// Whether the field is one of a track's: an album matches when any of its tracks does.
  package var isTrackField: Bool { self == .track || self == .format || self == .composer || self == .samplerate }

  /// The fields a bare word (and `=value`, `:regex` without a field) looks in.
  package static let defaultFields: [QueryField] = [.title, .artist, .genre]

  /// `title, artist, …`: every field, for messages.
  package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

  /// The field named `name`, ignoring case.
  package init?(name: some StringProtocol) {
    self.init(rawValue: name.lowercased())
  }
}

/// One sort key: `year-`, `artist+`, or `random`.
package struct SortKey: Sendable, Equatable {
  /// The field it orders by; nil for `random`.
  package let field: QueryField?
  package let ascending: Bool
  /// `random`'s shuffle: one order per query as parsed, kept while the view is shown (a
  /// scroll or a change does not shuffle again), new for each `find`.
  package let seed: Int64

  /// A word ending in `+` or `-` whose rest is a field name, or `random` (with or without a
  /// sign); nil for any other word (`C++` stays a word to search for; `title:random` finds
  /// the word).
  init?(_ word: String) {
    if ["random", "random+", "random-"].contains(word.lowercased()) {
      field = nil
      ascending = true
      seed = Int64.random(in: 1...Int64.max)
      return
    }
    guard word.count > 1, let sign = word.last, sign == "+" || sign == "-", !word.contains(":"),
      let field = QueryField(name: word.dropLast())
    else { return nil }
    self.field = field
    ascending = sign == "+"
    seed = 0
  }
}

/// One term of a query, as parsed.
package struct QueryTerm: Sendable, Equatable {
  /// How a term compares.
  package enum Match: Sendable, Equatable {
    /// The folded text appears in the folded field (case and accents ignored).
    case substring(String)
    /// The field is exactly this (case counts).
    case exact(String)
    /// The field is this, ignoring case.
    case exactIgnoringCase(String)
    /// The pattern matches somewhere in the field (case counts).
    case regex(String)
    /// A number within the bounds, both inclusive, either open.
    case number(lower: Double?, upper: Double?)
    /// A time in seconds since 1970 at or after `from` and before `until`.
    case date(from: Int64?, until: Int64?)
  }

  /// The field, or nil for the bare-word fields (title, artist, genre).
  package let field: QueryField?
  package let match: Match
  package let negated: Bool

  struct Context {
    let now: Date
    let timeZone: QueryTimeZone
  }

  init(field: QueryField?, match: Match, negated: Bool) {
    self.field = field
    self.match = match
    self.negated = negated
  }

  /// Parses one word of a query.
  init(parsing word: String, _ context: Context) throws(LibraryError) {
    var rest = Substring(word)
    var negated = false
    if rest.count > 1, let first = rest.first, first == "^" || first == "-" {
      negated = true
      rest = rest.dropFirst()
    }
    var field: QueryField?
    if let colon = rest.firstIndex(of: ":"), colon > rest.startIndex,
      rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") })
    {
      let name = rest[..<colon]
      guard let known = QueryField(name: name) else {
        throw .badQuery(
          word: word, reason: "unknown field '\(name)' (fields: \(QueryField.names))")
      }
      field = known
      rest = rest[rest.index(after: colon)...]
      if rest.hasPrefix(":") {
        self.init(field: field, match: try Self.regex(rest.dropFirst(), word), negated: negated)
        return
      }
    } else if rest.hasPrefix(":") {
      self.init(field: nil, match: try Self.regex(rest.dropFirst(), word), negated: negated)
      return
    }
    var match: Match
    if rest.hasPrefix("=~") {
      match = .exactIgnoringCase(String(rest.dropFirst(2)))
    } else if rest.hasPrefix("=") {
      match = .exact(String(rest.dropFirst()))
    } else {
      switch field?.kind ?? .text {
      case .text: match = .substring(AlbumQuery.fold(String(rest)))
      case .number: match = try Self.numbers(rest, field: field ?? .year, word)
      case .date: match = try Self.dates(rest, context, word)
      case .flag: match = try Self.flag(rest, field: field ?? .missing, word)
      }
    }
    if field == .art {
      // One of four words (not a part of one), with or without '=' or '=~'; a regular
      // expression is taken as it is.
      switch match {
      case .substring(let text), .exact(let text), .exactIgnoringCase(let text):
        guard let art = AlbumArt(rawValue: text.lowercased()) else {
          throw .badQuery(word: word, reason: "'\(text)' is not a kind of art (art is \(AlbumArt.names))")
        }
        match = .exact(art.rawValue)
      default: break
      }
    }
    if field == .lookup {
      // One word, as for art: the only answer remembered is "none".
      switch match {
      case .substring(let text), .exact(let text), .exactIgnoringCase(let text):
        guard text.lowercased() == "none" else {
          throw .badQuery(word: word, reason: "'\(text)' is not an answer lookup remembers (lookup is none)")
        }
        match = .exact("none")
      default: break
      }
    }
    if let field, field.kind == .flag {
      guard case .number = match else {
        throw .badQuery(word: word, reason: "\(field.rawValue) is true or false (like \(field.rawValue):true)")
      }
    }
    if let field, field.kind == .date, case .exact = match {
      throw .badQuery(word: word, reason: "dates take no '=' (try 'added:2026-11-25')")
    }
    self.init(field: field, match: match, negated: negated)
  }

  // MARK: - Regular expressions

  private static func regex(_ pattern: Substring, _ word: String) throws(LibraryError) -> Match {
    do {
      _ = try RegularExpression(String(pattern))
    } catch .unavailable(let why) {
      throw .patternsNeedICU(word: word, why: why)
    } catch {
      throw .badQuery(word: word, reason: "'\(pattern)' is not a valid regular expression")
    }
    return .regex(String(pattern))
  }

  // MARK: - Flags

  /// `true`, `false` and their other spellings (`yes`/`no`, `1`/`0`, as beets reads them)
  /// as the numbers 1 and 0.
  private static func flag(_ text: Substring, field: QueryField, _ word: String) throws(LibraryError) -> Match {
    switch text.lowercased() {
    case "true", "yes", "y", "t", "1", "on": return .number(lower: 1, upper: 1)
    case "false", "no", "n", "f", "0", "off": return .number(lower: 0, upper: 0)
    default:
      throw .badQuery(
        word: word, reason: "'\(text)' is not true or false (\(field.rawValue) takes true or false)")
    }
  }

  // MARK: - Numbers

  /// `A`, `A..B`, `..B`, `A..`; `length` also takes `M:SS` and `H:MM:SS`.
  private static func numbers(_ text: Substring, field: QueryField, _ word: String) throws(LibraryError) -> Match {
    let example =
      field == .length ? "..40:00 or 30:00..45:00" : field == .year ? "1990..1999" : field == .rating ? "4.." : "10.."
    guard !text.isEmpty else {
      throw .badQuery(word: word, reason: "\(field.rawValue) needs a number or a range (like \(example))")
    }
    func number(_ part: Substring) throws(LibraryError) -> Double? {
      if part.isEmpty { return nil }
      if let value = field == .length ? duration(part) : Int(part).map(Double.init) { return value }
      throw .badQuery(
        word: word, reason: "'\(part)' is not a number (\(field.rawValue) takes a number or a range like \(example))")
    }
    // `>256`, `>=256`, `<1990`, `<=40:00`: a range open on one side. Values are whole numbers
    // (a length in whole seconds, as shown), so `>N` is `N+1..`.
    if let sign = text.first, sign == ">" || sign == "<" {
      let inclusive = text.dropFirst().hasPrefix("=")
      let rest = text.dropFirst(inclusive ? 2 : 1)
      guard !rest.isEmpty, let value = try number(rest) else {
        let like = "\(field.rawValue):\(sign)\(field == .length ? "40:00" : field == .year ? "1990" : "10")"
        throw .badQuery(word: word, reason: "'\(sign)' needs a number after it (like \(like))")
      }
      let step: Double = inclusive ? 0 : 1
      return sign == ">" ? .number(lower: value + step, upper: nil) : .number(lower: nil, upper: value - step)
    }
    guard let dots = text.firstRange(of: "..") else {
      let value = try number(text)
      return .number(lower: value, upper: value)
    }
    let lower = try number(text[..<dots.lowerBound])
    let upper = try number(text[dots.upperBound...])
    if lower == nil && upper == nil {
      throw .badQuery(word: word, reason: "'..' needs a number on at least one side (like \(example))")
    }
    if let lower, let upper, lower > upper { return .number(lower: upper, upper: lower) }
    return .number(lower: lower, upper: upper)
  }

  /// `90`, `4:30`, `1:02:03` in seconds; nil when it is none of these.
  private static func duration(_ text: Substring) -> Double? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var seconds = 0.0
    for (offset, part) in parts.enumerated() {
      guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part)
      else { return nil }
      if offset > 0 && value >= 60 { return nil }
      seconds = seconds * 60 + Double(value)
    }
    return seconds
  }

  // MARK: - Dates

  /// `2026`, `2026-11`, `2026-11-25`, `2026-11-25T22:45:20`, a relative `-1w` (d, w, m, y),
  /// or a range of these with `..`; local time. A range written back to front is turned.
  private static func dates(_ text: Substring, _ context: Context, _ word: String) throws(LibraryError) -> Match {
    guard !text.isEmpty else {
      throw .badQuery(word: word, reason: "added needs a date or a range (like 2026-11 or -1w..)")
    }
    guard let dots = text.firstRange(of: "..") else {
      let span = try date(text, context, word)
      return .date(from: span.start, until: span.end)
    }
    let low = text[..<dots.lowerBound]
    let high = text[dots.upperBound...]
    if low.isEmpty && high.isEmpty {
      throw .badQuery(word: word, reason: "'..' needs a date on at least one side (like 2026-11-01..)")
    }
    var start = low.isEmpty ? nil : try date(low, context, word)
    var end = high.isEmpty ? nil : try date(high, context, word)
    // Written back to front (as beets reads it): only when the first starts after the last ends.
    if let first = start, let last = end, first.start >= last.end { (start, end) = (last, first) }
    return .date(from: start?.start, until: end?.end)
  }

  /// The span of time a date names: its start and the start of the next unit it was written
  /// to (a month for `2026-11`); a relative date is an instant (its span one second).
  private static func date(
    _ text: Substring, _ context: Context, _ word: String
  ) throws(LibraryError) -> (start: Int64, end: Int64) {
    if let instant = relative(text, context.now) { return (instant, instant + 1) }
    let parts = text.split(maxSplits: 1, whereSeparator: { $0 == "T" || $0 == "t" || $0 == " " })
    let bad = LibraryError.badQuery(
      word: word, reason: "'\(text)' is not a date (like 2026, 2026-11, 2026-11-25, 2026-11-25T22:45 or -1w)")
    // `T` or a space alone splits into nothing.
    guard let first = parts.first, first.startIndex == text.startIndex else { throw bad }
    let day = first.split(separator: "-", omittingEmptySubsequences: false)
    let time = parts.count > 1 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : []
    guard (1...3).contains(day.count), time.count <= 3, parts.count == 1 || (day.count == 3 && !time.isEmpty) else {
      throw bad
    }
    var numbers: [Int] = []
    for (index, part) in (day + time).enumerated() {
      let width = index == 0 ? 4 : 2
      guard part.count == width, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part) else {
        throw bad
      }
      numbers.append(value)
    }
    let limits: [(name: String, range: ClosedRange<Int>)] = [
      ("year", 1...9999), ("month", 1...12), ("day", 1...31), ("hour", 0...23), ("minute", 0...59),
      ("second", 0...59),
    ]
    for (value, limit) in zip(numbers, limits) where !limit.range.contains(value) {
      throw .badQuery(word: word, reason: "there is no \(limit.name) \(value) in '\(text)'")
    }
    let fields = [1, 1, 1, 0, 0, 0].enumerated().map { index, first in index < numbers.count ? numbers[index] : first }
    guard let start = context.timeZone.span(of: fields, unit: numbers.count - 1) else {
      throw .badQuery(word: word, reason: "there is no day \(fields[2]) in '\(text)'")
    }
    return start
  }

  /// `-3w`, `+4d`, `1y` (no sign: the future) as seconds since 1970; nil for other text.
  /// A month is 30 days and a year 365, as in beets.
  private static func relative(_ text: Substring, _ now: Date) -> Int64? {
    var rest = text
    var sign = 1.0
    if let first = rest.first, first == "-" || first == "+" {
      sign = first == "-" ? -1 : 1
      rest = rest.dropFirst()
    }
    guard let unit = rest.last, let count = Int(rest.dropLast()), count <= 100_000, rest.count > 1,
      rest.dropLast().allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    let days: Double
    switch unit {
    case "d": days = 1
    case "w": days = 7
    case "m": days = 30
    case "y": days = 365
    default: return nil
    }
    return Int64((now.timeIntervalSince1970 + sign * Double(count) * days * 86_400).rounded(.down))
  }
}

/// How a query reads a calendar date (`added:2026-11-25`): in the machine's local time (the
/// `TZ` variable, else /etc/localtime), as Foundation's `Calendar.current` did, or in UTC.
/// The C library's calendar, not Foundation's: without Foundation's ICU data (issue 47) its
/// `TimeZone.current` is GMT.
public enum QueryTimeZone: Sendable {
  case local
  case utc

  /// The span of the civil time `fields` (year, month, day, hour, minute, second) to the next
  /// `unit` (0: a year … 5: a second), in seconds since 1970; nil when there is no such day
  /// (the 31st of a month of 30). As Foundation's Gregorian calendar: a skipped local time
  /// moves forward, a year, month or day later is the same local time then, an hour, minute
  /// or second later that many seconds.
  func span(of fields: [Int], unit: Int) -> (start: Int64, end: Int64)? {
    var time = tm()
    time.tm_year = Int32(fields[0] - 1900)
    time.tm_mon = Int32(fields[1] - 1)
    time.tm_mday = Int32(fields[2])
    time.tm_hour = Int32(fields[3])
    time.tm_min = Int32(fields[4])
    time.tm_sec = Int32(fields[5])
    time.tm_isdst = -1
    let start = instant(&time)
    guard time.tm_mday == Int32(fields[2]) else { return nil }
    switch unit {
    case 0...2:
      // `time` is the local time `start` is (a skipped one moved forward): a unit later from it.
      if unit == 0 { time.tm_year += 1 } else if unit == 1 { time.tm_mon += 1 } else { time.tm_mday += 1 }
      time.tm_isdst = -1
      return (start, instant(&time))
    default:
      return (start, start + [3600, 60, 1][unit - 3])
    }
  }

  private func instant(_ time: inout tm) -> Int64 {
    switch self {
    case .local: Self.localInstant(&time)
    case .utc: Int64(timegm(&time))
    }
  }

  /// `time` read as local time, as Foundation's calendar read it: an hour that happens twice
  /// (clocks going back) is its first occurrence; an hour that never happens (clocks going
  /// forward) is read with the offset before the change, which moves it forward. `mktime`
  /// with `tm_isdst = -1` guesses between the two readings of an hour that happens twice from
  /// what the process asked it last, so each reading is tried and checked here. `time` is
  /// left as the local time of the instant (normalized).
  private static func localInstant(_ time: inout tm) -> Int64 {
    // The fields as a calendar counts them first (the 32nd of October is the 1st of
    // November): timegm normalizes without a zone's changes in the way.
    // (A day the month does not have moves on too: the caller sees it is another day.)
    _ = timegm(&time)
    var readings: [(instant: Int64, fields: tm, exact: Bool)] = []
    for dst: Int32 in [0, 1] {
      var reading = time
      reading.tm_isdst = dst
      let instant = mktime(&reading)
      var back = tm()
      var seconds = instant
      guard localtime_r(&seconds, &back) != nil else { continue }
      let exact =
        back.tm_year == time.tm_year && back.tm_mon == time.tm_mon && back.tm_mday == time.tm_mday
        && back.tm_hour == time.tm_hour && back.tm_min == time.tm_min && back.tm_sec == time.tm_sec
      readings.append((Int64(instant), back, exact))
    }
    let exact = readings.filter(\.exact)
    let chosen =
      exact.isEmpty ? readings.max { $0.instant < $1.instant } : exact.min { $0.instant < $1.instant }
    guard let chosen else {
      time.tm_isdst = -1
      return Int64(mktime(&time))
    }
    time = chosen.fields
    return chosen.instant
  }
}
