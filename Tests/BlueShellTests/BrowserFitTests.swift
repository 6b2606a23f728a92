import AlbumModel
import BlueCovers
import BlueLibrary
import Foundation
import Testing

@testable import BlueShell

extension RunsAlone {
  /// The drawing of a scroll or tap fits the window: with the command line above it and the
  /// prompt below, the whole row of cards stays on screen (issue: at 80×24 a scroll printed
  /// 28 lines and the top of the cards scrolled away).
  @Suite("Browser fits the window")
  struct BrowserFitTests {
    /// The default catalogue with every bundled cover in the cache, so cards draw art.
    func browserWithCovers(_ directory: TemporaryDirectory) async throws -> (AlbumBrowser, Library) {
      let loader = CoverLoader(cache: CoverCache(directory: directory.file("covers")))
      var albums = DefaultCatalogue.albums
      // A music album has the most detail rows (tracks, length, folder).
      albums[0].tracks = 12
      albums[0].duration = 2_712
      albums[0].folder = "/music/Bowie/Best of Bowie"
      let library = Library.inMemory(seed: albums, covers: loader)
      for index in 0..<albums.count { library.requestCover(of: try library.album(at: index)) }
      // Waited for on a thread of its own: blocking one of Swift's few cooperative threads
      // could stop the downloads it waits for when tests run in parallel. The ceiling is
      // for a loaded machine: idle is what counts, not how soon.
      let idle = await withCheckedContinuation { done in
        Thread.detachNewThread { done.resume(returning: loader.waitUntilIdle(timeout: 120)) }
      }
      #expect(idle)
      let browser = AlbumBrowser(library: library, style: .plain, layout: .cards)
      return (browser, library)
    }

    @Test(arguments: [24, 30, 40, 20, 16, 12, 10, 9])
    func theDrawingLeavesRoomForTheCommandAndThePrompt(rows: Int) async throws {
      let directory = try TemporaryDirectory()
      let (browser, _) = try await browserWithCovers(directory)
      let lines = browser.drawing(window: WindowSize(columns: 80, rows: rows)).lines
      #expect(lines.count <= rows - 2, "\(rows) rows: \(lines.count) lines")
      // The whole card row is there: its top and bottom borders.
      #expect(lines.first?.contains("┏") == true)
      #expect(lines.contains { $0.contains("┗") })
    }

    @Test func aTallWindowShowsFullArtAndEveryDetail() async throws {
      let directory = try TemporaryDirectory()
      let (browser, _) = try await browserWithCovers(directory)
      let lines = browser.drawing(window: WindowSize(columns: 80, rows: 40)).lines
      // Ten art rows between the borders, then the `N of M` line and eight detail rows.
      let expected: Int = 10 + 5 + 1 + 8
      #expect(lines.count == expected)
      #expect(lines.last?.hasPrefix("Folder:") == true)
    }

    @Test func atEightyByTwentyFourTheArtShrinksAndTheDetailsStay() async throws {
      let directory = try TemporaryDirectory()
      let (browser, _) = try await browserWithCovers(directory)
      let lines = browser.drawing(window: WindowSize(columns: 80, rows: 24)).lines
      #expect(lines.count == 22)
      #expect(lines.contains { $0.hasPrefix("Artist: David Bowie") })
      #expect(lines.last?.hasPrefix("Folder:") == true)
    }

    @Test func aLowWindowGetsTheDetailsOnOneLineAndALowerOneTheRowOnOneLine() async throws {
      let directory = try TemporaryDirectory()
      let (browser, _) = try await browserWithCovers(directory)
      let low = browser.drawing(window: WindowSize(columns: 80, rows: 12)).lines
      #expect(low.last == "Best of Bowie — David Bowie (1992, Pop)")
      #expect(low.count == 5 + 1 + 1)
      let lowest = browser.drawing(window: WindowSize(columns: 80, rows: 6)).lines
      #expect(lowest.count == 1)
      #expect(lowest[0].hasPrefix("[1/5] >1 Best of Bowie<"))
      #expect(DisplayWidth.width(lowest[0]) <= 80)
    }
  }
}

/// `cover --size` on a terminal: a box larger than the window is fitted to it, the prompt's
/// line kept below, its shape kept, and whole rows used (issue "Covers for every album").
@Suite("Cover box fitting")
struct CoverBoxFitTests {
  @Test(arguments: [
    // (requested columns, rows, window columns, rows) → fitted.
    ((40, 20, 71, 20), (38, 19)),  // the window: taller than it
    ((40, 20, 100, 42), (40, 20)),  // fits: unchanged
    ((100, 50, 59, 30), (58, 29)),  // both too large: the width decides
    ((100, 50, 200, 30), (58, 29)),  // too tall: whole rows, columns in proportion
    ((80, 10, 41, 30), (40, 5)),  // too wide only
    ((40, 20, 10, 1), (2, 1)),  // a window of one row: one row, its shape kept
    ((3, 3, 2, 2), (1, 1)),
  ])
  func aBoxIsFittedToTheWindow(requested: (Int, Int, Int, Int), fitted: (Int, Int)) {
    let result = CoverCommand.fitted(
      columns: requested.0, rows: requested.1, in: WindowSize(columns: requested.2, rows: requested.3))
    #expect(result.columns == fitted.0 && result.rows == fitted.1, "\(requested) → \(result)")
  }
}
