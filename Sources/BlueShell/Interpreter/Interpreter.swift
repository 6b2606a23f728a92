/// Turns input lines into commands and runs them: the controller of the shell.
public final class Interpreter {
  /// The state commands run against.
  public let context: CommandContext

  /// Creates an interpreter over `context`.
  public init(context: CommandContext) {
    self.context = context
  }

  /// Runs every command on `line` in order and returns the messages of those that failed.
  ///
  /// - Parameter stopAtFirstFailure: stop after the first failing command (`--bail`).
  public func run(line: String, stopAtFirstFailure: Bool = false) -> [String] {
    let commands: [[Word]]
    do {
      commands = try Tokenizer.commands(in: line)
    } catch {
      return [error.description]
    }
    var failures: [String] = []
    for words in commands {
      if let failure = run(words: words) {
        failures.append(failure)
        if stopAtFirstFailure { break }
      }
      if context.quitRequested || context.output.isClosed { break }
    }
    return failures
  }

  /// Runs one command; returns its error message, or nil when it succeeded.
  public func run(words: [Word]) -> String? {
    guard let verb = words.first else { return nil }
    guard let type = context.registry.command(named: verb.text) else {
      return unknownCommandMessage(verb.text)
    }
    let name = verb.text.lowercased()
    do {
      var command = try type.init(arguments: Array(words.dropFirst()))
      try command.execute(in: context)
      if let change = command as? any UndoableCommand {
        context.changes.record(change)
      }
      return nil
    } catch {
      return name + ": " + error.message
    }
  }

  private func unknownCommandMessage(_ verb: String) -> String {
    let word = TextSanitizer.quotedWord(verb)
    if let suggestion = context.registry.suggestion(for: verb) {
      return "unknown command \(word) (did you mean '\(suggestion)'?)"
    }
    return "unknown command \(word) (type 'help' for the list of commands)"
  }
}
