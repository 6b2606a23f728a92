import AlbumModel
import BluePlayback

// What you played: each album's play count and the time it was last played, kept in the
// library file beside the albums (not in the undo log: playing is not a change to undo).
extension Library {
  /// Counts each of the albums `ids` (as the player's ``Player/Event/played(albumID:at:)``
  /// events name them) as played once more, at `time` (seconds since 1970). Albums deleted
  /// since are skipped.
  package func notePlayed(_ ids: [Int64], at time: Int64) throws(LibraryError) {
    try store.notePlayed(ids, at: time)
  }

  /// How often `album` was played and when last (nil: never).
  package func plays(of album: Album) throws(LibraryError) -> (count: Int, last: Int64?) {
    guard let id = album.id else { return (0, nil) }
    return try store.plays(ofAlbumID: id)
  }
}

// How the player evens out loudness, kept in the library file's state (not a change to undo).
extension Library {
  /// The ReplayGain mode chosen with `replaygain` (``ReplayGainMode/album`` until one is);
  /// a value this build does not know reads as the default.
  package func replayGainMode() throws(LibraryError) -> ReplayGainMode {
    try store.stateText("replayGain").flatMap(ReplayGainMode.init(rawValue:)) ?? .album
  }

  /// Remembers `mode` for this shell and the next.
  package func setReplayGainMode(_ mode: ReplayGainMode) throws(LibraryError) {
    try store.setStateText("replayGain", mode.rawValue)
  }
}

// Where the player's audio goes, kept in the library file's state (not a change to undo).
extension Library {
  /// The output device, exclusive use and equalizer chosen with `audio` (the engine's own
  /// device, shared, no equalizer until chosen); a value this build cannot read is the
  /// default.
  package func audioSettings() throws(LibraryError) -> AudioSettings {
    AudioSettings(
      device: try store.stateText("audioDevice") ?? AudioSettings.automatic,
      exclusive: try store.stateText("audioExclusive") == "on",
      equalizer: try store.stateText("equalizer").flatMap(Equalizer.init(text:)))
  }

  /// Remembers `settings` for this shell and the next.
  package func setAudioSettings(_ settings: AudioSettings) throws(LibraryError) {
    // A default is kept as no value.
    try store.setStateTexts([
      ("audioDevice", settings.device == AudioSettings.automatic ? nil : settings.device),
      ("audioExclusive", settings.exclusive ? "on" : nil), ("equalizer", settings.equalizer?.text),
    ])
  }
}
