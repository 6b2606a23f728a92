import BlueLibrary

/// `move ALBUM to POSITION`: reorder the scroller.
public struct MoveCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "move", group: .change, synopsis: "ALBUM to POSITION",
    summary: "move an album to another place in the order",
    examples: ["move 5 to 1", "move \"American Pie\" to 2"],
    arguments: [.album, .keyword(["to"]), .text])

  let album: AlbumReference
  let target: Int

  public init(arguments: [Word]) throws(CommandError) {
    guard arguments.count == 3, arguments[1].text.lowercased() == "to" else {
      if arguments.count > 3 { throw .unexpectedArgument(arguments[3]) }
      throw .missing("ALBUM to POSITION", usage: Self.configuration.usage)
    }
    guard let position = Int(arguments[2].text), position >= 1 else {
      throw CommandError(
        "POSITION must be a whole number from 1, got \(TextSanitizer.quotedWord(arguments[2].text))")
    }
    album = AlbumReference(word: arguments[0])
    target = position
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let count = try library.count()
    let from = try album.resolve(in: library)
    guard target <= count else {
      throw CommandError("no position \(target) (\(LibraryError.size(count)))")
    }
    let moved = try library.move(from: from, to: target - 1)
    return .changed("moved \(quotedTitle(moved)) from \(from + 1) to \(target)")
  }
}
