import BlueSystem

/// `undo [N]`: step back through library changes.
struct UndoCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "undo", group: .change, synopsis: "[N] | --list [N]",
    summary: "revert the last N library changes (default 1)",
    details: """
      Changes are add, edit, delete, move, import and reset; each is one step, kept in the
      library file (the last 1,000), so undo works in the next run and beside other shells
      open on the same library. 'undo' takes back this shell's latest change or, in a
      shell that has made none yet, the library's latest (how a new run undoes the last
      run's change). Steps act on the albums themselves, not on positions: an album put
      back goes next to its old neighbours. If an album the step touched was edited or
      deleted since (by this shell or another), nothing is undone and the error names it.
      Undoing restores the selection the change had: undoing a delete selects the album.
      Selection moves (scroll, tap) are not changes. A new change clears what redo would do.
      'undo --list' shows the log, newest first (20 steps unless N is given).
      """,
    examples: ["delete; undo", "undo 3", "undo --list"], arguments: [.keyword(["--list"])])

  let count: Int
  let listing: Bool

  init(arguments: [Word]) throws(CommandError) {
    listing = arguments.first.map { !$0.isQuoted && $0.text == "--list" } ?? false
    count = try Self.parseCount(Array(arguments.dropFirst(listing ? 1 : 0))) ?? (listing ? 20 : 1)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    guard listing else { return .shell(.undo(count: count)) }
    let library = environment.library
    let steps = try library.changeLog(limit: count)
    guard !steps.isEmpty else { return .lines(["(no changes in the log yet)"]) }
    let width = String(steps.first?.id ?? 0).count
    return .lines(
      steps.map { step in
        let number = String(step.id)
        var line = String(repeating: " ", count: 2 + width - number.count) + number + "  "
        line += TextSanitizer.escaped(step.summary)
        var notes: [String] = []
        if step.isUndone { notes.append("undone") }
        if step.session == library.session { notes.append("this shell") }
        return notes.isEmpty ? line : line + "  (" + notes.joined(separator: ", ") + ")"
      })
  }
}
