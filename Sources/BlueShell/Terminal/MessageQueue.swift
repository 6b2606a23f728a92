import Synchronization

/// Lines produced by background work (cover downloads), waiting for the terminal's owner.
///
/// - Important: ``post(_:)`` may be called from any thread; it never writes to the terminal.
///   The owning thread drains the queue: between commands in script mode, and above the
///   prompt (redrawing the half-typed line) in interactive mode.
public final class MessageQueue: Sendable {
  private let lines = Mutex<[(order: Int, sequence: Int, text: String)]>([])
  private let pipe: WakeUpPipe

  /// Creates a queue that wakes the owner through `pipe`.
  public init(pipe: WakeUpPipe = .shared) {
    self.pipe = pipe
  }

  /// Queues one complete line (no newline) and wakes the owner. Lines drained together
  /// come out by `order`, then as posted: downloads that finish while one command runs
  /// are reported in the order they were requested, so a script's output does not depend
  /// on which server answered first.
  public func post(_ line: String, order: Int = .max) {
    lines.withLock { $0.append((order, $0.count, line)) }
    pipe.wake()
  }

  /// Takes every queued line.
  public func drain() -> [String] {
    lines.withLock { queued in
      defer { queued.removeAll() }
      return queued.sorted { ($0.order, $0.sequence) < ($1.order, $1.sequence) }.map(\.text)
    }
  }
}
