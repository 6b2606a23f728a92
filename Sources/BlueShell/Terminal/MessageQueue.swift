import BlueLibrary
import BluePlayback
import BlueSystem
import Synchronization

/// What background work hands the terminal's owner: status lines (cover downloads, what
/// starts playing), and the albums the player counted as played, for the owner to record.
///
/// - Important: ``post(_:order:)`` and ``post(_:)`` may be called from any thread; they
///   never write to the terminal. The owning thread takes what is queued (through a
///   ``MessageDelivery``): between commands in script mode, and above the prompt (redrawing
///   the half-typed line) in interactive mode.
final class MessageQueue: Sendable {
  private let queue = Mutex(Queued())

  private struct Queued {
    var lines: [(order: Int, sequence: Int, text: String)] = []
    /// Lines posted while ``limit`` were waiting: counted, not kept.
    var dropped = 0
    /// Albums counted as played, in order, waiting to be recorded (not subject to the limit:
    /// one a track at most).
    var plays: [Play] = []
    /// Whether a cover a card asked for landed (or failed) since the owner last looked.
    var cardCoverLanded = false
  }

  /// An album counted as played, and when (seconds since 1970).
  struct Play: Equatable {
    var albumID: Int64
    var time: Int64
  }

  /// The most lines kept waiting for the owner (a `download all` of a million albums
  /// posts a million): past it, lines are counted and summed up in one.
  static let limit = 1000
  private let pipe: WakeUpPipe

  /// Creates a queue that wakes the owner through `pipe`.
  init(pipe: WakeUpPipe = .shared) {
    self.pipe = pipe
  }

  /// Queues one complete line (no newline) and wakes the owner. Lines drained together
  /// come out by `order`, then as posted: downloads that finish while one command runs
  /// are reported in the order they were requested, so a script's output does not depend
  /// on which server answered first.
  func post(_ line: String, order: Int = .max) {
    let kept = queue.withLock { queue in
      guard queue.lines.count < Self.limit else {
        queue.dropped += 1
        return false
      }
      queue.lines.append((order, queue.lines.count, line))
      return true
    }
    // A full queue has woken the owner already: no system call for each line it drops.
    if kept { pipe.wake() }
  }

  /// Queues what the player tells (on its engine's thread, or on the owner's for a play
  /// counted at a skip or a stop) and wakes the owner: a play to record, or a status line.
  func post(_ event: Player.Event) {
    guard case .played(let albumID, let time) = event else {
      if let line = NowPlaying.line(event) { post(line) }
      return
    }
    queue.withLock { $0.plays.append(Play(albumID: albumID, time: time)) }
    pipe.wake()
  }

  /// Takes every queued line; when more were posted than the queue keeps, a last line
  /// says how many were left out.
  func drain() -> [String] {
    queue.withLock { queue in
      defer {
        queue.lines = []
        queue.dropped = 0
      }
      var lines = queue.lines.sorted { ($0.order, $0.sequence) < ($1.order, $1.sequence) }.map(\.text)
      if queue.dropped > 0 {
        lines.append(
          "… and \(Library.counted(queue.dropped, "more line", plural: "more lines")) not shown ('downloads' lists the latest)"
        )
      }
      return lines
    }
  }

  /// Notes that a cover a card asked for landed (or failed), and wakes the owner: at the
  /// prompt, the cards are drawn again once those they wait for are all in.
  func coverLandedForCard() {
    let first = queue.withLock { queue in
      defer { queue.cardCoverLanded = true }
      return !queue.cardCoverLanded
    }
    if first { pipe.wake() }
  }

  /// Whether a cover a card asked for landed since the last call.
  func takeCardCoverLanded() -> Bool {
    queue.withLock { queue in
      defer { queue.cardCoverLanded = false }
      return queue.cardCoverLanded
    }
  }

  /// Takes every queued play, in the order they were counted.
  func takePlays() -> [Play] {
    queue.withLock { queue in
      defer { queue.plays = [] }
      return queue.plays
    }
  }
}
