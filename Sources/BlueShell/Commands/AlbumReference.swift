import AlbumModel
import BlueLibrary
import BlueSystem

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
      // A number means the album the last listing showed with it (issue 50, item 1).
      if let refusal = library.refusal(ofNumbers: number...number) { throw CommandError(refusal) }
      guard number >= 1, number <= count else {
        throw CommandError("no album \(TextSanitizer.escaped(word.text)) (\(library.extent(count)))")
      }
      return number - 1
    }
    let found = try library.indices(ofTitle: word.text, limit: Self.listedMatches + 1)
    guard let first = found.first else {
      // Outside the view is not nowhere: say where it is and how to reach it.
      if let view = library.view, try library.hasAlbum(titled: word.text) {
        let find = "find " + (Completer.needsQuoting(word.text) ? Completer.quoted(word.text, force: true) : word.text)
        throw CommandError(
          "\(TextSanitizer.quotedWord(word.text)) is not in the view \(TextSanitizer.quotedWord(view.query.text))"
            + " (it is in the library: 'find' shows the whole library, '\(TextSanitizer.escaped(find))' that album)")
      }
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

  /// Whether no album has the title the reference names (false for an index).
  func namesAMissingTitle(in library: Library) throws -> Bool {
    guard word.isQuoted || Self.number(word.text) == nil else { return false }
    return try library.indices(ofTitle: word.text, limit: 1).isEmpty
  }

  /// Digits with an optional sign, however large (a huge number is still "no album N").
  fileprivate static func number(_ text: String) -> Int? {
    let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text) ?? (text.hasPrefix("-") ? Int.min : Int.max)
  }
}

extension AlbumReference {
  /// `[ALBUM] [TRACK]` as `play` and `lyrics` take them: after an album, a last unquoted
  /// number is the track; no words, the current album.
  static func withTrack(_ words: ArraySlice<Word>) throws(CommandError) -> (album: AlbumReference?, track: Int?) {
    guard words.count >= 2, let last = words.last, !last.isQuoted, let number = Int(last.text) else {
      return (words.isEmpty ? nil : try AlbumReference(restOfLine: words), nil)
    }
    return (try AlbumReference(restOfLine: words.dropLast()), number)
  }

  /// The album the rest of a command line names: one word, or — when there are several and
  /// the first is not a number — a title of several words typed without quotes
  /// (`scroll to Album 01500`). Extra words after an index are an error.
  init(restOfLine words: ArraySlice<Word>) throws(CommandError) {
    guard let first = words.first else { throw CommandError("missing ALBUM") }
    guard words.count > 1 else {
      self.init(word: first)
      return
    }
    if first.isQuoted || Self.number(first.text) != nil { throw .unexpectedArgument(words[words.startIndex + 1]) }
    self.init(word: Word(words.map(\.text).joined(separator: " "), isQuoted: true, column: first.column))
  }
}

/// Albums as typed to a verb that acts on several at once (`delete 1 2 3`, `delete 1-5`,
/// `delete 2 "American Pie"`): indices, inclusive ranges of indices and titles.
struct AlbumReferences: Equatable {
  enum Item: Equatable {
    case album(AlbumReference)
    /// 1-based, inclusive, as typed.
    case range(Int, Int)
  }

  let items: [Item]

  /// Parses `words`; an unquoted `A-B` of two whole numbers is a range, anything else one album.
  init(words: [Word]) throws(CommandError) {
    var items: [Item] = []
    for word in words {
      if !word.isQuoted, let range = try Self.range(word.text) {
        items.append(range)
      } else {
        items.append(.album(AlbumReference(word: word)))
      }
    }
    self.items = items
  }

  /// The 0-based indices named, each once, in library order.
  func resolve(in library: Library) throws -> [Int] {
    var indices = Set<Int>()
    for item in items {
      switch item {
      case .album(let reference):
        indices.insert(try reference.resolve(in: library))
      case .range(let low, let high):
        if let refusal = library.refusal(ofNumbers: low...high) { throw CommandError(refusal) }
        let count = try library.count()
        for end in [low, high] where end > count {
          throw CommandError("no album \(end) (\(library.extent(count)))")
        }
        indices.formUnion((low - 1)..<high)
      }
    }
    return indices.sorted()
  }

