import BlueLibrary
import BluePlayback
import BlueSystem

/// `replaygain [album|track|off]`: which ReplayGain tags even out loudness, remembered in
/// the library file.
struct ReplayGainCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "replaygain", group: .playback, synopsis: "[album|track|off]",
    summary: "even out loudness by the files' ReplayGain tags: the album's, each track's, or none",
    details: """
      'album' (the default) plays each album at one loudness, its tracks as loud against one
      another as they were mastered; 'track' plays every track at one loudness (for a
      shuffled queue); 'off' plays the files as they are. A file without ReplayGain tags
      plays 6 dB quieter (most untagged music is mastered louder than ReplayGain's
      reference). The choice applies to what plays now, is kept in the library file, and is
      the next shell's too. Alone, says which; 'now' says the gain applied to the track. A
      tag never raises a file past full scale (by its peak) nor by more than +15 dB, and what
      is raised goes through a limiter that keeps it under full scale; 'now' says when a
      gain was held.
      Tags come from other tools (beets' replaygain plugin, loudgain, foobar2000).
      """,
    examples: ["replaygain", "replaygain track", "replaygain off"],
    arguments: [.keyword(ReplayGainMode.allCases.map(\.rawValue))])

  let mode: ReplayGainMode?

  init(arguments: [Word]) throws(CommandError) {
    mode = try Self.parseOptional(arguments) { word throws(CommandError) in
      guard let mode = ReplayGainMode(rawValue: word.text.lowercased()) else {
        throw CommandError("replaygain is 'album', 'track' or 'off', not '\(TextSanitizer.escaped(word.text))'")
      }
      return mode
    }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    if let mode {
      try library.setReplayGainMode(mode)
      environment.player?.setReplayGain(mode)
    }
    let mode = try library.replayGainMode()
    switch mode {
    case .off: return .lines(["replaygain off: files play as they are"])
    case .album, .track:
      return .lines(["replaygain \(mode.rawValue): by each \(mode.rawValue)'s tags; untagged files −6 dB"])
    }
  }
}
