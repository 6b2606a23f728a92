import BlueLibrary
import BluePlayback

/// `next`: the next track of the queue.
struct NextCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "next", group: .playback, synopsis: "", summary: "play the next track of the queue",
    details: "At the last track of the queue, says there is no next one.", examples: ["next"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try environment.requiredPlayer()
    guard player.skip(by: 1) else {
      try player.checkReachable()
      throw CommandError("no next track in the queue")
    }
    return .lines([])
  }
}
