import BlueSystem
import BlueText
internal import CCurl
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fetches `http:` and `https:` covers with libcurl, streaming the body so the size cap
/// stops a download as soon as it is exceeded.
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
/// libcurl is loaded (with `dlopen`, see CCurl) and its thread (``CurlMulti``) started by
/// the first fetch, so a shell that never downloads maps no libcurl and starts no thread;
/// ``shutDown()`` or the source's deinit stops the thread. Where libcurl cannot be loaded,
/// each fetch fails with ``CoverFailure/httpUnavailable(_:)``, naming what to install.
final class HTTPCoverSource: CoverSource {
  /// `["http", "https"]`.
  let schemes: Set<String> = ["http", "https"]

  /// The most redirects one fetch follows in a row.
  static let maxRedirects = 5

  /// The deadlines of every fetch, on one clock.
  private static let deadlines = DeadlineWatch()

  private let client = CurlClient()
  /// What requests say they come from (`User-Agent`).
  let userAgent: String
  /// The back-off every request to a busy host waits out (503, 429).
  let backoff: HostBackoff

  /// Creates the source; libcurl and its thread come with the first fetch.
  init(userAgent: String = "bluelib", backoff: HostBackoff = HostBackoff()) {
    self.userAgent = userAgent
    self.backoff = backoff
  }

  /// What a cover request accepts.
  static let imageTypes = "image/png, image/jpeg, image/gif, image/webp, image/*;q=0.8"

  /// Cancels the fetches in flight, closes every connection and stops the thread; later
  /// fetches fail with ``CoverFailure/cancelled``. Safe to call more than once.
  ///
  /// The thread ends each transfer (its fetch fails as cancelled) before it cleans
  /// libcurl's handle up: nothing touches the handle after that.
  ///
  /// - Important: Blocks until the thread is down (milliseconds: no transfer is waited for,
  ///   each is ended where it stands). Never call it from Swift's cooperative pool.
  func shutDown() { client.shutDown() }

  /// Whether libcurl's thread exists (for tests: a source that never fetched has none).
  var hasStarted: Bool { client.hasStarted }

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
    // Refused here, with the reason, before libcurl is loaded or a connection tried.
    if let reason = target.portProblem { throw .badURL(url, reason: reason) }
    let multi = try client.started()
    let deadline = ContinuousClock.now + limits.timeout
    // The fetch and its clock race as unstructured tasks, and the loser is cancelled but
    // not awaited: each transfer has its own timeout in libcurl too, but the deadline must
    // hold over the back-off's waits as well, whatever the thread is doing.
    let (answers, answer) = AsyncStream.makeStream(of: Result<Data, CoverFailure>.self)
    let request = Request(userAgent: userAgent, accept: accepting, backoff: backoff)
    let fetching = Task {
      do throws(CoverFailure) {
        answer.yield(
          .success(try await Self.follow(target, with: multi, request: request, limits: limits, deadline: deadline)))
      } catch {
        answer.yield(.failure(error))
      }
    }
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
    _ start: HTTPTarget, with multi: CurlMulti, request: Request, limits: CoverLimits,
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
      switch try await fetchOnce(target, with: multi, request: request, limits: limits, deadline: deadline) {
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
    _ target: HTTPTarget, with multi: CurlMulti, request: Request, limits: CoverLimits,
    deadline: ContinuousClock.Instant
  ) async throws(CoverFailure) -> Answer {
    let remaining = ContinuousClock.now.duration(to: deadline)
    guard remaining > .zero else { throw limits.timedOut }
    // The head of any answer but a 2xx one is all that is read (see CurlResponse).
    let outcome = await multi.get(
      CurlRequest(
        url: target.url.absoluteString, headers: ["Accept: \(request.accept)"], userAgent: request.userAgent,
        timeout: remaining, maxBytes: limits.maxBytes))
    let response: CurlResponse
    switch outcome {
    case .success(let answer): response = answer
    case .failure(let failure): throw Self.failure(for: failure, at: target, limits: limits)
    }
    let status = response.status
    if [301, 302, 303, 307, 308].contains(status), let location = response.headers["location"] {
      return .redirect(location)
    }
    if status == 503 || status == 429 {
      return .busy(status: status, retryAfter: HostBackoff.retryAfter(response.headers["retry-after"]))
    }
    guard (200...299).contains(status) else { throw .httpStatus(status) }
    return .body(response.body)
  }

