import AlbumModel
import BlueLibrary
import BluePlayback
import BlueSystem

/// `seek [+|-]TIME`: to a time in the track, or by one.
struct SeekCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "seek", group: .playback, synopsis: "[+|-]TIME",
    summary: "go to TIME in the playing track, or by +TIME / -TIME",
    details: "TIME is seconds (90) or M:SS (1:30); a sign makes it relative: 'seek +10', 'seek -0:30'.",
    examples: ["seek 1:30", "seek +10", "seek -30"])

  let seconds: Double
  let relative: Bool

  init(arguments: [Word]) throws(CommandError) {
    guard let word = arguments.first else { throw CommandError("missing TIME (like 1:30, +10 or -30)") }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    var text = Substring(word.text)
    var sign = 0.0
    if let first = text.first, first == "+" || first == "-" {
      sign = first == "+" ? 1 : -1
      text = text.dropFirst()
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
      let last = Double(parts[parts.count - 1]), parts.count == 1 || last < 60
    else {
      throw CommandError("'\(TextSanitizer.escaped(word.text))' is not a time (like 90, 1:30, +10 or -0:30)")
    }
    let total = (parts.count == 2 ? (Double(parts[0]) ?? 0) * 60 : 0) + last
    seconds = sign == 0 ? total : sign * total
    relative = sign != 0
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try environment.requiredPlayer()
    guard let status = player.status() else { throw CommandError("nothing is playing") }
    let target = max(0, min(relative ? status.time + seconds : seconds, status.track.duration))
    player.seek(target, relative: false)
    return .lines(["at \(Album.length(target)) of \(Album.length(status.track.duration))"])
  }
}
