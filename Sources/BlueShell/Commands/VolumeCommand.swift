import BlueLibrary
import BluePlayback
import BlueSystem

/// `volume [0-100]`: say or set the volume.
struct VolumeCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "volume", group: .playback, synopsis: "[0-100]", summary: "say the volume, or set it (0-100)",
    details: "The player's own volume, not the system's.", examples: ["volume", "volume 60"])

  let level: Int?

  init(arguments: [Word]) throws(CommandError) {
    level = try Self.parseOptional(arguments) { word throws(CommandError) in
      guard let number = Int(word.text), (0...100).contains(number) else {
        throw CommandError("volume is 0 to 100, got '\(TextSanitizer.escaped(word.text))'")
      }
      return number
    }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try environment.requiredPlayer()
    // A music server gone says so, rather than a volume it has not (a player in this
    // process is always there: nothing is asked).
    try player.checkReachable()
    if let level {
      do throws(PlaybackError) { try player.setVolume(level) } catch { throw CommandError(playback: error) }
    }
    return .lines(["volume \(level ?? player.volume)"])
  }
}
