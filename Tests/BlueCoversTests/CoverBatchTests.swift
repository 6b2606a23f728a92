import CoverTestSupport
import Foundation
import LoopbackHTTPServer
import Synchronization
import TestSupport
import Testing

@testable import BlueCovers

extension RunsAlone {
  /// `download all` hands the loader its covers as a batch (round 3, F15): packed bytes that
  /// become requests a few at a time, as slots free up, so a million albums cost a buffer,
  /// not a job and a state each.
  struct CoverBatchTests {
    @Test func aBatchGivesBackItsRequestsInOrder() {
      var batch = CoverBatch()
      batch.append("https://example.com/a.png", albumTitle: "Björk — Homogenic", order: 7)
      batch.append("file:///music/%E5%AE%87/cover.jpg", albumTitle: "宇多田ヒカル", order: 0)
      var more = CoverBatch()
      more.append("bluelib:covers/x.png", albumTitle: "", order: Int(Int32.max) + 5)
      batch.append(contentsOf: more)
      #expect(batch.count == 3)
      var taken: [String] = []
      while let next = batch.next() { taken.append("\(next.url)|\(next.title)|\(next.order)") }
      #expect(
        taken == [
          "https://example.com/a.png|Björk — Homogenic|7", "file:///music/%E5%AE%87/cover.jpg|宇多田ヒカル|0",
          "bluelib:covers/x.png||\(Int(Int32.max) + 5)",
        ])
      #expect(batch.count == 0 && batch.next() == nil)
    }

    @Test func aLargeBatchIsTakenWholeAcrossItsCompactions() {
      var batch = CoverBatch()
      for index in 0..<20_000 { batch.append("http://h/\(index).png", albumTitle: "Album \(index)", order: index) }
      var index = 0
      while let next = batch.next() {
        guard next.url == "http://h/\(index).png", next.title == "Album \(index)", next.order == index else {
          Issue.record("request \(index) came back as \(next)")
          return
        }
        index += 1
      }
      #expect(index == 20_000)
    }

    /// 60 covers as one batch, two at a time: never more than two jobs exist (the rest wait
    /// in the batch), every cover is fetched once, in the batch's order, and each outcome
    /// names its album and where the album stands.
    @Test func aBatchIsAskedForAsSlotsFreeUp() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let (loader, recorder) = makeLoader(in: home, maxConcurrent: 2)
      var batch = CoverBatch()
      let urls = (0..<60).map { server.url("/batch-\($0).png") }
      for (index, url) in urls.enumerated() {
        server.route("/batch-\(index).png", .ok(fakePNG(index), delay: 0.02))
        batch.append(url, albumTitle: "Album \(index)", order: 100 + index)
      }
      loader.request(batch)
      #expect(loader.unsettledCount == 60)
      var mostJobs = 0
      while !loader.isIdle {
        mostJobs = max(mostJobs, loader.jobCount)
        try await Task.sleep(for: .milliseconds(2))
      }
      #expect(mostJobs <= 2, "the batch became \(mostJobs) jobs at once")
      let started = recorder.events.compactMap { event -> String? in
        if case .started(let url, _) = event { url } else { nil }
      }
      #expect(started == urls)
      for (index, url) in urls.enumerated() {
        #expect(server.requestCount("/batch-\(index).png") == 1)
        guard
          case .finished(_, [CoverRequester(title: "Album \(index)", order: 100 + index)], _, _, false) =
            recorder.outcome(for: url)
        else {
          Issue.record("no download finished for \(url): \(recorder.events(for: url))")
          continue
        }
      }
    }

    /// A cover still waiting in the batch is queued, as `downloads` lists it: `list` and the
    /// cards read the loader's state, and said "not downloaded" until its request was made.
    @Test func aCoverWaitingInTheBatchIsQueued() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let (loader, _) = makeLoader(in: home, maxConcurrent: 1)
      var batch = CoverBatch()
      let urls = (0..<3).map { server.url("/held-\($0).png") }
      for (index, url) in urls.enumerated() {
        server.route("/held-\(index).png", .ok(fakePNG(index), delay: 0.3))
        batch.append(url, albumTitle: "Album \(index)", order: index)
      }
      #expect(!loader.isWaitingInBatch(urls[2]))
      loader.request(batch)
      #expect(loader.sessionState(of: urls[0]) == .downloading)
      #expect(loader.sessionState(of: urls[2]) == nil)
      #expect(loader.isWaitingInBatch(urls[2]))
      #expect(loader.currentState(of: urls[2]) == .queued)
      #expect(loader.pendingSnapshot().map(\.state) == [.downloading, .queued, .queued])
      #expect(!loader.isWaitingInBatch(server.url("/not-asked.png")))
      #expect(await loader.waitForPending(timeout: .seconds(10)))
      #expect(urls.map { loader.sessionState(of: $0) } == [.cached, .cached, .cached])
      #expect(!loader.isWaitingInBatch(urls[2]))
    }

    /// `cancelAll` drops what the batch has not asked for yet, with no event for each: the
    /// running downloads fail as cancelled, and nothing is left pending.
    @Test func cancelAllDropsTheRestOfABatch() async throws {
      let home = try TemporaryDirectory()
      let server = try LoopbackHTTPServer()
      let (loader, recorder) = makeLoader(in: home, maxConcurrent: 2)
      var batch = CoverBatch()
      for index in 0..<1_000 {
        server.route("/slow-\(index).png", .ok(fakePNG(index), delay: 5))
        batch.append(server.url("/slow-\(index).png"), albumTitle: "Album \(index)", order: index)
      }
      loader.request(batch)
      let deadline = ContinuousClock.now + .seconds(3)
      while server.totalRequests < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
      loader.cancelAll()
      #expect(await loader.waitForPending(timeout: .seconds(3)))
      #expect(loader.unsettledCount == 0)
      let outcomes = recorder.events.filter(\.isTerminal)
      #expect(outcomes.count == 2)
      #expect(outcomes.allSatisfy { if case .failed(_, _, .cancelled) = $0 { true } else { false } })
      #expect(server.totalRequests == 2)
    }
  }
}
