import AlbumModel
import BlueLibrary
import BlueSystem

/// `add TITLE [artist=…] [year=…] [genre=…] [cover=URL]`: a new album after the current one.
struct AddCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "add", group: .change, synopsis: "TITLE [FIELD=VALUE…]",
    summary: "add an album after the current one and select it",
    details: "Fields: artist, genre, year (a whole number), cover (an http, https or file URL).",
    examples: ["add \"Blue Train\" artist=\"John Coltrane\" year=1957 genre=Jazz"],
    arguments: [.text, .assignments])

  let album: Album

  init(arguments: [Word]) throws(CommandError) {
    guard let title = arguments.first else { throw .missing("TITLE", usage: Self.configuration.usage) }
    // A quoted first word is always the title, whatever it holds (`add "AC=DC"`).
    if !title.isQuoted, try FieldAssignment.parse(title) != nil {
      throw .missing("TITLE", usage: Self.configuration.usage)
    }
    var assignments = [FieldAssignment(field: .title, value: title.text)]
    for word in arguments.dropFirst() {
      guard let assignment = try FieldAssignment.parse(word) else {
        throw CommandError(
          "expected FIELD=VALUE, got \(TextSanitizer.quotedWord(word.text)) (quote a title that has spaces)")
      }
      assignments.append(assignment)
    }
    album = try FieldAssignment.apply(assignments, to: Album(title: ""))
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let (stored, index) = try library.add(album)
    guard let view = library.view else {
      return .changed("added \(quotedTitle(album)) as \(index + 1) (\(albumCount(try library.count())))")
    }
    // In a view the index is the view's, when the new album matches it.
    if let selection = library.selection, try library.selectedAlbum()?.id == stored.id {
      return .changed(
        "added \(quotedTitle(album)) as \(selection + 1) (\(albumCount(try library.count())) in the view)")
    }
    return .changed(
      "added \(quotedTitle(album)) (\(albumCount(try library.libraryCount())) in the library; it is not in the view "
        + "\(TextSanitizer.quotedWord(view.query.text)): 'find' alone shows it)", redraw: false)
  }
}
