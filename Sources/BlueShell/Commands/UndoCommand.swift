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

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    .shell(.undo(count: count))
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

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    .shell(.redo(count: count))
  }
}

