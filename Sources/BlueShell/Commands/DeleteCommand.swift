import BlueLibrary

/// `delete [ALBUM]` (`rm`): remove an album; `undo` brings it back at its place, selected.
public struct DeleteCommand: UndoableCommand {
  public static let configuration = CommandConfiguration(
    verb: "delete", aliases: ["rm"], group: .change, synopsis: "[ALBUM]",
    summary: "delete an album (the current one by default)",
    details: "Undo puts it back where it was and selects it, as the original app's trash did.",
    examples: ["delete", "delete 2", "rm \"American Pie\""], arguments: [.album])

  let album: AlbumReference?
  private var deleted: (album: Album, index: Int)?

  public init(arguments: [Word]) throws(CommandError) {
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    album = arguments.first.map(AlbumReference.init)
  }

  public var undoDescription: String { "delete " + (deleted.map { quotedTitle($0.album) } ?? "") }

  public mutating func execute(in context: CommandContext) throws(CommandError) {
    let browser = try context.requireBrowser()
    let library = browser.library
    let index: Int
    if let deleted { index = deleted.index } else { index = try resolve(album, in: library) }
    let removed = try BlueShell.library { () throws(LibraryError) in try library.delete(at: index) }
    deleted = (removed, index)
    browser.libraryDidChange()
    let left = (try? library.count()) ?? 0
    context.report("deleted \(quotedTitle(removed)) (\(albumCount(left)) left)")
    if !context.isReplaying { browser.render() }
  }

  public func undo(in context: CommandContext) throws(CommandError) {
    guard let deleted else { return }
    let browser = try context.requireBrowser()
    try BlueShell.library { () throws(LibraryError) in
      _ = try browser.library.insert(deleted.album, at: deleted.index)
    }
    browser.libraryDidChange()
  }
}
