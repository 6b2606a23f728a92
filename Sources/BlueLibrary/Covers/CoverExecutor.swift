import Dispatch

/// Where cover work runs: the downloads, their deadline clock and what they await, on
/// Dispatch's threads rather than Swift's cooperative pool.
///
/// The pool has one thread per core, and a thread blocked in a synchronous wait for covers
/// (`wait`, a test, a card drawn on a thread of the pool) holds one of them: with two cores
/// two such waits stopped every download they waited for. Work preferring this executor
/// never needs a thread of the pool.
final class CoverExecutor: TaskExecutor {
  /// The one executor of the process.
  static let shared = CoverExecutor()

  private let queue = DispatchQueue(label: "bluelib.covers", attributes: .concurrent)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
