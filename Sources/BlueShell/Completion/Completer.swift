import AlbumModel
import BlueLibrary
import BlueSystem

/// Tab completion as a pure function of the line, the cursor and what the library holds,
/// so it is tested with tables; the libedit reader only applies its result.
struct Completer {
  /// What a Tab press does to the line.
  struct Completion: Equatable, Sendable {
    /// How many characters before the cursor to replace (the word being typed, quotes included).
    var replacing: Int
    /// The text to put there (possibly the same word, when only a list is shown).
    var insertion: String
    /// The candidates to list when there are several (empty when one completed).
    var candidates: [String]
  }

  /// The verbs.
  var registry: CommandRegistry
  /// Titles starting with a prefix, at most a limit of them.
  var titles: (String, Int) -> [String]
  /// How many albums there are (for index candidates).
  var albumCount: () -> Int
  /// Directory entries for a path prefix (directories end in `/`).
  var paths: (String) -> [String]
  /// A field's values in the library starting with a prefix (ignoring case), at most a limit.
  var fieldValues: (QueryField, String, Int) -> [String]
  /// The saved views' names.
  var viewNames: () -> [String]
  /// The titles the first of several prefixes starts, and its place among them (one read of
  /// the library for a title typed as several words); by default ``titles`` for each in turn.
  var firstTitles: ([String], Int) -> (index: Int, titles: [String])?

  /// The most candidates listed.
  static let listLimit = 200

  /// Creates a completer over the given sources.
  init(
    registry: CommandRegistry, titles: @escaping (String, Int) -> [String] = { _, _ in [] },
    albumCount: @escaping () -> Int = { 0 }, paths: @escaping (String) -> [String] = { _ in [] },
    fieldValues: @escaping (QueryField, String, Int) -> [String] = { _, _, _ in [] },
    viewNames: @escaping () -> [String] = { [] },
    firstTitles: (([String], Int) -> (index: Int, titles: [String])?)? = nil
  ) {
    self.registry = registry
    self.titles = titles
    self.albumCount = albumCount
    self.paths = paths
    self.fieldValues = fieldValues
    self.viewNames = viewNames
    self.firstTitles =
      firstTitles ?? { prefixes, limit in
        for (index, prefix) in prefixes.enumerated() {
          let found = titles(prefix, limit)
          if !found.isEmpty { return (index, found) }
        }
        return nil
      }
  }

  /// Completes the word before the cursor in `textBeforeCursor`; nil when nothing fits.
  func complete(_ textBeforeCursor: String) -> Completion? {
    let partial = Tokenizer.partial(textBeforeCursor)
    var words = partial.words
    let current: Word
    if partial.endsInSeparator && partial.openQuote == nil {
      current = Word("", column: textBeforeCursor.unicodeScalars.count + 1)
    } else if let last = words.popLast() {
      current = last
    } else {
      current = Word("", column: textBeforeCursor.unicodeScalars.count + 1)
    }
    let typedLength = textBeforeCursor.unicodeScalars.count - (current.column - 1)
    let prefix = current.text

    var candidates: [Candidate]
    if words.isEmpty {
      candidates = verbs(prefix)
    } else {
      guard let command = registry.command(named: words[0].text) else { return nil }
      let arguments = Array(words.dropFirst())
      if let several = severalWords(
        command: command, arguments: arguments, current: current, length: textBeforeCursor.unicodeScalars.count)
      {
        return several
      }
      let kinds = command.completionKinds(at: arguments.count, after: arguments)
      candidates = kinds.flatMap { candidatesFor($0, prefix: prefix) }
    }
    guard !candidates.isEmpty else { return nil }
    if candidates.count == 1 {
      let only = candidates[0]
      let text = only.head + Self.quoted(only.value, force: current.isQuoted) + (only.isFinal ? " " : "")
      return Completion(replacing: typedLength, insertion: text, candidates: [])
    }
    // As bash: the common prefix when it adds something (quoted only when that text needs
    // it, or a quote is already open), else the word as typed: never a lone quote. A head
    // all candidates share (`artist=`) stays out of the quotes.
    let heads = Set(candidates.map(\.head))
    let head = heads.count == 1 && prefix.hasPrefix(heads.first ?? "") ? heads.first ?? "" : ""
    let common = Self.commonPrefix(candidates.map { String($0.text.dropFirst(head.count)) })
    let typedValue = String(prefix.dropFirst(head.count))
    let insertion =
      common.count > typedValue.count
      ? head + Self.quoted(common, force: current.isQuoted || Self.needsQuoting(common), close: false)
      : head + Self.quoted(typedValue, force: current.isQuoted, close: false)
    return Completion(
      replacing: typedLength, insertion: insertion,
      candidates: candidates.map(\.display))
  }

