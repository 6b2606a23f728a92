import CoverTestSupport
import Foundation
import TestSupport
import Testing

@testable import BlueCovers

struct CoverCacheTests {
  @Test func fileNameIsTheSHA256OfTheURLAndNothingOfIt() {
    let url = "https://covers.example/album/best-of-bowie.png?size=large"
    let name = CoverCache.fileName(for: url)
    #expect(name == SHA256.hex(url))
    #expect(name.count == 64)
    #expect(name.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(!name.contains("png") && !name.contains("bowie"))
  }

  @Test func urlsWithTheSameLastComponentDoNotCollide() {
    #expect(
      CoverCache.fileName(for: "http://a.example/cover.png") != CoverCache.fileName(for: "http://b.example/cover.png"))
  }

  @Test func storedCoverIsReadBackAndContained() throws {
    let home = try TemporaryDirectory()
    let cache = CoverCache(directory: home.file("covers/nested"))
    let url = "http://covers.example/1.png"
    #expect(!cache.contains(url))
    #expect(cache.cachedData(for: url) == nil)

    try cache.store(fakePNG(1), for: url)

    #expect(cache.contains(url))
    #expect(cache.cachedData(for: url) == fakePNG(1))
    #expect(files(in: cache.directory) == [CoverCache.fileName(for: url)])
  }

  @Test func storeReplacesTheOldCoverAndLeavesNoTemporaryFile() throws {
    let home = try TemporaryDirectory()
    let cache = CoverCache(directory: home.path)
    let url = "http://covers.example/1.png"
    try cache.store(fakePNG(1), for: url)
    try cache.store(fakePNG(2), for: url)
    #expect(cache.cachedData(for: url) == fakePNG(2))
    #expect(files(in: home.path) == [CoverCache.fileName(for: url)])
  }

  @Test func corruptCacheFileIsAMissAndIsRemoved() throws {
    let home = try TemporaryDirectory()
    let cache = CoverCache(directory: home.path)
    let url = "http://covers.example/1.png"
    try Data("<html>oops</html>".utf8).write(to: URL(fileURLWithPath: cache.path(for: url)))

    #expect(cache.cachedData(for: url) == nil)
    #expect(!FileManager.default.fileExists(atPath: cache.path(for: url)))
  }

  @Test func corruptCacheFileIsNotContained() throws {
    let home = try TemporaryDirectory()
    let cache = CoverCache(directory: home.path)
    let url = "http://covers.example/1.png"
    try Data().write(to: URL(fileURLWithPath: cache.path(for: url)))
    #expect(!cache.contains(url))
  }

  @Test func storeIntoAnUnwritablePlaceNamesThePath() throws {
    let home = try TemporaryDirectory()
    try Data("a file".utf8).write(to: URL(fileURLWithPath: home.file("blocker")))
    let cache = CoverCache(directory: home.file("blocker/covers"))
    #expect(throws: CoverCacheError.self) { try cache.store(fakePNG(1), for: "http://x/1.png") }
    do {
      try cache.store(fakePNG(1), for: "http://x/1.png")
    } catch {
      #expect(error.description.hasPrefix("cannot write cover cache file \(home.file("blocker/covers"))"))
    }
  }
}
