import BlueLibrary
import Testing

@testable import BlueShell

/// The undo rules (SPEC §3) in process: selection moves are not steps, each change is one
/// step, undone newest first. An ``InProcessShell`` over a library on an in-memory store;
/// each test asserts the library's state and what the user sees (script mode).
@Suite struct UndoCommandTests: AlbumVerbExpectations {
  @Test func selectionMovesAreNotUndoable() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 3; scroll right; scroll to 1; scroll end; view; show 2; list") == [])
    #expect(shell.run("undo") == ["undo: nothing to undo"])
    #expect(shell.library.selection == 4)
  }

  @Test func undoSkipsSelectionMovesAndRestoresTheChangesSelection() throws {
    let shell = try InProcessShell()
    #expect(
      shell.run("tap 2; delete 5; tap 1; scroll right 2; edit 1 genre=Glam; scroll end") == [])
    #expect(shell.run("undo") == [])
    #expect(try shell.library.album(at: 0).genre == "Pop")
    #expect(shell.library.selection == 2)  // where it was when the edit was made
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.library.selection == 4)  // the deleted album, back and selected
  }

  @Test func everyChangeIsOneStepUndoneNewestFirst() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/one.csv"
      try writeFile(path, "title\nImported\n")
      let shell = try InProcessShell()
      #expect(
        shell.run("add Added; edit year=2001; move 2 to 1; delete 3; import \(path); reset") == [])
      _ = shell.output()
      #expect(shell.run("undo 6") == [])
      let steps = shell.lines().filter { $0.hasPrefix("undid") }
      #expect(
        steps == [
          "undid reset", "undid import of 1 album", #"undid delete "It's My Life""#,
          #"undid move "Added""#, #"undid edit "Added""#, #"undid add "Added""#,
        ])
      #expect(try shell.titles() == Self.catalogueTitles)
      #expect(shell.library.selection == 0)
      #expect(shell.run("redo 6") == [])
      #expect(try shell.titles() == Self.catalogueTitles)
      #expect(shell.run("undo") == [])
      #expect(
        try shell.titles() == [
          "Added", "Best of Bowie", "Nothing Like The Sun", "Staring at the Sun", "American Pie",
          "Imported",
        ])
    }
  }
}
