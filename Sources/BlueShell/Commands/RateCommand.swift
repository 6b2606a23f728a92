import AlbumModel
import BlueLibrary
import BlueSystem

/// `rate [ALBUM…|all] N`: give albums N stars, 1 to 5 (0 clears the rating), as one step.
struct RateCommand: AlbumChoosingCommand {
  static let configuration = CommandConfiguration(
    verb: "rate", group: .change, synopsis: "[ALBUM…|all] N",
    summary: "give albums N stars, 1 to 5 (0 clears the rating)",
    details: """
      Rates the current album, or the albums named by index, range (2-4), title or 'all'
      (every album of the view, at most 10,000), as one step that 'undo' takes back. The
      rating is a field of queries and a sort key (find rating:4.., list rating-, list -f
      '$rating $title'), shows on the card and in 'show', stays when the album's folder is
      imported again or moves, and 'write' puts it into the files' tags, where other players
      read it (docs/music-folder.md: Ratings in the files); 'import' reads it back. On a
      music server (--mpd) it is kept on the server's songs too, where another bluelib reads it:
      the server's rating is the album's in every home (docs/music-server.md).
      """,
    examples: [
      "rate 4", "rate 3 5", "rate 1-3 7 4", "rate \"OK Computer\" 5", "rate 0", "find genre:jazz; rate all 3",
    ],
    arguments: [.album])

  /// The albums typed; nil for the current album.
  let albums: AlbumChoice?
  /// The stars, nil to clear the rating.
  let stars: Int?

  init(arguments: [Word]) throws(CommandError) {
    guard let last = arguments.last else { throw .missing("N", usage: Self.configuration.usage) }
    guard !last.isQuoted else {
      throw CommandError("a rating is 0 to 5 stars (0 clears it), got \(TextSanitizer.quotedWord(last.text))")
    }
    do throws(LibraryError) {
      stars = try Album.parseRating(last.text)
    } catch {
      throw CommandError(error.description)
    }
    albums = try AlbumChoice(oneTitleFrom: Array(arguments.dropLast()))
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let indices = try AlbumChoice.indices(albums, in: library, verb: "rate")
    let before = indices.count == 1 ? try library.album(at: indices[0]) : nil
    let changed = try library.rate(at: indices, stars: stars)
    let mark = stars.map(Album.starMark) ?? "no rating"
    guard let first = changed.first else {
      let which = before.map(quotedTitle) ?? "all \(albumCount(indices.count))"
      return .lines(["\(which) already \(indices.count == 1 ? "has" : "have") \(mark); nothing changed"])
    }
    let message =
      changed.count == 1
      ? (stars == nil ? "cleared the rating of \(quotedTitle(first))" : "rated \(quotedTitle(first)) \(mark)")
      : (stars == nil
        ? "cleared the rating of \(albumCount(changed.count)) (\(namedTitles(changed, of: changed.count)))"
        : "rated \(albumCount(changed.count)) \(mark) (\(namedTitles(changed, of: changed.count)))")
    return Self.outcome(message, changed: changed, in: library)
  }

  /// A change of one album other than the current one shows that album; else the viewport.
  static func outcome(_ message: String, changed: [Album], in library: Library) -> CommandOutcome {
    guard changed.count == 1, let album = changed.first, let current = library.selection,
      (try? library.album(at: current).id) != album.id
    else { return .changed(message) }
    return .changedAlbum(message, album)
  }
}
