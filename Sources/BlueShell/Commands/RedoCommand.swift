/// `redo [N]`: step forward again through undone changes.
struct RedoCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "redo", group: .change, synopsis: "[N]",
    summary: "re-apply the last N undone changes (default 1)",
    details: """
      Makes again this shell's most recently undone change or, in a shell that has made
      none, the library's; refused, changing nothing, if its albums were changed since.
      """,
    examples: ["undo; redo"], arguments: [.text])

  let count: Int

  init(arguments: [Word]) throws(CommandError) {
    count = try Self.parseCount(arguments) ?? 1
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    .shell(.redo(count: count))
  }
}
