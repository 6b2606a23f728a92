import BluePlayback
import BlueSystem

extension CommandError {
  /// The error of a command whose playback failed: for tracks the engine refused, the first
  /// one asked for and why; files gone are most often a folder moved or a disk not mounted.
  init(playback error: PlaybackError) {
    guard let refusal = error.refusal else {
      self.init(error.description)
      return
    }
    if refusal.problem == .gone {
      self.init(
        "the files of \"\(TextSanitizer.escaped(refusal.track.album))\" are gone "
          + "(\(TextSanitizer.escaped(refusal.track.path)): \(refusal.problem)); 'import DIR' finds them if they moved")
      return
    }
    self.init("cannot play \(TextSanitizer.escaped(NowPlaying.fileName(refusal.track.path))): \(refusal.problem)")
  }
}
