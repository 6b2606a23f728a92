import BlueLibrary

/// `tap ALBUM`: select the album and centre it (the delegate's "clicked view at index").
struct TapCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "tap", group: .browse, synopsis: "ALBUM",
    summary: "select an album and centre it",
    examples: ["tap 3", "tap \"American Pie\""], arguments: [.album])

  let album: AlbumReference

  init(arguments: [Word]) throws(CommandError) {
    guard !arguments.isEmpty else { throw .missing("ALBUM", usage: Self.configuration.usage) }
    album = try AlbumReference(restOfLine: arguments[...])
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    .select(try album.resolve(in: environment.library))
  }
}
