/// What an undo or redo did.
public struct StepResult: Sendable, Equatable {
  /// The step taken back or made again (as it is now: `isUndone` tells which).
  public let step: ChangeStep
  /// The 0-based index selected afterwards (already stored), nil when the library is empty.
  public let selection: Int?
}
