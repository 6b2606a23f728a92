import CoverTestSupport
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

@testable import BlueCovers

extension RunsAlone {
  struct CoverLoaderTests {
    // MARK: - Concurrency and order

    @Test func twentyFourSlowCoversRunSixAtATimeInRequestOrder() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let (loader, recorder) = makeLoader(in: home, maxConcurrent: 6)
      let urls = (0..<24).map { server.url("/cover-\($0).png") }
      for index in urls.indices {
        server.route("/cover-\(index).png", .ok(fakePNG(index), delay: 0.5))
      }

      let start = ContinuousClock.now
      for (index, url) in urls.enumerated() {
        loader.request(url, albumTitle: "Album \(index)")
      }
      #expect(await loader.waitForPending(timeout: .seconds(10)))
      let elapsed = ContinuousClock.now - start

      // Four rounds of six at 0.5 s each: at least 2 s, and well under the 12 s of one at a time.
      #expect(elapsed < .seconds(3), "took \(elapsed)")
      #expect(elapsed >= .seconds(1.9), "took \(elapsed): more than 6 ran at once")
      for (index, url) in urls.enumerated() {
        #expect(server.requestCount("/cover-\(index).png") == 1)
        guard case .finished(_, let albums, let bytes, _, false) = recorder.outcome(for: url) else {
          Issue.record("no download finished for \(url): \(recorder.events(for: url))")
          continue
        }
        #expect(albums.map(\.title) == ["Album \(index)"])
        #expect(bytes == fakePNG(index).count)
        #expect(loader.currentState(of: url) == .cached)
        #expect(loader.cache.cachedData(for: url) == fakePNG(index))
      }

      // Each URL: queued, started, finished; never more than six started and unsettled.
      var running = 0
      var peak = 0
      for event in recorder.events {
        if case .started = event { running += 1 }
        if event.isTerminal { running -= 1 }
        peak = max(peak, running)
      }
      #expect(peak == 6)
      let started = recorder.events.compactMap { event -> String? in
        if case .started(let url, _) = event { return url }
        return nil
      }
      #expect(started == urls)
      for url in urls {
        let kinds = recorder.events(for: url).map { "\($0)".prefix { $0 != "(" } }
        #expect(kinds == ["queued", "started", "finished"])
      }
    }

    @Test func pendingSnapshotShowsRunningThenQueuedAtOnce() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let (loader, _) = makeLoader(in: home, maxConcurrent: 2)
      let urls = (0..<4).map { server.url("/slow-\($0).png") }
      for index in 0..<4 { server.route("/slow-\(index).png", .ok(fakePNG(index), delay: 0.3)) }

      for (index, url) in urls.enumerated() {
        loader.request(url, albumTitle: "Album \(index)")
      }

