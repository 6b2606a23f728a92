import BlueLibrary
import Testing

@testable import BlueShell

/// `move` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct MoveCommandTests: AlbumVerbExpectations {
  @Test func moveReordersAndSelectsTheMovedAlbum() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2; move 5 to 1") == [])
    _ = shell.output()
    #expect(try shell.titles() == ["American Pie"] + Self.catalogueTitles.prefix(4))
    #expect(shell.library.selection == 0)
    #expect(shell.run(#"move "Best of Bowie" to 5"#) == [])
    #expect(try shell.titles().last == "Best of Bowie")
    #expect(shell.library.selection == 4)
    #expect(
      shell.lines() == [
        #"moved "Best of Bowie" from 2 to 5"#,
        "[5/5] 3 Nothing Like The Sun | 4 Staring at the Sun | >5 Best of Bowie<",
      ] + Self.details(Self.catalogue(1)))
  }

  @Test func undoMoveRestoresTheOrderAndTheSelection() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2; move 5 to 1; tap 3") == [])
    _ = shell.output()
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.library.selection == 1)
    #expect(shell.lines() == [#"undid move "American Pie""#] + Self.catalogueViewport(2))
    #expect(shell.run("redo") == [])
    #expect(try shell.titles().first == "American Pie")
    #expect(shell.library.selection == 0)
  }

  @Test(arguments: [
    ("move 1 to 9", "move: no position 9 (the library has 5)"),
    ("move 1 to 6", "move: no position 6 (the library has 5)"),
    ("move 9 to 1", "move: no album 9 (the library has 5)"),
    ("move 1 to 0", "move: POSITION must be a whole number from 1, got '0'"),
    ("move 1 to first", "move: POSITION must be a whole number from 1, got 'first'"),
    ("move 1", "move: missing ALBUM to POSITION (usage: move ALBUM… to POSITION)"),
    ("move 1 2", "move: missing ALBUM to POSITION (usage: move ALBUM… to POSITION)"),
    ("move 1 to 2 3", "move: unexpected argument '3'"),
    ("move Nope to 1", "move: no album titled 'Nope' (try 'list Nope')"),
    ("move 1-3 to 4", "move: 3 albums do not fit from position 4 (the library has 5)"),
    ("move 3-9 to 1", "move: no album 9 (the library has 5)"),
    ("move 3-2 to 1", "move: the range '3-2' runs backwards (try '2-3')"),
  ])
  func moveRejectsBadArguments(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [message])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.output() == "")
  }

  /// `move 3-5 to 1`, `move 1 2 to 4`: the albums move as one block, in their order, as one
  /// step that one undo takes back and one redo makes again (issue 26, item 2).
  @Test(arguments: [
    (
      "move 3-5 to 1", [3, 4, 5, 1, 2],
      #"moved 3 albums to 1–3: "Nothing Like The Sun", "Staring at the Sun", "American Pie""#
    ),
    ("move 1 2 to 4", [3, 4, 5, 1, 2], #"moved 2 albums to 4–5: "Best of Bowie", "It's My Life""#),
    (
      "move 5 1 3 to 2", [2, 1, 3, 5, 4],
      #"moved 3 albums to 2–4: "Best of Bowie", "Nothing Like The Sun", "American Pie""#
    ),
    ("move 2-3 to 2", [1, 2, 3, 4, 5], #"moved 2 albums to 2–3: "It's My Life", "Nothing Like The Sun""#),
  ])
  func moveSeveralAlbumsIsOneBlockAndOneStep(line: String, order: [Int], message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 4") == [])
    _ = shell.output()
    #expect(shell.run(line) == [])
    #expect(shell.lines().first == message)
    let moved = order.map { Self.catalogue($0).title }
    #expect(try shell.titles() == moved)
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.library.selection == 3)
    #expect(shell.run("redo") == [])
    #expect(try shell.titles() == moved)
    #expect(shell.run("undo; undo") == ["undo: nothing to undo"])
    #expect(try shell.titles() == Self.catalogueTitles)
  }
}
