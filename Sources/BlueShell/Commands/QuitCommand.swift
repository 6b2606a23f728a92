/// `quit` / `exit`: leave the shell.
struct QuitCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "quit", aliases: ["exit"], group: .shell,
    summary: "leave the shell (Ctrl-D does the same)",
    details: "The current album is saved, so the next run opens on it.", examples: ["quit"])

  init(arguments: [Word]) throws(CommandError) {
    try Self.expectNoArguments(arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    .shell(.quit)
  }
}
