/// One word of a command line after quoting is resolved.
struct Word: Sendable, Equatable, CustomStringConvertible {
  /// The text with quotes and escapes resolved.
  var text: String
  /// True when any part of the word was quoted, so `"3"` is a title, not an index.
  var isQuoted: Bool
  /// The 1-based column where the word starts.
  var column: Int

  /// Creates a word.
  init(_ text: String, isQuoted: Bool = false, column: Int = 1) {
    self.text = text
    self.isQuoted = isQuoted
    self.column = column
  }

  var description: String { text }
}

/// Why a line could not be split into words.
enum TokenizerError: Error, Equatable, CustomStringConvertible {
  case unterminatedQuote(column: Int)
  case trailingBackslash(column: Int)

  var description: String {
    switch self {
    case .unterminatedQuote(let column): "unterminated quote starting at column \(column)"
    case .trailingBackslash(let column): "backslash at the end of the line (column \(column)) escapes nothing"
    }
  }
}

/// Splits an input line into commands and words with shell quoting.
///
/// `'…'` is literal; `"…"` honours `\"` and `\\`; a backslash outside quotes escapes the next
/// character; `;` outside quotes ends a command; `#` at the start of a word starts a comment.
enum Tokenizer {
  /// The line's commands, each a non-empty list of words. Empty commands (`;;`) are dropped.
  static func commands(in line: String) throws(TokenizerError) -> [[Word]] {
    if let words = plainWords(line) { return words.isEmpty ? [] : [words] }
    return try scannedCommands(in: line)
  }

  /// What ``commands(in:)`` returns, always through the full scanner (tests compare the two).
  static func scannedCommands(in line: String) throws(TokenizerError) -> [[Word]] {
    var result: [[Word]] = []
    var scanner = Scanner(line: line, lenient: false)
    while let command = try scanner.nextCommand() {
      if !command.isEmpty { result.append(command) }
    }
    return result
  }

  /// The words of the last command on a line being typed, for completion: an open quote
  /// does not throw, and ``Partial/trailingSpace`` says whether a new word has begun.
  static func partial(_ line: String) -> Partial {
    var scanner = Scanner(line: line, lenient: true)
    var last: [Word] = []
    // Lenient scanning never throws.
    while let command = try? scanner.nextCommand() { last = command }
    if scanner.endedWithSemicolon { last = [] }
    return Partial(
      words: last, openQuote: scanner.openQuote, endsInSeparator: scanner.endedBetweenWords)
  }

  /// The result of ``Tokenizer/partial(_:)``.
  struct Partial: Sendable, Equatable {
    /// The words of the command being typed.
    var words: [Word]
    /// The quote character still open at the end of the line, if any.
    var openQuote: Character?
    /// True when the line ends in whitespace (or `;`), so the next word is empty.
    var endsInSeparator: Bool
  }

  /// The words of a line of printable ASCII with no quote, backslash, `;` or `#` (most
  /// lines, `scroll right` among them), split on blanks; nil for any other line, which the
  /// scanner reads. Same words and columns as the scanner gives, without its per-scalar work.
  static func plainWords(_ line: String) -> [Word]? {
    var words: [Word] = []
    words.reserveCapacity(4)
    var start: Int?
    var offset = 0
    let utf8 = line.utf8
    var index = utf8.startIndex
    var wordStart = index
    while index != utf8.endIndex {
      let byte = utf8[index]
      switch byte {
      case 0x20, 0x09, 0x0D, 0x0A:
        if let column = start {
          words.append(Word(String(line[wordStart..<index]), column: column + 1))
          start = nil
        }
      case 0x22, 0x23, 0x27, 0x3B, 0x5C:
        return nil
      case 0x21...0x7E:
        if start == nil {
          start = offset
          wordStart = index
        }
      default:
        return nil
      }
      offset += 1
      index = utf8.index(after: index)
    }
    if let column = start { words.append(Word(String(line[wordStart...]), column: column + 1)) }
    return words
  }

  private struct Scanner {
    let scalars: [Unicode.Scalar]
    let lenient: Bool
    var index = 0
    var openQuote: Character?
    var endedBetweenWords = true
    var endedWithSemicolon = false

    init(line: String, lenient: Bool) {
      scalars = Array(line.unicodeScalars)
      self.lenient = lenient
    }

    mutating func nextCommand() throws(TokenizerError) -> [Word]? {
      guard index < scalars.count else { return nil }
      var words: [Word] = []
      var current = ""
      var inWord = false
      var quoted = false
      var start = 0
      func finishWord() {
        if inWord { words.append(Word(current, isQuoted: quoted, column: start + 1)) }
        current = ""
        inWord = false
        quoted = false
      }
      endedBetweenWords = true
      endedWithSemicolon = false
      while index < scalars.count {
        let c = scalars[index]
        switch c {
        case " ", "\t", "\r", "\n":
          finishWord()
          endedBetweenWords = true
          index += 1
        case ";":
          finishWord()
          endedBetweenWords = true
          endedWithSemicolon = true
          index += 1
          return words
        case "#" where !inWord:
          index = scalars.count
          endedBetweenWords = true
          finishWord()
          return words
        case "'", "\"":
          if !inWord { start = index }
          inWord = true
          quoted = true
          endedBetweenWords = false
          let opening = index
          index += 1
          var closed = false
          while index < scalars.count {
            let q = scalars[index]
            if q == c {
              closed = true
              index += 1
              break
            }
            if c == "\"" && q == "\\" && index + 1 < scalars.count
              && (scalars[index + 1] == "\"" || scalars[index + 1] == "\\")
            {
              current.unicodeScalars.append(scalars[index + 1])
              index += 2
              continue
            }
            current.unicodeScalars.append(q)
            index += 1
          }
          if !closed {
            if lenient {
              openQuote = Character(c)
              finishWord()
              endedBetweenWords = false
              return words
            }
            throw .unterminatedQuote(column: opening + 1)
          }
        case "\\":
          if !inWord { start = index }
          inWord = true
          endedBetweenWords = false
          guard index + 1 < scalars.count else {
            if lenient {
              index += 1
              finishWord()
              return words
            }
            throw .trailingBackslash(column: index + 1)
          }
          quoted = true
          current.unicodeScalars.append(scalars[index + 1])
          index += 2
        default:
          if !inWord { start = index }
          inWord = true
          endedBetweenWords = false
          current.unicodeScalars.append(c)
          index += 1
        }
      }
      finishWord()
      return words
    }
  }
}
