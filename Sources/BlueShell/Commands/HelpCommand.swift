import BlueSystem

/// `help [VERB]`: every verb with one line each, or one verb's usage and examples.
struct HelpCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "help", aliases: ["?"], group: .shell, synopsis: "[VERB]",
    summary: "list the commands, or show how to use one",
    details:
      "Arguments follow shell quoting ('…', \"…\", backslash); ';' separates commands on one line and '#' starts a comment.",
    examples: ["help", "help scroll"], arguments: [.verb])

  let verb: Word?

  init(arguments: [Word]) throws(CommandError) {
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    verb = arguments.first
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    .shell(.help(verb: verb))
  }

  /// A row of a table in the details (`    key    what it does`) fitted to `width`: the text
  /// wraps under its column, or under the key when the window is too narrow for the column.
  static func tableRow(_ line: String, width: Int) -> [String] {
    guard line.count > width else { return [line] }
    let indent = String(line.prefix { $0 == " " })
    let body = line.dropFirst(indent.count)
    if let gap = body.firstRange(of: "  "), let text = body[gap.upperBound...].firstIndex(where: { $0 != " " }) {
      let column = indent.count + body.distance(from: body.startIndex, to: text)
      if width - column >= 20 {
        return wrap(
          String(body[text...]), width: width, first: indent + body[..<text],
          rest: String(repeating: " ", count: column))
      }
    }
    return wrap(
      body.split(whereSeparator: \.isWhitespace).joined(separator: " "), width: width, first: indent,
      rest: indent + "  ")
  }

  /// The text of `help` (every verb by group) or `help VERB` (usage, details, examples).
  static func lines(
    for verb: Word?, in registry: CommandRegistry, style: TextStyle, width: Int = WindowSize.standard.columns
  ) throws(CommandError) -> [String] {
    var out: [String] = []
    guard let verb else {
      let column = registry.commands.map { $0.configuration.usage.count }.max() ?? 0
      for group in CommandConfiguration.Group.allCases {
        let members = registry.commands.filter { $0.configuration.group == group }
        guard !members.isEmpty else { continue }
        out.append(style.bold(group.rawValue + ":"))
        for command in members {
          let configuration = command.configuration
          let padding = String(repeating: " ", count: column - configuration.usage.count)
          let lead = "  " + configuration.usage + padding + "  "
          if width - lead.count >= 24 {
            out += wrap(
              configuration.summary, width: width, first: lead, rest: String(repeating: " ", count: lead.count))
          } else {
            // A narrow window: the summary goes under its usage.
            out.append("  " + configuration.usage)
            out += wrap(configuration.summary, width: width, first: "      ", rest: "      ")
          }
        }
      }
      out += wrap("Type 'help VERB' for details and examples.", width: width, first: "", rest: "")
      return out
    }
    guard let command = registry.command(named: verb.text) else {
      var message = "unknown command \(TextSanitizer.quotedWord(verb.text))"
      if let suggestion = registry.suggestion(for: verb.text) {
        message += " (did you mean '\(suggestion)'?)"
      }
      throw CommandError(message)
    }
    let configuration = command.configuration
    out.append(style.bold("usage: ") + configuration.usage)
    out += wrap(configuration.summary, width: width, first: "  ", rest: "  ")
    if !configuration.aliases.isEmpty {
      out.append("  aliases: " + configuration.aliases.joined(separator: ", "))
    }
    if !configuration.details.isEmpty {
      out.append("")
      // Paragraphs (split by blank lines) are re-flowed to the window; a paragraph whose
      // lines are indented (the query syntax table) is kept as written.
      let paragraphs = configuration.details.components(separatedBy: "\n\n")
      for (index, paragraph) in paragraphs.enumerated() {
        if index > 0 { out.append("") }
        let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: true)
        if lines.count > 1, lines.dropFirst().allSatisfy({ $0.hasPrefix("  ") }) {
          for line in lines { out += tableRow("  " + line, width: width) }
        } else {
          out += wrap(
            paragraph.split(whereSeparator: \.isWhitespace).joined(separator: " "), width: width, first: "  ",
            rest: "  ")
        }
      }
    }
    if !configuration.examples.isEmpty {
      out.append("")
      out.append(configuration.examples.count == 1 ? "example:" : "examples:")
      for example in configuration.examples { out.append("  " + example) }
    }
    return out
  }

  /// `text` broken at spaces into lines of at most `width` columns (a longer word stands
  /// alone), the first starting with `first`, the others with `rest`.
  static func wrap(_ text: String, width: Int, first: String, rest: String) -> [String] {
    var lines: [String] = []
    var line = first
    var empty = true
    for word in text.split(separator: " ") {
      if !empty && DisplayWidth.width(line) + 1 + DisplayWidth.width(String(word)) > width {
        lines.append(line)
        line = rest
        empty = true
      }
      line += (empty ? "" : " ") + word
      empty = false
    }
    lines.append(line)
    return lines
  }
}
