import BlueSystem
internal import CCurl
import Dispatch
import FoundationEssentials
import Synchronization

/// GETs with limits for another module of this package (a music server's API), on the same
/// libcurl loop the covers use (``CurlMulti``), not a second HTTP stack:
///
/// - the body is capped (a declared `Content-Length` over the cap fails before it is read,
///   an undeclared one as soon as it passes it); the whole request has a time limit, the
///   connection (TLS included) a shorter one;
/// - TLS is verified against the system's authorities and the host's name, always (there is
///   no way to turn that off);
/// - no proxy, no decompression; a redirect is followed (at most five) only within the
///   origin asked (the same scheme, host and port): one to any other is refused;
/// - the body of an answer that is not 2xx is not read: its status is the answer.
///
/// libcurl is loaded and the loop's thread started by the first request.
package final class HTTPGetter: Sendable {
  /// The bounds of one request.
  package struct Limits: Sendable, Equatable {
    /// The most bytes of the body.
    package var maxBytes: Int
    /// The longest the whole request may take (each redirect's request in it).
    package var timeout: Duration
    /// The longest the connection may take, TLS handshake included.
    package var connectTimeout: Duration

    package init(maxBytes: Int, timeout: Duration, connectTimeout: Duration) {
      self.maxBytes = max(0, maxBytes)
      self.timeout = timeout
      self.connectTimeout = connectTimeout
    }
  }

  /// What a server answered.
  package struct Answer: Sendable {
    /// The status code (`200`).
    package var status: Int
    /// The headers by lowercase name, the first of each name.
    package var headers: [String: String]
    /// The body of a 2xx answer; empty for any other.
    package var body: Data
  }

  private let client = CurlClient()
  private let userAgent: String

  /// The most redirects within the origin one request follows.
  static let maxRedirects = 5

  /// The run's token: on the thread that armed it, a signal ends a request.
  private let cancellation: Cancellation

  /// A getter that says it is `userAgent`, stopped on the terminal's thread by
  /// `cancellation`; nothing is loaded until the first request.
  package init(userAgent: String = "bluelib", cancellation: Cancellation = .never) {
    self.userAgent = userAgent
    self.cancellation = cancellation
  }

  /// Ends every request in flight and the loop's thread; later requests fail with
  /// ``CoverFailure/cancelled``.
  package func shutDown() { client.shutDown() }

  /// The answer to a GET of `url` (`http:` or `https:`) with `headers` (`Accept: …`), within
  /// `limits`, on the calling thread. `isCancelled` is asked every 50 ms: true ends the
  /// request (``CoverFailure/cancelled``). On the thread that owns the terminal, Ctrl-C,
  /// SIGTERM and SIGHUP end it too (the run's ``Cancellation``).
  package func get(
    _ url: String, headers: [String] = [], limits: Limits, isCancelled: @escaping () -> Bool = { false }
  ) throws(CoverFailure) -> Answer {
    guard var target = HTTPTarget(url), target.scheme == "http" || target.scheme == "https" else {
      throw .unsupportedURL(url)
    }
    if let reason = target.portProblem { throw .badURL(url, reason: reason) }
    let multi = try client.started()
    let deadline = ContinuousClock.now + limits.timeout
    var redirects = 0
    while true {
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else { throw .timedOut(seconds: Self.seconds(limits.timeout)) }
      let request = CurlRequest(
        url: target.url.absoluteString, headers: headers, userAgent: userAgent, timeout: remaining,
        maxBytes: limits.maxBytes, connectTimeout: limits.connectTimeout)
      let outcome = Self.wait(for: request, on: multi) {
        isCancelled() || cancellation.stopsWaitOnThisThread()
      }
      let response: CurlResponse
      switch outcome {
      case .success(let answer): response = answer
      case .failure(let failure):
        throw HTTPCoverSource.failure(
          for: failure, at: target, limits: CoverLimits(timeout: limits.timeout, maxBytes: limits.maxBytes))
      }
      if [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"] {
        redirects += 1
        guard redirects <= Self.maxRedirects else { throw .tooManyRedirects(max: Self.maxRedirects) }
        let next = try target.redirected(to: location)
        guard next.hostKey == target.hostKey else {
          throw .redirectRefused(next.url.absoluteString, reason: "another server than the one asked")
        }
        target = next
        continue
      }
      return Answer(status: response.status, headers: response.headers, body: response.body)
    }
  }

  /// The answer to a POST of `body` to `url` (`http:` or `https:`) with `headers`
  /// (`Content-Type: …`, `Authorization: …`), within `limits`, on the calling thread, as
  /// ``get(_:headers:limits:isCancelled:)`` waits; a redirect is not followed (its status is
  /// the answer).
  package func post(
    _ url: String, body: Data, headers: [String] = [], limits: Limits, isCancelled: @escaping () -> Bool = { false }
  ) throws(CoverFailure) -> Answer {
    guard let target = HTTPTarget(url), target.scheme == "http" || target.scheme == "https" else {
      throw .unsupportedURL(url)
    }
    if let reason = target.portProblem { throw .badURL(url, reason: reason) }
    let multi = try client.started()
    let request = CurlRequest(
      url: target.url.absoluteString, headers: headers, userAgent: userAgent, timeout: limits.timeout,
      maxBytes: limits.maxBytes, connectTimeout: limits.connectTimeout, body: body)
    switch Self.wait(for: request, on: multi, cancelled: { isCancelled() || self.cancellation.stopsWaitOnThisThread() })
    {
    case .success(let answer): return Answer(status: answer.status, headers: answer.headers, body: answer.body)
    case .failure(let failure):
      throw HTTPCoverSource.failure(
        for: failure, at: target, limits: CoverLimits(timeout: limits.timeout, maxBytes: limits.maxBytes))
    }
  }

  /// The outcome of `request`, waited for on this thread; `cancelled` is asked every 50 ms.
  private static func wait(
    for request: CurlRequest, on multi: CurlMulti, cancelled: () -> Bool
  ) -> Result<CurlResponse, CurlFailure> {
    let done = DispatchSemaphore(value: 0)
    let box = Mutex<Result<CurlResponse, CurlFailure>?>(nil)
    let id = multi.nextID()
    multi.start(request, id: id) { outcome in
      box.withLock { $0 = outcome }
      done.signal()
    }
    var cancelledOnce = false
    while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
      if !cancelledOnce, cancelled() {
        cancelledOnce = true
        multi.cancel(id)
      }
    }
    return box.withLock { $0 } ?? .failure(.cancelled)
  }

  private static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }
}
