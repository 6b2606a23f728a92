internal import AsyncHTTPClient
import BlueSystem
import Foundation
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix
internal import NIOSSL
import Synchronization

/// Fetches `http:` and `https:` covers with AsyncHTTPClient, streaming the body so the
/// size cap stops a download as soon as it is exceeded.
///
/// - A declared `Content-Length` over the cap fails before any body is read; an
///   undeclared one fails as soon as the received bytes pass the cap, and the connection
///   is closed rather than drained.
/// - The timeout covers the whole fetch (connecting, redirects, waiting and reading),
///   not just the gaps between packets.
/// - Redirects (301, 302, 303, 307, 308) are followed here, at most ``maxRedirects`` in a
///   row, and only to `http:` or `https:`; `https:` never leads to plain `http:`.
/// - Bodies are taken as sent: no `Accept-Encoding`, no decompression, so a compressed
///   body cannot grow past the cap in memory (and is not an image).
///
/// The client and its one event-loop thread are made by the first fetch, so a shell that
/// never downloads starts no thread; ``shutDown()`` or the source's deinit stops them.
final class HTTPCoverSource: CoverSource {
  /// `["http", "https"]`.
  let schemes: Set<String> = ["http", "https"]

  /// The most redirects one fetch follows in a row.
  static let maxRedirects = 5

  /// The deadlines of every fetch, on one clock.
  private static let deadlines = DeadlineWatch()

  private enum Client {
    case notStarted
    case running(HTTPClient, MultiThreadedEventLoopGroup)
    case shutDown
  }

  private let client = Mutex(Client.notStarted)
  /// The requests running on the client, for ``shutDown()`` to let end before the loop stops.
  private let requests = RunningCount()
  /// What requests say they come from (`User-Agent`).
  let userAgent: String
  /// The back-off every request to a busy host waits out (503, 429).
  let backoff: HostBackoff

  /// Creates the source; its client and thread come with the first fetch.
  init(userAgent: String = "bluelib", backoff: HostBackoff = HostBackoff()) {
    self.userAgent = userAgent
    self.backoff = backoff
  }

  /// What a cover request accepts.
  static let imageTypes = "image/png, image/jpeg, image/gif, image/webp, image/*;q=0.8"

  deinit {
    // The last owner may be anywhere, even on the event loop, so this must not block: the
    // client shuts down in the background and its callback (on a dispatch queue) ends the loop.
    // As in ``shutDown()``, the loop stops only after the requests still running ended.
    guard case .running(let http, let group) = client.withLock({ $0 }) else { return }
    let requests = requests
    http.shutdown(queue: .global()) { _ in
      requests.waitUntilNoneRun()
      group.shutdownGracefully(queue: .global()) { _ in }
    }
  }

  /// Cancels the fetches in flight, closes every connection and stops the event-loop
  /// thread; later fetches fail with ``CoverFailure/cancelled``. Safe to call more than once.
  ///
  /// In order, so that nothing touches the event loop after it stops: the client shuts down
  /// (failing every request it has), then the requests still running end, then the loop
  /// stops. No fixed grace: each step waits for the one before.
  ///
  /// - Important: Blocks until the client and its thread are down (milliseconds; a
  ///   connection stuck in a handshake holds the client until its connect timeout). Never
  ///   call it from the client's own event loop or from Swift's cooperative pool.
  func shutDown() {
    let running = client.withLock { state -> (HTTPClient, MultiThreadedEventLoopGroup)? in
      defer { state = .shutDown }
      guard case .running(let http, let group) = state else { return nil }
      return (http, group)
    }
    guard let (http, group) = running else { return }
    let clientDown = DispatchSemaphore(value: 0)
    http.shutdown(queue: .global()) { _ in clientDown.signal() }
    clientDown.wait()
    requests.waitUntilNoneRun()
    let loopDown = DispatchSemaphore(value: 0)
    group.shutdownGracefully(queue: .global()) { _ in loopDown.signal() }
    loopDown.wait()
  }

  /// Whether the client and its thread exist (for tests: a source that never fetched has none).
  var hasStarted: Bool {
    client.withLock { state in
      if case .notStarted = state { return false }
      return true
    }
  }

