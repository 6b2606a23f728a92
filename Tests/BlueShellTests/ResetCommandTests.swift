import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `reset` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct ResetCommandTests: AlbumVerbExpectations {
  @Test func resetRestoresTheCatalogueAndUndoBringsTheLibraryBack() throws {
    let shell = try InProcessShell(albums: [
      Album(title: "A"), Album(title: "B"), Album(title: "C"),
    ])
    #expect(shell.run("tap 3") == [])
    _ = shell.output()
    #expect(shell.run("reset") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.library.selection == 0)
    #expect(
      shell.lines() == ["reset to the default catalogue (5 albums)"] + Self.catalogueViewport(1))

    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == ["A", "B", "C"])
    #expect(shell.library.selection == 2)
    #expect(
      shell.lines() == [#"undid reset"#, "[3/3] 1 A | 2 B | >3 C<"]
        + Self.details(Album(title: "C")))
    #expect(shell.run("redo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
  }

  @Test func resetOfAnEmptyLibrary() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("reset; undo") == [])
    #expect(try shell.library.count() == 0)
    #expect(shell.library.selection == nil)
    #expect(shell.run("reset now") == ["reset: unexpected argument 'now'"])
  }
}
