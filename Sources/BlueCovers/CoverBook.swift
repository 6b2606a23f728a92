import BlueSystem
import FoundationEssentials

/// The cover loader's bookkeeping: states, jobs, the FIFO queue and the event outbox.
///
/// One value lives in the loader's `Mutex`; each transition is one critical section,
/// so the synchronous snapshot (`currentState`, `pendingSnapshot`) never sees half of
/// one, and events enter the outbox in the order the transitions happened.
struct CoverBook {
  /// A download that has been asked for and has not settled.
  struct Job {
    let id: UInt64
    var albums: [CoverRequester]
    var task: Task<Void, Never>?
    var startedAt: ContinuousClock.Instant?

    var isRunning: Bool { startedAt != nil }
  }

  /// The last known state of every URL seen in this session.
  var states = CoverStates()
  /// Queued and running jobs by URL (one per URL: later requests join it).
  var jobs: [String: Job] = [:]
  /// Queued jobs in request order; `queueHead` is the next to start.
  private var queue: [(url: String, id: UInt64)] = []
  private var queueHead = 0
  /// The number of running jobs.
  private(set) var running = 0
  /// Requests handed over in bulk and not yet made (``CoverLoader/request(_:)``).
  var backlog = CoverBatch()
  /// The threads waiting for the loader to go idle, each on a pipe of its own.
  var idleWaiters: [UInt64: WakeUpPipe] = [:]
  /// The tasks of the downloads cancelled so far, for ``CoverLoader/shutDown()`` to let
  /// end before the sources go.
  var cancelledTasks: [Task<Void, Never>] = []
  /// Events not yet handed to subscribers, oldest first.
  var outbox: [CoverEvent] = []
  /// Outcomes (finished or failed) in the outbox or being delivered.
  var undeliveredOutcomes = 0
  /// Whether a delivery pass is scheduled or running.
  var deliveryScheduled = false
  var subscribers: [UInt64: Subscriber] = [:]

  /// A handler of events, and whether it wants only outcomes (finished, failed).
  struct Subscriber {
    let handler: @Sendable (CoverEvent) -> Void
    let outcomesOnly: Bool
  }

  /// Whether a subscriber wants to hear of queued and started downloads: when none does,
  /// those events are not made (`download all` on a million albums queued a million).
  private var wantsProgress: Bool { subscribers.values.contains { !$0.outcomesOnly } }
  private var nextID: UInt64 = 0

  /// Whether any cover has a state in this session or waits in the backlog.
  var hasStates: Bool { !states.isEmpty || backlog.count > 0 }

  /// Work not yet reported: the backlog, jobs, and outcomes not yet delivered.
  var pendingCount: Int { backlog.count + jobs.count + undeliveredOutcomes }

  /// Whether no queued job waits for a slot (stale entries of cancelled jobs aside).
  var queueIsEmpty: Bool { queueHead >= queue.count }

  /// A fresh identifier for a job or a subscription.
  mutating func makeID() -> UInt64 {
    nextID += 1
    return nextID
  }

  /// Queues an outcome event and records the URL's final state.
  mutating func settle(_ url: String, state: CoverState, event: @autoclosure () -> CoverEvent) {
    states[url] = state
    // Nobody to tell (the shell leaving): no event is kept.
    guard !subscribers.isEmpty else { return }
    outbox.append(event())
    undeliveredOutcomes += 1
  }

  /// Adds `requester` to the job for `url`; false if there is no job to join.
  mutating func join(_ url: String, _ requester: CoverRequester) -> Bool {
    guard var job = jobs[url] else { return false }
    if !job.albums.contains(requester) { job.albums.append(requester) }
    jobs[url] = job
    return true
  }

  /// Creates a queued job for `url`.
  mutating func enqueue(_ url: String, _ requester: CoverRequester) {
    let id = makeID()
    jobs[url] = Job(id: id, albums: [requester])
    queue.append((url, id))
    states[url] = .queued
    if wantsProgress { outbox.append(.queued(url: url, albums: [requester])) }
  }

  /// Wakes every thread waiting for the loader to go idle, if nothing is pending.
  mutating func wakeIdleWaiters() {
    guard pendingCount == 0, !idleWaiters.isEmpty else { return }
    for pipe in idleWaiters.values { pipe.wake() }
    idleWaiters = [:]
  }

