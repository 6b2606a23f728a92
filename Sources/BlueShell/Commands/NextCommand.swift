import BlueLibrary

/// `next`: the next track of the queue.
struct NextCommand: SkipCommand {
  static let configuration = CommandConfiguration(
    verb: "next", group: .playback, synopsis: "", summary: "play the next track of the queue",
    details: "At the last track of the queue, says there is no next one.", examples: ["next"])
  static let offset = 1
}
