import BlueLibrary

/// `import FILE`: append albums from JSON (the `export` format) or CSV; all or nothing.
public struct ImportCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "import", group: .change, synopsis: "FILE",
    summary: "append albums from a JSON or CSV file (all or nothing)",
    details: """
      JSON: an array of objects with the keys title, artist, genre, year, coverUrl (the
      'export' format; year may be a number). CSV: a header row naming the same keys;
      other columns are skipped, with one line saying which. A file with any bad row
      changes nothing and the error names the line.
      """,
    examples: ["import albums.json", "import ~/music/albums.csv"], arguments: [.path])

  let path: String

  public init(arguments: [Word]) throws(CommandError) {
    guard let file = arguments.first else { throw .missing("FILE", usage: Self.configuration.usage) }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    path = expandingTilde(file.text)
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let (range, ignoredColumns) = try library.importAlbums(fromFile: path)
    let total = try library.count()
    var message = "imported \(albumCount(range.count)) (\(albumCount(total)) in all)"
    if !ignoredColumns.isEmpty {
      let names = ignoredColumns.prefix(5).map { TextSanitizer.quotedWord($0) }.joined(separator: ", ")
      let more = ignoredColumns.count > 5 ? ", …" : ""
      message =
        "ignored \(ignoredColumns.count == 1 ? "a column" : "\(ignoredColumns.count) columns") "
        + "bluelib does not read: \(names)\(more) (it reads \(LibraryArchive.keyList))\n" + message
    }
    return .changed(message, redraw: false)
  }
}

/// `export FILE`: write the whole library as JSON, atomically.
public struct ExportCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "export", group: .change, synopsis: "FILE",
    summary: "write the library as JSON or CSV (by the file's extension), atomically",
    details: """
      FILE ending in .csv gets CSV with the header row title,artist,genre,year,coverUrl;
      any other name gets JSON: an array of objects with the original app's keys; '-' writes
      the JSON to standard output. Only a regular file or a new path is written (through a
      symbolic link, the file it points to); a device, FIFO or directory is refused.
      """,
    examples: ["export albums.json", "export albums.csv", "export -"], arguments: [.path])

  let path: String

  public init(arguments: [Word]) throws(CommandError) {
    guard let file = arguments.first else { throw .missing("FILE", usage: Self.configuration.usage) }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    path = expandingTilde(file.text)
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let albums = try environment.library.allAlbums()
    // `export -`: the JSON on standard output, for pipes (`bluelib -c 'export -' | jq`).
    if path == "-" { return .text(String(decoding: LibraryArchive.encodeJSON(albums), as: UTF8.self)) }
    let csv = path.lowercased().hasSuffix(".csv")
    let bytes = csv ? LibraryArchive.encodeCSV(albums) : LibraryArchive.encodeJSON(albums)
    try LibraryArchive.writeAtomically(bytes, to: path)
    return .lines(["exported \(albumCount(albums.count)) to \(TextSanitizer.escaped(path))\(csv ? " as CSV" : "")"])
  }
}

/// `reset`: replace the library with the default catalogue.
public struct ResetCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "reset", group: .change,
    summary: "replace the library with the five default albums (undoable)")

  public init(arguments: [Word]) throws(CommandError) {
    try Self.expectNoArguments(arguments)
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    try environment.library.reset()
    return .changed("reset to the default catalogue (\(albumCount(DefaultCatalogue.albums.count)))")
  }
}

/// `~/x` → `$HOME/x`, as a shell would.
func expandingTilde(_ path: String) -> String {
  guard path == "~" || path.hasPrefix("~/"), let home = processEnvironment()["HOME"] else { return path }
  return home + path.dropFirst()
}
