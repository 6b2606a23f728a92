/// What an undo or redo did.
public struct StepResult: Sendable, Equatable {
  /// The step taken back or made again (as it is now: `isUndone` tells which).
  public let step: ChangeStep
  /// The 0-based index selected afterwards (already stored), nil when the library is empty.
  public let selection: Int?

  package init(step: ChangeStep, selection: Int?) {
    (self.step, self.selection) = (step, selection)
  }
}

/// What a delete removed: how many albums, and the first three in library order (what
/// its message and its step's summary name).
public struct DeletedAlbums: Sendable, Equatable {
  /// How many albums were deleted.
  public let count: Int
  /// The first three of them (fewer when fewer went), in library order.
  public let first: [Album]

  package init(count: Int, first: [Album]) {
    (self.count, self.first) = (count, first)
  }
}
