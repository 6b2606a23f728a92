import BlueLibrary

/// `prev`: the previous track of the queue.
struct PrevCommand: SkipCommand {
  static let configuration = CommandConfiguration(
    verb: "prev", group: .playback, synopsis: "", summary: "play the previous track of the queue",
    details:
      "At the first track of the queue, says there is no previous one; when the queue repeats (`repeat on`), plays its last.",
    examples: ["prev"])
  static let offset = -1
}
