/// A history of executed entries that can be undone and redone, multi-level, LIFO.
///
/// Knows nothing of commands so it can be tested on its own. A new entry clears the redo
/// side, as in every editor.
public struct UndoStack<Entry> {
  /// Entries that `undo` would revert, oldest first.
  public private(set) var undoable: [Entry] = []
  /// Entries that `redo` would re-apply, the next one last.
  public private(set) var redoable: [Entry] = []
  /// The most entries kept; older ones are dropped.
  public let limit: Int

  /// Creates an empty stack keeping at most `limit` entries.
  public init(limit: Int = 1000) { self.limit = max(1, limit) }

  /// Records a newly executed entry and clears the redo side.
  public mutating func record(_ entry: Entry) {
    undoable.append(entry)
    redoable.removeAll()
    if undoable.count > limit { undoable.removeFirst(undoable.count - limit) }
  }

  /// Removes and returns the entry to undo; the caller hands it to ``didUndo(_:)`` or
  /// ``restoreUndoable(_:)``.
  public mutating func popUndoable() -> Entry? { undoable.popLast() }

  /// Records that `entry` was undone, so it can be redone.
  public mutating func didUndo(_ entry: Entry) { redoable.append(entry) }

  /// Puts back an entry whose undo failed.
  public mutating func restoreUndoable(_ entry: Entry) { undoable.append(entry) }

  /// Removes and returns the entry to redo.
  public mutating func popRedoable() -> Entry? { redoable.popLast() }

  /// Records that `entry` was redone (without clearing the rest of the redo side).
  public mutating func didRedo(_ entry: Entry) { undoable.append(entry) }

  /// Puts back an entry whose redo failed.
  public mutating func restoreRedoable(_ entry: Entry) { redoable.append(entry) }

  /// Forgets everything (after `reset`-like changes that cannot be stepped through).
  public mutating func removeAll() {
    undoable.removeAll()
    redoable.removeAll()
  }
}
