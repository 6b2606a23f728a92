/// `help [VERB]`: every verb with one line each, or one verb's usage and examples.
public struct HelpCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "help", aliases: ["?"], group: .shell, synopsis: "[VERB]",
    summary: "list the commands, or show how to use one",
    details: "Arguments follow shell quoting ('…', \"…\", backslash); ';' separates commands on one line and '#' starts a comment.",
    examples: ["help", "help scroll"], arguments: [.verb])

  let verb: Word?

  public init(arguments: [Word]) throws(CommandError) {
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    verb = arguments.first
  }

  public func execute(in context: CommandContext) throws(CommandError) {
    let style = context.style
    let out = context.output
    guard let verb else {
      let width = context.registry.commands.map { $0.configuration.usage.count }.max() ?? 0
      for group in CommandConfiguration.Group.allCases {
        let members = context.registry.commands.filter { $0.configuration.group == group }
        guard !members.isEmpty else { continue }
        out.line(style.bold(group.rawValue + ":"))
        for command in members {
          let configuration = command.configuration
          let padding = String(repeating: " ", count: width - configuration.usage.count)
          out.line("  " + configuration.usage + padding + "  " + configuration.summary)
        }
      }
      out.line("Type 'help VERB' for details and examples.")
      return
    }
    guard let command = context.registry.command(named: verb.text) else {
      var message = "unknown command \(TextSanitizer.quotedWord(verb.text))"
      if let suggestion = context.registry.suggestion(for: verb.text) {
        message += " (did you mean '\(suggestion)'?)"
      }
      throw CommandError(message)
    }
    let configuration = command.configuration
    out.line(style.bold("usage: ") + configuration.usage)
    out.line("  " + configuration.summary)
    if !configuration.aliases.isEmpty {
      out.line("  aliases: " + configuration.aliases.joined(separator: ", "))
    }
    if !configuration.details.isEmpty {
      out.line()
      for line in configuration.details.split(separator: "\n", omittingEmptySubsequences: false) {
        out.line("  " + line)
      }
    }
    if !configuration.examples.isEmpty {
      out.line()
      out.line(configuration.examples.count == 1 ? "example:" : "examples:")
      for example in configuration.examples { out.line("  " + example) }
    }
  }
}
