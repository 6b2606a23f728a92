/// What an undo or redo did.
package struct StepResult: Sendable, Equatable {
  /// The step taken back or made again (as it is now: `isUndone` tells which).
  package let step: ChangeStep
  /// The 0-based index selected afterwards (already stored), nil when the library is empty.
  package let selection: Int?

  package init(step: ChangeStep, selection: Int?) {
    (self.step, self.selection) = (step, selection)
  }
}

/// What a delete removed: how many albums, and the first three in library order (what
/// its message and its step's summary name).
package struct DeletedAlbums: Sendable, Equatable {
  /// How many albums were deleted.
  package let count: Int
  /// The first three of them (fewer when fewer went), in library order.
  package let first: [Album]

  package init(count: Int, first: [Album]) {
    (self.count, self.first) = (count, first)
  }
}
