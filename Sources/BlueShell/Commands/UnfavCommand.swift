import BlueLibrary

/// `unfav [ALBUM…|all]`: take the favourite mark away, as one step.
struct UnfavCommand: FavouriteCommand {
  static let configuration = CommandConfiguration(
    verb: "unfav", group: .change, synopsis: "[ALBUM…|all]",
    summary: "take the favourite mark away from albums",
    details: """
      The current album, or the albums named by index, range (2-4), title or 'all' (every
      album of the view), are no longer favourites, as one step that 'undo' takes back.
      """,
    examples: ["unfav", "unfav 3", "find fav:true genre:xmas; unfav all"],
    arguments: [.album])

  static let favourite = false
  let albums: AlbumChoice?
}
