import BlueLibrary
import BlueSystem

/// `move ALBUM… to POSITION`: reorder the scroller.
struct MoveCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "move", group: .change, synopsis: "ALBUM… to POSITION",
    summary: "move albums to another place in the order",
    details: """
      ALBUM is an index, a range of indices (3-7) or a title; several albums move as one
      block, in their order, the first to POSITION, as one undoable step.
      """,
    examples: ["move 5 to 1", "move \"American Pie\" to 2", "move 3-5 to 1"],
    arguments: [.album, .keyword(["to"]), .text])

  let albums: AlbumReferences
  let target: Int

  init(arguments: [Word]) throws(CommandError) {
    guard let to = arguments.lastIndex(where: { !$0.isQuoted && $0.text.lowercased() == "to" }), to > 0,
      to == arguments.count - 2
    else {
      if let to = arguments.lastIndex(where: { $0.text.lowercased() == "to" }), to + 2 < arguments.count {
        throw .unexpectedArgument(arguments[to + 2])
      }
      throw .missing("ALBUM to POSITION", usage: Self.configuration.usage)
    }
    let position = arguments[to + 1]
    guard let number = Int(position.text), number >= 1 else {
      throw CommandError("POSITION must be a whole number from 1, got \(TextSanitizer.quotedWord(position.text))")
    }
    albums = try AlbumReferences(words: Array(arguments[..<to]))
    target = number
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let count = try library.count()
    let from = try albums.resolve(in: library)
    guard target <= count else {
      throw CommandError("no position \(target) (\(library.extent(count)))")
    }
    guard from.count > 1 else {
      let moved = try library.move(from: from[0], to: target - 1)
      return .changed("moved \(quotedTitle(moved)) from \(from[0] + 1) to \(target)")
    }
    guard target + from.count - 1 <= count else {
      throw CommandError(
        "\(albumCount(from.count)) do not fit from position \(target) (\(library.extent(count)))")
    }
    let moved = try library.move(from: from, to: target - 1)
    let named = namedTitles(moved, of: moved.count)
    return .changed("moved \(albumCount(moved.count)) to \(target)–\(target + moved.count - 1): \(named)")
  }
}
