/// Maps verbs and aliases to command types; `help` and completion read the same list.
struct CommandRegistry {
  /// The command types in the order `help` lists them.
  let commands: [any Command.Type]
  private let byName: [String: Int]

  /// Creates a registry; a verb or alias claimed twice is a programming error.
  init(_ commands: [any Command.Type]) {
    self.commands = commands
    var byName: [String: Int] = [:]
    for (index, command) in commands.enumerated() {
      let configuration = command.configuration
      for name in [configuration.verb] + configuration.aliases {
        precondition(byName[name] == nil, "verb '\(name)' registered twice")
        byName[name] = index
      }
    }
    self.byName = byName
  }

  /// The command type for a verb or alias (case-insensitive).
  func command(named name: String) -> (any Command.Type)? {
    byName[name].map { commands[$0] } ?? byName[name.lowercased()].map { commands[$0] }
  }

  /// Every verb and alias.
  var names: [String] { byName.keys.sorted() }

  /// The closest verb to a mistyped one, if any is close enough to suggest.
  /// The verbs of other programs ``pointer(for:arguments:)`` answers.
  static let pointedVerbs = [
    "sort", "order", "orderby", "search", "filter", "query", "grep", "where", "select", "genres", "decades", "count",
    "summary", "statistics", "artists", "shuffle", "random", "clear", "clear-queue", "clearqueue", "loop", "gain",
    "normalize", "normalise", "albums", "ls-albums", "info", "details", "select-album", "goto", "go", "open",
    "rm-album", "remove",
  ]

  /// The command that does what a verb of another program means, with its words: the first
  /// words a newcomer types (`sort year` → `find year+`, `search bowie` → `find bowie`,
  /// `genres` → `stats`); nil for any other verb.
  static func pointer(for typed: String, arguments: [String]) -> String? {
    let rest = arguments.joined(separator: " ")
    switch typed.lowercased() {
    case "sort", "order", "orderby":
      guard let field = arguments.first else { return "find year+" }
      let descending = arguments.dropFirst().contains { ["desc", "descending", "reverse"].contains($0.lowercased()) }
      return "find \(field)\(descending ? "-" : "+")"
    case "search", "filter", "query", "grep", "where", "select":
      return rest.isEmpty ? "find QUERY" : "find \(rest)"
    case "genres", "decades", "count", "summary", "statistics": return "stats"
    case "artists": return "find artist+"
    case "shuffle", "random":
      // There is no shuffle mode: the queue's tracks are shuffled once, or an album is picked
      // at random (with a query's words, among those it matches).
      let mode = ["on", "off", "toggle", "true", "false", "1", "0", "yes", "no", "tracks"]
      if arguments.allSatisfy({ mode.contains($0.lowercased()) }) {
        return typed.lowercased() == "shuffle" ? "queue shuffle" : "play random"
      }
      return "play random \(rest)"
    case "clear", "clear-queue", "clearqueue": return "queue clear"
    case "loop": return "repeat on"
    case "gain", "normalize", "normalise": return "replaygain"
    case "albums", "ls-albums": return "list"
    case "info", "details": return rest.isEmpty ? "show" : "show \(rest)"
    case "select-album", "goto", "go", "open": return rest.isEmpty ? "tap ALBUM" : "tap \(rest)"
    case "rm-album", "remove": return rest.isEmpty ? "delete" : "delete \(rest)"
    default: return nil
    }
  }

  func suggestion(for typed: String) -> String? {
    let word = typed.lowercased()
    guard !word.isEmpty, word.count <= 32 else { return nil }
    let verbs = commands.map { $0.configuration.verb }
    let prefixed = verbs.filter { $0.hasPrefix(word) }
    if prefixed.count == 1 { return prefixed[0] }
    // A single character is one edit from every other one: only a prefix can help there.
    guard word.count > 1 else { return nil }
    var best: (name: String, distance: Int)?
    for name in byName.keys.sorted() where name.count > 1 {
      let distance = Self.editDistance(word, name)
      if distance < (best?.distance ?? Int.max) { best = (name, distance) }
    }
    guard let best, best.distance <= max(1, min(2, word.count / 3)) else { return nil }
    // Suggest the verb, not an alias, so the user learns the main name.
    return command(named: best.name)?.configuration.verb
  }

  /// Levenshtein distance over characters, with adjacent transpositions counted as one.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
