// What the tests of covers and of the library's cover ledger share: a loader over a fresh
// cache, the events it delivers, and bytes that pass for a PNG.

package import BlueCovers
package import Foundation
import Synchronization
package import TestSupport

/// Records every event a loader delivers, in delivery order.
package final class EventRecorder: Sendable {
  private final class Storage: Sendable {
    let events = Mutex<[CoverEvent]>([])
  }

  private let storage = Storage()
  /// The subscription, for tests that unsubscribe.
  package let token: SubscriptionToken

  package init(_ loader: CoverLoader) {
    token = loader.subscribe { [storage] event in storage.events.withLock { $0.append(event) } }
  }

  /// Everything delivered so far.
  package var events: [CoverEvent] { storage.events.withLock { $0 } }

  /// The events about `url`, in order.
  package func events(for url: String) -> [CoverEvent] { events.filter { $0.url == url } }

  /// The last outcome (finished or failed) delivered for `url`.
  package func outcome(for url: String) -> CoverEvent? { events(for: url).last(where: \.isTerminal) }

  /// The failure delivered for `url`, if its outcome was a failure.
  package func failure(for url: String) -> CoverFailure? {
    if case .failed(_, _, let failure) = outcome(for: url) { return failure }
    return nil
  }
}

/// Bytes that start like a PNG and differ by `tag` (the loader only checks the signature).
package func fakePNG(_ tag: Int, size: Int = 256) -> Data {
  var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  data.append(contentsOf: Array("cover \(tag)".utf8))
  data.append(Data(count: max(0, size - data.count)))
  return data
}

/// A loader over a fresh cache in `directory`, recording its events.
package func makeLoader(
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
  /// ``waitUntilIdle(timeout:wakingOn:shouldStop:)`` on a thread of its own, for async
  /// tests: true once every request so far has been reported, false after `timeout`.
  package func waitForPending(timeout: Duration) async -> Bool {
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: self.waitUntilIdle(timeout: seconds)) }
    }
  }
}
