import BlueLibrary
import BluePlayback

/// `pause`: pause what plays, or resume it.
struct PauseCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "pause", group: .playback, synopsis: "", summary: "pause what plays, or resume it",
    details: "Toggles: a second 'pause' resumes.", examples: ["pause"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try environment.requiredPlayer()
    guard let paused = player.togglePause() else {
      // A music server gone says so, not that nothing plays.
      try player.checkReachable()
      throw CommandError("nothing is playing")
    }
    return .lines([paused ? "paused" : "playing"])
  }
}
