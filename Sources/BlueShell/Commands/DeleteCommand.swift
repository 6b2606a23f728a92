import BlueLibrary

/// `delete [ALBUM…]` (`rm`): remove albums; `undo` brings them back at their places, selected.
public struct DeleteCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "delete", aliases: ["rm"], group: .change, synopsis: "[ALBUM…]",
    summary: "delete albums (the current one by default)",
    details: """
      ALBUM is an index, a range of indices (3-7) or a title; several albums go in one step.
      Undo puts them back where they were and selects them, as the original app's trash did.
      """,
    examples: ["delete", "delete 2", "delete 1 3 5", "delete 1-5", "rm \"American Pie\""], arguments: [.album])

  public static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    [.album]
  }

  let albums: AlbumReferences?

  public init(arguments: [Word]) throws(CommandError) {
    albums = arguments.isEmpty ? nil : try AlbumReferences(words: arguments)
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    guard let albums else {
      let removed = try library.delete(at: Optional<AlbumReference>.none.resolve(in: library))
      return .changed("deleted \(quotedTitle(removed)) (\(albumCount(try library.count())) left)")
    }
    let removed = try library.delete(at: albums.resolve(in: library))
    let left = albumCount(try library.count())
    guard removed.count > 1 else { return .changed("deleted \(quotedTitle(removed[0])) (\(left) left)") }
    let named = removed.prefix(3).map(quotedTitle).joined(separator: ", ") + (removed.count > 3 ? ", …" : "")
    return .changed("deleted \(albumCount(removed.count)): \(named) (\(left) left)")
  }
}
