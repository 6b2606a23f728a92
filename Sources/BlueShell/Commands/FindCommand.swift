import BlueLibrary
import BlueSystem
import FoundationEssentials

/// `find [QUERY]`: show only the matching albums, in the query's order; alone, the whole library.
struct FindCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "find", group: .browse, synopsis: "[QUERY]",
    summary: "show only the albums QUERY matches, in its order (alone: the whole library)",
    details: """
      Inside a view, indices are the view's (tap 2, delete 3, show 1; a number from a list
      of another view is refused: list again), scroll stays in it,
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
