import AlbumModel
import BlueLibrary
import BlueSystem

/// `scroll left|right [N]`, `scroll to ALBUM`, `scroll home|end`: move the viewport and
/// select the card it snaps to (the original `centerCurrentView`).
struct ScrollCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "scroll", group: .browse, synopsis: "left|right [N] | to ALBUM | home|end",
    summary: "move N cards (default 1), or to an album, and select it",
    details: """
      The viewport snaps so one card is centred; the centred card is the current album.
      'scroll to' words that are no title go to the first album whose sort field (the view's
      first sort key, else the title) starts with them, case and accents aside: 'scroll to R'
      finds Røyksopp, not Greatest Hits. In a view sorted by a number, by its digits:
      'scroll to "19"' in a view by year (quoted: a bare number is an index).
      """,
    examples: ["scroll right", "scroll left 2", "scroll to \"American Pie\"", "scroll end"],
    arguments: [.keyword(["left", "right", "to", "home", "end"]), .album])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    if position == 0 { return [configuration.arguments[0]] }
    // Only `scroll to` takes an album; `scroll left 2` takes a number.
    return position == 1 && previous.first?.text.lowercased() == "to" ? [.album] : []
  }

  enum Motion: Equatable {
    case by(Int)
    /// The album, and the words typed, which are also a query (`scroll to artist:R`).
    case to(AlbumReference, [Word])
    case home
    case end
  }

  let motion: Motion

  init(arguments: [Word]) throws(CommandError) {
    guard let direction = arguments.first else {
      throw .missing("a direction", usage: Self.configuration.usage)
    }
    let rest = Array(arguments.dropFirst())
    switch direction.text.lowercased() {
    case "left", "right":
      let steps = try Self.parseCount(rest) ?? 1
      motion = .by(direction.text.lowercased() == "left" ? -steps : steps)
    case "to":
      guard !rest.isEmpty else { throw .missing("ALBUM", usage: "scroll to ALBUM") }
      motion = .to(try AlbumReference(restOfLine: rest[...]), rest)
    case "home", "end":
      if let extra = rest.first { throw .unexpectedArgument(extra) }
      motion = direction.text.lowercased() == "home" ? .home : .end
    default:
      throw CommandError(
        "expected left, right, to, home or end, got \(TextSanitizer.quotedWord(direction.text))")
    }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let count = try library.count()
    guard count > 0 else { throw CommandError(library.extent(0)) }
    switch motion {
    // Cards are snapped, so moving N cards from the centred one lands on index + N, within
    // the ends.
    case .by(let cards):
      let current = library.selection ?? 0
      let target = cards > 0 ? current + min(cards, count) : current - min(-cards, count)
      return .select(min(max(target, 0), count - 1))
    case .to(let album, let words): return .select(try Self.index(of: album, words, in: library))
    case .home: return .select(0)
    case .end: return .select(count - 1)
    }
  }
}

extension ScrollCommand {
  /// `scroll to`'s album: an index, a title, a query (a word with a field, `artist:R`: its
  /// first match in the view's order), or words where to jump in the view's order: the first
  /// album whose sort field (the view's first sort key; the title in library order) starts
  /// with them, case and accents aside (`scroll to R` lands on `Røyksopp`, never on
  /// `Greatest Hits`). When no album's field starts with them, words longer than one letter
  /// are the first album they match (`scroll to sun`).
  static func index(of album: AlbumReference, _ words: [Word], in library: Library) throws -> Int {
    // A title first (`scroll to Mission: Impossible`), then the words as a query.
    guard try album.namesAMissingTitle(in: library) else { return try album.resolve(in: library) }
    let isQuery = words.contains { !$0.isQuoted && $0.text.contains(":") }
    if !isQuery {
      let prefix = words.map(\.text).joined(separator: " ")
      let field = library.view?.query.sort.first?.field ?? .title
      // A number sorts under its digits (`scroll to '19'` in a view by year); a flag's 1 or 0
      // is no place to go, and is left to the words' own meaning.
      if field.kind != .flag, let index = try library.firstIndex(of: field, sortingUnder: prefix) { return index }
      // Nothing sorts under them: the first album the words match, but never for one
      // letter, which every other title holds somewhere.
      guard prefix.count > 1, let index = try? firstMatch(words, in: library) else {
        throw CommandError(
          "no album's \(field.rawValue) starts with \(TextSanitizer.quotedWord(prefix))"
            + (library.view == nil ? "" : " in this view") + " (try 'list \(TextSanitizer.escaped(prefix))')")
      }
      return index
    }
    guard let index = try firstMatch(words, in: library) else {
      throw CommandError(
        "no album matches \(TextSanitizer.quotedWord(words.map(\.text).joined(separator: " ")))"
          + (library.view == nil ? "" : " in this view"))
    }
    return index
  }

  private static func firstMatch(_ words: [Word], in library: Library) throws -> Int? {
    guard let query = try TypedQuery(words: words).resolve(in: library),
      let first = try library.listing(query).first
    else { return nil }
    if let index = first.index { return index }
    return try library.albums(ids: [first.id]).first?.position
  }
}
