import Testing

@testable import BlueShell

@Suite("UndoStack")
struct UndoStackTests {
  @Test func undoIsLastInFirstOut() {
    var stack = UndoStack<String>()
    for entry in ["a", "b", "c"] { stack.record(entry) }
    #expect(stack.popUndoable() == "c")
    #expect(stack.popUndoable() == "b")
    #expect(stack.popUndoable() == "a")
    #expect(stack.popUndoable() == nil)
  }

  @Test func undoneEntriesAreRedoneNewestUndoLast() {
    var stack = UndoStack<String>()
    for entry in ["a", "b", "c"] { stack.record(entry) }
    for _ in 0..<2 {
      let entry = stack.popUndoable()!
      stack.didUndo(entry)
    }
    #expect(stack.undoable == ["a"])
    #expect(stack.redoable == ["c", "b"])
    // Redo re-applies in the order the entries were first made.
    #expect(stack.popRedoable() == "b")
    stack.didRedo("b")
    #expect(stack.popRedoable() == "c")
    stack.didRedo("c")
    #expect(stack.popRedoable() == nil)
    #expect(stack.undoable == ["a", "b", "c"])
  }

  @Test func recordClearsRedo() {
    var stack = UndoStack<String>()
    stack.record("a")
    stack.record("b")
    stack.didUndo(stack.popUndoable()!)
    #expect(stack.redoable == ["b"])
    stack.record("c")
    #expect(stack.redoable.isEmpty)
    #expect(stack.undoable == ["a", "c"])
  }

  @Test func redoDoesNotClearTheRestOfRedo() {
    var stack = UndoStack<Int>()
    for entry in 1...3 { stack.record(entry) }
    for _ in 1...3 { stack.didUndo(stack.popUndoable()!) }
    stack.didRedo(stack.popRedoable()!)
    #expect(stack.undoable == [1])
    #expect(stack.redoable == [3, 2])
  }

  @Test(arguments: [(3, 5, [3, 4, 5]), (3, 3, [1, 2, 3]), (1, 4, [4]), (10, 2, [1, 2])])
  func limitDropsTheOldestEntries(limit: Int, recorded: Int, kept: [Int]) {
    var stack = UndoStack<Int>(limit: limit)
    for entry in 1...recorded { stack.record(entry) }
    #expect(stack.undoable == kept)
  }

  @Test(arguments: [0, -5])
  func limitIsAtLeastOne(limit: Int) {
    var stack = UndoStack<Int>(limit: limit)
    #expect(stack.limit == 1)
    stack.record(1)
    stack.record(2)
    #expect(stack.undoable == [2])
  }

  @Test func restoredUndoableGoesBackOnTop() {
    var stack = UndoStack<String>()
    stack.record("a")
    stack.record("b")
    let failed = stack.popUndoable()!
    stack.restoreUndoable(failed)
    #expect(stack.undoable == ["a", "b"])
    #expect(stack.redoable.isEmpty)
  }

  @Test func restoredRedoableGoesBackOnTop() {
    var stack = UndoStack<String>()
    stack.record("a")
    stack.record("b")
    stack.didUndo(stack.popUndoable()!)
    stack.didUndo(stack.popUndoable()!)
    let failed = stack.popRedoable()!
    stack.restoreRedoable(failed)
    #expect(stack.redoable == ["b", "a"])
    #expect(stack.popRedoable() == "a")
  }

  @Test func removeAllForgetsBothSides() {
    var stack = UndoStack<String>()
    stack.record("a")
    stack.record("b")
    stack.didUndo(stack.popUndoable()!)
    stack.removeAll()
    #expect(stack.undoable.isEmpty)
    #expect(stack.redoable.isEmpty)
    #expect(stack.popUndoable() == nil)
    #expect(stack.popRedoable() == nil)
  }
}
