import BlueLibrary

/// `edit [ALBUM] FIELD=VALUE…`: change fields of an album.
public struct EditCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "edit", group: .change, synopsis: "[ALBUM] FIELD=VALUE…",
    summary: "change fields of an album (the current one by default)",
    details: "Fields: title, artist, genre, year, cover. An empty value clears year or cover.",
    examples: ["edit year=1993", "edit 2 artist=\"No Doubt\" genre=Rock"],
    arguments: [.album, .assignments])

  public static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    // The album is optional: the first word may already be a FIELD=VALUE.
    position == 0 ? [.album, .assignments] : [.assignments]
  }

  let album: AlbumReference?
  let assignments: [FieldAssignment]

  public init(arguments: [Word]) throws(CommandError) {
    var words = arguments[...]
    var firstIsAlbum = false
    if let first = words.first {
      firstIsAlbum = try first.isQuoted ? true : FieldAssignment.parse(first) == nil
    }
    if let first = words.first, firstIsAlbum {
      album = AlbumReference(word: first)
      words = words.dropFirst()
    } else {
      album = nil
    }
    var assignments: [FieldAssignment] = []
    for word in words {
      guard let assignment = try FieldAssignment.parse(word) else {
        throw CommandError("expected FIELD=VALUE, got \(TextSanitizer.quotedWord(word.text))")
      }
      assignments.append(assignment)
    }
    guard !assignments.isEmpty else { throw .missing("FIELD=VALUE", usage: Self.configuration.usage) }
    self.assignments = assignments
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let index = try album.resolve(in: library)
    let before = try library.album(at: index)
    // Editing is not a selection move: the current album stays current.
    let (_, after) = try library.edit(FieldAssignment.apply(assignments, to: before))
    let message = "edited \(quotedTitle(after)): " + assignments.map(\.field.rawValue).joined(separator: ", ")
    // The viewport shows the current album; an edit of another one shows that one.
    return index == library.selection ? .changed(message) : .changedAlbum(message, after)
  }
}
