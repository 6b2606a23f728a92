import BlueLibrary
import Foundation

/// The query syntax, for `help find`, `help list` and the README.
let querySyntaxHelp = """
  QUERY is beets' query language, for albums:
    sun bowie            words in title, artist or genre (case, accents ignored)
    bowie, madonna pop   a word ending in a comma ends a group; groups are ORed
    artist:bowie         in one field (names ignore case): title, artist,
                         albumartist, genre, year, tracks, length, folder,
                         cover, added; from a music folder's files: discs,
                         mb_albumid, mb_releasegroupid, format
    missing:true         albums none of whose files the last import found
    art:none             art none (no cover), local (in the files or folder),
                         downloaded (in the cache) or url (not fetched yet)
    played:5..           played five times or more; ^last_played:-1y.. not for a year
    track:wall           a track whose title or artist matches (format:flac:
                         a track in FLAC)
    artist:=Sting        the whole field (case counts); =~Sting ignores case
    =Sting               the whole title, artist or genre
    title::^The          a regular expression (case counts); :regex: any field
    year:1990..1999      ranges: year:..1979 tracks:10.. length:..40:00
    added:2026-11        dates: 2026-11-01..2026-11-20, -1w.. (d, w, m, y)
    ^genre:pop -pop      ^ or - before a term negates it
    year- artist+        sort keys, in order; ties keep the library's order
    @NAME                the query saved as NAME ('view save NAME QUERY')
  """

/// A query as typed, resolved when the command runs: an `@NAME` word stands for the saved
/// view, ANDed with the rest as a whole (its OR groups stay its own).
struct TypedQuery {
  let words: [Word]

  /// Nil when no words were typed.
  func resolve(in library: Library) throws -> AlbumQuery? {
    guard !words.isEmpty else { return nil }
    return try library.query(words.map(\.text))
  }
}

/// `find [QUERY]`: show only the matching albums, in the query's order; alone, the whole library.
struct FindCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "find", group: .browse, synopsis: "[QUERY]",
    summary: "show only the albums QUERY matches, in its order (alone: the whole library)",
    details: """
      Inside a view, indices are the view's (tap 2, delete 3, show 1), scroll stays in it,
      list lists it, export writes it and 'all' means its albums. The view follows changes
      (an album edited out of it leaves, a new match joins) and is restored at the next
      start. A query that matches nothing leaves the view as it was, and the rest of the line
      does not run.

      """ + "\n" + querySyntaxHelp,
    examples: [
      "find year:1990..1999", "find artist:bowie year-", "find genre:jazz, genre:blues", "find @nineties", "find",
    ],
    arguments: [.query])

  /// The rest of the line meant the view this `find` was to make.
  static let failureEndsLine = true

  let query: TypedQuery

  init(arguments: [Word]) throws(CommandError) {
    query = TypedQuery(words: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let query = try self.query.resolve(in: library)
    // A query that matches nothing leaves the view as it was, and says what might match.
    if let query, !query.isEverything, try library.albumIDs(matching: query).isEmpty {
      let hint = QueryHints.hint(for: query.words).map { " (\($0))" } ?? " ('find' alone shows the whole library)"
      throw CommandError(
        "no album matches \(TextSanitizer.quotedWord(query.text)); the view stays as it was" + hint)
    }
    let count = try library.show(query)
    let total = try library.libraryCount()
    guard let view = library.view else {
      return .changed("showing the whole library (\(albumCount(total)))")
    }
    return .changed(
      "\(Library.grouped(count)) of \(albumCount(total)) match \(TextSanitizer.quotedWord(view.query.text))")
  }
}

