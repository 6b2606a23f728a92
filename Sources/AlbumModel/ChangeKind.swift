/// What a step of the undo log did to the library.
package enum ChangeKind: String, Sendable {
  /// One album inserted.
  case add
  /// One album's fields changed.
  case edit
  /// One album removed.
  case delete
  /// One album moved to another index.
  case move
  /// Albums appended, as one step.
  case `import`
  /// Every album replaced, as one step.
  case reset
  /// Albums' fields written into the tags of their files, as one step.
  case write

  /// Whether the step may change which album stands at which index (an edit or a write of
  /// tags leaves every album where it was).
  package var movesAlbums: Bool { self != .edit && self != .write }
}
