import BlueLibrary
import BluePlayback

/// `stop`: stop playing; the queue stays.
struct StopCommand: PlayerCommand {
  static let configuration = CommandConfiguration(
    verb: "stop", group: .playback, synopsis: "", summary: "stop playing (the queue stays for 'play')",
    details: "Stops at once; 'play' alone starts the queue again from its first track.", examples: ["stop"])

  func execute(on player: Player) throws -> CommandOutcome {
    guard !player.isIdle else { throw CommandError("nothing is playing") }
    player.stop()
    return .lines(["stopped"])
  }
}
