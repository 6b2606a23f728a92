/// A unit of work the shell performs for one command of input: one type per verb.
///
/// The verb parses its own arguments in `init(arguments:)`, so a bad argument is reported
/// before anything runs, naming the word that was wrong.
public protocol Command {
  /// The verb, aliases and help text, shared by `help` and tab completion.
  static var configuration: CommandConfiguration { get }
  /// Creates the command from the words that follow the verb.
  init(arguments: [Word]) throws(CommandError)
  /// Performs the command. Mutating so a change can remember what it did for ``UndoableCommand/undo(in:)``.
  mutating func execute(in context: CommandContext) throws(CommandError)
  /// What tab completion offers for the argument at `position` (0-based) after `previous`
  /// arguments; by default the configuration's `arguments` (the last `assignments` repeats).
  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument]
}

/// A command that changes the library and can be reverted.
///
/// Redo runs ``Command/execute(in:)`` again on the recorded value, which keeps what the
/// first run captured (ids, positions).
public protocol UndoableCommand: Command {
  /// What `undo` and `redo` say they are reverting, such as `delete "American Pie"`.
  var undoDescription: String { get }
  /// Reverts the effects of a completed ``Command/execute(in:)``.
  func undo(in context: CommandContext) throws(CommandError)
}

/// A failed command, with a message that names what was wrong and what would be right.
public struct CommandError: Error, Equatable, CustomStringConvertible {
  /// The message, without the verb prefix (the interpreter adds `verb: `).
  public var message: String

  /// Creates an error with `message`.
  public init(_ message: String) { self.message = message }

  public var description: String { message }

  /// `VERB takes no arguments (got 'x')`.
  public static func unexpectedArgument(_ word: Word) -> CommandError {
    CommandError("unexpected argument \(TextSanitizer.quotedWord(word.text))")
  }

  /// `missing NAME (usage: …)`.
  public static func missing(_ name: String, usage: String) -> CommandError {
    CommandError("missing \(name) (usage: \(usage))")
  }
}

extension Command {
  public static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    let arguments = configuration.arguments
    if position < arguments.count { return [arguments[position]] }
    return arguments.last == .assignments ? [.assignments] : []
  }

  /// Rejects any argument: for verbs that take none.
  public static func expectNoArguments(_ arguments: [Word]) throws(CommandError) {
    if let first = arguments.first { throw .unexpectedArgument(first) }
  }

  /// Parses an optional positive count such as the `N` of `undo [N]`.
  public static func parseCount(_ arguments: [Word], name: String = "N") throws(CommandError) -> Int? {
    guard let first = arguments.first else { return nil }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    guard let value = Int(first.text), value > 0 else {
      throw CommandError(
        "\(name) must be a positive whole number, got \(TextSanitizer.quotedWord(first.text))")
    }
    return value
  }
}
