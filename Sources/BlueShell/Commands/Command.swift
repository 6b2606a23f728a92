import BlueLibrary
import BlueSystem

/// A unit of work the shell performs for one command of input: one type per verb.
///
/// The verb parses its own arguments in `init(arguments:)`, so a bad argument is reported
/// before anything runs, naming the word that was wrong. ``execute(in:)`` works through
/// the library and returns what happened; it never prints and never draws — the
/// ``Interpreter`` renders the outcome, once, for every command.
protocol Command {
  /// The verb, aliases and help text, shared by `help` and tab completion.
  static var configuration: CommandConfiguration { get }
  /// Creates the command from the words that follow the verb.
  init(arguments: [Word]) throws(CommandError)
  /// Performs the command against `environment.library` and says what happened.
  ///
  /// - Throws: ``CommandError``, or the ``LibraryError`` of a library call (the
  ///   interpreter wraps it, keeping it as the cause).
  func execute(in environment: CommandEnvironment) throws -> CommandOutcome
  /// What tab completion offers for the argument at `position` (0-based) after `previous`
  /// arguments; by default the configuration's `arguments` (a last `assignments` or `query`
  /// repeats: each further word is one more of them).
  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument]
  /// Whether the rest of the line is dropped when this command fails, because it meant the
  /// state this command was to make (`find gnre:xmas; delete all`). False by default.
  static var failureEndsLine: Bool { get }
}

extension Command {
  static var failureEndsLine: Bool { false }

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    let arguments = configuration.arguments
    if position < arguments.count { return [arguments[position]] }
    guard let last = arguments.last, last == .assignments || last == .query else { return [] }
    return [last]
  }

  /// Rejects any argument: for verbs that take none.
  static func expectNoArguments(_ arguments: [Word]) throws(CommandError) {
    if let first = arguments.first { throw .unexpectedArgument(first) }
  }

  /// Parses the one optional argument of a verb (`repeat [on|off]`, `volume [0-100]`): nil
  /// when there is none, else what `parse` makes of it; a second word is refused.
  static func parseOptional<Value>(
    _ arguments: [Word], by parse: (Word) throws(CommandError) -> Value
  ) throws(CommandError) -> Value? {
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    guard let first = arguments.first else { return nil }
    return try parse(first)
  }

  /// Parses an optional positive count such as the `N` of `undo [N]`.
  static func parseCount(_ arguments: [Word], name: String = "N") throws(CommandError) -> Int? {
    try parseOptional(arguments) { first throws(CommandError) in
      guard let value = Int(first.text), value > 0 else {
        throw CommandError(
          "\(name) must be a positive whole number, got \(TextSanitizer.quotedWord(first.text))")
      }
      return value
    }
  }
}