/// `view`: draw the viewport again; `view save NAME [QUERY]`, `view list`, `view delete NAME`.
struct ViewCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "view", group: .browse, synopsis: "[save NAME [QUERY] | list | delete NAME]",
    summary: "draw the scroller again; save, list and delete named views",
    details: """
      'view save NAME' saves the current view's query (or QUERY) under NAME, in the library
      file; 'find @NAME' shows it again. Saving over a name replaces its query.
      """,
    examples: ["view", "view save nineties year:1990..1999", "find @nineties", "view list", "view delete nineties"],
    arguments: [.keyword(["save", "list", "delete"]), .viewName])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    switch position {
    case 0: [configuration.arguments[0]]
    case 1 where previous.first?.text.lowercased() == "delete": [.viewName]
    case 2... where previous.first?.text.lowercased() == "save": [.query]
    default: []
    }
  }

  enum Action: Equatable {
    case draw
    case save(name: String, query: [Word])
    case list
    case delete(name: String)
  }

  let action: Action

  init(arguments: [Word]) throws(CommandError) {
    guard let first = arguments.first else {
      action = .draw
      return
    }
    switch first.text.lowercased() {
    case "save":
      guard arguments.count > 1 else { throw .missing("NAME", usage: "view save NAME [QUERY]") }
      action = .save(name: try Self.name(arguments[1]), query: Array(arguments.dropFirst(2)))
    case "list", "ls":
      if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
      action = .list
    case "delete", "rm":
      guard arguments.count > 1 else { throw .missing("NAME", usage: "view delete NAME") }
      if arguments.count > 2 { throw .unexpectedArgument(arguments[2]) }
      action = .delete(name: try Self.name(arguments[1]))
    default:
      throw CommandError("expected save, list or delete, got \(TextSanitizer.quotedWord(first.text))")
    }
  }

  /// A view's name as `view save` and `view delete` take it (an `@` in front is dropped).
  private static func name(_ word: Word) throws(CommandError) -> String {
    let name = word.text.hasPrefix("@") ? String(word.text.dropFirst()) : word.text
    guard AlbumQuery.isViewName(name) else {
      throw CommandError(
        "a view's name is letters, digits, '-', '_' and '.' (at most 64 bytes), not \(TextSanitizer.quotedWord(word.text))"
      )
    }
    return name
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    switch action {
    case .draw:
      return .redraw
    case .save(let name, let words):
      guard let query = try TypedQuery(words: words).resolve(in: library) ?? library.view?.query else {
        throw CommandError("no view to save: give a QUERY, or 'find QUERY' first")
      }
      let replaced = try library.saveView(name, query: query)
      return .lines([
        "\(replaced ? "replaced" : "saved") view @\(name): \(TextSanitizer.escaped(query.text)) ('find @\(name)' shows it)"
      ])
    case .list:
      let views = try library.savedViews()
      if views.isEmpty { return .lines(["no views saved ('view save NAME QUERY' saves one)"]) }
      let width = views.map { $0.name.count }.max() ?? 0
      return .lines(
        views.map { view in
          let padding = String(repeating: " ", count: width - view.name.count)
          return "@\(view.name)\(padding)  \(TextSanitizer.escaped(view.query?.text ?? "(no longer a valid query)"))"
        })
    case .delete(let name):
      try library.deleteView(name)
      return .lines(["deleted view @\(name)"])
    }
  }
}

/// `stats [QUERY]`: albums, tracks, length and artists, then albums per genre and decade.
struct StatsCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "stats", group: .browse, synopsis: "[QUERY]",
    summary: "counts for the view or QUERY: albums, tracks, length, genres, decades",
    details: "Bars are sized to the window. " + "QUERY is as for 'find' ('help find').",
    examples: ["stats", "stats genre:jazz", "stats added:-1m.."], arguments: [.query])

  let query: TypedQuery

  init(arguments: [Word]) throws(CommandError) {
    query = TypedQuery(words: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let stats = try library.statistics(try query.resolve(in: library))
    var lines = [
      "Albums:  \(Library.grouped(stats.albums))",
      "Tracks:  " + (stats.albumsWithTracks == 0 ? "unknown" : Library.grouped(stats.tracks))
        + (stats.albumsWithTracks > 0 && stats.albumsWithTracks < stats.albums
          ? " (on the \(Library.grouped(stats.albumsWithTracks)) albums that count them)" : ""),
      "Length:  " + (stats.albumsWithTracks == 0 ? "unknown" : Self.length(stats.length)),
      "Artists: \(Library.grouped(stats.artists))",
    ]
    guard stats.albums > 0 else { return .lines(lines) }
    let width = environment.window.columns
    lines.append("")
    lines.append("Genres")
    lines += Self.bars(
      stats.genres.map { ($0.name.isEmpty ? "(none)" : TextSanitizer.escaped($0.name), $0.count) }
        + (stats.albumsOfOtherGenres > 0 ? [("(others)", stats.albumsOfOtherGenres)] : []),
      width: width)
    lines.append("")
    lines.append("Decades")
    lines += Self.bars(stats.decades.map { ($0.decade.map { "\($0)s" } ?? "(no year)", $0.count) }, width: width)
    return .lines(lines)
  }

  /// A library's length: `show`'s `M:SS` or `H:MM:SS`, with days in front (`1 d 2:03:04`).
  static func length(_ seconds: Double) -> String {
    let days = Int(seconds.rounded()) / 86_400
    return days > 0 ? "\(days) d " + Album.length(seconds - Double(days * 86_400)) : Album.length(seconds)
  }

  /// `Pop     ████████ 12`: labels padded, bars scaled so the largest fills the window.
  static func bars(_ rows: [(label: String, count: Int)], width: Int) -> [String] {
    let labelWidth = min(24, rows.map { DisplayWidth.width($0.label) }.max() ?? 0)
    let countWidth = rows.map { Library.grouped($0.count).count }.max() ?? 1
    let most = max(1, rows.map(\.count).max() ?? 1)
    let room = max(4, width - labelWidth - countWidth - 4)
    return rows.map { row in
      let label = DisplayWidth.fit(row.label, width: labelWidth)
      let padding = ""
      let length = max(row.count > 0 ? 1 : 0, Int((Double(row.count) / Double(most) * Double(room)).rounded()))
      let count = Library.grouped(row.count)
      return "  \(label)\(padding) \(String(repeating: "█", count: length))"
        + "\(String(repeating: " ", count: room - length)) \(String(repeating: " ", count: countWidth - count.count))\(count)"
    }
  }
}
