import BlueLibrary

/// `edit [ALBUM] FIELD=VALUE…`: change fields of an album.
public struct EditCommand: UndoableCommand {
  public static let configuration = CommandConfiguration(
    verb: "edit", group: .change, synopsis: "[ALBUM] FIELD=VALUE…",
    summary: "change fields of an album (the current one by default)",
    details: "Fields: title, artist, genre, year, cover. An empty value clears year or cover.",
    examples: ["edit year=1993", "edit 2 artist=\"No Doubt\" genre=Rock"],
    arguments: [.album, .assignments])

  public static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    // The album is optional: the first word may already be a FIELD=VALUE.
    position == 0 ? [.album, .assignments] : [.assignments]
  }

  let album: AlbumReference?
  let assignments: [FieldAssignment]
  private var change: (index: Int, before: Album, after: Album, previousSelection: Int?)?

  public init(arguments: [Word]) throws(CommandError) {
    var words = arguments[...]
    var firstIsAlbum = false
    if let first = words.first {
      firstIsAlbum = try first.isQuoted ? true : FieldAssignment.parse(first) == nil
    }
    if let first = words.first, firstIsAlbum {
      album = AlbumReference(word: first)
      words = words.dropFirst()
    } else {
      album = nil
    }
    var assignments: [FieldAssignment] = []
    for word in words {
      guard let assignment = try FieldAssignment.parse(word) else {
        throw CommandError("expected FIELD=VALUE, got \(TextSanitizer.quotedWord(word.text))")
      }
      assignments.append(assignment)
    }
    guard !assignments.isEmpty else { throw .missing("FIELD=VALUE", usage: Self.configuration.usage) }
    self.assignments = assignments
  }

  public var undoDescription: String { "edit " + (change.map { quotedTitle($0.after) } ?? "") }

  public mutating func execute(in context: CommandContext) throws(CommandError) {
    let browser = try context.requireBrowser()
    let library = browser.library
    let index: Int
    let before: Album
    if let change {
      index = change.index
      before = change.before
    } else {
      index = try resolve(album, in: library)
      before = try BlueShell.library { () throws(LibraryError) in try library.album(at: index) }
    }
    let after = try FieldAssignment.apply(assignments, to: before)
    let previous = change?.previousSelection ?? library.selection
    // Editing is not a selection move: the current album stays current.
    try BlueShell.library { () throws(LibraryError) in _ = try library.update(after) }
    change = (index, before, after, previous)
    browser.libraryDidChange()
    let fields = assignments.map(\.field.rawValue).joined(separator: ", ")
    context.report("edited \(quotedTitle(after)): \(fields)")
    if !context.isReplaying { browser.render() }
  }

  public func undo(in context: CommandContext) throws(CommandError) {
    guard let change else { return }
    let browser = try context.requireBrowser()
    try BlueShell.library { () throws(LibraryError) in
      _ = try browser.library.update(change.before, selecting: change.previousSelection)
    }
    browser.libraryDidChange()
  }
}