  /// The client, made on first use; nil once shut down.
  ///
  /// `connectTimeout` (the first fetch's timeout) bounds connecting and the TLS handshake,
  /// so a connection a silent server holds is given up and the client can shut down.
  private func startedClient(connectTimeout: Duration) -> HTTPClient? {
    client.withLock { state in
      switch state {
      case .running(let http, _):
        return http
      case .shutDown:
        return nil
      case .notStarted:
        // Downloads wait on the network, not the CPU: one thread carries all of them.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        // The loader decides how many run at once (--downloads, up to 64); the pool's
        // default of 8 connections per host would quietly cap it.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        configuration.connectionPool.idleTimeout = .seconds(30)
        // A refused connection is reported at once rather than retried until a timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        // The fetch's own timeout covers connecting too; this bounds what it leaves behind.
        let parts = connectTimeout.components
        let nanoseconds = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let connect = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue + parts.attoseconds / 1_000_000_000
        configuration.timeout = HTTPClient.Configuration.Timeout(
          connect: .nanoseconds(min(max(connect, 1_000_000_000), 3_600 * 1_000_000_000)), read: nil)
        let http = HTTPClient(eventLoopGroup: group, configuration: configuration)
        state = .running(http, group)
        return http
      }
    }
  }

  // MARK: - Fetching

