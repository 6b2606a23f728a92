import BlueLibrary
import BluePlayback

/// `pause`: pause what plays, or resume it.
struct PauseCommand: PlayerCommand {
  static let configuration = CommandConfiguration(
    verb: "pause", group: .playback, synopsis: "", summary: "pause what plays, or resume it",
    details: "Toggles: a second 'pause' resumes.", examples: ["pause"])

  func execute(on player: Player) throws -> CommandOutcome {
    guard let paused = player.togglePause() else {
      // A music server gone says so, not that nothing plays.
      try player.checkReachable()
      throw CommandError("nothing is playing")
    }
    return .lines([paused ? "paused" : "playing"])
  }
}
