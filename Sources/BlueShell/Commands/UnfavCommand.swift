import BlueLibrary

/// `unfav [ALBUM…|all]`: take the favourite mark away, as one step.
struct UnfavCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "unfav", group: .change, synopsis: "[ALBUM…|all]",
    summary: "take the favourite mark away from albums",
    details: """
      The current album, or the albums named by index, range (2-4), title or 'all' (every
      album of the view), are no longer favourites, as one step that 'undo' takes back.
      """,
    examples: ["unfav", "unfav 3", "find fav:true genre:xmas; unfav all"],
    arguments: [.album])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    AlbumChoice.completionKinds(at: position)
  }

  let albums: AlbumChoice?

  init(arguments: [Word]) throws(CommandError) {
    albums = try AlbumChoice(oneTitleFrom: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    try FavCommand.mark(albums, favourite: false, verb: "unfav", in: environment.library)
  }
}
