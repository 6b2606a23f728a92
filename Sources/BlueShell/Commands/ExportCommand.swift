import AlbumArchive
import AlbumModel
import BlueLibrary
import BlueSystem

/// `export FILE [QUERY]`: write the whole library (or QUERY's matches) as JSON or CSV, atomically.
struct ExportCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "export", group: .change, synopsis: "FILE [QUERY|all]",
    summary: "write the library as JSON or CSV (by the file's extension), atomically",
    details: """
      FILE ending in .csv gets CSV with the header row title,artist,genre,year,coverUrl;
      .m3u or .m3u8 gets an extended M3U playlist of the tracks of the albums from music
      folders (#EXTINF:SECONDS,ARTIST - TITLE, then the file's path); any other name gets JSON: an array of objects with the original app's keys; '-' writes
      the JSON to standard output. Only a regular file or a new path is written (through a
      symbolic link, the file it points to); a device, FIFO or directory is refused.
      Without QUERY the library is written, or inside a view the view; 'export FILE all'
      writes the whole library even there. With QUERY only the albums it matches (within
      the view), in its order ('help find').
      """,
    examples: [
      "export albums.json", "export albums.csv", "export -", "export jazz.json genre:jazz year+",
      "export bowie.m3u artist:bowie",
    ],
    arguments: [.path, .query])

  /// The file as typed (`~/` is the environment's HOME).
  let file: String
  let query: TypedQuery
  /// `export FILE all`: the whole library, even inside a view.
  let wholeLibrary: Bool

  init(arguments: [Word]) throws(CommandError) {
    guard let file = arguments.first else { throw .missing("FILE", usage: Self.configuration.usage) }
    self.file = file.text
    let rest = Array(arguments.dropFirst())
    wholeLibrary = rest.count == 1 && !rest[0].isQuoted && rest[0].text.lowercased() == "all"
    query = TypedQuery(words: wholeLibrary ? [] : rest)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let path = environment.expandingTilde(file)
    // Inside a view, verbs act on the view: without QUERY (or `all`), its albums.
    let view = wholeLibrary ? nil : library.view
    let query = try self.query.resolve(in: library) ?? (view != nil ? AlbumQuery.all : nil)
    // `export -`: the JSON on standard output, for pipes (`bluelib -c 'export -' | jq`).
    if path == "-" {
      let albums = try query.map { try library.albums(ids: library.listing($0).map(\.id)) } ?? library.allAlbums()
      return .text(String(decoding: LibraryArchive.encodeJSON(albums, library: library), as: UTF8.self))
    }
    let lowercased = path.lowercased()
    let csv = lowercased.hasSuffix(".csv")
    let playlist = lowercased.hasSuffix(".m3u") || lowercased.hasSuffix(".m3u8")
    let exported: LibraryArchive.Exported = try LibraryArchive.export(
      library, to: path, csv: csv, playlist: playlist, query: query)
    let kind = csv ? " as CSV" : playlist ? " as an M3U playlist" : ""
    // A track whose path holds a line break cannot be written in M3U: said, not hidden.
    let leftOut =
      exported.tracksLeftOut == 0
      ? ""
      : " (\(Library.counted(exported.tracks, "track")); \(Library.counted(exported.tracksLeftOut, "track")) left"
        + " out: a line break in the path cannot be written in M3U)"
    let ofTheView =
      self.query.words.isEmpty ? view.map { " of the view \(TextSanitizer.quotedWord($0.query.text))" } ?? "" : ""
    return .lines([
      "exported \(albumCount(exported.albums))\(ofTheView) to \(TextSanitizer.escaped(path))\(kind)\(leftOut)"
        + (ofTheView.isEmpty ? "" : " ('export FILE all' writes the whole library)")
    ])
  }
}
