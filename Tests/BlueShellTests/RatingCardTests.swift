import AlbumModel
import BlueLibrary
import Foundation
import Testing

@testable import BlueShell

/// The rating and favourite mark on a card and in `show` (issue 38, item 2).
@Suite struct RatingCardTests {
  static func library() -> Library {
    var albums = DefaultCatalogue.albums
    albums[0].rating = 4
    albums[0].favourite = true
    albums[1].rating = 2
    albums[2].favourite = true
    return Library.inMemory(seed: albums)
  }

  @Test func aCardShowsTheStarsAndTheHeartInItsBottomBorder() throws {
    let browser = AlbumBrowser(library: Self.library(), style: .plain, layout: .cards)
    let lines = browser.drawing(window: WindowSize(columns: 120, rows: 12)).lines
    let bottom = try #require(lines.first { $0.contains("┗") })
    #expect(bottom.contains("┗━ ★★★★☆ ♥ ━"), "\(bottom)")
    #expect(bottom.contains("└─ ★★☆☆☆ ─"), "\(bottom)")
    #expect(bottom.contains("└─ ♥ ─"), "\(bottom)")
    // Every card keeps its width: each row of the cards is as wide as the first.
    let top = try #require(lines.first)
    #expect(DisplayWidth.width(bottom) == DisplayWidth.width(top))
  }

  @Test func showHasARatingAndAFavouriteRowOnlyWhenThereIsOne() throws {
    let library = Self.library()
    let browser = AlbumBrowser(library: library, style: .plain, layout: .plain)
    let rated = browser.showLines(for: try library.album(at: 0))
    #expect(rated.contains("Rating: ★★★★☆"))
    #expect(rated.contains("Favourite: ♥ yes"))
    let plain = browser.showLines(for: try library.album(at: 3))
    #expect(!plain.contains { $0.hasPrefix("Rating:") || $0.hasPrefix("Favourite:") })
  }
}