  private struct Candidate {
    /// What goes before the value, never quoted: `artist=` of `artist="Midnight Oil"`.
    var head = ""
    /// The value, quoted when it needs it.
    var value: String
    var display: String
    /// Whether a space follows (not after `year=` or a directory's `/`).
    var isFinal: Bool

    init(text: String, display: String, isFinal: Bool) {
      value = text
      self.display = display
      self.isFinal = isFinal
    }

    init(head: String, value: String, display: String, isFinal: Bool) {
      self.head = head
      self.value = value
      self.display = display
      self.isFinal = isFinal
    }

    /// The candidate as one text.
    var text: String { head + value }
  }

  /// The most words before the one typed that a title typed without quotes is looked for
  /// in (`tap The Gol` → `The Golden Age`): each is one more look-up.
  static let wordsOfATitle = 6

  /// A title (or, in a query, an artist) typed as several words without quotes: `tap The
  /// Gol` completes to `tap The Golden Age`, `list Miles Da` to `list Miles Davis`. The
  /// longest run of plain words before the cursor that starts where the verb takes an
  /// album or a query and begins a title wins; nil when none does (the word alone is
  /// completed then).
  private func severalWords(command: any Command.Type, arguments: [Word], current: Word, length: Int) -> Completion? {
    guard !arguments.isEmpty, current.text.isEmpty || Self.isPlain(current) else { return nil }
    var start = arguments.count
    while start > 0, arguments.count - start < Self.wordsOfATitle, Self.isPlain(arguments[start - 1]) { start -= 1 }
    // Where a run may start (an album or a query goes there), longest first, and what it types.
    let runs: [(first: Int, query: Bool, typed: String)] = (start..<arguments.count).compactMap { first in
      let kinds = command.completionKinds(at: first, after: Array(arguments[..<first]))
      guard kinds.contains(.query) || kinds.contains(.album) else { return nil }
      return (first, kinds.contains(.query), (arguments[first...].map(\.text) + [current.text]).joined(separator: " "))
    }
    guard !runs.isEmpty else { return nil }
    // One read of the titles for every run; an artist is one seek in its index.
    let titled = firstTitles(runs.map(\.typed), Self.listLimit)
    for (index, run) in runs.enumerated() {
      let typed = run.typed
      var texts = run.query ? fieldValues(.artist, typed, Self.listLimit) : []
      if let titled, titled.index == index {
        for title in titled.titles where !texts.contains(title) { texts.append(title) }
      }
      guard !texts.isEmpty else { continue }
      let replacing = length - (arguments[run.first].column - 1)
      let displays = texts.map(TextSanitizer.escaped)
      if texts.count == 1 {
        let text = texts[0]
        return Completion(
          replacing: replacing,
          insertion: (Self.needsQuotingInWords(text) ? Self.quoted(text, force: true) : text) + " ",
          candidates: [])
      }
      let common = Self.commonPrefix(texts)
      let insertion =
        common.count > typed.count
        ? (Self.needsQuotingInWords(common) ? Self.quoted(common, force: true, close: false) : common) : typed
      return Completion(replacing: replacing, insertion: insertion, candidates: displays)
    }
    return nil
  }

  /// A word that may be part of a title typed without quotes: not quoted, and not a query's
  /// operator, a field, an assignment or a view.
  private static func isPlain(_ word: Word) -> Bool {
    guard !word.isQuoted, let first = word.text.first else { return false }
    return !"-^@".contains(first) && !word.text.contains(":") && !word.text.contains("=") && !word.text.hasSuffix(",")
  }

  /// Whether `text` cannot be typed as words (it has a quote, a backslash, `;`, `#` or a tab).
  static func needsQuotingInWords(_ text: String) -> Bool {
    text.contains { "\t\"'\\;#".contains($0) }
  }

  private func verbs(_ prefix: String) -> [Candidate] {
    let lowered = prefix.lowercased()
    return registry.names.filter { $0.hasPrefix(lowered) }
      .map { Candidate(text: $0, display: $0, isFinal: true) }
  }

