import BlueLibrary

/// `fav [ALBUM…|all]`: mark albums as favourites, as one step.
struct FavCommand: FavouriteCommand {
  static let configuration = CommandConfiguration(
    verb: "fav", group: .change, synopsis: "[ALBUM…|all]",
    summary: "mark albums as favourites (♥)",
    details: """
      Marks the current album, or the albums named by index, range (2-4), title or 'all'
      (every album of the view), as one step that 'undo' takes back; 'unfav' takes the mark
      away. fav is a field of queries and a sort key (find fav:true year-), shows on the card
      (♥) and in 'show', stays through imports and moves, and 'write' puts it into the files
      (a LOVE RATING tag of L, as MusicBee writes it); 'import' reads it back. On a music
      server (--mpd) it is kept on the server's songs too, where another bluelib reads it.
      """,
    examples: ["fav", "fav 3", "fav 1-3 7", "fav \"OK Computer\"", "find artist:bowie; fav all"],
    arguments: [.album])

  static let favourite = true
  let albums: AlbumChoice?
}

/// `fav` and `unfav`: one verb that sets the favourite mark or takes it away.
protocol FavouriteCommand: AlbumChoosingCommand {
  /// True for `fav`, false for `unfav`.
  static var favourite: Bool { get }
  /// The albums typed; nil for the current album.
  var albums: AlbumChoice? { get }
  init(albums: AlbumChoice?)
}

extension FavouriteCommand {
  init(arguments: [Word]) throws(CommandError) {
    self.init(albums: try AlbumChoice(oneTitleFrom: arguments))
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    try Self.mark(albums, favourite: Self.favourite, verb: Self.configuration.verb, in: environment.library)
  }

  /// Marks (or unmarks) the albums chosen and says what changed.
  private static func mark(
    _ albums: AlbumChoice?, favourite: Bool, verb: String, in library: Library
  ) throws -> CommandOutcome {
    let indices = try AlbumChoice.indices(albums, in: library, verb: verb)
    let before = indices.count == 1 ? try library.album(at: indices[0]) : nil
    let changed = try library.setFavourite(at: indices, favourite)
    let state = favourite ? "a favourite" : "not a favourite"
    guard let first = changed.first else {
      let which = before.map(quotedTitle) ?? "all \(albumCount(indices.count))"
      return .lines(["\(which) \(indices.count == 1 ? "is" : "are") already \(state); nothing changed"])
    }
    let message =
      changed.count == 1
      ? (favourite ? "\(quotedTitle(first)) is a favourite ♥" : "\(quotedTitle(first)) is no longer a favourite")
      : (favourite ? "marked \(albumCount(changed.count)) as favourites ♥" : "unmarked \(albumCount(changed.count))")
        + " (\(namedTitles(changed, of: changed.count)))"
    return RateCommand.outcome(message, changed: changed, in: library)
  }
}
