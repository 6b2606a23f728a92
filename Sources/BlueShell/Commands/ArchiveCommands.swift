import BlueLibrary

/// `import FILE`: append albums from JSON (the `export` format) or CSV; all or nothing.
public struct ImportCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "import", group: .change, synopsis: "FILE",
    summary: "append albums from a JSON or CSV file (all or nothing)",
    details: """
      JSON: an array of objects with the keys title, artist, genre, year, coverUrl (the
      'export' format; year may be a number). CSV: a header row naming the same keys.
      A file with any bad row changes nothing and the error names the line.
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
    let range = try library.importAlbums(LibraryArchive.decode(fileAtPath: path))
    let total = try library.count()
    return .changed("imported \(albumCount(range.count)) (\(albumCount(total)) in all)", redraw: false)
  }
}

/// `export FILE`: write the whole library as JSON, atomically.
public struct ExportCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "export", group: .change, synopsis: "FILE",
    summary: "write the library as JSON (the original app's keys), atomically",
    examples: ["export albums.json"], arguments: [.path])

  let path: String

  public init(arguments: [Word]) throws(CommandError) {
    guard let file = arguments.first else { throw .missing("FILE", usage: Self.configuration.usage) }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    path = expandingTilde(file.text)
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let albums = try environment.library.allAlbums()
    try LibraryArchive.writeAtomically(LibraryArchive.encodeJSON(albums), to: path)
    return .lines(["exported \(albumCount(albums.count)) to \(TextSanitizer.escaped(path))"])
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
