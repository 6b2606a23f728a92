import Foundation
import Synchronization

/// Downloads covers in the background, a few at a time, through the disk cache, and
/// tells its subscribers about every step (the original app's notification + KVO).
///
/// A request for a cached cover is answered from the cache without fetching; a
/// request for a cover already queued or downloading joins that download; anything
/// else is queued and fetched, at most `maxConcurrent` at once, in request order,
/// by the ``CoverSource`` for the URL's scheme. A fetched cover must be an image and is
/// cached before it is reported as finished; a failed one can be requested again.
///
/// - Important: The shell's main thread is not an async context, so everything it
///   needs is synchronous and safe from any thread: ``request(_:albumTitle:)``,
///   ``cancelAll()``, ``currentState(of:)``, ``pendingSnapshot()``,
///   ``waitForPendingBlocking(timeout:shouldCancel:)`` and ``subscribe(_:)``. Requests
///   take effect in call order, and their state is visible as soon as the call returns.
public actor CoverLoader {
  /// The disk cache covers go to.
  public nonisolated let cache: CoverCache
  /// The timeout and size cap of each fetch.
  public nonisolated let limits: CoverLimits
  /// The most fetches running at once.
  public nonisolated let maxConcurrent: Int

  private nonisolated let sources: [String: any CoverSource]
  /// Every source, once each, for ``shutDown()``.
  private nonisolated let allSources: [any CoverSource]
  /// Why fetched bytes are not a usable image (they do not decode), or nil.
  private nonisolated let validate: @Sendable (Data) -> String?
  private nonisolated let book = Mutex(CoverBook())
  private var waiters: [UInt64: Waiter] = [:]
  private var nextWaiterID: UInt64 = 0

  private struct Waiter {
    let continuation: CheckedContinuation<Bool, Never>
    var timer: Task<Void, Never>?
  }

  /// The sources of a standard loader: http/https, file, the bundled covers, pictures
  /// embedded in audio files, and the Cover Art Archive (at `coverArtBase`), each request
  /// saying it comes from `userAgent`.
  public static func standardSources(
    userAgent: String = "bluelib", coverArtBase: String = CoverArtArchiveSource.defaultBase
  ) -> [any CoverSource] {
    [
      HTTPCoverSource(userAgent: userAgent), FileCoverSource(), BundledCoverSource(), EmbeddedCoverSource(),
      CoverArtArchiveSource(base: coverArtBase, userAgent: userAgent),
    ]
  }

  /// Creates a loader over `cache`; for each scheme the first source that lists it is used.
  /// `validate` says why fetched bytes are not a usable image (the shell decodes them).
  public init(
    cache: CoverCache,
    sources: [any CoverSource] = CoverLoader.standardSources(),
    maxConcurrent: Int = 6,
    timeout: Duration = .seconds(15),
    maxBytes: Int = 10 << 20,
    validate: @escaping @Sendable (Data) -> String? = { _ in nil }
  ) {
    self.cache = cache
    self.validate = validate
    self.limits = CoverLimits(timeout: timeout, maxBytes: maxBytes)
    self.maxConcurrent = max(1, maxConcurrent)
    var byScheme: [String: any CoverSource] = [:]
    for source in sources {
      for scheme in source.schemes where byScheme[scheme.lowercased()] == nil {
        byScheme[scheme.lowercased()] = source
      }
    }
    self.sources = byScheme
    self.allSources = sources
  }

  // MARK: - Requests

  /// Asks for the cover at `url` on behalf of the album `albumTitle`; returns at once.
  ///
  /// A cached cover is reported as `.finished(fromCache: true)` without fetching; a
  /// cover already queued or downloading is not fetched twice, and the outcome event
  /// lists every album that asked. A URL no source handles fails at once with
  /// ``CoverFailure/unsupportedURL(_:)``.
  ///
  /// - Returns: The cover's state right after the request (`.cached`, `.queued`,
  ///   `.downloading` or `.failed`).
  @discardableResult
  public nonisolated func request(_ url: String, albumTitle: String) -> CoverState {
    let (state, deliver) = book.withLock { book -> (CoverState, Bool) in
      guard admit(url, albumTitle: albumTitle, &book) else { return (book.states[url] ?? .queued, false) }
      startJobs(&book)
      return (book.states[url] ?? .none, Self.claimDelivery(&book))
    }
    if deliver { scheduleDelivery() }
    return state
  }

  /// Asks for every cover of `batch`, in order, and returns at once. They are requested
  /// (as ``request(_:albumTitle:)`` does) a few at a time, as slots free up, so a million
  /// costs the batch's bytes rather than a job and a state each; `noting` is told each
  /// one's URL and order just before (the shell orders status lines by it). Until then a
  /// cover of the batch has no state of its own, and ``cancelAll(reporting:)`` drops the
  /// rest of the batch without an event for each.
  public nonisolated func request(_ batch: CoverBatch, noting: (@Sendable (String, Int) -> Void)? = nil) {
    guard batch.count > 0 else { return }
    let deliver = book.withLock { book in
      book.backlog.append(contentsOf: batch)
      if let noting { book.backlogNote = noting }
      startJobs(&book)
      return Self.claimDelivery(&book)
    }
    if deliver { scheduleDelivery() }
  }

  /// Makes the request for `url` (under the lock): joins its job, answers it from the
  /// cache, fails it when no source reads it, or queues it. False when it joined a job.
  private nonisolated func admit(_ url: String, albumTitle: String, _ book: inout CoverBook) -> Bool {
    if book.join(url, album: albumTitle) { return false }
    let checked = ContinuousClock.now
    if source(for: url) == nil {
      let failure = CoverFailure.unsupportedURL(url)
      book.settle(url, state: .failed(failure), event: .failed(url: url, albums: [albumTitle], failure))
    } else if let size = cache.entrySize(for: url) {
      let event = CoverEvent.finished(
        url: url, albums: [albumTitle], bytes: size, seconds: Self.seconds(since: checked), fromCache: true)
      book.settle(url, state: .cached, event: event)
    } else {
      book.enqueue(url, album: albumTitle)
    }
    return true
  }

  /// Fetches the cover at `url` now, blocking the calling thread, through the same source,
  /// check and cache as a download, but quietly: no event is sent, so no status line is
  /// printed. For local covers (``LocalCover``), which the shell reads when a card or
  /// `cover` needs them rather than on `download`.
  ///
  /// A cover queued or downloading is left to that download, and one that failed in this
  /// session is not tried again (`download` retries it): both return their state at once.
  ///
  /// - Important: For a thread outside Swift concurrency (the shell's main thread): it
  ///   waits on a semaphore for a detached task.
  /// - Returns: The cover's state afterwards: `.cached` with the bytes now in the cache, or
  ///   `.failed` with the reason.
  public nonisolated func fetchNow(_ url: String) -> CoverState {
    let claimed = book.withLock { book -> CoverState? in
      if book.jobs[url] != nil { return book.states[url] ?? .queued }
      if case .failed = book.states[url] { return book.states[url] }
      book.states[url] = .downloading
      return nil
    }
    if let claimed { return claimed }
    let state: CoverState
    switch fetchedNow(url) {
    case .success(let data):
      do throws(CoverCacheError) {
        try cache.store(data, for: url)
        state = .cached
      } catch {
        state = .failed(.downloadFailed(error.description))
      }
    case .failure(let failure):
      state = .failed(failure)
    }
    book.withLock { $0.states[url] = state }
    return state
  }

  /// Removes the cached cover for `url` and forgets its state in this session, so the next
  /// request or ``fetchNow(_:)`` fetches it again; nothing happens while it is queued or
  /// downloading. For local covers whose file changed (`import DIR` again).
  public nonisolated func forget(_ url: String) {
    book.withLock { book in
      guard book.jobs[url] == nil else { return }
      book.states[url] = nil
      cache.remove(url)
    }
  }

  /// Cancels every queued and running download: each fails with ``CoverFailure/cancelled``
  /// and nothing more of them is cached. With `reporting` false, or with no subscriber,
  /// nothing says so, neither an event nor their states (for a shell leaving: a million of
  /// them took seconds to report). Safe from any thread; returns at once.
  public nonisolated func cancelAll(reporting: Bool = true) {
    let (tasks, deliver) = book.withLock { book in
      let tasks = book.cancelAll(reporting: reporting)
      // Kept for ``shutDown()`` to wait for (briefly); a finished task is cheap to keep.
      book.cancelledTasks += tasks
      return (tasks, Self.claimDelivery(&book))
    }
    for task in tasks { task.cancel() }
    if deliver { scheduleDelivery() }
  }

  /// Cancels every download (as ``cancelAll()``) and shuts the sources down, closing
  /// their connections and stopping their threads; later downloads fail.
  ///
  /// - Important: Blocks until the sources are down (milliseconds); the shell calls it
  ///   from its main thread as it leaves.
  public nonisolated func shutDown() {
    cancelAll()
    // A moment for the cancelled downloads to end before their client goes: one still
    // holding a future of a client shut down trips SwiftNIO's check for leaked promises.
    let tasks = book.withLock { book in
      defer { book.cancelledTasks = [] }
      return book.cancelledTasks
    }
    let ended = DispatchSemaphore(value: 0)
    Task.detached {
      for task in tasks { await task.value }
      ended.signal()
    }
    _ = ended.wait(timeout: .now() + 0.5)
    for source in allSources { source.shutDown() }
  }

  /// How many downloads are queued or running now, not counting the batch's requests not
  /// yet made.
  nonisolated var jobCount: Int {
    book.withLock { $0.jobs.count }
  }

  // MARK: - State

  /// The state of the cover at `url`.
  public func state(of url: String) -> CoverState {
    currentState(of: url)
  }

  /// The state of the cover at `url` in this session (queued, downloading, cached or
  /// failed since a request), or nil when it was not requested: no look in the cache, so a
  /// render can ask for every card. From any thread without waiting.
  public nonisolated func sessionState(of url: String) -> CoverState? {
    book.withLock { $0.states[url] }
  }

  /// Whether any cover was asked for in this session (else ``sessionState(of:)`` is nil
  /// for every URL).
  public nonisolated var hasSessionStates: Bool {
    book.withLock { !$0.states.isEmpty }
  }

  /// The state of the cover at `url`, from any thread without waiting.
  ///
  /// A URL not requested in this session is `.cached` if the cache holds it, else `.none`.
  public nonisolated func currentState(of url: String) -> CoverState {
    if let known = book.withLock({ $0.states[url] }) { return known }
    guard cache.contains(url) else { return .none }
    return book.withLock { book in
      if let known = book.states[url] { return known }
      book.states[url] = .cached
      return .cached
    }
  }

  /// The number of downloads not yet reported (queued, running, or with an outcome
  /// not yet handed to the subscribers).
  public var pendingCount: Int {
    book.withLock { $0.pendingCount }
  }

  /// The first `limit` downloads not yet finished, running ones first, from any thread
  /// without waiting.
  public nonisolated func pendingSnapshot(limit: Int = .max) -> [PendingCover] {
    book.withLock { $0.pending(limit: limit) }
  }

  /// How many downloads are queued or running, from any thread without waiting.
  public nonisolated var unsettledCount: Int {
    book.withLock { $0.jobs.count + $0.backlog.count }
  }

  // MARK: - Waiting

  /// Waits until every request so far has been reported to the subscribers.
  ///
  /// - Returns: true when all are done; false when `timeout` passed first or the
  ///   calling task was cancelled.
  public func waitForPending(timeout: Duration? = nil) async -> Bool {
    if isIdle { return true }
    if Task.isCancelled { return false }
    nextWaiterID += 1
    let id = nextWaiterID
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        var waiter = Waiter(continuation: continuation)
        if let timeout {
          waiter.timer = Task {
            try? await Task.sleep(for: timeout)
            self.endWait(id, result: false)
          }
        }
        waiters[id] = waiter
      }
    } onCancel: {
      Task { await self.endWait(id, result: false) }
    }
  }

  /// Blocks the calling thread until every request so far has been reported.
  ///
  /// It sleeps in short slices, calling `shouldCancel` between them, so a Ctrl-C flag
  /// can end the wait (the downloads go on; call ``cancelAll()`` to stop them).
  ///
  /// - Important: For a thread outside Swift concurrency (the shell's main thread).
  ///   Never call it from a subscriber's handler: events wait for the handler to return.
  /// - Returns: true when all are done; false on timeout or when `shouldCancel` said so.
  public nonisolated func waitForPendingBlocking(timeout: Double? = nil, shouldCancel: () -> Bool = { false }) -> Bool {
    let deadline = timeout.map { ContinuousClock.now.advanced(by: .seconds($0)) }
    while true {
      if isIdle { return true }
      if shouldCancel() { return false }
      if let deadline, ContinuousClock.now >= deadline { return false }
      usleep(5_000)
    }
  }

  // MARK: - Subscribers

  /// Calls `handler` with every event from now on (with `outcomesOnly`, only `finished`
  /// and `failed`: queued and started downloads are then not reported to anyone who does
  /// not ask for them); keep the token to unsubscribe.
  ///
  /// - Important: Handlers run one event at a time, in the order the events happened
  ///   (so in order for each URL), on the loader's executor, never on the caller's
  ///   thread. A handler must return quickly and must not block (the shell's appends a
  ///   line to a locked queue and wakes the terminal owner).
  public nonisolated func subscribe(
    outcomesOnly: Bool = false, _ handler: @escaping @Sendable (CoverEvent) -> Void
  ) -> SubscriptionToken {
    book.withLock { book in
      let id = book.makeID()
      book.subscribers[id] = CoverBook.Subscriber(handler: handler, outcomesOnly: outcomesOnly)
      return SubscriptionToken(id: id)
    }
  }

  /// Stops calling the handler of `token` (an event being delivered may still reach it).
  public nonisolated func unsubscribe(_ token: SubscriptionToken) {
    _ = book.withLock { $0.subscribers.removeValue(forKey: token.id) }
  }

  // MARK: - Fetching

  private nonisolated func source(for url: String) -> (any CoverSource)? {
    coverURLScheme(url).flatMap { sources[$0] }
  }

  /// Starts queued jobs while slots are free, making the backlog's requests when the
  /// queue runs dry (called under the lock).
  private nonisolated func startJobs(_ book: inout CoverBook) {
    while true {
      while let next = book.startNext(maxConcurrent: maxConcurrent) {
        let task = Task.detached { await self.run(next.url, id: next.id) }
        book.attach(task, to: next.url, id: next.id)
      }
      guard book.running < maxConcurrent, book.queueIsEmpty, let next = book.backlog.next() else { return }
      book.backlogNote?(next.url, next.order)
      _ = admit(next.url, albumTitle: next.title, &book)
    }
  }

  /// ``fetchChecked(_:)`` on the calling thread. A local file is read right here: waiting
  /// on a semaphore for a task would block a thread of Swift's small cooperative pool, and
  /// callers on it (async tests) could take every thread the task needs.
  private nonisolated func fetchedNow(_ url: String) -> Result<Data, CoverFailure> {
    do throws(CoverFailure) {
      if let source = source(for: url), let data = try source.fetchBlocking(url, limits: limits) {
        return checked(data)
      }
    } catch {
      return .failure(error)
    }
    let outcome = Mutex<Result<Data, CoverFailure>>(.failure(.cancelled))
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      do throws(CoverFailure) {
        let data = try await self.fetchChecked(url)
        outcome.withLock { $0 = .success(data) }
      } catch {
        outcome.withLock { $0 = .failure(error) }
      }
      done.signal()
    }
    done.wait()
    return outcome.withLock { $0 }
  }

  /// Fetches the cover at `url` through its source and checks that it is an image.
  private nonisolated func fetchChecked(_ url: String) async throws(CoverFailure) -> Data {
    guard let source = source(for: url) else { throw .unsupportedURL(url) }
    return try checked(try await source.fetch(url, limits: limits)).get()
  }

  /// `data` if it is an image that decodes, else why not.
  private nonisolated func checked(_ data: Data) -> Result<Data, CoverFailure> {
    guard CoverImageFormat(sniffing: data) != nil else { return .failure(.notAnImage) }
    // A header alone proves little: what enters the cache must decode, or it would be
    // a "cached" cover that never draws and is never fetched again.
    if let reason = validate(data) { return .failure(.unreadableImage(reason)) }
    return .success(data)
  }

  /// Fetches, checks and stages one cover, then settles its job.
  private nonisolated func run(_ url: String, id: UInt64) async {
    let outcome: Result<(staged: CoverCache.StagedFile, bytes: Int), CoverFailure>
    do throws(CoverFailure) {
      let data = try await fetchChecked(url)
      do throws(CoverCacheError) {
        outcome = .success((try cache.stage(data), data.count))
      } catch {
        throw .downloadFailed(error.description)
      }
    } catch {
      outcome = .failure(error)
    }
    complete(url, id: id, outcome: outcome)
  }

  /// Records the outcome of job `id` unless it was cancelled meanwhile, and starts the next jobs.
  private nonisolated func complete(
    _ url: String, id: UInt64, outcome: Result<(staged: CoverCache.StagedFile, bytes: Int), CoverFailure>
  ) {
    // The commit (a rename) happens under the lock, so a cancelled job can never
    // put its file in the cache after `cancelAll` returned.
    let (committed, deliver) = book.withLock { book -> (Bool, Bool) in
      guard let job = book.finishJob(url, id: id) else {
        if case .success(let fetched) = outcome { cache.discard(fetched.staged) }
        return (false, false)
      }
      let seconds = job.startedAt.map(Self.seconds(since:)) ?? 0
      var committed = false
      switch outcome {
      case .success(let fetched):
        do throws(CoverCacheError) {
          try cache.commit(fetched.staged, for: url)
          committed = true
          let event = CoverEvent.finished(
            url: url, albums: job.albums, bytes: fetched.bytes, seconds: seconds, fromCache: false)
          book.settle(url, state: .cached, event: event)
        } catch {
          let failure = CoverFailure.downloadFailed(error.description)
          book.settle(url, state: .failed(failure), event: .failed(url: url, albums: job.albums, failure))
        }
      case .failure(let failure):
        book.settle(url, state: .failed(failure), event: .failed(url: url, albums: job.albums, failure))
      }
      startJobs(&book)
      return (committed, Self.claimDelivery(&book))
    }
    if committed { cache.syncDirectory() }
    if deliver { scheduleDelivery() }
  }

  // MARK: - Delivering events

  /// Marks a delivery pass as scheduled if events wait and none is; true if the caller must schedule it.
  private static func claimDelivery(_ book: inout CoverBook) -> Bool {
    guard !book.deliveryScheduled, !book.outbox.isEmpty else { return false }
    book.deliveryScheduled = true
    return true
  }

  private nonisolated func scheduleDelivery() {
    Task { await self.deliver() }
  }

  /// Hands queued events to the subscribers, oldest first, until the outbox is empty.
  private func deliver() {
    while true {
      let batch = book.withLock { book -> (events: [CoverEvent], subscribers: [CoverBook.Subscriber])? in
        guard !book.outbox.isEmpty else {
          book.deliveryScheduled = false
          return nil
        }
        let events = book.outbox
        book.outbox = []
        return (events, book.subscribers.sorted { $0.key < $1.key }.map(\.value))
      }
      guard let batch else { break }
      for event in batch.events {
        for subscriber in batch.subscribers where event.isTerminal || !subscriber.outcomesOnly {
          subscriber.handler(event)
        }
      }
      let outcomes = batch.events.count(where: \.isTerminal)
      book.withLock { $0.undeliveredOutcomes -= outcomes }
    }
    if isIdle {
      for id in Array(waiters.keys) { endWait(id, result: true) }
    }
  }

  /// True when nothing is queued, running, or waiting to be handed to the subscribers:
  /// every status line there will be has been delivered. From any thread.
  public nonisolated var isIdle: Bool {
    book.withLock { $0.pendingCount == 0 }
  }

  private func endWait(_ id: UInt64, result: Bool) {
    guard let waiter = waiters.removeValue(forKey: id) else { return }
    waiter.timer?.cancel()
    waiter.continuation.resume(returning: result)
  }

  private static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}
