import AlbumModel
import BlueCovers
import BlueSQL
import CoverTestSupport
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

@testable import BlueLibrary

extension RunsAlone {
  /// The cover ledger (schema 3): a library knows which covers are in the cache without
  /// opening a cache file per album, across shells, and forgets a cover whose file is gone.
  @Suite struct CoverLedgerTests {
    private func album(in library: Library, titled title: String) throws -> Album {
      let index = try #require(try library.indices(ofTitle: title, limit: 1).first)
      return try library.album(at: index)
    }

    @Test func aLandedCoverIsRecordedAndKnownToTheNextShellWithoutLookingInTheCache() async throws {
      let home = try TemporaryDirectory()
      try fakePNG(3).write(to: URL(fileURLWithPath: home.file("local.png")))
      let url = "file://" + home.file("local.png")
      let path = home.file("library.sqlite")

      let firstLoader = makeLoader(in: home).0
      let first = try Library.open(path: path, covers: firstLoader)
      try first.add(Album(title: "Local", coverURL: url))
      #expect(first.coverState(of: try album(in: first, titled: "Local")) == .local)
      first.requestCover(of: try album(in: first, titled: "Local"))
      #expect(await firstLoader.waitForPending(timeout: .seconds(10)))
      #expect(try album(in: first, titled: "Local").coverCached)

      // Another shell with its own loader: the library says cached, nothing was requested.
      let (loader, _) = makeLoader(in: home)
      let second = try Library.open(path: path, covers: loader)
      let stored = try album(in: second, titled: "Local")
      #expect(stored.coverCached)
      #expect(loader.sessionState(of: url) == nil)
      #expect(second.coverState(of: stored) == .cached)
      #expect(second.cachedCover(of: stored) == fakePNG(3))

      // The cache cleared behind its back: drawing still trusts the record (no probe), and
      // the first read of the missing file forgets the cover.
      try FileManager.default.removeItem(atPath: home.file("covers"))
      #expect(second.coverState(of: stored) == .cached)
      #expect(second.cachedCover(of: stored) == nil)
      let forgotten = try album(in: second, titled: "Local")
      #expect(!forgotten.coverCached)
      #expect(second.coverState(of: forgotten) == .local)
    }

    /// While `download all`'s batch waits, an album whose cover the library knows is cached
    /// stays cached (the card draws it), one on its own files stays local (read when drawn),
    /// and only one still to download is queued.
    @Test func aBatchWaitingLeavesCachedAndLocalCoversAsTheyAre() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      // Slow answers when the test has looked, not after a time a loaded machine may pass.
      let answerSlow = DispatchSemaphore(value: 0)
      server.route(startingWith: "/slow.png") { _, _ in
        _ = answerSlow.wait(timeout: .now() + 120)
        return .ok(fakePNG(1))
      }
      server.route("/landed.png", .ok(fakePNG(2)))
      server.route("/waiting.png", .ok(fakePNG(3)))
      try fakePNG(4).write(to: URL(fileURLWithPath: home.file("local.png")))
      let path = home.file("library.sqlite")
      let firstLoader = makeLoader(in: home).0
      let first = try Library.open(path: path, covers: firstLoader)
      for (title, url) in [
        ("Slow", server.url("/slow.png")), ("Landed", server.url("/landed.png")),
        ("Waiting", server.url("/waiting.png")), ("Local", "file://" + home.file("local.png")),
      ] {
        try first.add(Album(title: title, coverURL: url))
      }
      first.requestCover(of: try album(in: first, titled: "Landed"))
      #expect(await firstLoader.waitForPending(timeout: .seconds(120)))

      // Another shell, one download at a time: the batch holds the three after Slow.
      let (loader, _) = makeLoader(in: home, maxConcurrent: 1)
      let second = try Library.open(path: path, covers: loader)
      var batch = CoverBatch()
      for title in ["Slow", "Landed", "Waiting", "Local"] {
        let album = try album(in: second, titled: title)
        batch.append(album.coverURL, albumTitle: album.title, order: album.position)
      }
      second.requestCovers(batch)
      // Looked at once Slow's request is at the server (it is being downloaded), and before
      // it is answered: the ceilings are for a loaded machine, no time is counted on.
      let asked = ContinuousClock.now + .seconds(120)
      while server.requestCount("/slow.png") == 0 && ContinuousClock.now < asked {
        try await Task.sleep(for: .milliseconds(20))
      }
      let states = try ["Slow", "Landed", "Waiting", "Local"].map {
        second.coverState(of: try album(in: second, titled: $0))
      }
      answerSlow.signal()
      #expect(states == [.downloading, .cached, .queued, .local])
      #expect(await loader.waitForPending(timeout: .seconds(120)))
      #expect(server.requestCount("/landed.png") == 1 && server.requestCount("/waiting.png") == 1)
    }

    @Test func aVersion2LibraryRecordsTheCoversAlreadyInTheCacheOnce() throws {
      let home = try TemporaryDirectory()
      let path = home.file("library.sqlite")
      let cachedURL = "http://127.0.0.1:9/cached.png"
      let missingURL = "http://127.0.0.1:9/missing.png"
      // A library as bluelib with schema 2 wrote it, beside a cache holding one of its covers.
      let queue = try DatabaseQueue(path: path)
      try queue.write { db in
        for migration in Schema.migrations.prefix(2) { try migration(db) }
        try db.execute(sql: "PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 2")
        for (position, (title, url)) in [("Cached", cachedURL), ("Missing", missingURL)].enumerated() {
          try db.execute(
            sql: "INSERT INTO album (title, coverUrl, position) VALUES (?, ?, ?)", arguments: [title, url, position])
        }
      }
      try queue.close()
      let (loader, _) = makeLoader(in: home)
      try loader.cache.store(fakePNG(1), for: cachedURL)

      let library = try Library.open(path: path, covers: loader)
      #expect(library.coverState(of: try album(in: library, titled: "Cached")) == .cached)
      #expect(library.coverState(of: try album(in: library, titled: "Missing")) == .none)
      #expect(try library.store.coverScanPending() == false)
      let recorded = try library.store.queue.read { db in try String.fetchAll(db, sql: "SELECT url FROM cover") }
      #expect(recorded == [cachedURL])
    }

    @Test func aShellWithoutCoversLeavesTheScanForOneThatHasThem() throws {
      let home = try TemporaryDirectory()
      let path = home.file("library.sqlite")
      _ = try Library.open(path: path)
      #expect(try AlbumStore.open(path: path).coverScanPending())
      _ = try Library.open(path: path, covers: makeLoader(in: home).0)
      #expect(try AlbumStore.open(path: path).coverScanPending() == false)
    }
  }
}
