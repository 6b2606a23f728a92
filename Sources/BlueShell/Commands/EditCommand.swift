import BlueLibrary

/// `edit [ALBUM…|all] FIELD=VALUE…`: change fields of an album, or of several as one step.
struct EditCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "edit", group: .change, synopsis: "[ALBUM…|all] FIELD=VALUE…",
    summary: "change fields of an album (the current one by default), or of several at once",
    details: """
      Fields: title, artist, genre, year, cover. An empty value clears year or cover.
      Albums by index, range (2-4), title or 'all' (every album of the view, at most
      10,000): the same fields set on each, as one step that one 'undo' takes back. Several
      words before the first FIELD=VALUE that are not numbers name one title (edit Best of
      Bowie year=1993).
      """,
    examples: ["edit year=1993", "edit 2 artist=\"No Doubt\" genre=Rock", "edit 1-3 6 genre=Jazz"],
    arguments: [.album, .assignments])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    // The albums are optional: any word up to the first FIELD=VALUE may already be one.
    if previous.contains(where: { !$0.isQuoted && $0.text.contains("=") }) { return [.assignments] }
    return (position == 0 ? [.keyword(["all"])] : []) + [.album, .assignments]
  }

  /// The albums typed; nil for the current album.
  let albums: AlbumChoice?
  let assignments: [FieldAssignment]

  init(arguments: [Word]) throws(CommandError) {
    var words = arguments[...]
    var albumWords: [Word] = []
    // Albums up to the first FIELD=VALUE (`title="Ray of Light"` is one, quotes and all; a
    // quoted title with an `=` that names no field is a title).
    while let first = words.first {
      let assignment: FieldAssignment?
      do throws(CommandError) {
        assignment = try FieldAssignment.parse(first)
      } catch {
        guard first.isQuoted else { throw error }
        assignment = nil
      }
      if assignment != nil { break }
      albumWords.append(first)
      words = words.dropFirst()
    }
    let typed = albumWords
    if albumWords.count > 1, albumWords.allSatisfy({ !$0.isQuoted && !AlbumReferences.namesByNumber($0.text) }) {
      // Words that are not numbers, ranges or 'all': one title typed without quotes.
      albumWords = [try AlbumReference(restOfLine: albumWords[...]).word]
    }
    albums = albumWords.isEmpty ? nil : try AlbumChoice(arguments: albumWords)
    var assignments: [FieldAssignment] = []
    for word in words {
      guard let assignment = try FieldAssignment.parse(word) else {
        throw CommandError("expected FIELD=VALUE, got \(TextSanitizer.quotedWord(word.text))")
      }
      assignments.append(assignment)
    }
    guard !assignments.isEmpty else {
      // `edit 2 oops`: the last word was meant as the change.
      if typed.count > 1, let last = typed.last {
        throw CommandError("expected FIELD=VALUE, got \(TextSanitizer.quotedWord(last.text))")
      }
      throw .missing("FIELD=VALUE", usage: Self.configuration.usage)
    }
    self.assignments = assignments
  }

  /// `edit changes at most 10,000 albums at once, not 25,000 (narrow the view with 'find')`.
  private static func tooMany(_ count: Int) -> CommandError {
    CommandError(
      "edit changes at most \(Library.grouped(maximumAlbums)) albums at once, not \(Library.grouped(count)) "
        + "(narrow the view with 'find')")
  }

  /// The most albums one `edit` changes: each is read, checked and logged (before and after)
  /// on its own, some 2 KB each while the command runs.
  static let maximumAlbums = 10_000

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    if let albums, albums.all, try library.count() > Self.maximumAlbums {
      throw Self.tooMany(try library.count())
    }
    let indices = try albums?.indices(in: library) ?? [Optional<AlbumReference>.none.resolve(in: library)]
    guard !indices.isEmpty else { throw CommandError("no albums to edit (\(library.extent(0)))") }
    guard indices.count <= Self.maximumAlbums else { throw Self.tooMany(indices.count) }
    let fields = assignments.map(\.field.rawValue).joined(separator: ", ")
    guard indices.count == 1, let index = indices.first else {
      // Each album checked before any is written: a bad value changes nothing.
      let edited = try indices.map { index in try FieldAssignment.apply(assignments, to: library.album(at: index)) }
      let after = try library.edit(edited)
      let named = namedTitles(after, of: after.count)
      return .changed("edited \(albumCount(after.count)) (\(named)): " + fields)
    }
    let before = try library.album(at: index)
    // Editing is not a selection move: the current album stays current.
    let (_, after) = try library.edit(FieldAssignment.apply(assignments, to: before))
    let message = "edited \(quotedTitle(after)): " + fields
    // The viewport shows the current album; an edit of another one shows that one.
    return index == library.selection ? .changed(message) : .changedAlbum(message, after)
  }
}
