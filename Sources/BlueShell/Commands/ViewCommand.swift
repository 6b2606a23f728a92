import AlbumModel
import BlueLibrary
import BlueSystem
import FoundationEssentials

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
      var lines = views.map { view in
        let padding = String(repeating: " ", count: width - view.name.count)
        let text: String
        switch view.state {
        case .usable(let query): text = query.text
        case .needsICU(let words, _): text = words
        case .invalid: text = "(no longer a valid query)"
        }
        return "@\(view.name)\(padding)  \(TextSanitizer.escaped(text))"
      }
      // Kept, and said once, in one line: why they cannot be used on this machine now.
      let waiting = views.compactMap { view -> (name: String, why: String)? in
        guard case .needsICU(_, let why) = view.state else { return nil }
        return ("@" + view.name, why)
      }
      if let why = waiting.first?.why {
        let names = waiting.map(\.name)
        let shown =
          names.count == 1
          ? names[0]
          : names.prefix(min(names.count - 1, 10)).joined(separator: ", ")
            + (names.count > 11 ? " and \(names.count - 10) more" : " and \(names[names.count - 1])")
        lines.append(TextSanitizer.escaped("\(shown) cannot be used now: \(LibraryError.patternsNeedICU(why))"))
      }
      return .lines(lines)
    case .delete(let name):
      try library.deleteView(name)
      return .lines(["deleted view @\(name)"])
    }
  }
}
