import BlueLibrary

/// `move ALBUM to POSITION`: reorder the scroller.
public struct MoveCommand: UndoableCommand {
  public static let configuration = CommandConfiguration(
    verb: "move", group: .change, synopsis: "ALBUM to POSITION",
    summary: "move an album to another place in the order",
    examples: ["move 5 to 1", "move \"American Pie\" to 2"],
    arguments: [.album, .keyword(["to"]), .text])

  let album: AlbumReference
  let target: Int
  private var moved: (from: Int, to: Int, title: String, previousSelection: Int?)?

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

  public var undoDescription: String { "move \"\(moved?.title ?? "")\"" }

  public mutating func execute(in context: CommandContext) throws(CommandError) {
    let browser = try context.requireBrowser()
    let library = browser.library
    let count = try BlueShell.library { () throws(LibraryError) in try library.count() }
    let from: Int
    if let moved { from = moved.from } else { from = try album.resolve(in: library) }
    guard target <= count else {
      throw CommandError("no position \(target) (\(LibraryError.size(count)))")
    }
    let title = try BlueShell.library { () throws(LibraryError) in try library.album(at: from).title }
    let previous = moved?.previousSelection ?? library.selection
    try BlueShell.library { () throws(LibraryError) in try library.move(from: from, to: target - 1) }
    moved = (from, target - 1, TextSanitizer.escaped(title), previous)
    browser.libraryDidChange()
    context.report("moved \"\(TextSanitizer.escaped(title))\" from \(from + 1) to \(target)")
    if !context.isReplaying { browser.render() }
  }

  public func undo(in context: CommandContext) throws(CommandError) {
    guard let moved else { return }
    let browser = try context.requireBrowser()
    try BlueShell.library { () throws(LibraryError) in
      try browser.library.move(from: moved.to, to: moved.from)
    }
    if let previous = moved.previousSelection { browser.library.select(previous) }
    browser.libraryDidChange()
  }
}
