import Foundation
import TestSupport
import Testing

@testable import BlueLibrary

struct CoverSourceTests {
  private let limits = CoverLimits(timeout: .seconds(5), maxBytes: 10 << 20)

  /// The failure `source` reports for `url`, or nil if it fetched something.
  private func failure(of source: some CoverSource, _ url: String, limits: CoverLimits? = nil) async -> CoverFailure? {
    do {
      _ = try await source.fetch(url, limits: limits ?? self.limits)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Schemes

  @Test(arguments: [
    ("http://x/y.png", "http"), ("HTTPS://x/y.png", "https"), ("file:///a.png", "file"),
    ("bluelib:covers/a.png", "bluelib"), ("svn+ssh://x", "svn+ssh"),
  ])
  func schemeIsTheLowercasedPrefix(url: String, scheme: String) {
    #expect(coverURLScheme(url) == scheme)
  }

  @Test(arguments: ["", "no-colon", ":empty", "1http://x", "ht tp://x"])
  func malformedURLsHaveNoScheme(url: String) {
    #expect(coverURLScheme(url) == nil)
  }

  // MARK: - Bundled

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

  @Test func unknownBundledCoverIsNoSuchFile() async {
    let url = "bluelib:covers/no-such-album.png"
    #expect(await failure(of: BundledCoverSource(), url) == .noSuchFile(url))
  }

  @Test(arguments: [
    "bluelib:covers/../Package.swift", "bluelib:covers/", "bluelib:other/a.png", "bluelib:covers/.hidden",
  ])
  func bundledURLsCannotLeaveTheCoverDirectory(url: String) async {
    #expect(await failure(of: BundledCoverSource(), url) == .unsupportedURL(url))
  }

  // MARK: - Files

  @Test func fileCoverIsReadWithOrWithoutHost() async throws {
    let home = try TemporaryDirectory()
    try fakePNG(7).write(to: URL(fileURLWithPath: home.file("my cover.png")))
    let encoded = home.file("my%20cover.png")
    for url in ["file://" + encoded, "file:" + encoded, "file://localhost" + encoded] {
      #expect(try await FileCoverSource().fetch(url, limits: limits) == fakePNG(7))
    }
  }

  @Test func missingFileIsNoSuchFile() async throws {
    let home = try TemporaryDirectory()
    let path = home.file("missing.png")
    #expect(await failure(of: FileCoverSource(), "file://" + path) == .noSuchFile(path))
  }

  @Test func directoryIsNotACover() async throws {
    let home = try TemporaryDirectory()
    #expect(
      await failure(of: FileCoverSource(), "file://" + home.path) == .unreadableFile("\(home.path) is a directory"))
  }

  @Test func fileOverTheCapIsTooLargeWithoutBeingRead() async throws {
    let home = try TemporaryDirectory()
    try fakePNG(1, size: 2048).write(to: URL(fileURLWithPath: home.file("big.png")))
    let small = CoverLimits(timeout: .seconds(5), maxBytes: 1024)
    #expect(
      await failure(of: FileCoverSource(), "file://" + home.file("big.png"), limits: small) == .tooLarge(maxBytes: 1024)
    )
  }

  @Test(arguments: ["file:relative/cover.png", "file://otherhost/tmp/cover.png"])
  func fileURLsMustBeLocalAndAbsolute(url: String) async {
    #expect(await failure(of: FileCoverSource(), url) == .unsupportedURL(url))
  }
}