  /// The body of a 2xx answer to a GET of `url`, following redirects.
  func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    try await fetch(url, limits: limits, accepting: Self.imageTypes)
  }

  /// The body of a 2xx answer to a GET of `url` asking for `accepting` (an `Accept`
  /// header), following redirects; a host that answers busy (503, 429) is waited for and
  /// asked again within the timeout, as ``HostBackoff`` says.
  func fetch(_ url: String, limits: CoverLimits, accepting: String) async throws(CoverFailure) -> Data {
    guard let target = HTTPTarget(url), schemes.contains(target.scheme) else { throw .unsupportedURL(url) }
    // SwiftNIO traps on a port that does not fit 16 bits: it must not get that far.
    if let reason = target.portProblem { throw .badURL(url, reason: reason) }
    guard let http = startedClient(connectTimeout: limits.timeout) else { throw .cancelled }
    let deadline = ContinuousClock.now + limits.timeout
    // The fetch and its clock race as unstructured tasks, and the loser is cancelled but
    // not awaited: a connection stuck in a TLS handshake does not react to cancellation,
    // and a task group would wait for it long after the deadline (and past SIGTERM).
    let (answers, answer) = AsyncStream.makeStream(of: Result<Data, CoverFailure>.self)
    let userAgent = userAgent
    let backoff = backoff
    let requests = requests
    requests.enter()
    let fetching = Task {
      defer { requests.leave() }
      do throws(CoverFailure) {
        answer.yield(
          .success(
            try await Self.follow(
              target, with: http, request: Request(userAgent: userAgent, accept: accepting, backoff: backoff),
              limits: limits, deadline: deadline)))
      } catch {
        answer.yield(.failure(error))
      }
    }
    // A clock for the whole fetch: the client's own deadline ends when the head arrives.
    let clock = Self.deadlines.watch(until: deadline) { answer.yield(.failure(limits.timedOut)) }
    defer {
      fetching.cancel()
      Self.deadlines.cancel(clock)
      answer.finish()
    }
    // The stream ends its wait at once when the calling task is cancelled.
    var first = answers.makeAsyncIterator()
    guard let outcome = await first.next() else { throw .cancelled }
    return try outcome.get()
  }

  /// What every request of one fetch says and waits for.
  private struct Request: Sendable {
    var userAgent: String
    var accept: String
    var backoff: HostBackoff
  }

  /// Fetches `start`, following up to ``maxRedirects`` redirects, waiting out each host's
  /// back-off before asking it and asking a busy one again while the time lasts.
  private static func follow(
    _ start: HTTPTarget, with http: HTTPClient, request: Request, limits: CoverLimits,
    deadline: ContinuousClock.Instant
  ) async throws(CoverFailure) -> Data {
    var target = start
    var redirects = 0
    while true {
      let host = target.hostKey
      let turn = request.backoff.turn(of: host)
      if turn > .now {
        guard turn < deadline else { throw limits.timedOut }
        do { try await Task.sleep(until: turn) } catch { throw .cancelled }
      }
      switch try await fetchOnce(target, with: http, request: request, limits: limits, deadline: deadline) {
      case .body(let data):
        request.backoff.recovered(host)
        return data
      case .redirect(let location):
        request.backoff.recovered(host)
        redirects += 1
        guard redirects <= maxRedirects else { throw .tooManyRedirects(max: maxRedirects) }
        target = try target.redirected(to: location)
      case .busy(let status, let retryAfter):
        // Every request to the host waits now; this one is asked again when its turn
        // comes, unless that is past the fetch's time.
        let next = request.backoff.slowDown(host, retryAfter: retryAfter)
        guard next < deadline else { throw .httpStatus(status) }
      }
    }
  }

  private enum Answer {
    case body(Data)
    case redirect(String)
    /// 503 or 429, with the wait the server asked for.
    case busy(status: Int, retryAfter: Duration?)
  }

  /// One request: the body of a 2xx answer, where a redirect points, or that the host is busy.
  private static func fetchOnce(
    _ target: HTTPTarget, with http: HTTPClient, request settings: Request, limits: CoverLimits,
    deadline: ContinuousClock.Instant
  ) async throws(CoverFailure) -> Answer {
    var request = HTTPClientRequest(url: target.url.absoluteString)
    request.method = .GET
    request.headers.add(name: "Accept", value: settings.accept)
    request.headers.add(name: "User-Agent", value: settings.userAgent)
    do {
      let remaining = ContinuousClock.now.duration(to: deadline)
      let nanoseconds = remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
      let response = try await http.execute(request, deadline: .now() + .nanoseconds(max(0, nanoseconds)))
      let status = Int(response.status.code)
      if [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "Location") {
        // The body of a redirect is not wanted: dropping it closes the connection.
        return .redirect(location)
      }
      if status == 503 || status == 429 {
        return .busy(status: status, retryAfter: HostBackoff.retryAfter(response.headers.first(name: "Retry-After")))
      }
      guard (200...299).contains(status) else { throw CoverFailure.httpStatus(status) }
      let declared = response.headers.first(name: "Content-Length").flatMap { Int($0) }
      if let declared, declared > limits.maxBytes { throw limits.tooLarge }
      var body = Data()
      body.reserveCapacity(max(0, min(declared ?? 64 << 10, limits.maxBytes)))
      // Leaving the loop early (over the cap, cancelled) drops the stream, which closes
      // the connection instead of reading on.
      for try await chunk in response.body {
        guard body.count + chunk.readableBytes <= limits.maxBytes else { throw limits.tooLarge }
        chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
      }
      // A cancelled stream ends like a complete one.
      if Task.isCancelled { throw CoverFailure.cancelled }
      return .body(body)
    } catch {
      throw failure(for: error, at: target, limits: limits)
    }
  }

  // MARK: - Failures

  /// The cover failure for what the client threw while fetching `target`.
  static func failure(for error: any Error, at target: HTTPTarget, limits: CoverLimits) -> CoverFailure {
    if let failure = error as? CoverFailure { return failure }
    if Task.isCancelled || error is CancellationError { return .cancelled }
    let host = target.host
    let port = target.port
    if let error = error as? HTTPClientError {
      switch error {
      case .cancelled, .alreadyShutdown: return .cancelled
      case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout,
        .tlsHandshakeTimeout:
        return limits.timedOut
      case .remoteConnectionClosed, .uncleanShutdown, .bodyLengthMismatch:
        return .connectionClosed(host: host, port: port)
      case .invalidURL, .emptyHost, .emptyScheme:
        return .unsupportedURL(target.url.absoluteString)
      default: return .downloadFailed("bad answer from \(host):\(port) (\(error))")
      }
    }
    if let error = error as? NIOConnectionError {
      if error.dnsAError != nil || error.dnsAAAAError != nil { return .unresolvableHost(host) }
      if let first = error.connectionErrors.first { return failure(for: first.error, at: target, limits: limits) }
      return .connectionRefused(host: host, port: port)
    }
    if error is SocketAddressError.UnknownHost { return .unresolvableHost(host) }
    if let error = error as? IOError {
      switch error.errnoCode {
      case ECONNREFUSED: return .connectionRefused(host: host, port: port)
      case ECONNRESET, EPIPE: return .connectionClosed(host: host, port: port)
      case ENETUNREACH, EHOSTUNREACH: return .downloadFailed("cannot connect to \(host):\(port): no route to host")
      case ETIMEDOUT: return limits.timedOut
      default: return .downloadFailed("\(host):\(port): \(SystemError.reason(error.errnoCode))")
      }
    }
    if let error = error as? ChannelError {
      switch error {
      case .connectTimeout: return limits.timedOut
      case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed:
        return .connectionClosed(host: host, port: port)
      default: return .downloadFailed("\(host):\(port): \(error)")
      }
    }
    if let error = error as? HTTPParserError {
      if case .invalidEOFState = error { return .connectionClosed(host: host, port: port) }
      return .downloadFailed("\(host):\(port) did not answer in HTTP")
    }
    if error is NIOSSLError || error is NIOSSLExtraError {
      return .tlsFailure(host: host, reason: tlsReason(error, host: host))
    }
    return .downloadFailed("\(host):\(port): \(error)")
  }

  /// A short reason for a TLS failure, when BoringSSL's error stack shows a familiar one.
  private static func tlsReason(_ error: any Error, host: String) -> String? {
    if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
      return "the certificate is not for \(host)"
    }
    if let error = error as? NIOSSLError, case .uncleanShutdown = error { return "the server hung up" }
    let details = String(describing: error)
    if ["WRONG_VERSION_NUMBER", "PACKET_LENGTH_TOO_LONG", "HTTP_REQUEST"].contains(where: details.contains) {
      return "the server does not speak TLS"
    }
    if details.contains("CERTIFICATE_VERIFY_FAILED") { return "certificate not trusted" }
    return nil
  }
}

