import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `view` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct ViewCommandTests: AlbumVerbExpectations {
  @Test func viewDrawsTheViewport() throws {
    let shell = try InProcessShell()
    #expect(shell.run("view") == [])
    #expect(shell.lines() == Self.catalogueViewport(1))
    #expect(shell.run("tap 5; view") == [])
    #expect(shell.lines() == Self.catalogueViewport(5) + Self.catalogueViewport(5))
  }

  @Test func viewOfAnEmptyLibrary() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("view") == [])
    #expect(shell.lines() == Self.emptyViewport)
  }

  @Test func viewportOfManyAlbumsShowsOnlyTheVisibleCards() throws {
    let albums = (1...1000).map { Album(title: "T\($0)", position: $0 - 1) }
    let shell = try InProcessShell(albums: albums)
    #expect(shell.run("tap 500") == [])
    #expect(
      shell.lines().first == "[500/1000] 498 T498 | 499 T499 | >500 T500< | 501 T501 | 502 T502")
  }
}