      // Visible synchronously, before any download has had time to finish.
      let pending = loader.pendingSnapshot()
      #expect(pending.map(\.url) == urls)
      #expect(pending.map(\.state) == [.downloading, .downloading, .queued, .queued])
      #expect(pending.map(\.albums) == [["Album 0"], ["Album 1"], ["Album 2"], ["Album 3"]])
      #expect(loader.currentState(of: urls[3]) == .queued)
      #expect(loader.pendingCount == 4)
      #expect(await loader.waitForPending(timeout: .seconds(5)))
      #expect(loader.pendingSnapshot().isEmpty)
      #expect(loader.pendingCount == 0)
    }

    // MARK: - Failures

    @Test func notFoundIsReportedAsHTTP404() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let (loader, recorder) = makeLoader(in: home)
      let url = server.url("/missing.png")

      loader.request(url, albumTitle: "Missing")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(
        recorder.outcome(for: url) == .failed(url: url, albums: [CoverRequester(title: "Missing")], .httpStatus(404)))
      #expect(recorder.failure(for: url)?.description == "HTTP 404")
      #expect(loader.currentState(of: url) == .failed(.httpStatus(404)))
      #expect(files(in: loader.cache.directory).isEmpty)
    }

    @Test func htmlBodyIsNotAnImage() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/portal.png", .html())
      let (loader, recorder) = makeLoader(in: home)
      let url = server.url("/portal.png")

      loader.request(url, albumTitle: "Portal")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(recorder.failure(for: url)?.description == "not an image")
      #expect(!loader.cache.contains(url))
    }

    @Test(arguments: [true, false])
    func twentyMebibyteBodyIsLargerThanTenMiB(declared: Bool) async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/huge.png", .mebibytes(20, declared: declared))
      let (loader, recorder) = makeLoader(in: home)
      let url = server.url("/huge.png")

      loader.request(url, albumTitle: "Huge")
      #expect(await loader.waitForPending(timeout: .seconds(8)))

      #expect(recorder.failure(for: url)?.description == "larger than 10 MiB")
      #expect(files(in: loader.cache.directory).isEmpty)
    }

    @Test func endlessBodyStopsAtTheCapInsteadOfTimingOut() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/endless.png", .endless)
      let (loader, recorder) = makeLoader(in: home, timeout: .seconds(8), maxBytes: 1 << 20)
      let url = server.url("/endless.png")

      let start = ContinuousClock.now
      loader.request(url, albumTitle: "Endless")
      #expect(await loader.waitForPending(timeout: .seconds(10)))

      // A reader that buffered everything would only ever stop at the timeout.
      #expect(recorder.failure(for: url) == .tooLarge(maxBytes: 1 << 20))
      #expect(ContinuousClock.now - start < .seconds(4))
    }

    @Test func unresolvableHostIsNamed() async throws {
      let home = try TemporaryDirectory()
      let (loader, recorder) = makeLoader(in: home)
      let url = "http://bluelib-no-such-host.invalid/x.png"

      loader.request(url, albumTitle: "Nowhere")
      #expect(await loader.waitForPending(timeout: .seconds(10)))

      #expect(recorder.failure(for: url)?.description == "could not resolve host bluelib-no-such-host.invalid")
    }

    @Test func refusedConnectionNamesHostAndPort() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let port = server.port
      server.stop()
      let (loader, recorder) = makeLoader(in: home)
      let url = "http://127.0.0.1:\(port)/x.png"

      loader.request(url, albumTitle: "Closed")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(recorder.failure(for: url)?.description == "cannot connect to 127.0.0.1:\(port)")
    }

    @Test func serverThatNeverAnswersTimesOut() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/hang.png", .neverAnswer)
      let (loader, recorder) = makeLoader(in: home, timeout: .seconds(1))
      let url = server.url("/hang.png")

      let start = ContinuousClock.now
      loader.request(url, albumTitle: "Hang")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(recorder.failure(for: url)?.description == "timed out after 1 s")
      let elapsed = ContinuousClock.now - start
      #expect(elapsed >= .seconds(0.9) && elapsed < .seconds(3), "took \(elapsed)")
      #expect(server.requestCount("/hang.png") == 1)
    }

    @Test func unsupportedSchemeFailsAtOnce() async throws {
      let home = try TemporaryDirectory()
      let (loader, recorder) = makeLoader(in: home)
      let url = "gopher://covers.example/x.png"

      #expect(loader.request(url, albumTitle: "Gopher") == .failed(.unsupportedURL(url)))
      #expect(await loader.waitForPending(timeout: .seconds(5)))
      #expect(recorder.events == [.failed(url: url, albums: [CoverRequester(title: "Gopher")], .unsupportedURL(url))])
    }

    @Test func failedDownloadIsRetriedWhenRequestedAgain() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let (loader, recorder) = makeLoader(in: home)
      let url = server.url("/flaky.png")
      server.route("/flaky.png", .status(500))
      loader.request(url, albumTitle: "Flaky")
      #expect(await loader.waitForPending(timeout: .seconds(5)))
      #expect(loader.currentState(of: url) == .failed(.httpStatus(500)))

      server.route("/flaky.png", .ok(fakePNG(1)))
      loader.request(url, albumTitle: "Flaky")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(server.requestCount("/flaky.png") == 2)
      #expect(loader.currentState(of: url) == .cached)
      guard case .finished(_, _, _, _, false) = recorder.outcome(for: url) else {
        Issue.record("retry did not finish: \(recorder.events(for: url))")
        return
      }
    }

    // MARK: - Cache

    @Test func secondRequestOfEverythingIsServedFromTheCache() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let urls = (0..<5).map { server.url("/c\($0).png") }
      for index in 0..<5 { server.route("/c\(index).png", .ok(fakePNG(index))) }
      let (first, _) = makeLoader(in: home)
      for url in urls { first.request(url, albumTitle: "A") }
      #expect(await first.waitForPending(timeout: .seconds(5)))
      #expect(server.totalRequests == 5)

      // The same loader, and a new one over the same directory (a new session).
      let (second, recorder) = makeLoader(in: home)
      #expect(urls.allSatisfy { second.currentState(of: $0) == .cached })
      #expect(second.currentState(of: server.url("/never-requested.png")) == .none)
      for loader in [first, second] {
        for url in urls {
          #expect(loader.request(url, albumTitle: "B") == .cached)
        }
        #expect(await loader.waitForPending(timeout: .seconds(5)))
      }

      #expect(server.totalRequests == 5)
      for (index, url) in urls.enumerated() {
        let seconds = secondsOf(recorder, url)
        #expect(
          recorder.events(for: url) == [
            .finished(
              url: url, albums: [CoverRequester(title: "B")], bytes: fakePNG(index).count, seconds: seconds,
              fromCache: true)
          ])
      }
    }

    @Test func concurrentRequestsForOneURLShareOneDownload() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/shared.png", .ok(fakePNG(1), delay: 0.3))
      let (loader, recorder) = makeLoader(in: home)
      let url = server.url("/shared.png")

      await withTaskGroup(of: Void.self) { group in
        for title in ["One", "Two", "Three"] {
          group.addTask { loader.request(url, albumTitle: title) }
        }
      }
      loader.request(url, albumTitle: "One")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(server.requestCount("/shared.png") == 1)
      let outcomes = recorder.events(for: url).filter(\.isTerminal)
      #expect(outcomes.count == 1)
      #expect(Set(outcomes.first?.albums.map(\.title) ?? []) == ["One", "Two", "Three"])
    }

    @Test func corruptCacheFileIsFetchedAgain() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/c.png", .ok(fakePNG(3)))
      let (loader, recorder) = makeLoader(in: home)
      let url = server.url("/c.png")
      try FileManager.default.createDirectory(atPath: loader.cache.directory, withIntermediateDirectories: true)
      try Data("garbage, not a PNG".utf8).write(to: URL(fileURLWithPath: loader.cache.path(for: url)))

      loader.request(url, albumTitle: "Corrupt")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(server.requestCount("/c.png") == 1)
      guard case .finished(_, _, _, _, false) = recorder.outcome(for: url) else {
        Issue.record("not fetched again: \(recorder.events(for: url))")
        return
      }
      #expect(loader.cache.cachedData(for: url) == fakePNG(3))
    }

    @Test func cacheFileNameIsTheURLsSHA256() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/albums/best-of-bowie.png", .ok(fakePNG(1)))
      let (loader, _) = makeLoader(in: home)
      let url = server.url("/albums/best-of-bowie.png")

      loader.request(url, albumTitle: "Best of Bowie")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      let names = files(in: loader.cache.directory)
      #expect(names == [SHA256.hex(url)])
      #expect(names.allSatisfy { !$0.contains("bowie") && !$0.contains("png") && !$0.contains("albums") })
    }

    // MARK: - Cancelling

    @Test func cancelAllFailsQueuedAndRunningDownloadsAndCachesNothing() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let (loader, recorder) = makeLoader(in: home, maxConcurrent: 2)
      let urls = (0..<5).map { server.url("/slow-\($0).png") }
      for index in 0..<5 { server.route("/slow-\(index).png", .ok(fakePNG(index), delay: 2)) }
      for (index, url) in urls.enumerated() { loader.request(url, albumTitle: "Album \(index)") }
      // Let the two running ones reach the server.
      let deadline = ContinuousClock.now + .seconds(3)
      while server.totalRequests < 2, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }

      let start = ContinuousClock.now
      loader.cancelAll()
      #expect(await loader.waitForPending(timeout: .seconds(3)))
      #expect(ContinuousClock.now - start < .seconds(1))

      for url in urls {
        #expect(recorder.failure(for: url) == .cancelled)
        #expect(loader.currentState(of: url) == .failed(.cancelled))
      }
      // Past the server's delay: a cancelled download must not land in the cache late.
      try await Task.sleep(for: .seconds(2.2))
      #expect(files(in: loader.cache.directory).isEmpty)
      #expect(server.totalRequests == 2)
      #expect(recorder.events.filter(\.isTerminal).count == 5)
    }

    @Test func shutDownCancelsRunningDownloadsAndClosesTheirConnections() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/silent.png", .neverAnswer)
      server.route("/endless.png", .endless)
      let (loader, recorder) = makeLoader(in: home, timeout: .seconds(30), maxBytes: 1 << 30)
      let urls = [server.url("/silent.png"), server.url("/endless.png")]
      for url in urls { loader.request(url, albumTitle: url) }
      let deadline = ContinuousClock.now + .seconds(5)
      while server.openConnections < 2 || server.bytesSent("/endless.png") == 0, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }

      await onThread { loader.shutDown() }

      #expect(await loader.waitForPending(timeout: .seconds(3)))
      for url in urls { #expect(recorder.failure(for: url) == .cancelled) }
      let closed = ContinuousClock.now + .seconds(5)
      while server.openConnections > 0, ContinuousClock.now < closed {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(server.openConnections == 0)
      // Later downloads fail instead of starting a new client.
      loader.request(server.url("/later.png"), albumTitle: "Later")
      #expect(await loader.waitForPending(timeout: .seconds(3)))
      #expect(recorder.failure(for: server.url("/later.png")) == .cancelled)
      #expect(server.requestCount("/later.png") == 0)
    }

    /// A download slow to notice its cancellation (a source that finishes a blocking read
    /// first) still ends before its source is shut down: no fixed grace decides what is cut
    /// off (issue 35: a client shut down under a running download leaked its promise).
    @Test func shutDownWaitsForTheDownloadsItCancelledBeforeShuttingTheirSourceDown() async throws {
      let home = try TemporaryDirectory()
      let source = SlowToCancelSource(lingers: .milliseconds(1500))
      let (loader, recorder) = makeLoader(in: home, sources: [source])
      loader.request("slow:cover", albumTitle: "Slow")
      let started = ContinuousClock.now + .seconds(5)
      while !source.log.withLock({ $0.contains("fetch started") }), ContinuousClock.now < started {
        try await Task.sleep(for: .milliseconds(10))
      }

      await onThread { loader.shutDown() }

      #expect(source.log.withLock { $0 } == ["fetch started", "fetch ended", "shut down"])
      #expect(await loader.waitForPending(timeout: .seconds(3)))
      #expect(recorder.failure(for: "slow:cover") == .cancelled)
    }

    // MARK: - Other sources

    @Test func fileCoverLoads() async throws {
      let home = try TemporaryDirectory()
      try fakePNG(9).write(to: URL(fileURLWithPath: home.file("local.png")))
      let (loader, recorder) = makeLoader(in: home)
      let url = "file://" + home.file("local.png")
      let missing = "file://" + home.file("gone.png")

      loader.request(url, albumTitle: "Local")
      loader.request(missing, albumTitle: "Gone")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(loader.cache.cachedData(for: url) == fakePNG(9))
      #expect(recorder.failure(for: missing)?.description == "no such file \(home.file("gone.png"))")
    }

    // MARK: - Waiting

    @Test func waitingTimesOutWhileADownloadHangs() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/hang.png", .neverAnswer)
      let (loader, _) = makeLoader(in: home, timeout: .seconds(5))
      loader.request(server.url("/hang.png"), albumTitle: "Hang")

      #expect(await loader.waitForPending(timeout: .milliseconds(200)) == false)
      #expect(loader.pendingCount == 1)
      let blocking = await onThread { loader.waitUntilIdle(timeout: 0.2) }
      #expect(blocking == false)
      loader.cancelAll()
      #expect(await loader.waitForPending(timeout: .seconds(2)))
    }

    @Test func blockingWaitReturnsOnceEveryOutcomeIsDelivered() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/a.png", .ok(fakePNG(1), delay: 0.2))
      let (loader, recorder) = makeLoader(in: home)
      let url = server.url("/a.png")

      let (done, deliveredBeforeReturn) = await onThread {
        loader.request(url, albumTitle: "A")
        let done = loader.waitUntilIdle(timeout: 5)
        return (done, recorder.outcome(for: url) != nil)
      }

      #expect(done)
      #expect(deliveredBeforeReturn)
    }

    /// The wait asks whether to stop once at the start, then only when the descriptor it
    /// was given wakes it (the shell's wake-up pipe: a signal, a status line), and ends when
    /// told to.
    @Test func blockingWaitStopsWhenItsWakeUpSaysSo() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/hang.png", .neverAnswer)
      let (loader, _) = makeLoader(in: home)
      loader.request(server.url("/hang.png"), albumTitle: "Hang")
      var ends: [Int32] = [-1, -1]
      try #require(pipe(&ends) == 0)
      defer { for end in ends { close(end) } }
      let (readEnd, writeEnd) = (ends[0], ends[1])
      let writer = Thread {
        var byte: UInt8 = 1
        for _ in 0..<4 {
          usleep(50_000)
          _ = write(writeEnd, &byte, 1)
        }
      }
      writer.start()

      let start = ContinuousClock.now
      let (done, asked) = await onThread { () -> (Bool, Int) in
        var asked = 0
        let done = loader.waitUntilIdle(timeout: nil, wakingOn: readEnd) {
          asked += 1
          var byte: UInt8 = 0
          if asked > 1 { _ = read(readEnd, &byte, 1) }
          return asked == 5
        }
        return (done, asked)
      }
      #expect(!done)
      #expect(asked == 5, "once at the start and once for each of the 4 wake-ups")
      #expect(ContinuousClock.now - start < .seconds(2))
      loader.cancelAll()
      #expect(await loader.waitForPending(timeout: .seconds(2)))
    }

    /// Nothing polls: a wait of 0.4 s for a slow download asks whether to stop only once, at
    /// the start (the old wait asked every 5 ms), and returns once the outcome is delivered.
    @Test func blockingWaitIsWokenByTheLoaderNotByPolling() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      server.route("/slow.png", .ok(fakePNG(1), delay: 0.4))
      let (loader, recorder) = makeLoader(in: home)
      let url = server.url("/slow.png")
      var ends: [Int32] = [-1, -1]
      try #require(pipe(&ends) == 0)
      defer { for end in ends { close(end) } }
      let readEnd = ends[0]

      let (done, asked, delivered) = await onThread { () -> (Bool, Int, Bool) in
        loader.request(url, albumTitle: "Slow")
        var asked = 0
        let done = loader.waitUntilIdle(timeout: 10, wakingOn: readEnd) {
          asked += 1
          return false
        }
        return (done, asked, recorder.outcome(for: url) != nil)
      }
      #expect(done)
      #expect(asked == 1)
      #expect(delivered)
    }

    @Test func unsubscribedHandlerHearsNothingMore() async throws {
      let home = try TemporaryDirectory()
      let (loader, staying) = makeLoader(in: home, sources: [BundledCoverSource()])
      let leaving = EventRecorder(loader)
      loader.unsubscribe(leaving.token)

      loader.request("bluelib:covers/american-pie.png", albumTitle: "American Pie")
      #expect(await loader.waitForPending(timeout: .seconds(5)))

      #expect(staying.events.count == 3)
      #expect(leaving.events.isEmpty)
    }
  }
}

/// The `seconds` the recorder saw in the one event for `url` (cache reads take varying time).
private func secondsOf(_ recorder: EventRecorder, _ url: String) -> Double {
  if case .finished(_, _, _, let seconds, _) = recorder.events(for: url).first { return seconds }
  return -1
}
