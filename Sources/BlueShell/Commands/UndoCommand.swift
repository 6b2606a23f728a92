/// `undo [N]`: step back through library changes.
public struct UndoCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "undo", group: .change, synopsis: "[N]",
    summary: "revert the last N library changes (default 1)",
    details: """
      Changes are add, edit, delete, move, import and reset. Undoing one restores the
      selection it had: undoing a delete brings the album back and selects it.
      Selection moves (scroll, tap) are not changes. A new change clears what redo would do.
      """,
    examples: ["delete; undo", "undo 3"], arguments: [.text])

  let count: Int

  public init(arguments: [Word]) throws(CommandError) {
    count = try Self.parseCount(arguments) ?? 1
  }

  public func execute(in context: CommandContext) throws(CommandError) {
    try stepThroughChanges(in: context, saying: "undid") { (report) throws(CommandError) in
      try context.undo(count, reporting: report)
    }
  }
}

/// `redo [N]`: step forward again through undone changes.
public struct RedoCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "redo", group: .change, synopsis: "[N]",
    summary: "re-apply the last N undone changes (default 1)",
    examples: ["undo; redo"], arguments: [.text])

  let count: Int

  public init(arguments: [Word]) throws(CommandError) {
    count = try Self.parseCount(arguments) ?? 1
  }

  public func execute(in context: CommandContext) throws(CommandError) {
    try stepThroughChanges(in: context, saying: "redid") { (report) throws(CommandError) in
      try context.redo(count, reporting: report)
    }
  }
}

/// Runs undo or redo steps, printing each as it is done and drawing the viewport once
/// afterwards when any step happened (even if a later one failed).
private func stepThroughChanges(
  in context: CommandContext, saying verb: String,
  _ steps: ((String) -> Void) throws(CommandError) -> Void
) throws(CommandError) {
  var stepped = false
  defer { if stepped { context.browser?.render() } }
  try steps { description in
    stepped = true
    context.output.line(verb + " " + description)
  }
}