  /// Whether unquoted `text` names albums by number (`3`, `2-4`, `all`), as a word of
  /// ``AlbumChoice`` does, rather than being a word of a title.
  static func namesByNumber(_ text: String) -> Bool {
    if text.lowercased() == "all" || AlbumReference.number(text) != nil { return true }
    do { return try range(text) != nil } catch { return true }
  }

  /// `3-7` as a range; nil when the text is not two numbers around a dash.
  private static func range(_ text: String) throws(CommandError) -> Item? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
      return nil
    }
    guard let low = Int(parts[0]), let high = Int(parts[1]), low >= 1 else {
      throw CommandError("no album \(TextSanitizer.quotedWord(text)) (indices start at 1)")
    }
    guard low <= high else {
      throw CommandError("the range \(TextSanitizer.quotedWord(text)) runs backwards (try '\(high)-\(low)')")
    }
    return .range(low, high)
  }
}

/// `[ALBUM…|all]` as typed to a verb (`download`, `write`, `queue`): `all` (every album of
/// the view), albums named by index, range or title, or nothing (the current album).
struct AlbumChoice {
  /// Nil for `all` and for nothing typed.
  let targets: AlbumReferences?
  let all: Bool

  init(arguments: [Word]) throws(CommandError) {
    all = arguments.first.map { !$0.isQuoted && $0.text.lowercased() == "all" } ?? false
    if all, arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    targets = all || arguments.isEmpty ? nil : try AlbumReferences(words: arguments)
  }

  /// Whether nothing was typed.
  var isEmpty: Bool { !all && targets == nil }

  /// The 0-based indices chosen: every one of the view, the named ones in library order, or
  /// the current album's.
  func indices(in library: Library) throws -> [Int] {
    if all { return Array(0..<(try library.count())) }
    if let targets { return try targets.resolve(in: library) }
    return [try Optional<AlbumReference>.none.resolve(in: library)]
  }

  /// The albums chosen among `arguments`, and whether `option` (such as `--retry`, unquoted)
  /// is one of them.
  static func parse(_ arguments: [Word], option: String) throws(CommandError) -> (choice: AlbumChoice, option: Bool) {
    let given = arguments.contains { !$0.isQuoted && $0.text == option }
    return (try AlbumChoice(arguments: arguments.filter { $0.isQuoted || $0.text != option }), given)
  }

  /// Completion for a verb taking it: `all` or an album first, then albums.
  static func completionKinds(at position: Int) -> [CommandConfiguration.Argument] {
    position == 0 ? [.keyword(["all"]), .album] : [.album]
  }
}

/// A verb whose arguments choose albums (`fav`, `rate`, `write`, `download`…): it completes
/// as ``AlbumChoice`` does.
protocol AlbumChoosingCommand: Command {}

extension AlbumChoosingCommand {
  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    AlbumChoice.completionKinds(at: position)
  }
}

extension Optional where Wrapped == AlbumReference {
  /// The index of the album the reference names, else of the current one.
  func resolve(in library: Library) throws -> Int {
    if let reference = self { return try reference.resolve(in: library) }
    guard let selection = library.selection else { throw CommandError(library.extent(0)) }
    return selection
  }
}

/// `"title"` quoted and escaped for messages.
func quotedTitle(_ album: Album) -> String {
  "\"" + TextSanitizer.escaped(album.title) + "\""
}

/// The first three of `count` albums (`albums` in order) quoted, with `…` when there are
/// more: `"A", "B", "C", …`.
func namedTitles(_ albums: some Collection<Album>, of count: Int) -> String {
  albums.prefix(3).map(quotedTitle).joined(separator: ", ") + (count > 3 ? ", …" : "")
}

/// `N album(s)`.
func albumCount(_ count: Int) -> String {
  Library.albumCount(count)
}
