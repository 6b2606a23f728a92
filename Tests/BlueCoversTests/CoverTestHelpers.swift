import Foundation
import Synchronization
import TestSupport

@testable import BlueCovers

/// The regular files in `directory`, sorted (dot files included).
func files(in directory: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

extension CoverLoader {
  /// A request from the album `albumTitle`, with no place of its own (most tests need no
  /// more).
  @discardableResult
  func request(_ url: String, albumTitle: String) -> CoverState {
    request(url, for: CoverRequester(title: albumTitle))
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
