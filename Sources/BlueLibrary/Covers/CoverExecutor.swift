import Dispatch
import Synchronization

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

  /// A few serial queues, taken in turn: a serial queue always gets a thread of its own
  /// when it has work (Dispatch's overcommitting pool), where a concurrent one shares the
  /// default pool, one thread per core, with whatever blocks in it.
  private let queues = (0..<4).map { DispatchQueue(label: "bluelib.covers.\($0)") }
  private let next = Atomic<Int>(0)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    let turn = next.wrappingAdd(1, ordering: .relaxed).oldValue
    queues[turn & 3].async { job.runSynchronously(on: executor) }
  }
}
