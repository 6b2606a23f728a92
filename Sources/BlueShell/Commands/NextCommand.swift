import BlueLibrary

/// `next`: the next track of the queue.
struct NextCommand: SkipCommand {
  static let configuration = CommandConfiguration(
    verb: "next", group: .playback, synopsis: "", summary: "play the next track of the queue",
    details:
      "At the last track of the queue, says there is no next one; when the queue repeats (`repeat on`), plays its first.",
    examples: ["next"])
  static let offset = 1
}