  /// Takes the next queued job if a slot is free, marking it running.
  mutating func startNext(maxConcurrent: Int) -> (url: String, id: UInt64)? {
    while running < maxConcurrent, queueHead < queue.count {
      let next = queue[queueHead]
      queueHead += 1
      if queueHead >= 64, queueHead * 2 >= queue.count {
        queue.removeFirst(queueHead)
        queueHead = 0
      }
      guard var job = jobs[next.url], job.id == next.id, !job.isRunning else { continue }
      job.startedAt = .now
      jobs[next.url] = job
      running += 1
      states[next.url] = .downloading
      if wantsProgress { outbox.append(.started(url: next.url, albums: job.albums)) }
      return next
    }
    return nil
  }

  /// Stores the task running the job `id`, if the job is still current.
  mutating func attach(_ task: Task<Void, Never>, to url: String, id: UInt64) {
    guard var job = jobs[url], job.id == id else { return }
    job.task = task
    jobs[url] = job
  }

  /// Removes the running job `id` for `url`; nil if it is no longer current (cancelled).
  mutating func finishJob(_ url: String, id: UInt64) -> Job? {
    guard let job = jobs[url], job.id == id, job.isRunning else { return nil }
    jobs[url] = nil
    running -= 1
    return job
  }

  /// Drops every job, recording each as cancelled, the running ones first, then the queue
  /// in request order (no sort of a million queued jobs); returns the tasks to cancel.
  /// Without `reporting` (or with no subscriber) nothing is recorded: no event, and the
  /// states stay as they were (for a shell leaving).
  mutating func cancelAll(reporting: Bool = true) -> [Task<Void, Never>] {
    let tasks = jobs.values.compactMap { $0.isRunning ? $0.task : nil }
    var cancelled: [(url: String, job: Job)] = []
    // Nobody to tell, or the shell leaving on a signal: the jobs are dropped as they are.
    let tells = reporting && !subscribers.isEmpty
    if tells {
      forEachUnsettled { url, job in
        cancelled.append((url, job))
        return true
      }
    }
    let held = (jobs, queue)
    jobs = [:]
    queue = []
    queueHead = 0
    running = 0
    // Requests of a batch not yet made are dropped with it: no event for each.
    backlog.removeAll()
    if !tells {
      // Let go of on a thread of their own: freeing a million jobs took half a second
      // between SIGTERM and the exit.
      DetachedThread.start { withExtendedLifetime(held) {} }
    }
    for (url, job) in cancelled {
      settle(url, state: .failed(.cancelled), event: .failed(url: url, albums: job.albums, .cancelled))
    }
    return tasks
  }

  /// Hands `body` the unsettled jobs, running ones first, each group in request order: the
  /// running ones sorted (a few), then the queue as it stands (no sort of a million), until
  /// `body` returns false.
  private func forEachUnsettled(_ body: (String, Job) -> Bool) {
    for (url, job) in jobs.filter(\.value.isRunning).sorted(by: { $0.value.id < $1.value.id }) {
      guard body(url, job) else { return }
    }
    for entry in queue[queueHead...] {
      guard let job = jobs[entry.url], job.id == entry.id, !job.isRunning else { continue }
      guard body(entry.url, job) else { return }
    }
  }

  /// The first `limit` unsettled covers, running ones first, each group in request order,
  /// then the batch's requests not yet made.
  func pending(limit: Int = .max) -> [PendingCover] {
    var pending: [PendingCover] = []
    forEachUnsettled { url, job in
      guard pending.count < limit else { return false }
      pending.append(
        PendingCover(url: url, albums: job.albums.map(\.title), state: job.isRunning ? .downloading : .queued))
      return true
    }
    // Then the batch's requests not yet made, as queued.
    for request in backlog.first(limit - pending.count) {
      pending.append(PendingCover(url: request.url, albums: [request.title], state: .queued))
    }
    return pending
  }
}

/// The last known state of each URL seen in a session, kept by a 128-bit hash of the URL
/// rather than its text: `download all` on a million albums keeps a million states, and
/// the URLs were most of their cost. Two URLs sharing a key (one chance in 10^29 for a
/// million) would share a state.
struct CoverStates {
  private struct Key: Hashable {
    let first: Int
    let second: Int
  }

  private var byKey: [Key: CoverState] = [:]

  private static func key(_ url: String) -> Key {
    var first = Hasher()
    first.combine(url)
    var second = Hasher()
    second.combine(0x9E37_79B9_7F4A_7C15 as UInt64)
    second.combine(url)
    return Key(first: first.finalize(), second: second.finalize())
  }

  subscript(url: String) -> CoverState? {
    get { byKey[Self.key(url)] }
    set { byKey[Self.key(url)] = newValue }
  }

  var isEmpty: Bool { byKey.isEmpty }
}
