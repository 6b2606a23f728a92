import BlueLibrary

/// `list [QUERY]` (`ls`): one line per album, filtered by a case-insensitive substring.
public struct ListCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "list", aliases: ["ls"], group: .browse, synopsis: "[QUERY]",
    summary: "one line per album (QUERY filters title, artist, genre, year)",
    details: "The current album is marked with '*'. QUERY is a case-insensitive substring.",
    examples: ["list", "list sun", "ls 2000"], arguments: [.text])

  let query: String?

  public init(arguments: [Word]) throws(CommandError) {
    query = arguments.isEmpty ? nil : arguments.map(\.text).joined(separator: " ")
  }

  public func execute(in context: CommandContext) throws(CommandError) {
    let browser = try context.requireBrowser()
    let library = browser.library
    let total = try BlueShell.library { () throws(LibraryError) in try library.count() }
    var shown = 0
    var from = 0
    // Page through the store so a million albums never sit in memory at once.
    while true {
      let page = try BlueShell.library { () throws(LibraryError) in
        try library.store.search(query ?? "", from: from, limit: 1000)
      }
      for album in page {
        let marker = album.position == library.selection ? "*" : " "
        var line = "\(marker) \(album.position + 1). " + TextSanitizer.escaped(album.title)
        if !album.artist.isEmpty { line += " — " + TextSanitizer.escaped(album.artist) }
        let facts = [album.year.map(String.init), album.genre.isEmpty ? nil : TextSanitizer.escaped(album.genre)]
          .compactMap { $0 }
        if !facts.isEmpty { line += " (" + facts.joined(separator: ", ") + ")" }
        line += " · cover: " + (browser.coverLabel(album))
        context.output.line(line)
      }
      shown += page.count
      guard page.count == 1000, let last = page.last, !context.output.isClosed else { break }
      from = last.position + 1
    }
    if let query {
      context.output.line(
        "\(shown) of \(albumCount(total)) match \(TextSanitizer.quotedWord(query))")
    } else {
      context.output.line(albumCount(total))
    }
  }
}
