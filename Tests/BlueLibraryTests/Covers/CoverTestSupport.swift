import Foundation
import Synchronization
import TestSupport

@testable import BlueLibrary

/// Records every event a loader delivers, in delivery order.
final class EventRecorder: Sendable {
  private final class Storage: Sendable {
    let events = Mutex<[CoverEvent]>([])
  }

  private let storage = Storage()
  /// The subscription, for tests that unsubscribe.
  let token: SubscriptionToken

  init(_ loader: CoverLoader) {
    token = loader.subscribe { [storage] event in storage.events.withLock { $0.append(event) } }
  }

  /// Everything delivered so far.
  var events: [CoverEvent] { storage.events.withLock { $0 } }

  /// The events about `url`, in order.
  func events(for url: String) -> [CoverEvent] { events.filter { $0.url == url } }

  /// The last outcome (finished or failed) delivered for `url`.
  func outcome(for url: String) -> CoverEvent? { events(for: url).last(where: \.isTerminal) }

  /// The failure delivered for `url`, if its outcome was a failure.
  func failure(for url: String) -> CoverFailure? {
    if case .failed(_, _, let failure) = outcome(for: url) { return failure }
    return nil
  }
}

/// Bytes that start like a PNG and differ by `tag` (the loader only checks the signature).
func fakePNG(_ tag: Int, size: Int = 256) -> Data {
  var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  data.append(contentsOf: Array("cover \(tag)".utf8))
  data.append(Data(count: max(0, size - data.count)))
  return data
}

/// The regular files in `directory`, sorted (dot files included).
func files(in directory: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// A loader over a fresh cache in `directory`, recording its events.
func makeLoader(
  in directory: TemporaryDirectory,
  sources: [any CoverSource] = CoverLoader.standardSources(),
  maxConcurrent: Int = 6,
  timeout: Duration = .seconds(10),
  maxBytes: Int = 10 << 20
) -> (CoverLoader, EventRecorder) {
  let loader = CoverLoader(
    cache: CoverCache(directory: directory.file("covers")), sources: sources, maxConcurrent: maxConcurrent,
    timeout: timeout, maxBytes: maxBytes)
  return (loader, EventRecorder(loader))
}

extension CoverLoader {
  /// A request from the album `albumTitle`, with no place of its own (most tests need no
  /// more).
  @discardableResult
  func request(_ url: String, albumTitle: String) -> CoverState {
    request(url, for: CoverRequester(title: albumTitle))
  }

  /// ``waitUntilIdle(timeout:wakingOn:shouldStop:)`` on a thread of its own, for async
  /// tests: true once every request so far has been reported, false after `timeout`.
  func waitForPending(timeout: Duration) async -> Bool {
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: self.waitUntilIdle(timeout: seconds)) }
    }
  }
}

/// Runs `body` on a new thread (not a Swift concurrency one) and returns its result.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread { continuation.resume(returning: body()) }
  }
}

/// A source whose fetch, once cancelled, goes on for `lingers` before it throws (as a
/// blocking read finishes before it can look at its task), and that logs what happens to it.
final class SlowToCancelSource: CoverSource {
  let schemes: Set<String> = ["slow"]
  let lingers: Duration
  let log = Mutex<[String]>([])

  init(lingers: Duration) { self.lingers = lingers }

  func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    log.withLock { $0.append("fetch started") }
    while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
    // Not cancellable: the cancellation is noticed only after the blocking part.
    usleep(UInt32(lingers.components.seconds * 1_000_000 + lingers.components.attoseconds / 1_000_000_000_000))
    log.withLock { $0.append("fetch ended") }
    throw .cancelled
  }

  func shutDown() { log.withLock { $0.append("shut down") } }
}
