import Synchronization

/// Lines produced by background work (cover downloads), waiting for the terminal's owner.
///
/// - Important: ``post(_:)`` may be called from any thread; it never writes to the terminal.
///   The owning thread drains the queue: between commands in script mode, and above the
///   prompt (redrawing the half-typed line) in interactive mode.
public final class MessageQueue: Sendable {
  private let lines = Mutex<[String]>([])
  private let pipe: WakeUpPipe

  /// Creates a queue that wakes the owner through `pipe`.
  public init(pipe: WakeUpPipe = .shared) {
    self.pipe = pipe
  }

  /// Queues one complete line (no newline) and wakes the owner.
  public func post(_ line: String) {
    lines.withLock { $0.append(line) }
    pipe.wake()
  }

  /// Takes every queued line, oldest first.
  public func drain() -> [String] {
    lines.withLock { queued in
      defer { queued.removeAll() }
      return queued
    }
  }
}