/// An `http:` or `https:` URL as a fetch needs it: the parsed URL, its lowercase scheme,
/// host and port (for the failure texts).
struct HTTPTarget: Sendable {
  let url: URL
  let scheme: String
  let host: String
  let port: Int

  /// `scheme://host:port`: what a back-off is kept for.
  var hostKey: String { "\(scheme)://\(host):\(port)" }

  /// Parses `text`; nil unless it is an absolute URL with a host.
  init?(_ text: String) {
    guard let url = URL(string: text) else { return nil }
    self.init(url: url)
  }

  private init?(url: URL) {
    guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return nil }
    self.url = url
    self.scheme = scheme
    self.host = host
    self.port = url.port ?? (scheme == "https" ? 443 : 80)
  }

  /// Why the port cannot be connected to (`port 65536 is out of range`), or nil when it can.
  ///
  /// A URL from a library or a redirect from any server may say anything; SwiftNIO traps
  /// on a port outside 16 bits, so it is checked here, before a connection is tried.
  var portProblem: String? {
    (1...65535).contains(port) ? nil : "port \(port) is out of range"
  }

  /// Where a redirect's `Location` (absolute or relative to this URL) leads, if a cover may go there.
  ///
  /// Only `http:` and `https:`: a redirect to `file:` or any other scheme would let a server
  /// read what it should not. An upgrade from `http:` to `https:` is allowed (as browsers
  /// and curl allow it); `https:` to `http:` is refused.
  func redirected(to location: String) throws(CoverFailure) -> HTTPTarget {
    guard let resolved = URL(string: location, relativeTo: url)?.absoluteURL else {
      throw .redirectRefused(location, reason: "not a URL")
    }
    let text = resolved.absoluteString
    guard let scheme = resolved.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      throw .redirectRefused(text, reason: "only http and https")
    }
    if self.scheme == "https" && scheme == "http" {
      throw .redirectRefused(text, reason: "https may not lead to http")
    }
    guard let target = HTTPTarget(url: resolved) else { throw .redirectRefused(text, reason: "no host") }
    if let reason = target.portProblem { throw .redirectRefused(text, reason: reason) }
    return target
  }
}

/// How many of something run now, and a wait until none does.
final class RunningCount: Sendable {
  private let state = Mutex<(count: Int, waiters: [DispatchSemaphore])>((0, []))

  func enter() { state.withLock { $0.count += 1 } }

  func leave() {
    let waiters = state.withLock { state -> [DispatchSemaphore] in
      state.count -= 1
      guard state.count == 0 else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.signal() }
  }

  /// Blocks the calling thread until the count is zero.
  func waitUntilNoneRun() {
    let waiter = DispatchSemaphore(value: 0)
    let wait = state.withLock { state -> Bool in
      guard state.count > 0 else { return false }
      state.waiters.append(waiter)
      return true
    }
    if wait { waiter.wait() }
  }
}
