import AlbumModel
import BlueCovers
import CoverTestSupport
import Foundation
import TestSupport
import Testing

@testable import BlueLibrary

/// The default catalogue's covers are the bundled images, read without a network.
struct DefaultCatalogueCoverTests {
  private let limits = CoverLimits(timeout: .seconds(5), maxBytes: 10 << 20)

  @Test(arguments: DefaultCatalogue.albums.map(\.coverURL))
  func everyDefaultCoverIsABundledSquarePNG(url: String) async throws {
    let data = try await BundledCoverSource().fetch(url, limits: limits)
    #expect(CoverImageFormat(sniffing: data) == .png)
    #expect(data.count < 30 << 10)
    // IHDR: width and height, big-endian, at bytes 16..<24.
    let bytes = [UInt8](data)
    let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
    let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
    #expect(width == 300 && height == 300)
  }

  @Test func bundledCoversAreDistinct() async throws {
    var seen = Set<Data>()
    for album in DefaultCatalogue.albums {
      seen.insert(try await BundledCoverSource().fetch(album.coverURL, limits: limits))
    }
    #expect(seen.count == DefaultCatalogue.albums.count)
  }
}

extension RunsAlone {
  struct DefaultCatalogueCoverLoadTests {
    @Test func bundledCoversLoadOffline() async throws {
      let home = try TemporaryDirectory()
      // No HTTP source at all: nothing can go near the network.
      let (loader, recorder) = makeLoader(in: home, sources: [BundledCoverSource()])
      for album in DefaultCatalogue.albums {
        loader.request(album.coverURL, for: CoverRequester(title: album.title))
      }
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      for album in DefaultCatalogue.albums {
        guard case .finished(_, let albums, let bytes, _, false) = recorder.outcome(for: album.coverURL) else {
          Issue.record("\(album.coverURL): \(recorder.events(for: album.coverURL))")
          continue
        }
        #expect(albums.map(\.title) == [album.title])
        #expect(bytes > 0)
        #expect(CoverImageFormat(sniffing: loader.cache.cachedData(for: album.coverURL) ?? Data()) == .png)
      }
    }
  }
}
