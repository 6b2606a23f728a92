import BlueSystem
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Downloads covers in the background, a few at a time, through the disk cache, and
/// tells its subscribers about every step (the original app's notification + KVO).
///
/// A request for a cached cover is answered from the cache without fetching; a
/// request for a cover already queued or downloading joins that download; anything
/// else is queued and fetched, at most `maxConcurrent` at once, in request order,
/// by the ``CoverSource`` for the URL's scheme. A fetched cover must be an image and is
/// cached before it is reported as finished; a failed one can be requested again.
///
/// Everything is synchronous and safe from any thread (the shell's main thread is not an
/// async context): all the loader knows is one ``CoverBook`` behind a lock, each transition
/// one critical section. Requests take effect in call order, and their state is visible as
/// soon as the call returns. Downloads run as tasks; events are handed to the subscribers
/// on a serial queue, in the order they happened; a thread waiting for the
/// loader to go idle (``waitUntilIdle(timeout:wakingOn:shouldStop:)``) is woken through a
/// pipe of its own, never by polling.
package final class CoverLoader: Sendable {
  /// The disk cache covers go to.
  package let cache: CoverCache
  /// The timeout and size cap of each fetch.
  package let limits: CoverLimits
  /// The most fetches running at once.
  package let maxConcurrent: Int

  private let sources: [String: any CoverSource]
  /// Every source, once each, for ``shutDown()``.
  private let allSources: [any CoverSource]
  /// Why fetched bytes are not a usable image (they do not decode), or nil.
  private let validate: @Sendable (Data) -> String?
  private let book = Mutex(CoverBook())
  /// Where events are handed to the subscribers: a serial queue of its own, so a delivery
  /// never waits for a thread of Swift's small cooperative pool (which threads blocked in a
  /// wait could all be holding).
  private let deliveries = DispatchQueue(label: "bluelib.covers.delivery")

  /// The sources of a standard loader: http/https, file, the bundled covers, pictures
  /// embedded in audio files, and the Cover Art Archive (at `coverArtBase`), each request
  /// saying it comes from `userAgent`.
  package static func standardSources(
    userAgent: String = "bluelib", coverArtBase: String = CoverArtArchiveSource.defaultBase
  ) -> [any CoverSource] {
    [
      HTTPCoverSource(userAgent: userAgent), FileCoverSource(), BundledCoverSource(), EmbeddedCoverSource(),
      CoverArtArchiveSource(base: coverArtBase, userAgent: userAgent),
    ]
  }

  /// Creates a loader over `cache`; for each scheme the first source that lists it is used.
  /// `validate` says why fetched bytes are not a usable image (the shell decodes them).
  package init(
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

  /// Asks for the cover at `url` on behalf of `requester` (an album: its title and where it
  /// stands); returns at once.
  ///
  /// A cached cover is reported as `.finished(fromCache: true)` without fetching; a
  /// cover already queued or downloading is not fetched twice, and the outcome event
  /// lists every album that asked. A URL no source handles fails at once with
  /// ``CoverFailure/unsupportedURL(_:)``.
  ///
  /// - Returns: The cover's state right after the request (`.cached`, `.queued`,
  ///   `.downloading` or `.failed`).
  @discardableResult
  package func request(_ url: String, for requester: CoverRequester) -> CoverState {
    let (state, deliver) = book.withLock { book -> (CoverState, Bool) in
      guard admit(url, for: requester, &book) else { return (book.states[url] ?? .queued, false) }
      startJobs(&book)
      return (book.states[url] ?? .none, Self.settled(&book))
    }
    if deliver { scheduleDelivery() }
    return state
  }

  /// Asks for every cover of `batch`, in order, and returns at once. They are requested
  /// (as ``request(_:for:)`` does) a few at a time, as slots free up, so a million costs the
  /// batch's bytes rather than a job and a state each. Until then a cover of the batch is
  /// `.queued` (the batch keeps a hash of each URL), with no state of its own, and
  /// ``cancelAll(reporting:)`` drops the rest of the batch without an event for each.
  package func request(_ batch: CoverBatch) {
    guard batch.count > 0 else { return }
    let deliver = book.withLock { book in
      book.backlog.append(contentsOf: batch)
      startJobs(&book)
      return Self.settled(&book)
    }
    if deliver { scheduleDelivery() }
  }

  /// Makes the request for `url` (under the lock): joins its job, answers it from the
  /// cache, fails it when no source reads it, or queues it. False when it joined a job.
  private func admit(_ url: String, for requester: CoverRequester, _ book: inout CoverBook) -> Bool {
    if book.join(url, requester) { return false }
    let checked = ContinuousClock.now
    if source(for: url) == nil {
      let failure = CoverFailure.unsupportedURL(url)
      book.settle(url, state: .failed(failure), event: .failed(url: url, albums: [requester], failure))
    } else if let size = cache.entrySize(for: url) {
      let event = CoverEvent.finished(
        url: url, albums: [requester], bytes: size, seconds: Self.seconds(since: checked), fromCache: true)
      book.settle(url, state: .cached, event: event)
    } else {
      book.enqueue(url, requester)
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
  package func fetchNow(_ url: String) -> CoverState {
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
  package func forget(_ url: String) {
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
  package func cancelAll(reporting: Bool = true) {
    let (tasks, deliver) = book.withLock { book in
      let tasks = book.cancelAll(reporting: reporting)
      // Kept for ``cancelAndWait(reporting:)`` to wait for; a finished task is cheap to keep.
      if !tasks.isEmpty { book.cancelledTasks += tasks }
      return (tasks, Self.settled(&book))
    }
    for task in tasks { task.cancel() }
    if deliver { scheduleDelivery() }
  }

  /// Cancels every download (as ``cancelAll(reporting:)``) and waits until each task it
  /// started has ended: nothing more of them is fetched, cached or reported. No fixed grace:
  /// a download ends as soon as it notices the cancellation (a blocking read first finishes).
  ///
  /// - Important: Blocks the calling thread, which must not be one of Swift's cooperative
  ///   pool (the tasks need it); the shell calls it from its main thread as it leaves.
  package func cancelAndWait(reporting: Bool = true) {
    cancelAll(reporting: reporting)
    let tasks = book.withLock { book in
      defer { book.cancelledTasks = [] }
      return book.cancelledTasks
    }
    guard !tasks.isEmpty else { return }
    let ended = DispatchSemaphore(value: 0)
    Task.detached {
      for task in tasks { await task.value }
      ended.signal()
    }
    ended.wait()
  }

  /// Cancels every download and waits for them to end (``cancelAndWait(reporting:)``), then
  /// shuts the sources down, closing their connections and stopping their threads; later
  /// downloads fail. A source is shut down only once no download of it runs.
  ///
  /// - Important: Blocks as ``cancelAndWait(reporting:)`` does, then until the sources are
  ///   down (milliseconds).
  package func shutDown() {
    cancelAndWait()
    for source in allSources { source.shutDown() }
  }

  /// How many downloads are queued or running now, not counting the batch's requests not
  /// yet made.
  var jobCount: Int {
    book.withLock { $0.jobs.count }
  }

  // MARK: - State

  /// The state of the cover at `url` in this session (queued, downloading, cached or
  /// failed since a request), or nil when it was not requested: no look in the cache, so a
  /// render can ask for every card. From any thread without waiting.
  package func sessionState(of url: String) -> CoverState? {
    book.withLock { $0.states[url] }
  }

  /// Whether a request for the cover at `url` may still wait in a batch, not made yet (see
  /// ``CoverBatch/holds(_:)``): such a cover has no state of its own, and is queued unless
  /// the cache already has it.
  package func isWaitingInBatch(_ url: String) -> Bool {
    book.withLock { $0.backlog.holds(url) }
  }

  /// Whether any cover was asked for in this session (else ``sessionState(of:)`` is nil
  /// and ``isWaitingInBatch(_:)`` false for every URL).
  package var hasSessionStates: Bool {
    book.withLock { $0.hasStates }
  }

  /// The state of the cover at `url`, from any thread without waiting.
  ///
  /// A URL not requested in this session is `.cached` if the cache holds it, else `.queued`
  /// while it waits in a batch, else `.none`.
  func currentState(of url: String) -> CoverState {
    if let known = book.withLock({ $0.states[url] }) { return known }
    guard cache.contains(url) else { return isWaitingInBatch(url) ? .queued : .none }
    return book.withLock { book in
      if let known = book.states[url] { return known }
      book.states[url] = .cached
      return .cached
    }
  }

  /// The number of downloads not yet reported (queued, running, or with an outcome
  /// not yet handed to the subscribers).
  var pendingCount: Int {
    book.withLock { $0.pendingCount }
  }

  /// The first `limit` downloads not yet finished, running ones first, from any thread
  /// without waiting.
  package func pendingSnapshot(limit: Int = .max) -> [PendingCover] {
    book.withLock { $0.pending(limit: limit) }
  }

  /// How many downloads are queued or running, from any thread without waiting.
  package var unsettledCount: Int {
    book.withLock { $0.jobs.count + $0.backlog.count }
  }

  // MARK: - Waiting

  /// Blocks the calling thread until every request so far has been reported to the
  /// subscribers (true), `timeout` seconds pass, or `shouldStop` says so (false).
  ///
  /// The wait sleeps in `poll` on a pipe of its own, which the loader writes to when it goes
  /// idle, and on `wakingOn` (the shell's wake-up pipe, which its signal handlers and status
  /// lines write to): each time that descriptor is readable, and once before sleeping,
  /// `shouldStop` is called; it must take what woke it (drain the pipe), or the wait spins.
  /// The downloads go on when the wait ends early; ``cancelAll(reporting:)`` stops them.
  ///
  /// - Important: For a thread outside Swift concurrency (the shell's main thread), or a
  ///   thread of its own. Never call it from a subscriber's handler: events wait for the
  ///   handler to return.
  package func waitUntilIdle(timeout: Double? = nil, wakingOn: Int32? = nil, shouldStop: () -> Bool = { false })
    -> Bool
  {
    if isIdle { return true }
    if shouldStop() { return false }
    let idle = WakeUpPipe()
    guard idle.isOpen else { return false }
    let id = book.withLock { book -> UInt64? in
      guard book.pendingCount > 0 else { return nil }
      let id = book.makeID()
      book.idleWaiters[id] = idle
      return id
    }
    // The waker writes under the lock, so once this wait is out of the book no write can
    // reach its pipe, and the pipe can be closed.
    defer {
      if let id { book.withLock { _ = $0.idleWaiters.removeValue(forKey: id) } }
      idle.close()
    }
    guard id != nil else { return true }
    let deadline = timeout.map { ContinuousClock.now.advanced(by: .seconds($0)) }
    var fds = [pollfd(fd: idle.readEnd, events: Int16(POLLIN), revents: 0)]
    if let wakingOn { fds.append(pollfd(fd: wakingOn, events: Int16(POLLIN), revents: 0)) }
    while true {
      var milliseconds: Int32 = -1
      if let deadline {
        let left = deadline - ContinuousClock.now
        if left <= .zero { return false }
        let (seconds, attoseconds) = left.components
        milliseconds = Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 86_400_000))
      }
      for index in fds.indices { fds[index].revents = 0 }
      // A signal cuts the poll short and it is made again: the handler wrote to `wakingOn`.
      guard (try? syscall("poll", { poll(&fds, nfds_t(fds.count), milliseconds) })) != nil else { return isIdle }
      if fds[0].revents != 0 { return true }
      if fds.count > 1, fds[1].revents != 0, shouldStop() { return false }
    }
  }

  // MARK: - Subscribers

  /// Calls `handler` with every event from now on (with `outcomesOnly`, only `finished`
  /// and `failed`: queued and started downloads are then not reported to anyone who does
  /// not ask for them); keep the token to unsubscribe.
  ///
  /// - Important: Handlers run one event at a time, in the order the events happened
  ///   (so in order for each URL), on the loader's delivery queue, never on the caller's
  ///   thread. A handler must return quickly and must not block (the shell's appends a
  ///   line to a locked queue and wakes the terminal owner).
  package func subscribe(
    outcomesOnly: Bool = false, _ handler: @escaping @Sendable (CoverEvent) -> Void
  ) -> SubscriptionToken {
    book.withLock { book in
      let id = book.makeID()
      book.subscribers[id] = CoverBook.Subscriber(handler: handler, outcomesOnly: outcomesOnly)
      return SubscriptionToken(id: id)
    }
  }

  /// Stops calling the handler of `token` (an event being delivered may still reach it).
  package func unsubscribe(_ token: SubscriptionToken) {
    _ = book.withLock { $0.subscribers.removeValue(forKey: token.id) }
  }

  /// Why the source of `url` cannot fetch anything as it is set up, or nil
  /// (``CoverSource/setupProblem``).
  package func setupProblem(for url: String) -> String? {
    source(for: url)?.setupProblem
  }

  // MARK: - Fetching

  private func source(for url: String) -> (any CoverSource)? {
    coverURLScheme(url).flatMap { sources[$0] }
  }

  /// Starts queued jobs while slots are free, making the backlog's requests when the
  /// queue runs dry (called under the lock).
  private func startJobs(_ book: inout CoverBook) {
    while true {
      while let next = book.startNext(maxConcurrent: maxConcurrent) {
        let task = Task.detached { await self.run(next.url, id: next.id) }
        book.attach(task, to: next.url, id: next.id)
      }
      guard book.running < maxConcurrent, book.queueIsEmpty, let next = book.backlog.next() else { return }
      _ = admit(next.url, for: CoverRequester(title: next.title, order: next.order), &book)
    }
  }

  /// ``fetchChecked(_:)`` on the calling thread. A local file is read right here: waiting
  /// on a semaphore for a task would block a thread of Swift's small cooperative pool, and
  /// callers on it (async tests) could take every thread the task needs.
  private func fetchedNow(_ url: String) -> Result<Data, CoverFailure> {
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
  private func fetchChecked(_ url: String) async throws(CoverFailure) -> Data {
    guard let source = source(for: url) else { throw .unsupportedURL(url) }
    return try checked(try await source.fetch(url, limits: limits)).get()
  }

  /// `data` if it is an image that decodes, else why not.
  private func checked(_ data: Data) -> Result<Data, CoverFailure> {
    guard CoverImageFormat(sniffing: data) != nil else { return .failure(.notAnImage) }
    // A header alone proves little: what enters the cache must decode, or it would be
    // a "cached" cover that never draws and is never fetched again.
    if let reason = validate(data) { return .failure(.unreadableImage(reason)) }
    return .success(data)
  }

  /// Fetches, checks and stages one cover, then settles its job.
  private func run(_ url: String, id: UInt64) async {
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
  private func complete(
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
      return (committed, Self.settled(&book))
    }
    if committed { cache.syncDirectory() }
    if deliver { scheduleDelivery() }
  }

  // MARK: - Delivering events

  /// Ends a transition (under the lock): wakes the threads waiting for the loader to go
  /// idle if it is, and marks a delivery pass as scheduled if events wait and none is;
  /// true if the caller must schedule it.
  private static func settled(_ book: inout CoverBook) -> Bool {
    book.wakeIdleWaiters()
    guard !book.deliveryScheduled, !book.outbox.isEmpty else { return false }
    book.deliveryScheduled = true
    return true
  }

  /// Starts a delivery pass on the delivery queue: one at a time, so subscribers hear
  /// events one by one in the order they happened.
  private func scheduleDelivery() {
    deliveries.async { self.deliver() }
  }

  /// Hands queued events to the subscribers, oldest first, until the outbox is empty.
  private func deliver() {
    var delivered = 0
    while true {
      let batch = book.withLock { book -> (events: [CoverEvent], subscribers: [CoverBook.Subscriber])? in
        book.undeliveredOutcomes -= delivered
        guard !book.outbox.isEmpty else {
          book.deliveryScheduled = false
          book.wakeIdleWaiters()
          return nil
        }
        let events = book.outbox
        book.outbox = []
        return (events, book.subscribers.sorted { $0.key < $1.key }.map(\.value))
      }
      guard let batch else { return }
      for event in batch.events {
        for subscriber in batch.subscribers where event.isTerminal || !subscriber.outcomesOnly {
          subscriber.handler(event)
        }
      }
      delivered = batch.events.count(where: \.isTerminal)
    }
  }

  /// True when nothing is queued, running, or waiting to be handed to the subscribers:
  /// every status line there will be has been delivered. From any thread.
  package var isIdle: Bool {
    book.withLock { $0.pendingCount == 0 }
  }

  private static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}
