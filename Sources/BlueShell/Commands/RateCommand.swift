import AlbumModel
import BlueLibrary

/// `rate [ALBUM…|all] N`: give albums N stars, 1 to 5 (0 clears the rating), as one step.
struct RateCommand: Command {
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
      music server (--mpd) it is kept on the server's songs too, where another bluelib reads it.
      """,
    examples: [
      "rate 4", "rate 3 5", "rate 1-3 7 4", "rate \"OK Computer\" 5", "rate 0", "find genre:jazz; rate all 3",
    ],
    arguments: [.album])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    AlbumChoice.completionKinds(at: position)
  }

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

/// `fav [ALBUM…|all]`: mark albums as favourites, as one step.
struct FavCommand: Command {
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

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    AlbumChoice.completionKinds(at: position)
  }

  let albums: AlbumChoice?

  init(arguments: [Word]) throws(CommandError) {
    albums = try AlbumChoice(oneTitleFrom: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    try Self.mark(albums, favourite: true, verb: "fav", in: environment.library)
  }

  /// Marks (or unmarks) the albums chosen and says what changed.
  static func mark(
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

extension AlbumChoice {
  /// The albums `words` name, as ``init(arguments:)`` reads them, except that several words
  /// none of which is a number, range, `all` or quoted are one title typed without quotes
  /// (`rate OK Computer 5`); nil when no word was typed (the current album).
  init?(oneTitleFrom words: [Word]) throws(CommandError) {
    guard !words.isEmpty else { return nil }
    if words.count > 1, words.allSatisfy({ !$0.isQuoted && !AlbumReferences.namesByNumber($0.text) }) {
      try self.init(arguments: [try AlbumReference(restOfLine: words[...]).word])
    } else {
      try self.init(arguments: words)
    }
  }

  /// The indices `choice` names (the current album's when nil), at most
  /// ``EditCommand/maximumAlbums`` of them.
  static func indices(_ choice: AlbumChoice?, in library: Library, verb: String) throws -> [Int] {
    let indices = try choice?.indices(in: library) ?? [Optional<AlbumReference>.none.resolve(in: library)]
    guard !indices.isEmpty else { throw CommandError("no albums to \(verb) (\(library.extent(0)))") }
    guard indices.count <= EditCommand.maximumAlbums else {
      throw CommandError(
        "\(verb) changes at most \(Library.grouped(EditCommand.maximumAlbums)) albums at once, not "
          + "\(Library.grouped(indices.count)) (narrow the view with 'find')")
    }
    return indices
  }
}