  private func candidatesFor(_ kind: CommandConfiguration.Argument, prefix: String) -> [Candidate] {
    switch kind {
    case .verb:
      return verbs(prefix)
    case .keyword(let words):
      return words.filter { $0.hasPrefix(prefix.lowercased()) }
        .map { Candidate(text: $0, display: $0, isFinal: true) }
    case .assignments:
      // After `FIELD=`, the field's values in the library (`artist=Mid` → `artist="Midnight Oil"`).
      if let equals = prefix.firstIndex(of: "="),
        let field = try? AlbumField(parsing: String(prefix[..<equals])),
        let queried = QueryField(rawValue: field.rawValue), field != .cover
      {
        let head = String(prefix[...equals])
        return fieldValues(queried, String(prefix[prefix.index(after: equals)...]), Self.listLimit).map {
          Candidate(head: head, value: $0, display: TextSanitizer.escaped($0), isFinal: true)
        }
      }
      return AlbumField.typed.map { $0.rawValue + "=" }.filter { $0.hasPrefix(prefix.lowercased()) }
        .map { Candidate(text: $0, display: $0, isFinal: false) }
    case .trackAssignments:
      return TrackField.allCases.map { $0.rawValue + "=" }.filter { $0.hasPrefix(prefix.lowercased()) }
        .map { Candidate(text: $0, display: $0, isFinal: false) }
    case .album:
      if !prefix.isEmpty, prefix.allSatisfy({ $0.isASCII && $0.isNumber }) {
        let count = albumCount()
        return (1...max(1, min(count, Self.listLimit))).map(String.init)
          .filter { count > 0 && $0.hasPrefix(prefix) }
          .map { Candidate(text: $0, display: $0, isFinal: true) }
      }
      return titles(prefix, Self.listLimit).map {
        Candidate(text: $0, display: TextSanitizer.escaped($0), isFinal: true)
      }
    case .path:
      return paths(prefix).map { entry in
        let name = entry.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? entry
        let isDirectory = entry.hasSuffix("/")
        return Candidate(
          text: entry,
          display: isDirectory ? String(entry.dropLast()).split(separator: "/").last.map { $0 + "/" } ?? entry : name,
          isFinal: !isDirectory)
      }
    case .viewName:
      let name = prefix.hasPrefix("@") ? String(prefix.dropFirst()) : prefix
      return viewNames().filter { $0.hasPrefix(name) }.sorted()
        .map { Candidate(text: (prefix.hasPrefix("@") ? "@" : "") + $0, display: $0, isFinal: true) }
    case .query:
      return queryWords(prefix)
    case .text:
      return []
    }
  }

  /// A query word: `@` view names, `field:` names, then a field's values from the library
  /// (`artist:Rad` → `artist:Radiohead`); a leading `^` or `-` stays.
  private func queryWords(_ typed: String) -> [Candidate] {
    var prefix = Substring(typed)
    var negation = ""
    if let first = prefix.first, first == "^" || first == "-" {
      negation = String(first)
      prefix = prefix.dropFirst()
    }
    if prefix.hasPrefix("@") {
      return candidatesFor(.viewName, prefix: String(prefix)).map {
        Candidate(text: negation + $0.text, display: $0.display, isFinal: true)
      }
    }
    guard let colon = prefix.firstIndex(of: ":") else {
      guard !prefix.isEmpty else { return [] }
      let fields = QueryField.allCases.map { $0.rawValue + ":" }.filter { $0.hasPrefix(prefix.lowercased()) }
        .map { Candidate(text: negation + $0, display: $0, isFinal: false) }
      // A bare word searches titles and artists: those that start with it (`Esb` →
      // `"Esbjörn Svensson Trio"`), artists first.
      var values = fieldValues(.artist, String(prefix), Self.listLimit)
      for title in titles(String(prefix), Self.listLimit) where !values.contains(title) { values.append(title) }
      return fields
        + values.map { Candidate(head: negation, value: $0, display: TextSanitizer.escaped($0), isFinal: true) }
    }
    guard let field = QueryField(name: prefix[..<colon]) else { return [] }
    let value = prefix[prefix.index(after: colon)...]
    // `artist:=Rad`: exact matches complete the same values.
    let mark = value.hasPrefix("=~") ? "=~" : value.hasPrefix("=") ? "=" : ""
    let head = negation + field.rawValue + ":" + mark
    return fieldValues(field, String(value.dropFirst(mark.count)), Self.listLimit).map {
      Candidate(text: head + $0, display: TextSanitizer.escaped($0), isFinal: true)
    }
  }

  /// The longest common prefix, by characters.
  static func commonPrefix(_ texts: [String]) -> String {
    guard var prefix = texts.first else { return "" }
    for text in texts.dropFirst() {
      while !text.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }

  static func needsQuoting(_ text: String) -> Bool {
    text.isEmpty || text.contains { " \t\"'\\;#".contains($0) }
  }

  /// `text` as the user would type it: in double quotes (escaping `"` and `\`) when it
  /// needs them or a quote is already open; `close` adds the closing quote.
  static func quoted(_ text: String, force: Bool, close: Bool = true) -> String {
    guard force || needsQuoting(text) else { return text }
    if text.isEmpty && !force { return text }
    var out = "\""
    for character in text {
      if character == "\"" || character == "\\" { out.append("\\") }
      out.append(character)
    }
    return close ? out + "\"" : out
  }
}
