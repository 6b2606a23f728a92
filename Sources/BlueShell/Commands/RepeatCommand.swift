import BlueLibrary
import BlueSystem

/// `repeat [on|off]`: whether the queue plays again from its first track after its last.
struct RepeatCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "repeat", group: .playback, synopsis: "[on|off]",
    summary: "play the queue again after its last track (on), or stop there (off)",
    details: """
      Alone, says which. It applies to what plays now and to every queue after, until this
      shell ends (it starts off). In a script, a queue that repeats plays until bluelib is
      stopped (Ctrl-C, SIGTERM).
      """,
    examples: ["repeat", "repeat on", "repeat off"], arguments: [.keyword(["on", "off"])])

  let on: Bool?

  init(arguments: [Word]) throws(CommandError) {
    on = try Self.parseOptional(arguments) { word throws(CommandError) in
      switch word.text.lowercased() {
      case "on": return true
      case "off": return false
      default: throw CommandError("repeat is 'on' or 'off', not '\(TextSanitizer.escaped(word.text))'")
      }
    }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try environment.requiredPlayer()
    if let on { player.setRepeat(on) }
    return .lines([player.repeats ? "repeat on: the queue plays again after its end" : "repeat off"])
  }
}
