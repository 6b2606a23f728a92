import BlueSystem
import Dispatch
import FoundationEssentials
import MusicSource
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An MPD server as bluelib uses it: a source of albums (``MusicSource``), covers
/// (``MPDCoverSource``), a player (``MPDEngine``) and stickers, over connections of its own.
///
/// Requests go over a few pooled connections, each opened when first needed (nothing is
/// opened by making the server). A connection the server closed while it lay in the pool
/// (MPD drops clients idle for a minute) is replaced without a word; one that fails under a
/// request fails that request only, and the next request connects again. One more
/// connection waits in `idle` on a thread of its own once something listens for changes
/// (``startFollowing()``, or an engine): when it is lost — the server stopped — it connects
/// again, a little later each time, and says so in one line once the server is back. When
/// `idle` is refused (a password it needs) or fails as soon as it is sent, the listener says
/// so once and tries again after 1 s, then twice as long each time, up to a minute.
///
/// - Important: Safe from any thread. On the thread that owns the terminal, a wait for an
///   answer ends at once on Ctrl-C, SIGTERM or SIGHUP (the run's ``Cancellation``).
package final class MPDServer: MusicSource, Sendable {
  /// Where the server is, and the password.
  package let address: MPDAddress
  /// Seconds without a byte from the server before a request fails (`MPD_TIMEOUT`).
  package let timeout: Double
  /// What ends a wait on the terminal's thread at a signal: the run's token.
  let cancellation: Cancellation
  private let pool = Mutex<[MPDConnection]>([])
  private let state = Mutex(State())
  /// Written to when the listener is to stop (tests; the shell leaves with the process).
  private let stopListening = WakeUpPipe()
  /// What the server speaks (``MPDFeatures``), once asked.
  let featureCache = Mutex(FeatureCache())
  /// What the listing and the polling of a server whose `stats` say nothing keep.
  let listingState = Mutex(ListingState())
  /// Taken while a connection is opened: one at a time (``connect()``).
  private let connecting = DispatchSemaphore(value: 1)
  /// Seconds between two looks at a server whose changes no `idle database` tells
  /// (Mopidy), while a shell follows it.
  let pollInterval: Double

  private struct State {
    var events = SourceEventOutlet()
    /// Whether database changes are reported (``startFollowing()``).
    var following = false
    /// Told of `player`, `mixer` and `playlist` changes, on the listener's thread.
    var playerListeners: [@Sendable (Set<String>) -> Void] = []
    /// Whether the listener thread runs.
    var listening = false
    /// Whether the listener lost its connection and has not got it back yet.
    var lost = false
    /// Whether the shell was told the server is gone, since it was last back.
    var goneSaid = false
    /// The listener's connection, closed to stop it.
    var idleConnection: MPDConnection?
    var stopped = false
    /// Whether a request was refused for want of a password (or for a wrong one): the
    /// shell said so; the listener need not say it again.
    var passwordRefused = false
    /// How many times the listener failed to connect or to wait in `idle`.
    var failures = 0
    /// The pipes of the calls waiting for the listener (``waitUntilListening()``): each is
    /// woken when the listener connects, fails or stops (``wakeWaiters()``).
    var waiters: [WakeUpPipe] = []

    /// Wakes every call waiting for the listener; done under the lock, so that a waiter
    /// closes its pipe only once nothing can write to it.
    func wakeWaiters() {
      for waiter in waiters { waiter.wake() }
    }
  }

  /// The most connections kept in the pool between requests.
  static let pooled = 4

  /// A server at `address`; nothing is connected until a request needs it. A server whose
  /// `stats` say nothing (Mopidy) is looked at every `pollInterval` seconds while a shell
  /// follows it (``startFollowing()``).
  /// A wait for it on the thread that armed `cancellation` ends at a signal.
  package init(
    address: MPDAddress, timeout: Double = 15, pollInterval: Double = 10, cancellation: Cancellation = .never
  ) {
    self.address = address
    self.timeout = timeout
    self.pollInterval = pollInterval
    self.cancellation = cancellation
  }

  /// The seconds of `MPD_TIMEOUT` in `environment` (as libmpdclient reads it), else 15.
  package static func timeout(from environment: [String: String]) -> Double {
    guard let text = environment["MPD_TIMEOUT"], let seconds = Double(text), seconds > 0, seconds <= 3600 else {
      return 15
    }
    return seconds
  }

  deinit {
    stopListening.close()
  }

  // MARK: - MusicSource

  package var name: String { "MPD at \(address)" }
  package var root: String { "mpd://" + address.authority }
  /// `mpd-127.0.0.1:6600`; a name longer than 200 bytes (a long socket path, each `/`
  /// written `%2F`) keeps its first 183 and ends in a hash of the whole, so the file's name
  /// (with `.sqlite-journal`) stays within the file system's 255.
  package var libraryName: String {
    let name = "mpd-" + address.authority
    guard name.utf8.count > 200 else { return name }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let hex = String(hash, radix: 16)
    // The authority is ASCII: cut anywhere.
    return String(decoding: name.utf8.prefix(183), as: UTF8.self) + "-" + String(repeating: "0", count: 16 - hex.count)
      + hex
  }

  package func setEventHandler(_ handler: @escaping @Sendable (SourceEvent) -> Void) {
    let pending = state.withLock { $0.events.set(handler) }
    for line in pending { handler(.notice(line)) }
  }

  package func startFollowing() {
    state.withLock { $0.following = true }
    startListening()
    waitUntilListening()
    startPolling()
  }

  // MARK: - Requests

  /// Runs `body` with a connection of the pool (or a new one), returning it to the pool
  /// afterwards unless the request left it out of step.
  @discardableResult
  func withConnection<T>(_ body: (MPDConnection) throws(MPDError) -> T) throws(MPDError) -> T {
    var connection = pool.withLock { $0.popLast() }
    if let stale = connection, stale.isStale {
      stale.close()
      connection = nil
    }
    let usable: MPDConnection
    if let connection {
      usable = connection
    } else {
      usable = try connect()
    }
    do throws(MPDError) {
      let result = try body(usable)
      giveBack(usable)
      return result
    } catch {
      if error.leavesConnectionUsable {
        giveBack(usable)
      } else {
        usable.close()
      }
      if error.isAboutThePassword { state.withLock { $0.passwordRefused = true } }
      learn(from: error)
      throw error
    }
  }

  /// A new connection to the server. Connections are opened one at a time, each greeted
  /// before the next is opened: Mopidy takes connections from a backlog of one
  /// (`listen(1)`), and of a burst of them some wait a second, others are never greeted and
  /// would wait for `MPD_TIMEOUT`. The wait for the one being opened ends after the
  /// timeout (a server that does not greet: this one is opened anyway), or, on the
  /// terminal's thread, at a signal.
  func connect() throws(MPDError) -> MPDConnection {
    let deadline = DispatchTime.now() + timeout
    var turn = false
    while !turn && DispatchTime.now() < deadline {
      turn = connecting.wait(timeout: min(deadline, .now() + .milliseconds(50))) == .success
      if !turn, cancellation.stopsWaitOnThisThread() { throw MPDError(server: address.description, .interrupted) }
    }
    defer { if turn { connecting.signal() } }
    return try MPDConnection(address: address, timeout: timeout, cancellation: cancellation)
  }

  /// Runs one command and returns its answer's lines.
  @discardableResult
  func run(_ verb: String, _ arguments: String...) throws(MPDError) -> [(name: String, value: String)] {
    try withConnection { connection throws(MPDError) in try connection.run(MPDCommand(verb, arguments)) }
  }

  private func giveBack(_ connection: MPDConnection) {
    // One with an answer asked ahead and unread (a listing stopped) is not used again: the
    // server holds that answer for it meanwhile.
    guard !connection.hasUnanswered else { return connection.close() }
    let kept = pool.withLock { pool in
      guard pool.count < Self.pooled else { return false }
      pool.append(connection)
      return true
    }
    if !kept { connection.close() }
  }

  /// Checks the server answers as MPD, with the password given: the one line to say at
  /// start when it does not (connection refused, wrong password).
  package func check() throws(SourceError) {
    do throws(MPDError) {
      try withConnection { connection throws(MPDError) in
        // The password is tried when connecting; a command that needs none proves the rest.
        _ = try connection.run(MPDCommand("ping"))
      }
    } catch {
      throw error.sourceError
    }
  }

  // MARK: - Listening for changes

  /// Tells `listener` of every change of the player, the mixer or the queue (the names of
  /// the subsystems that changed), on the listener's thread; starts listening.
  ///
  /// Returns once the listener is connected (or the server's timeout passed): MPD tells a
  /// connection only of changes made after it connected, so a change the caller makes next
  /// is not missed.
  func observePlayer(_ listener: @escaping @Sendable (Set<String>) -> Void) {
    state.withLock { $0.playerListeners.append(listener) }
    startListening()
    waitUntilListening()
  }

  /// Waits until the listener's connection is open, or it failed (the server is gone, or
  /// refuses), or the timeout passed, or it stopped, or — on the terminal's thread — a
  /// signal asks to stop: asleep in `poll` on a pipe of its own, which the listener wakes at
  /// each of those (``State/wakeWaiters()``), and on the token's.
  private func waitUntilListening() {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    let woken = WakeUpPipe()
    let failures = state.withLock { state in
      state.waiters.append(woken)
      return state.failures
    }
    defer {
      state.withLock { $0.waiters.removeAll { $0.readEnd == woken.readEnd } }
      woken.close()
    }
    while !state.withLock({ $0.idleConnection != nil || $0.stopped || $0.failures > failures }) {
      var descriptors = [pollfd(fd: woken.readEnd, events: Int16(POLLIN), revents: 0)]
      // Without a pipe (the process out of descriptors), a look every 2 ms.
      let until = woken.isOpen ? deadline : min(deadline, .now + .milliseconds(2))
      switch cancellation.wait(for: &descriptors, until: until) {
      case .ready: woken.drain()
      case .timedOut: if ContinuousClock.now >= deadline { return }
      case .stopped, .failed: return
      }
    }
  }

  /// Starts the thread that waits in `idle`, unless it runs.
  private func startListening() {
    DetachedThread.start(
      name: "mpd idle", in: state,
      claiming: { state in
        guard !state.listening, !state.stopped else { return false }
        state.listening = true
        return true
      },
      running: { [self] in listen() })
  }

  /// Stops the listener thread (for tests; a shell leaves it to the end of the process).
  package func stop() {
    let connection = state.withLock { state in
      state.stopped = true
      state.wakeWaiters()
      return state.idleConnection
    }
    stopListening.wake()
    connection?.cancel.wake()
    pool.withLock { pool in
      for connection in pool { connection.close() }
      pool = []
    }
  }

  /// The listener: connects, waits in `idle`, hands out what changed; connects again when the
  /// connection is lost, at once, then (while it cannot) waiting 0.1 s, then longer, up to
  /// 2 s between tries. A connection lost as soon as it was made waits longer each time, up
  /// to a minute. A refusal (of `idle`, or of the password) would come again at once: it is
  /// said once, and the next try waits 1 s, then twice as long each time, up to a minute.
  private func listen() {
    var pause = 0.1
    var backOff: Double?
    var said: String?
    /// After a refusal: says it (once), waits longer each time; true when stopped meanwhile.
    func refused(_ error: MPDError) -> Bool {
      let (passwordSaid, handler) = state.withLock { state in
        state.failures += 1
        state.wakeWaiters()
        return (state.passwordRefused, state.events.handler)
      }
      if said != error.description && !(error.isAboutThePassword && passwordSaid) {
        handler?(.notice(error.description))
      }
      said = error.description
      let wait = min((backOff ?? 0.5) * 2, 60)
      backOff = wait
      return sleepUnlessStopped(wait)
    }
    /// After the connection was lost or could not be made: waits `pause` (unless `now`);
    /// true when stopped meanwhile.
    func lost(waiting wait: Bool) -> Bool {
      state.withLock { state in
        state.lost = true
        state.failures += 1
        state.wakeWaiters()
      }
      return wait && sleepUnlessStopped(pause)
    }
    while !state.withLock({ $0.stopped }) {
      let connection: MPDConnection
      do throws(MPDError) {
        connection = try connect()
      } catch {
        if error.leavesConnectionUsable {
          if refused(error) { return }
          continue
        }
        if lost(waiting: true) { return }
        pause = min(pause * 2, max(pause, 2))
        continue
      }
      let connected = ContinuousClock.now
      let (back, handler, following) = state.withLock { state in
        state.idleConnection = connection
        state.wakeWaiters()
        defer { (state.lost, state.goneSaid) = (false, false) }
        return (state.lost, state.events.handler, state.following)
      }
      if back {
        forgetFeatures()
        handler?(.notice("\(name) is back; reconnected"))
        // What changed while it was away: the database may have, and what plays.
        if following { handler?(.databaseChanged) }
        tellPlayerListeners(["player", "playlist", "mixer"])
      }
      do throws(MPDError) {
        // The database, the player and its queue, and the stickers (a rating another client
        // set) when the server keeps them, as its `commands` say (MPD lists `sticker` only
        // with a sticker database; Mopidy, which would wait for ever in `idle` on a name it
        // does not know, does not list it).
        let subsystems = try features(connection).idleSubsystems(["database", "player", "mixer", "playlist", "sticker"])
        while let changed = try connection.idle(subsystems) {
          (pause, backOff, said) = (0.1, nil, nil)
          let subsystems = Set(changed)
          if subsystems.contains("database") || subsystems.contains("sticker") {
            let (handler, following) = state.withLock { ($0.events.handler, $0.following) }
            // A sync after an update takes the marks too.
            if following { handler?(subsystems.contains("database") ? .databaseChanged : .marksChanged) }
          }
          if !subsystems.isDisjoint(with: ["player", "mixer", "playlist"]) { tellPlayerListeners(subsystems) }
        }
        connection.close()
        return  // cancelled: stopped
      } catch {
        connection.close()
        let stopped = state.withLock { state in
          state.idleConnection = nil
          return state.stopped
        }
        if stopped { return }
        if error.leavesConnectionUsable {
          if refused(error) { return }
        } else if ContinuousClock.now - connected < .seconds(1) {
          // Lost as soon as it was made (a server that drops `idle`, or restarts): said
          // once; the next try waits, longer each time.
          sayGone(error)
          if lost(waiting: true) { return }
          pause = min(pause * 2, 60)
        } else {
          // Lost after it worked: the server stopped or restarted. Said once; connect again
          // at once.
          (pause, backOff, said) = (0.1, nil, nil)
          sayGone(error)
          if lost(waiting: false) { return }
        }
      }
    }
  }

  /// Tells the shell the listener's connection was lost after it worked (`error`): the
  /// server stopped or restarted; once, until it is back.
  private func sayGone(_ error: MPDError) {
    let handler = state.withLock { state -> (@Sendable (SourceEvent) -> Void)? in
      guard !state.goneSaid else { return nil }
      state.goneSaid = true
      return state.events.handler
    }
    let said = error.description
    let why = said.hasPrefix(name + ": ") ? String(said.dropFirst(name.count + 2)) : said
    handler?(.notice("\(name) is gone (\(why)); reconnecting when it is back"))
  }

  /// Shows `line` above the shell's prompt (a request made in the background failed); kept
  /// until a handler is set when none is yet (a sync before the shell's).
  func notify(_ line: String) {
    let handler = state.withLock { $0.events.handler(forNotice: line) }
    handler?(.notice(line))
  }

  /// Tells the handler what the server lists changed, when it is followed.
  func tellDatabaseChanged() {
    let (handler, following) = state.withLock { ($0.events.handler, $0.following) }
    if following { handler?(.databaseChanged) }
  }

  private func tellPlayerListeners(_ subsystems: Set<String>) {
    for listener in state.withLock({ $0.playerListeners }) { listener(subsystems) }
  }

  /// Sleeps `seconds`, or less when ``stop()`` is called; true when it was.
  func sleepUnlessStopped(_ seconds: Double) -> Bool {
    stopListening.wait(atMost: seconds)
    return state.withLock { $0.stopped }
  }
}
