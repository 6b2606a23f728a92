import BlueLibrary
import BluePlayback

/// `stop`: stop playing; the queue stays.
struct StopCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "stop", group: .playback, synopsis: "", summary: "stop playing (the queue stays for 'play')",
    details: "Stops at once; 'play' alone starts the queue again from its first track.", examples: ["stop"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try environment.requiredPlayer()
    guard !player.isIdle else { throw CommandError("nothing is playing") }
    player.stop()
    return .lines(["stopped"])
  }
}
