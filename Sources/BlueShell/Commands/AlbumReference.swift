import BlueLibrary

/// An album as typed: a 1-based index (`3`) or a title (`"American Pie"`, or unquoted words
/// that are not a number). Resolved against the library when the command runs.
struct AlbumReference: Equatable {
  let word: Word

  /// How many indices an ambiguous title's error lists.
  static let listedMatches = 5

  /// The 0-based index the reference names.
  func resolve(in library: Library) throws -> Int {
    let count = try library.count()
    if !word.isQuoted, let number = Self.number(word.text) {
      guard number >= 1, number <= count else {
        throw CommandError("no album \(TextSanitizer.escaped(word.text)) (\(LibraryError.size(count)))")
      }
      return number - 1
    }
    let found = try library.indices(ofTitle: word.text, limit: Self.listedMatches + 1)
    guard let first = found.first else {
      throw CommandError(
        "no album titled \(TextSanitizer.quotedWord(word.text)) (try 'list \(TextSanitizer.escaped(word.text))')")
    }
    guard found.count == 1 else {
      // Never act on a guess: say which albums carry the title, by the index that picks one.
      let listed = found.prefix(Self.listedMatches).map { String($0 + 1) }.joined(separator: ", ")
      let more = found.count > Self.listedMatches ? ", …" : ""
      throw CommandError(
        "\(found.count > Self.listedMatches ? "more than \(Self.listedMatches)" : "\(found.count)") albums are titled "
          + "\(TextSanitizer.quotedWord(word.text)): \(listed)\(more) (name one by its index)")
    }
    return first
  }

  /// Digits with an optional sign, however large (a huge number is still "no album N").
  private static func number(_ text: String) -> Int? {
    let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text) ?? (text.hasPrefix("-") ? Int.min : Int.max)
  }
}

extension Optional where Wrapped == AlbumReference {
  /// The index of the album the reference names, else of the current one.
  func resolve(in library: Library) throws -> Int {
    if let reference = self { return try reference.resolve(in: library) }
    guard let selection = library.selection else { throw CommandError("the library is empty") }
    return selection
  }
}

/// `"title"` quoted and escaped for messages.
func quotedTitle(_ album: Album) -> String {
  "\"" + TextSanitizer.escaped(album.title) + "\""
}

/// `N album(s)`.
func albumCount(_ count: Int) -> String {
  Library.albumCount(count)
}
