import BlueLibrary

/// `import FILE`: append albums from JSON (the `export` format) or CSV; all or nothing.
public struct ImportCommand: UndoableCommand {
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
  private var imported: (count: Int, albums: [Album], selection: Int?)?

  public init(arguments: [Word]) throws(CommandError) {
    guard let file = arguments.first else { throw .missing("FILE", usage: Self.configuration.usage) }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    path = expandingTilde(file.text)
  }

  public var undoDescription: String { "import of \(albumCount(imported?.count ?? 0))" }

  public mutating func execute(in context: CommandContext) throws(CommandError) {
    let library = try context.requireLibrary()
    let albums: [Album]
    if let imported {
      albums = imported.albums
    } else {
      albums = try BlueShell.library { () throws(LibraryError) in
        try LibraryArchive.decode(fileAtPath: path)
      }
    }
    let selection = imported?.selection ?? library.selection
    let range = try BlueShell.library { () throws(LibraryError) in try library.append(albums) }
    imported = (range.count, albums, selection)
    try context.requireBrowser().libraryDidChange()
    let total = (try? library.count()) ?? 0
    context.report("imported \(albumCount(range.count)) (\(albumCount(total)) in all)")
  }

  public func undo(in context: CommandContext) throws(CommandError) {
    guard let imported else { return }
    let library = try context.requireLibrary()
    try BlueShell.library { () throws(LibraryError) in
      try library.removeLast(imported.count, selecting: imported.selection)
    }
    try context.requireBrowser().libraryDidChange()
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

  public func execute(in context: CommandContext) throws(CommandError) {
    let library = try context.requireLibrary()
    let albums = try BlueShell.library { () throws(LibraryError) in try library.store.all() }
    try BlueShell.library { () throws(LibraryError) in
      try LibraryArchive.writeAtomically(LibraryArchive.encodeJSON(albums), to: path)
    }
    context.output.line("exported \(albumCount(albums.count)) to \(TextSanitizer.escaped(path))")
  }
}

/// `reset`: replace the library with the default catalogue.
public struct ResetCommand: UndoableCommand {
  public static let configuration = CommandConfiguration(
    verb: "reset", group: .change,
    summary: "replace the library with the five default albums (undoable)")

  private var replaced: (albums: [Album], selection: Int?)?

  public init(arguments: [Word]) throws(CommandError) {
    try Self.expectNoArguments(arguments)
  }

  public var undoDescription: String { "reset" }

  public mutating func execute(in context: CommandContext) throws(CommandError) {
    let browser = try context.requireBrowser()
    let library = browser.library
    let selection = library.selection
    let old = try BlueShell.library { () throws(LibraryError) in
      try library.replaceAll(with: DefaultCatalogue.albums, selecting: 0)
    }
    replaced = (old, selection)
    browser.libraryDidChange()
    context.report("reset to the default catalogue (\(albumCount(DefaultCatalogue.albums.count)))")
    if !context.isReplaying { browser.render() }
  }

  public func undo(in context: CommandContext) throws(CommandError) {
    guard let replaced else { return }
    let browser = try context.requireBrowser()
    try BlueShell.library { () throws(LibraryError) in
      _ = try browser.library.replaceAll(with: replaced.albums, selecting: replaced.selection)
    }
    browser.libraryDidChange()
  }
}

/// `~/x` → `$HOME/x`, as a shell would.
func expandingTilde(_ path: String) -> String {
  guard path == "~" || path.hasPrefix("~/"), let home = processEnvironment()["HOME"] else { return path }
  return home + path.dropFirst()
}
