import Foundation
import TestSupport
import Testing

/// Undo and redo with two shells open on one library (SPEC §9: the undo log lives in the
/// library file and acts on album identities), and undo in the next run.
@Suite(.serialized)
struct UndoAcrossShellsTests {
  typealias F = LibraryFixture

  /// The titles `list` prints, in order.
  func titles(_ runner: BinaryRunner) throws -> [String] {
    let result = try runner.run(["-c", "list"])
    return result.stdout.split(separator: "\n").dropLast().map { line in
      let afterIndex = line.drop { $0 != "." }.dropFirst(2)
      return String(afterIndex.prefix { $0 != "—" && $0 != "·" }).trimmingCharacters(in: .whitespaces)
    }
  }

  let defaults = ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"]

  @Test func undoOfAddAfterTheOtherShellAddedRemovesOnlyOurAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let ours = try LiveShell(runner)
    try ours.send("tap 5; add Ours")
    #expect(try runner.run(["-c", "tap 5; add Theirs"]).status == 0)
    #expect(try ours.send("undo").stdout.hasPrefix("undid add \"Ours\"\n"))
    #expect(ours.finish().status == 0)
    #expect(try titles(runner) == defaults + ["Theirs"])
  }

  @Test func undoOfDeleteAfterTheOtherShellAddedPutsTheAlbumBackBetweenItsNeighbours() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let ours = try LiveShell(runner)
    try ours.send("delete 2")
    #expect(try runner.run(["-c", "tap 1; add Theirs; move Theirs to 1"]).status == 0)
    #expect(
      try titles(runner) == ["Theirs", "Best of Bowie", "Nothing Like The Sun", "Staring at the Sun", "American Pie"])
    let undo = try ours.send("undo")
    #expect(undo.stderr == "")
    #expect(undo.stdout.hasPrefix("undid delete \"It's My Life\"\n"))
    #expect(ours.finish().status == 0)
    // After its old previous neighbour, Best of Bowie, not at its old index 2.
    #expect(try titles(runner) == ["Theirs", "Best of Bowie", "It's My Life"] + defaults[2...])
  }

  @Test func redoOfDeleteAfterTheOtherShellMovedDeletesThatAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let ours = try LiveShell(runner)
    try ours.send("delete 2; undo")
    #expect(try runner.run(["-c", "move 5 to 1"]).status == 0)
    let redo = try ours.send("redo")
    #expect(redo.stderr == "")
    #expect(redo.stdout.hasPrefix("redid delete \"It's My Life\"\n"))
    #expect(ours.finish().status == 0)
    #expect(try titles(runner) == ["American Pie", "Best of Bowie", "Nothing Like The Sun", "Staring at the Sun"])
  }

  @Test func undoOfMoveAfterTheOtherShellDeletedTheAlbumIsRefusedAndChangesNothing() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let ours = try LiveShell(runner)
    try ours.send("move 5 to 1")
    #expect(try runner.run(["-c", "delete \"American Pie\""]).status == 0)
    let before = try titles(runner)
    let undo = try ours.send("undo")
    #expect(
      undo.stderr == "bluelib: stdin:3: undo: \"American Pie\" was deleted since (by another shell?); nothing undone\n")
    #expect(undo.stdout == "")
    #expect(ours.finish().status == 1)
    #expect(try titles(runner) == before)
    #expect(before == Array(defaults.prefix(4)))
  }

  @Test func undoOfResetAfterTheOtherShellAddedKeepsTheirAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let ours = try LiveShell(runner)
    try ours.send("tap 5; add Mine; reset")
    #expect(try runner.run(["-c", "tap 5; add Theirs"]).status == 0)
    let undo = try ours.send("undo")
    #expect(undo.stderr == "")
    #expect(undo.stdout.hasPrefix("undid reset\n"))
    #expect(ours.finish().status == 0)
    #expect(try titles(runner) == defaults + ["Mine", "Theirs"])
  }

  @Test func undoOfImportAfterTheOtherShellAddedRemovesExactlyTheImportedAlbums() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let file = try F.write(
      #"[{"title":"One"},{"title":"Two"},{"title":"Three"}]"#, to: "three.json", in: runner)
    let ours = try LiveShell(runner)
    // Into the untouched samples: the import takes their place, and its undo brings them back.
    try ours.send("import \(file)")
    #expect(try runner.run(["-c", "tap 3; add Theirs"]).status == 0)
    #expect(try titles(runner) == ["One", "Two", "Three", "Theirs"])
    let undo = try ours.send("undo")
    #expect(undo.stderr == "")
    #expect(undo.stdout.hasPrefix("undid import of 3 albums in place of the 5 sample albums\n"))
    #expect(ours.finish().status == 0)
    #expect(try titles(runner) == defaults + ["Theirs"])
  }

  @Test func aRunningShellSeesAlbumsTheOtherShellAdded() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let ours = try LiveShell(runner)
    try ours.send("view")
    #expect(try runner.run(["-c", "tap 5; add Six; add Seven; add Eight"]).status == 0)
    let tap = try ours.send("tap 8")
    #expect(tap.stderr == "")
    #expect(tap.stdout.hasPrefix("[8/8] "))
    #expect(tap.stdout.contains("Album: Eight\n"))
    #expect(ours.finish().status == 0)
  }

  @Test func undoListShowsTheLogNewestFirstWithWhoseStepAndWhatWasUndone() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(["-c", "delete 2"]).status == 0)
    let result = try runner.run(["-c", "add X; undo", "-c", "undo --list"])
    #expect(result.stderr == "")
    #expect(
      result.stdout.hasSuffix(
        "  2  add \"X\"  (undone, this shell)\n  1  delete \"It's My Life\"\n"))
    #expect(try runner.run(["-c", "undo --list 1"]).stdout == "  2  add \"X\"  (undone)\n")
  }

  // MARK: - The next run

  @Test func deleteQuitThenUndoInTheNextRunBringsTheAlbumBackAtItsPlace() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(["-c", "delete 2"]).status == 0)
    let undo = try runner.run(["-c", "undo; list"])
    #expect(undo.stderr == "")
    #expect(undo.status == 0)
    #expect(undo.stdout.hasPrefix("undid delete \"It's My Life\"\n"))
    #expect(try titles(runner) == defaults)
    #expect(try runner.run(["-c", "show"]).stdout == F.details(2))
  }

  @Test func importResetQuitThenUndoInTheNextRunBringsEveryAlbumBack() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let rows = (1...300).map { #"{"title":"Imported \#($0)"}"# }
    let file = try F.write("[" + rows.joined(separator: ",") + "]", to: "many.json", in: runner)
    #expect(try runner.run(["-c", "import \(file)"]).status == 0)
    #expect(try runner.run(["-c", "reset"]).status == 0)
    #expect(try titles(runner) == defaults)
    let undo = try runner.run(["-c", "undo"])
    #expect(undo.stderr == "")
    #expect(undo.stdout.hasPrefix("undid reset\n"))
    #expect(try titles(runner) == (1...300).map { "Imported \($0)" })
    // And one more step back in a third run: the import itself, which took the samples' place.
    #expect(
      try runner.run(["-c", "undo"]).stdout.hasPrefix("undid import of 300 albums in place of the 5 sample albums\n"))
    #expect(try titles(runner) == defaults)
  }
}
