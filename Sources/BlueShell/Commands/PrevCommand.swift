import BlueLibrary
import BluePlayback

/// `prev`: the previous track of the queue.
struct PrevCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "prev", group: .playback, synopsis: "", summary: "play the previous track of the queue",
    details: "At the first track of the queue, says there is no previous one.", examples: ["prev"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try environment.requiredPlayer()
    guard player.skip(by: -1) else {
      try player.checkReachable()
      throw CommandError("no previous track in the queue")
    }
    return .lines([])
  }
}
