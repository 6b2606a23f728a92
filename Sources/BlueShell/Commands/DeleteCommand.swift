import BlueLibrary

/// `delete [ALBUM]` (`rm`): remove an album; `undo` brings it back at its place, selected.
public struct DeleteCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "delete", aliases: ["rm"], group: .change, synopsis: "[ALBUM]",
    summary: "delete an album (the current one by default)",
    details: "Undo puts it back where it was and selects it, as the original app's trash did.",
    examples: ["delete", "delete 2", "rm \"American Pie\""], arguments: [.album])

  let album: AlbumReference?

  public init(arguments: [Word]) throws(CommandError) {
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    album = arguments.first.map(AlbumReference.init)
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let removed = try library.delete(at: album.resolve(in: library))
    return .changed("deleted \(quotedTitle(removed)) (\(albumCount(try library.count())) left)")
  }
}
