import BlueLibrary

/// `add TITLE [artist=…] [year=…] [genre=…] [cover=URL]`: a new album after the current one.
public struct AddCommand: UndoableCommand {
  public static let configuration = CommandConfiguration(
    verb: "add", group: .change, synopsis: "TITLE [FIELD=VALUE…]",
    summary: "add an album after the current one and select it",
    details: "Fields: artist, genre, year (a whole number), cover (an http, https or file URL).",
    examples: ["add \"Blue Train\" artist=\"John Coltrane\" year=1957 genre=Jazz"],
    arguments: [.text, .assignments])

  let album: Album
  private var inserted: (index: Int, previousSelection: Int?)?

  public init(arguments: [Word]) throws(CommandError) {
    guard let title = arguments.first, try FieldAssignment.parse(title) == nil || title.isQuoted else {
      throw .missing("TITLE", usage: Self.configuration.usage)
    }
    var assignments: [FieldAssignment] = []
    for word in arguments.dropFirst() {
      guard let assignment = try FieldAssignment.parse(word) else {
        throw CommandError(
          "expected FIELD=VALUE, got \(TextSanitizer.quotedWord(word.text)) (quote a title that has spaces)")
      }
      assignments.append(assignment)
    }
    let base = try library { () throws(LibraryError) in try Album(title: "").setting(.title, to: title.text) }
    album = try FieldAssignment.apply(assignments, to: base)
  }

  public var undoDescription: String { "add " + quotedTitle(album) }

  public mutating func execute(in context: CommandContext) throws(CommandError) {
    let browser = try context.requireBrowser()
    let library = browser.library
    let previous = library.selection
    let index = inserted?.index ?? previous.map { $0 + 1 } ?? 0
    try BlueShell.library { () throws(LibraryError) in _ = try library.insert(album, at: index) }
    inserted = (index, previous)
    browser.libraryDidChange()
    let count = (try? library.count()) ?? 0
    context.report("added \(quotedTitle(album)) as \(index + 1) (\(albumCount(count)))")
    if !context.isReplaying { browser.render() }
  }

  public func undo(in context: CommandContext) throws(CommandError) {
    guard let inserted else { return }
    let browser = try context.requireBrowser()
    try BlueShell.library { () throws(LibraryError) in _ = try browser.library.delete(at: inserted.index) }
    if let previous = inserted.previousSelection { browser.library.select(previous) }
    browser.libraryDidChange()
  }
}
