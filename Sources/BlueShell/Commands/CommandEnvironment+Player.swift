import BluePlayback

// The playback verbs (`play`, `queue`, `pause`, `next`, `prev`, `stop`, `seek`, `volume`,
// `now`, `repeat`, `replaygain`) play albums from music folders through the environment's
// player; its events come back as status lines above the prompt (``NowPlaying``), by the
// path the cover downloads' lines take.
extension CommandEnvironment {
  /// The player, or the error that says there is none.
  func requiredPlayer() throws(CommandError) -> Player {
    guard let player else { throw CommandError("playback is off in this shell") }
    return player
  }
}

/// A playback verb that takes no arguments and acts on the player alone (`pause`, `next`,
/// `prev`, `stop`, `now`).
protocol PlayerCommand: Command {
  init()
  /// Performs the verb on the environment's player and says what happened.
  func execute(on player: Player) throws -> CommandOutcome
}

extension PlayerCommand {
  init(arguments: [Word]) throws(CommandError) {
    try Self.expectNoArguments(arguments)
    self.init()
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    try execute(on: environment.requiredPlayer())
  }
}

/// `next` and `prev`: one step through the queue, forwards or back.
protocol SkipCommand: PlayerCommand {
  /// 1 for `next`, -1 for `prev`.
  static var offset: Int { get }
}

extension SkipCommand {
  func execute(on player: Player) throws -> CommandOutcome {
    guard player.skip(by: Self.offset) else {
      try player.checkReachable()
      throw CommandError("no \(Self.offset > 0 ? "next" : "previous") track in the queue")
    }
    return .lines([])
  }
}
