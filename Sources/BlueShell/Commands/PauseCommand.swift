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
    guard let paused = try environment.requiredPlayer().togglePause() else { throw CommandError("nothing is playing") }
    return .lines([paused ? "paused" : "playing"])
  }
}
