import AlbumModel
import BlueLibrary
import BlueSystem

/// A failed command, with a message that names what was wrong and what would be right.
///
/// A failure that started in the library keeps the ``LibraryError`` as its ``cause``
/// (as swift-subprocess's `SubprocessError` keeps its underlying error), so callers can
/// tell "no such album" from "the disk is full" without parsing text.
struct CommandError: Error, Equatable, CustomStringConvertible {
  /// The message, without the verb prefix (the interpreter adds `verb: `).
  var message: String
  /// The library's error this failure comes from, if any.
  var cause: LibraryError?

  /// Creates an error with `message`.
  init(_ message: String) {
    self.message = message
    cause = nil
  }

  /// Wraps a library error; its text already names what was wrong.
  init(_ cause: LibraryError) {
    message = cause.description
    self.cause = cause
  }

  /// Any error a command threw, as a command failure.
  init(wrapping error: any Error) {
    switch error {
    case let error as CommandError: self = error
    case let error as LibraryError: self.init(error)
    case PlayError.library(let error): self.init(error)
    default: self.init(String(describing: error))
    }
  }

  var description: String { message }

  /// `unexpected argument 'x'`.
  static func unexpectedArgument(_ word: Word) -> CommandError {
    CommandError("unexpected argument \(TextSanitizer.quotedWord(word.text))")
  }

  /// `missing NAME (usage: …)`.
  static func missing(_ name: String, usage: String) -> CommandError {
    CommandError("missing \(name) (usage: \(usage))")
  }
}
