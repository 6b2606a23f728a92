import Foundation

/// The cover loader's bookkeeping: states, jobs, the FIFO queue and the event outbox.
///
/// One value lives in the loader's `Mutex`; each transition is one critical section,
/// so the synchronous snapshot (`currentState`, `pendingSnapshot`) never sees half of
/// one, and events enter the outbox in the order the transitions happened.
struct CoverBook {
  /// A download that has been asked for and has not settled.
  struct Job {
    let id: UInt64
    var albums: [String]
    var task: Task<Void, Never>?
    var startedAt: ContinuousClock.Instant?

    var isRunning: Bool { startedAt != nil }
  }

  /// The last known state of every URL seen in this session.
  var states: [String: CoverState] = [:]
  /// Queued and running jobs by URL (one per URL: later requests join it).
  var jobs: [String: Job] = [:]
  /// Queued jobs in request order; `queueHead` is the next to start.
  private var queue: [(url: String, id: UInt64)] = []
  private var queueHead = 0
  /// The number of running jobs.
  private(set) var running = 0
  /// Events not yet handed to subscribers, oldest first.
  var outbox: [CoverEvent] = []
  /// Outcomes (finished or failed) in the outbox or being delivered.
  var undeliveredOutcomes = 0
  /// Whether a delivery pass is scheduled or running.
  var deliveryScheduled = false
  var subscribers: [UInt64: @Sendable (CoverEvent) -> Void] = [:]
  private var nextID: UInt64 = 0

  /// Work not yet reported: jobs plus outcomes not yet delivered.
  var pendingCount: Int { jobs.count + undeliveredOutcomes }

  /// A fresh identifier for a job or a subscription.
  mutating func makeID() -> UInt64 {
    nextID += 1
    return nextID
  }

  /// Queues an outcome event and records the URL's final state.
  mutating func settle(_ url: String, state: CoverState, event: CoverEvent) {
    states[url] = state
    outbox.append(event)
    undeliveredOutcomes += 1
  }

  /// Adds `album` to the job for `url`; false if there is no job to join.
  mutating func join(_ url: String, album: String) -> Bool {
    guard var job = jobs[url] else { return false }
    if !job.albums.contains(album) { job.albums.append(album) }
    jobs[url] = job
    return true
  }

  /// Creates a queued job for `url`.
  mutating func enqueue(_ url: String, album: String) {
    let id = makeID()
    jobs[url] = Job(id: id, albums: [album])
    queue.append((url, id))
    states[url] = .queued
    outbox.append(.queued(url: url, albums: [album]))
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
      outbox.append(.started(url: next.url, albums: job.albums))
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

  /// Drops every job, recording each as cancelled; returns the tasks to cancel.
  mutating func cancelAll() -> [Task<Void, Never>] {
    let cancelled = jobs.sorted { $0.value.id < $1.value.id }
    jobs = [:]
    queue = []
    queueHead = 0
    running = 0
    for (url, job) in cancelled {
      settle(url, state: .failed(.cancelled), event: .failed(url: url, albums: job.albums, .cancelled))
    }
    return cancelled.compactMap(\.value.task)
  }

  /// The unsettled jobs, running ones first, each group in request order.
  func pending() -> [PendingCover] {
    jobs.sorted { left, right in
      left.value.isRunning != right.value.isRunning ? left.value.isRunning : left.value.id < right.value.id
    }
    .map { PendingCover(url: $0.key, albums: $0.value.albums, state: $0.value.isRunning ? .downloading : .queued) }
  }
}
