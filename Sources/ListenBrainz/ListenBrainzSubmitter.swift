import BluePlayback
import BlueSystem
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Sends what the player plays to ListenBrainz: `playing_now` when a track starts, and a
/// listen once it played half its length or four minutes (``Player/Event/listened(_:startedAt:)``),
/// `listened_at` the time it started.
///
/// A listen is written to the library file's queue (``ListenStore``) first, then sent from
/// there, in batches (`single` for one, `import` for more, at most 1,000 and 10,240,000 bytes
/// a request), and taken out only once the server answered 200: a crash or `kill -9`
/// loses none, and none is sent twice. All of it happens on one thread of its own, started
/// when a token is first known and something is to be sent; no lock of the library is held
/// while the network is waited for (each queue call is a short transaction).
///
/// The server's rate limit is obeyed (`X-RateLimit-Remaining` 0: nothing is sent for
/// `X-RateLimit-Reset-In` seconds; a 429 is waited out the same way); no answer or a 5xx is
/// tried again after 1, 2, 4… seconds (at most two minutes; a new listen tries at once);
/// another 4xx drops the listen it names, with one line; a 401 says once that the token is
/// refused and stops sending until the token changes. Lines reach the terminal through
/// `say`, never the server's own text.
package final class ListenBrainzSubmitter: Sendable {
  /// Where and as whom listens are sent.
  package struct Settings: Sendable {
    /// The API root (`BLUELIB_LISTENBRAINZ_URL`, else ListenBrainz's).
    package var baseURL: String
    /// The process environment (for `BLUELIB_LISTENBRAINZ_TOKEN`).
    package var environment: [String: String]
    /// The file a token set with `listenbrainz token` is kept in.
    package var tokenFile: String
    /// `bluelib/0.1.0 ( contact )`.
    package var userAgent: String
    /// bluelib's version, for `submission_client_version`.
    package var version: String

    package init(environment: [String: String], tokenFile: String, userAgent: String, version: String) {
      let url = environment["BLUELIB_LISTENBRAINZ_URL"] ?? ""
      baseURL = url.isEmpty ? ListenBrainzClient.defaultBaseURL : url
      (self.environment, self.tokenFile, self.userAgent, self.version) = (environment, tokenFile, userAgent, version)
    }
  }

  /// What `listenbrainz` shows.
  package struct Status: Sendable, Equatable {
    /// The token, masked, and where it comes from; nil when none is set.
    package var token: (masked: String, origin: ListenBrainzToken.Origin)?
    /// Whether the server refused that token (sending stopped).
    package var tokenRefused: Bool
    /// Seconds until the next try, when sending waits (the rate limit, a back-off).
    package var waiting: Double?
    /// Listens sent by this process.
    package var sent: Int
    /// The last problem, as said (nil: none since the last success).
    package var problem: String?

    package static func == (left: Status, right: Status) -> Bool {
      left.token?.masked == right.token?.masked && left.token?.origin == right.token?.origin
        && (left.tokenRefused, left.waiting, left.sent, left.problem)
          == (right.tokenRefused, right.waiting, right.sent, right.problem)
    }
  }

  private let settings: Settings
  private let store: any ListenStore
  /// Made when first needed: a shell that sends nothing makes none.
  private let madeClient = Mutex<ListenBrainzClient?>(nil)
  private let say: @Sendable (String) -> Void
  private let player: Player?
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)

  private enum TokenState: Sendable {
    case unknown
    case none
    case some(String, ListenBrainzToken.Origin)
  }

  private struct State {
    var token = TokenState.unknown
    /// The token the server answered 401 for: nothing is sent while it is the token.
    var refusedToken: String?
    var inbox: [Player.Event] = []
    var started = false
    /// Set by ``finish(within:)``: the thread sends what waits, then ends.
    var finishing = false
    var ended = false
    /// Whether the thread is between two waits (events taken, perhaps a request out).
    var busy = false
    /// When the thread next sends (nil: nothing to send), as it last said.
    var nextSend: ContinuousClock.Instant?
    /// Whether its last request got no answer (or a 5xx).
    var failing = false
    var sent = 0
    var problem: String?
  }

  /// A submitter of `player`'s listens (it asks the player when a track reaches its mark)
  /// queued in `store`; nothing is read or started until a track starts or ``start()``.
  package init(
    settings: Settings, store: any ListenStore, player: Player?, say: @escaping @Sendable (String) -> Void
  ) {
    self.settings = settings
    self.store = store
    self.player = player
    self.say = say
  }

  private var client: ListenBrainzClient {
    madeClient.withLock { made in
      if let made { return made }
      let client = ListenBrainzClient(baseURL: settings.baseURL, userAgent: settings.userAgent)
      made = client
      return client
    }
  }

  // MARK: - From other threads

  /// Takes what the player tells (on its thread: only queued here). Without a token,
  /// nothing is kept and no thread starts.
  package func handle(_ event: Player.Event) {
    switch event {
    case .started, .listened, .endOfQueue: break
    case .failed, .played: return
    }
    let start = state.withLock { state -> Bool? in
      guard !state.ended, !state.finishing, hasToken(&state) else { return nil }
      state.inbox.append(event)
      defer { state.started = true }
      return !state.started
    }
    guard let start else { return }
    if start { startThread() } else { wake.signal() }
  }

  /// Sends what waits in the queue, if a token is set (a shell's start: what an earlier
  /// run left, offline or killed, goes now). Returns whether a token is set.
  @discardableResult
  package func start() -> Bool {
    let start = state.withLock { state -> Bool? in
      guard !state.ended, hasToken(&state) else { return nil }
      defer { state.started = true }
      return !state.started
    }
    guard let start else { return false }
    if start { startThread() } else { wake.signal() }
    return true
  }

  /// The token changed (set, or forgotten): it is read again, and sending starts again if
  /// a refused token was replaced.
  package func tokenChanged() {
    state.withLock { $0.token = .unknown }
    start()
  }

  /// The token, masked, and where it comes from (nil: none).
  package var token: (token: String, origin: ListenBrainzToken.Origin)? {
    state.withLock { state in
      guard hasToken(&state), case .some(let token, let origin) = state.token else { return nil }
      return (token, origin)
    }
  }

  /// What waits and why, for `listenbrainz`.
  package func status() -> Status {
    state.withLock { state in
      var token: (String, ListenBrainzToken.Origin)?
      if hasToken(&state), case .some(let value, let origin) = state.token { token = (value, origin) }
      let waiting = state.nextSend.map { ContinuousClock.now.duration(to: $0) }.flatMap {
        $0 > .milliseconds(500) ? Self.seconds($0) : nil
      }
      return Status(
        token: token.map { (ListenBrainzToken.masked($0.0), $0.1) },
        tokenRefused: token != nil && state.refusedToken == token?.0, waiting: waiting, sent: state.sent,
        problem: state.problem)
    }
  }

  /// At exit: lets the thread send what waits for at most `seconds` (nothing is waited for
  /// while the server cannot be reached, refuses the token, or its rate limit asks for
  /// longer), then ends it. What is not sent stays queued for the next run.
  package func finish(within seconds: Double) {
    let running = state.withLock { state -> Bool in
      state.finishing = true
      return state.started && !state.ended
    }
    guard running else { return }
    wake.signal()
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
      let done = state.withLock { state in
        state.ended
          || (state.inbox.isEmpty && !state.busy
            && (state.nextSend == nil || state.failing || state.nextSend! > deadline))
      }
      if done { break }
      usleep(10_000)
    }
    state.withLock { $0.ended = true }
    wake.signal()
    madeClient.withLock { $0 }?.shutDown()
  }

  // MARK: - The thread

  /// Whether a token is set, reading it when not known yet.
  private func hasToken(_ state: inout State) -> Bool {
    if case .unknown = state.token {
      if let (token, origin) = ListenBrainzToken.current(environment: settings.environment, file: settings.tokenFile) {
        state.token = .some(token, origin)
      } else {
        state.token = .none
      }
    }
    if case .some = state.token { return true }
    return false
  }

  private func startThread() {
    DetachedThread.start(name: "bluelib.listenbrainz") { [self] in run() }
  }

  private func run() {
    var sender = Sender(self)
    while true {
      let (events, token, finishing, ended) = state.withLock { state in
        defer { state.inbox = [] }
        state.busy = true
        var token: String?
        if case .some(let value, _) = state.token, value != state.refusedToken { token = value }
        return (state.inbox, token, state.finishing, state.ended)
      }
      if ended { break }
      for event in events { sender.take(event) }
      if finishing { sender.nowPlaying = nil }
      sender.watchListen(finishing: finishing)
      if let token { sender.send(token: token) }
      let wait = sender.nextWake(tokenUsable: token != nil)
      let hasNews = state.withLock { state in
        state.busy = false
        state.nextSend = token == nil ? nil : sender.nextSend
        state.failing = sender.failing
        return !state.inbox.isEmpty
      }
      if hasNews { continue }
      if let wait {
        if wait > .zero { _ = self.wake.wait(timeout: .now() + .nanoseconds(Int(Self.seconds(wait) * 1e9))) }
      } else {
        self.wake.wait()
      }
    }
  }

  /// The thread's own state: what to send, when.
  private struct Sender {
    let owner: ListenBrainzSubmitter
    var nowPlaying: Player.Track?
    /// When to ask the player whether the track that plays reached its mark.
    var nextCheck: ContinuousClock.Instant?
    /// Nothing is sent before this (the rate limit, a back-off).
    var notBefore = ContinuousClock.now
    /// The back-off after a request without an answer (0: none).
    var backoff = 0.0
    var failing = false
    /// Whether the queue may hold listens to send.
    var queueMayHold = true
    /// Listens to send one at a time (a batch was refused: find the one refused).
    var oneByOne = 0
    /// Whether the outage was said (once, until a request is answered).
    var saidOutage = false

    init(_ owner: ListenBrainzSubmitter) { self.owner = owner }

    var nextSend: ContinuousClock.Instant? {
      queueMayHold || nowPlaying != nil ? max(notBefore, .now) : nil
    }

    mutating func take(_ event: Player.Event) {
      switch event {
      case .started(let track, _, _):
        nowPlaying = track
        nextCheck = .now
      case .listened(let track, let startedAt):
        let listen = Listen(track, startedAt: startedAt, version: owner.settings.version)
        do {
          try owner.store.add(listen.json, listenedAt: startedAt)
          queueMayHold = true
          // A new listen tries at once, whatever the back-off.
          if backoff > 0 { notBefore = .now }
        } catch {
          owner.tell("ListenBrainz: cannot keep a listen in the library: \(error)")
        }
      case .endOfQueue:
        nowPlaying = nil
        nextCheck = nil
      case .failed, .played:
        break
      }
    }

    /// Asks the player whether the track reached its mark, when it is time.
    mutating func watchListen(finishing: Bool) {
      guard !finishing, let check = nextCheck, check <= .now else { return }
      if let left = owner.player?.checkListened() {
        nextCheck = .now + .milliseconds(Int(max(left, 0.05) * 1000))
      } else {
        nextCheck = nil
      }
    }

    func nextWake(tokenUsable: Bool) -> Duration? {
      var times: [ContinuousClock.Instant] = []
      if let nextCheck { times.append(nextCheck) }
      if tokenUsable, let nextSend { times.append(nextSend) }
      return times.min().map { ContinuousClock.now.duration(to: $0) }
    }

    /// Sends `playing_now`, then a batch of the queue, as the rate limit allows.
    mutating func send(token: String) {
      guard ContinuousClock.now >= notBefore else { return }
      if let track = nowPlaying {
        nowPlaying = nil
        let (answer, limit) = owner.client.submit(
          "playing_now", [Listen(track, startedAt: nil, version: owner.settings.version).json], token: token,
          isCancelled: { [owner] in owner.isEnding })
        obey(limit, answer: answer)
        // Playing now is not tried again (it is stale by then); a refused token is said.
        if answer == .unauthorized { refused(token) }
        return
      }
      guard queueMayHold else { return }
      let claimed: [(id: Int64, listen: String)]
      do {
        claimed = try owner.store.claim(oneByOne > 0 ? 1 : ListenBrainzClient.maxListensPerRequest)
      } catch {
        owner.tell("ListenBrainz: cannot read the listens waiting in the library: \(error)")
        queueMayHold = false
        return
      }
      var batch: [(id: Int64, listen: String)] = []
      var bytes = 64
      for listen in claimed {
        bytes += listen.listen.utf8.count + 1
        if bytes > ListenBrainzClient.maxPayloadBytes && !batch.isEmpty { break }
        batch.append(listen)
      }
      guard !batch.isEmpty else {
        queueMayHold = false
        return
      }
      let (answer, limit) = owner.client.submit(
        batch.count == 1 ? "single" : "import", batch.map(\.listen), token: token,
        isCancelled: { [owner] in owner.isEnding })
      obey(limit, answer: answer)
      switch answer {
      case .accepted:
        do {
          try owner.store.remove(batch.map(\.id))
        } catch {
          owner.tell("ListenBrainz: sent listens stay in the library (\(error)); they may be sent again")
        }
        owner.state.withLock {
          $0.sent += batch.count
          $0.problem = nil
        }
        if oneByOne > 0 { oneByOne -= batch.count }
        if saidOutage {
          saidOutage = false
          owner.tell("ListenBrainz answers again: sending the listens that waited")
        }
      case .unauthorized:
        refused(token)
      case .rateLimited:
        break
      case .refused(let status):
        if batch.count > 1 {
          // One listen of the batch is refused: sent one at a time, only it is dropped.
          oneByOne = batch.count
        } else {
          try? owner.store.remove(batch.map(\.id))
          if oneByOne > 0 { oneByOne -= 1 }
          let line = "ListenBrainz refused a listen (\(status)): dropped"
          owner.state.withLock { $0.problem = line }
          owner.tell(line)
        }
      case .failed(let why):
        if !saidOutage && !owner.isEnding {
          saidOutage = true
          let waiting = (try? owner.store.count()) ?? batch.count
          owner.tell(
            "ListenBrainz cannot be reached (\(why)): \(Self.counted(waiting, "wait")) in the library, tried again in the background"
          )
        }
        owner.state.withLock { $0.problem = "cannot reach the server: " + why }
      }
    }

    /// Follows the server's rate-limit headers and the answer: a 429 or no remaining
    /// request waits for the reset; no answer backs off.
    mutating func obey(_ limit: ListenBrainzClient.RateLimit, answer: ListenBrainzClient.Answer) {
      var wait = 0.0
      if case .failed = answer {
        backoff = backoff == 0 ? 1 : min(backoff * 2, 120)
        wait = backoff
        failing = true
      } else {
        backoff = 0
        failing = false
      }
      if answer == .rateLimited { wait = max(wait, limit.resetIn ?? 1, 0.2) }
      if limit.remaining == 0 { wait = max(wait, limit.resetIn ?? 1) }
      notBefore = .now + .milliseconds(Int(wait * 1000))
    }

    /// The server refused `token`: said once, and nothing is sent until it changes.
    func refused(_ token: String) {
      let first = owner.state.withLock { state -> Bool in
        defer { state.refusedToken = token }
        state.problem = "the server refused the token (401)"
        return state.refusedToken != token
      }
      guard first else { return }
      let waiting = (try? owner.store.count()) ?? 0
      owner.tell(
        "ListenBrainz refused the token (401): \(Self.counted(waiting, "wait")) in the library; nothing is sent until the token changes ('listenbrainz token TOKEN')"
      )
    }

    static func counted(_ count: Int) -> String {
      count == 1 ? "1 listen" : "\(count) listens"
    }

    /// `1 listen waits`, `3 listens wait`.
    static func counted(_ count: Int, _ verb: String) -> String {
      count == 1 ? "1 listen \(verb)s" : "\(count) listens \(verb)"
    }
  }

  private var isEnding: Bool { state.withLock { $0.ended } }

  private func tell(_ line: String) { say(line) }

  private static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }
}
