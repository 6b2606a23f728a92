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
