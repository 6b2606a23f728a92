import BlueLibrary

/// `delete [ALBUM…]` (`rm`): remove albums; `undo` brings them back at their places, selected.
struct DeleteCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "delete", aliases: ["rm"], group: .change, synopsis: "[ALBUM…]",
    summary: "delete albums (the current one by default)",
    details: """
      ALBUM is an index, a range of indices (3-7) or a title; several albums go in one step.
      Undo puts them back where they were and selects them, as the original app's trash did.
      'delete all' deletes every album of the view (or of the library) in one step; at a
      terminal it says how many and asks first.
      """,
    examples: [
      "delete", "delete 2", "delete 1 3 5", "delete 1-5", "rm \"American Pie\"", "find genre:xmas; delete all",
    ],
    arguments: [.album])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    [.album]
  }

  let albums: AlbumReferences?
  let all: Bool

  init(arguments: [Word]) throws(CommandError) {
    all = arguments.count == 1 && !arguments[0].isQuoted && arguments[0].text.lowercased() == "all"
    albums = arguments.isEmpty || all ? nil : try AlbumReferences(words: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    if all {
      let count = try library.count()
      guard count > 0 else { throw CommandError(library.extent(0)) }
      let what = library.view == nil ? "every album of the library" : "every album of the view"
      if environment.isInteractive, let confirm = environment.confirm,
        !confirm("delete \(what) (\(albumCount(count)))? 'undo' brings them back")
      {
        return .lines(["nothing deleted"])
      }
      let removed = try library.deleteAll()
      return .changed(
        "deleted \(albumCount(removed)) (\(albumCount(try library.libraryCount())) left in the library; 'undo' brings them back)"
      )
    }
    guard let albums else {
      let removed = try library.delete(at: Optional<AlbumReference>.none.resolve(in: library))
      return .changed(
        "deleted \(quotedTitle(removed)) (\(albumCount(try library.count())) left\(Self.inView(library)))")
    }
    let removed = try library.delete(at: albums.resolve(in: library))
    let left = albumCount(try library.count())
    let place = Self.inView(library)
    guard removed.count > 1 else { return .changed("deleted \(quotedTitle(removed.first[0])) (\(left) left\(place))") }
    return .changed(
      "deleted \(albumCount(removed.count)): \(namedTitles(removed.first, of: removed.count)) (\(left) left\(place))")
  }

  /// ` in the view` when one is shown: the count after a delete is the view's.
  private static func inView(_ library: Library) -> String {
    library.view == nil ? "" : " in the view"
  }
}
