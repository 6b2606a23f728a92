import BlueLibrary
import Testing

@testable import BlueShell

/// `scroll` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct ScrollCommandTests: AlbumVerbExpectations {
  @Test(arguments: [
    ("scroll right", 2),
    ("scroll right 2", 3),
    ("scroll right 99", 5),
    ("scroll RIGHT 3; scroll left", 3),
    ("scroll left", 1),
    ("scroll end; scroll right", 5),
    ("scroll end; scroll left 2", 3),
    ("scroll end; scroll left 99", 1),
    ("scroll end", 5),
    ("scroll end; scroll home", 1),
    ("scroll to 3", 3),
    (#"scroll to "American Pie""#, 5),
  ])
  func scrollSelectsTheCardItSnapsTo(line: String, selected: Int) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [])
    #expect(shell.library.selection == selected - 1)
    #expect(try shell.library.count() == 5)
    #expect(shell.lines().suffix(6) == Array(Self.catalogueViewport(selected)))
  }

  @Test func scrollDrawsTheViewportOnce() throws {
    let shell = try InProcessShell()
    #expect(shell.run("scroll right") == [])
    #expect(shell.lines() == Self.catalogueViewport(2))
  }

  @Test(arguments: [
    ("scroll", "scroll: missing a direction (usage: scroll left|right [N] | to ALBUM | home|end)"),
    ("scroll up", "scroll: expected left, right, to, home or end, got 'up'"),
    ("scroll left 0", "scroll: N must be a positive whole number, got '0'"),
    ("scroll right x", "scroll: N must be a positive whole number, got 'x'"),
    ("scroll to", "scroll: missing ALBUM (usage: scroll to ALBUM)"),
    ("scroll to 9", "scroll: no album 9 (the library has 5)"),
    ("scroll to zzz", "scroll: no album's title starts with 'zzz' (try 'list zzz')"),
    ("scroll to artist:zzz", "scroll: no album matches 'artist:zzz'"),
    ("scroll home 2", "scroll: unexpected argument '2'"),
  ])
  func scrollRejectsBadArguments(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2") == [])
    _ = shell.output()
    #expect(shell.run(line) == [message])
    #expect(shell.library.selection == 1)
    #expect(shell.output() == "")
  }

  @Test(arguments: ["scroll right", "scroll left 2", "scroll home", "scroll end", "scroll to 1"])
  func scrollOnAnEmptyLibraryFails(line: String) throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run(line) == ["scroll: the library is empty"])
    #expect(shell.library.selection == nil)
    #expect(shell.output() == "")
  }
}
