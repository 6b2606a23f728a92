import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `tap` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct TapCommandTests: AlbumVerbExpectations {
  @Test func tapSelectsByIndexAndCentresIt() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 3") == [])
    #expect(shell.library.selection == 2)
    #expect(shell.lines() == Self.catalogueViewport(3))
  }

  @Test(arguments: [
    (#"tap "American Pie""#, 5),
    (#"tap 'american pie'"#, 5),
    (#"tap "It's My Life""#, 2),
    ("tap Best\\ of\\ Bowie", 1),
  ])
  func tapSelectsByTitle(line: String, selected: Int) throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 3; \(line)") == [])
    #expect(shell.library.selection == selected - 1)
    #expect(shell.lines().suffix(6) == Array(Self.catalogueViewport(selected)))
  }

  @Test func quotedNumberIsATitle() throws {
    let shell = try InProcessShell(albums: [Album(title: "1984"), Album(title: "3")])
    #expect(shell.run(#"tap "3""#) == [])
    #expect(shell.library.selection == 1)
    #expect(shell.run("tap 3") == ["tap: no album 3 (the library has 2)"])
    #expect(shell.run(#"tap "1984"; show"#) == [])
    #expect(shell.lines().suffix(5) == Array(Self.details(Album(title: "1984"))))
  }

  @Test(arguments: [
    ("tap 9", "tap: no album 9 (the library has 5)"),
    ("tap 0", "tap: no album 0 (the library has 5)"),
    ("tap -1", "tap: no album -1 (the library has 5)"),
    ("tap 99999999999999999999", "tap: no album 99999999999999999999 (the library has 5)"),
    (#"tap "Blue Train""#, "tap: no album titled 'Blue Train' (try 'list Blue Train')"),
    ("tap 1 2", "tap: unexpected argument '2'"),
  ])
  func tapRejectsMissingAlbums(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [message])
    #expect(shell.library.selection == 0)
    #expect(shell.output() == "")
  }

  @Test func tapOnAnEmptyLibrary() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("tap 1") == ["tap: no album 1 (the library is empty)"])
  }
}
