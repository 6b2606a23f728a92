import BlueLibrary

/// The terminal owner's end of the ``MessageQueue``: takes what background work queued,
/// records the plays in the library (which is written on this thread only) and hands back
/// the lines to print. A play that cannot be recorded is kept as a failure for the session
/// to report.
///
/// - Important: On the thread that owns the terminal.
final class MessageDelivery {
  /// Where background work posts.
  let messages: MessageQueue
  private let library: Library
  private var failures: [String] = []

  /// Delivers what is posted to `messages`, recording the plays in `library`.
  init(messages: MessageQueue, library: Library) {
    self.messages = messages
    self.library = library
  }

  /// Records the plays queued so far (each album once more, at the time it was counted).
  func recordPlays() {
    let plays = messages.takePlays()
    guard !plays.isEmpty else { return }
    // One write for the plays counted in the same second (a queue that ends at a stop).
    var start = plays.startIndex
    while start < plays.endIndex {
      let time = plays[start].time
      let end = plays[start...].firstIndex { $0.time != time } ?? plays.endIndex
      do {
        try library.notePlayed(plays[start..<end].map(\.albumID), at: time)
      } catch {
        failures.append("cannot record what was played: \(error)")
      }
      start = end
    }
  }

  /// Records the plays queued so far, then takes the lines (``MessageQueue/drain()``).
  func take() -> [String] {
    recordPlays()
    return messages.drain()
  }

  /// The failures to record plays since the last call.
  func takeFailures() -> [String] {
    defer { failures = [] }
    return failures
  }
}

@available(*, unavailable, message: "the delivery stays on the thread that owns the terminal")
extension MessageDelivery: Sendable {}
