import AlbumModel
import Testing

@testable import BlueLibrary

/// `download`'s paging and tally, behind the facade (issue 47, item 5): the library asks
/// for the covers a page at a time and counts what it did; the shell only says it.
@Suite struct CoverRequestTests {
  private static let albums = [
    Album(title: "A", artist: "X", genre: "", year: nil, coverURL: "https://example.com/a.jpg"),
    Album(title: "B", artist: "X", genre: "", year: nil, coverURL: ""),
    Album(title: "C", artist: "X", genre: "", year: nil, coverURL: "file:///music/C/cover.jpg"),
    Album(title: "D", artist: "X", genre: "", year: nil, coverURL: "https://example.com/d.jpg"),
  ]

  @Test func everyAlbumIsCountedByWhatItsCoverNeeds() throws {
    let library = Library.inMemory(seed: Self.albums)
    var expected: [Int] = []
    let tally = try library.requestCovers(
      ofAlbumsAt: nil, retry: false, shouldStop: { false }, expecting: { expected.append($0) })
    #expect(tally.started == 2 && tally.withoutCover == 1 && tally.local == 1 && tally.cached == 0)
    #expect(tally.lacking?.title == "B" && !tally.stopped)
    // One page of four albums: two downloads to wait for.
    #expect(expected == [2])
  }

  @Test func theAlbumsNamedAreCountedAloneAndASignalStopsThePages() throws {
    let library = Library.inMemory(seed: Self.albums)
    let named = try library.requestCovers(ofAlbumsAt: [1], retry: false, shouldStop: { false }, expecting: { _ in })
    #expect(named.withoutCover == 1 && named.started == 0 && named.lacking?.title == "B")
    let some = try library.requestCovers(
      ofAlbumsAt: [0, 2, 3], retry: false, shouldStop: { false }, expecting: { _ in })
    #expect(some.started == 2 && some.local == 1 && some.lacking == nil)
    let stopped = try library.requestCovers(ofAlbumsAt: nil, retry: false, shouldStop: { true }, expecting: { _ in })
    #expect(stopped.stopped && stopped.started == 0)
  }
}
