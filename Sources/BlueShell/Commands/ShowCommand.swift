import BlueLibrary

/// `show [ALBUM]`: the album's details as `Field: value` rows.
struct ShowCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "show", group: .browse, synopsis: "[ALBUM…]",
    summary: "the album's details (the current one by default)",
    details: """
      ALBUM is an index as 'list' shows it, a range of indices (2-4) or a title (quote it when
      it has spaces); several albums are shown one after the other. An album from a music
      folder lists its tracks after its fields, in disc and track order.
      """,
    examples: ["show", "show 2", "show \"American Pie\"", "show 1-3"], arguments: [.album])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    [.album]
  }

  let albums: AlbumReferences?

  init(arguments: [Word]) throws(CommandError) {
    albums = arguments.isEmpty ? nil : try AlbumReferences(words: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    guard let albums else { return .details(try library.album(at: Optional<AlbumReference>.none.resolve(in: library))) }
    let indices = try albums.resolve(in: library)
    if indices.count == 1 { return .details(try library.album(at: indices[0])) }
    return .severalDetails(indices)
  }
}
