import Dispatch
import FoundationEssentials

/// How a source whose reading blocks (a file, a server's socket) fetches for the loader's
/// tasks: the read runs on a Dispatch queue, never on a thread of Swift's cooperative pool,
/// and the task waits for its result.
package enum BlockingRead {
  /// Where the reads that wait on a server (MPD's, Subsonic's) run: a concurrent queue of
  /// their own, which Dispatch gives more threads as reads wait, where its global queue
  /// would hold them to the number of cores.
  package static let serverQueue = DispatchQueue(label: "bluelib.covers.servers", attributes: .concurrent)

  /// The result of `read`, run on `queue`; `onCancel` runs when the waiting task is
  /// cancelled meanwhile (to make the read end early: it still answers, with what it has).
  package static func run(
    on queue: DispatchQueue = .global(), _ read: @escaping @Sendable () -> Result<Data, CoverFailure>,
    onCancel: @escaping @Sendable () -> Void = {}
  ) async -> Result<Data, CoverFailure> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        queue.async { continuation.resume(returning: read()) }
      }
    } onCancel: {
      onCancel()
    }
  }
}
