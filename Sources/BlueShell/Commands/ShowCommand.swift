import BlueLibrary

/// `show [ALBUM]`: the album's details as `Field: value` rows.
public struct ShowCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "show", group: .browse, synopsis: "[ALBUM]",
    summary: "the album's details (the current one by default)",
    details: "ALBUM is an index as 'list' shows it, or a title (quote it when it has spaces).",
    examples: ["show", "show 2", "show \"American Pie\""], arguments: [.album])

  let album: AlbumReference?

  public init(arguments: [Word]) throws(CommandError) {
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    album = arguments.first.map(AlbumReference.init)
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    return .details(try library.album(at: album.resolve(in: library)))
  }
}