  // MARK: - Failures

  /// The cover failure for how a transfer of `target` failed.
  static func failure(for failure: CurlFailure, at target: HTTPTarget, limits: CoverLimits) -> CoverFailure {
    let host = target.host
    let port = target.port
    switch failure {
    case .cancelled: return .cancelled
    case .tooLarge: return limits.tooLarge
    case .failed(let code, let osError, let message):
      switch code {
      case CURLE_COULDNT_RESOLVE_HOST: return .unresolvableHost(host)
      case CURLE_OPERATION_TIMEDOUT: return limits.timedOut
      case CURLE_COULDNT_CONNECT:
        switch osError {
        case ECONNREFUSED, 0: return .connectionRefused(host: host, port: port)
        case ENETUNREACH, EHOSTUNREACH: return .downloadFailed("cannot connect to \(host):\(port): no route to host")
        case ETIMEDOUT: return limits.timedOut
        default: return .downloadFailed("\(host):\(port): \(SystemError.reason(osError))")
        }
      case CURLE_RECV_ERROR:
        // libcurl's own refusals of an answer come as a receive error (a header limit
        // passed, a chunk size that is no number): its words say which, not the server.
        return refusal(message, host: host, port: port) ?? .connectionClosed(host: host, port: port)
      case curleTooLarge:
        return refusal(message, host: host, port: port) ?? .downloadFailed("\(host):\(port): \(message)")
      case CURLE_PARTIAL_FILE, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
        return .connectionClosed(host: host, port: port)
      case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL:
        return .downloadFailed("\(host):\(port) did not answer in HTTP")
      case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
        CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        return .tlsFailure(host: host, reason: tlsReason(message, host: host))
      case CURLE_URL_MALFORMAT: return .unsupportedURL(target.url.absoluteString)
      default: return .downloadFailed("\(host):\(port): \(message)")
      }
    }
  }

  /// `CURLE_TOO_LARGE` (libcurl 8.6 and later: a head past its limit, which older ones call
  /// a receive error), not in the header this builds with.
  static let curleTooLarge = CURLcode(rawValue: 100)

  /// What libcurl refused of an answer, from its words (`Too large response headers:
  /// 307264 > 307200`, `Illegal or missing hexadecimal sequence in chunked-encoding`,
  /// `invalid chunk size`), or nil when they say nothing of it.
  static func refusal(_ message: String, host: String, port: Int) -> CoverFailure? {
    let text = message.lowercased()
    if text.contains("too large response headers") || text.contains("header") && text.contains("too large") {
      // `… 307264 > 307200`: the limit is the number after `>`.
      let limit = message.split(separator: ">").last.flatMap { Int($0.trimming(.whitespaces)) }
      return .headersTooLarge(host: host, port: port, limit: limit)
    }
    if text.contains("chunk") {
      let detail = message.first.map { $0.lowercased() + message.dropFirst() } ?? message
      return .badChunkedEncoding(host: host, port: port, detail: detail)
    }
    return nil
  }

  /// A short reason for a TLS failure, when libcurl's text (OpenSSL's words in it) shows a
  /// familiar one.
  static func tlsReason(_ message: String, host: String) -> String? {
    let text = message.lowercased()
    if ["wrong version number", "packet length too long", "http request"].contains(where: text.contains) {
      return "the server does not speak TLS"
    }
    if ["no alternative certificate subject name matches", "does not match target host name"].contains(
      where: text.contains)
    {
      return "the certificate is not for \(host)"
    }
    if text.hasPrefix("ssl certificate problem") || text.contains("certificate verify failed") {
      return "certificate not trusted"
    }
    if text.contains("ssl_error_syscall") || text.contains("unexpected eof") { return "the server hung up" }
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
  /// A URL from a library or a redirect from any server may say anything; a port outside
  /// 16 bits is refused here, with the reason, before a connection is tried (libcurl would
  /// only call the URL malformed).
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
