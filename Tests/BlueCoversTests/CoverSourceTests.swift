import CoverTestSupport
import Foundation
import TestSupport
import Testing

@testable import BlueCovers

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

  // MARK: - Embedded

  @Test(arguments: [
    ("embedded:file:///a/b%20c/%E6%97%A5.mp3", "/a/b c/日.mp3"),
    ("EMBEDDED:file:///x.flac", "/x.flac"),
    ("embedded:file://localhost/x.flac", "/x.flac"),
  ])
  func embeddedURLsNameTheirTrack(url: String, path: String) throws {
    #expect(try EmbeddedCoverSource.path(of: url) == path)
  }

  @Test(arguments: ["embedded:", "embedded:x.mp3", "embedded:file://host/x.mp3", "embedded:http://x/y.mp3"])
  func malformedEmbeddedURLsAreRefused(url: String) {
    #expect(throws: CoverFailure.unsupportedURL(url)) { try EmbeddedCoverSource.path(of: url) }
  }

  // MARK: - Bundled

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
