import BlueSystem

/// `history [N]`: the last N input lines, numbered.
struct HistoryCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "history", group: .shell, synopsis: "[N]",
    summary: "show the last N input lines (all by default)",
    details: """
      Interactive lines are kept across runs (1,000 at most) in the state directory; a line
      that starts with a space is not kept, and a line repeating the one before is kept once.
      Piped scripts are not recorded: there, history lists this run's lines only.
      """,
    examples: ["history", "history 5"], arguments: [.text])

  let count: Int?

  init(arguments: [Word]) throws(CommandError) {
    count = try Self.parseCount(arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    .shell(.history(count: count))
  }

  /// The last `count` entries of `history`, numbered and right-aligned.
  static func lines(_ history: InputHistory, count: Int?) -> [String] {
    let entries = history.last(count)
    let width = String(entries.last?.number ?? 0).count
    return entries.map { number, line in
      let label = String(number)
      return String(repeating: " ", count: 2 + width - label.count) + label + "  " + TextSanitizer.escaped(line)
    }
  }
}
