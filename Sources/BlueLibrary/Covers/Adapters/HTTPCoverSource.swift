import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Fetches `http:` and `https:` covers with `URLSession`, streaming the body so the
/// size cap stops a download as soon as it is exceeded.
///
/// The body arrives through a session delegate, chunk by chunk: a declared
/// `Content-Length` over the cap fails before any body is read, and an undeclared
/// one fails as soon as the received bytes pass the cap. The timeout covers the whole
/// fetch (connecting, waiting and reading), not just the gaps between packets.
public final class HTTPCoverSource: CoverSource {
  /// `["http", "https"]`.
  public let schemes: Set<String> = ["http", "https"]

  private let delegate = HTTPSessionDelegate()
  /// Made on the first fetch: creating a URLSession makes Foundation set up its shared
  /// URL cache (directories under ~/.cache), which a shell that never downloads, or that
  /// refuses to open its library, must not do.
  private let lazySession = Mutex<URLSession?>(nil)

  /// Creates the source; its ephemeral session (no cookies, no URL cache) comes with the first fetch.
  public init() {}

  deinit {
    // A session keeps its delegate alive until it is invalidated.
    lazySession.withLock { $0?.invalidateAndCancel() }
  }

  private var session: URLSession {
    lazySession.withLock { session in
      if let session { return session }
      let configuration = URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.httpCookieStorage = nil
      // The loader decides how many run at once (--downloads, up to 64); URLSession's
      // default of 6 per host would quietly cap it.
      configuration.httpMaximumConnectionsPerHost = 64
      let made = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
      session = made
      return made
    }
  }

  /// The body of a 2xx answer to a GET of `url`.
  public func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    guard let target = URL(string: url), let scheme = target.scheme?.lowercased(), schemes.contains(scheme),
      let host = target.host, !host.isEmpty
    else {
      throw .unsupportedURL(url)
    }
    let endpoint = HTTPFetch.Endpoint(host: host, port: target.port ?? (scheme == "https" ? 443 : 80))
    var request = URLRequest(url: target)
    request.cachePolicy = .reloadIgnoringLocalCacheData
    request.timeoutInterval = limits.timeoutSeconds
    request.setValue("image/png, image/jpeg, image/gif, image/webp, image/*;q=0.8", forHTTPHeaderField: "Accept")

    let task = session.dataTask(with: request)
    let fetch = HTTPFetch(task: task, endpoint: endpoint, limits: limits)
    delegate.register(fetch, for: task)
    defer { delegate.unregister(task) }

    let timer = Task {
      try? await Task.sleep(for: limits.timeout)
      if !Task.isCancelled { fetch.fail(limits.timedOut, stopNow: true) }
    }
    defer { timer.cancel() }

    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if fetch.wait(continuation) {
          task.resume()
        }
      }
    } onCancel: {
      fetch.fail(.cancelled, stopNow: true)
    }
    return try result.get()
  }
}

/// One HTTP fetch in progress: the bytes so far and the one outcome it will have.
///
/// - Important: On Linux, `URLSession` ignores the disposition passed to the response
///   handler and reads on while a `cancel()` is pending, queueing every chunk for the
///   delegate. So a failed fetch cancels its task exactly once, from outside the
///   delegate queue (`cancel()` waits for the session's busy work queue), and later
///   chunks are dropped without being kept.
final class HTTPFetch: Sendable {
  /// Where the request goes, for the failure texts.
  struct Endpoint: Sendable {
    let host: String
    let port: Int
  }

  let task: URLSessionDataTask
  let endpoint: Endpoint
  let limits: CoverLimits

  private struct State {
    var body = Data()
    /// Bytes received after the outcome was settled (dropped, counted).
    var discarded = 0
    var cancelled = false
    var outcome: Result<Data, CoverFailure>?
    var continuation: CheckedContinuation<Result<Data, CoverFailure>, Never>?
  }

  private let state = Mutex(State())

  init(task: URLSessionDataTask, endpoint: Endpoint, limits: CoverLimits) {
    self.task = task
    self.endpoint = endpoint
    self.limits = limits
  }

  /// Parks `continuation` until the outcome; false (and resumed at once) if it is already known.
  func wait(_ continuation: CheckedContinuation<Result<Data, CoverFailure>, Never>) -> Bool {
    let outcome = state.withLock { state -> Result<Data, CoverFailure>? in
      if state.outcome == nil { state.continuation = continuation }
      return state.outcome
    }
    guard let outcome else { return true }
    continuation.resume(returning: outcome)
    return false
  }

  /// How much of an answer we let run to its end after failing it, rather than cancel.
  ///
  /// swift-corelibs-foundation traps ("Trying to access a behaviour for a task that in not
  /// in the registry") when `cancel()` races the task's own completion, which a short body
  /// (a 404 page, a declared 20 MiB over a fast link) makes likely. So a failed transfer
  /// is drained and dropped, and only one that keeps coming past this much is cancelled:
  /// an endless body, where no completion can race the cancel.
  static let drainLimit = 64 << 20

  /// Fails the fetch (if it has not settled). `stopNow` cancels the transfer at once —
  /// for a timeout or a cancelled request, where the server is not about to finish —
  /// otherwise it drains (see ``drainLimit``).
  func fail(_ failure: CoverFailure, stopNow: Bool = false) {
    guard settle(.failure(failure)) else { return }
    if stopNow { cancelTransfer() }
  }

  /// Appends a received chunk, failing the fetch once the body passes the cap; after the
  /// outcome, drops chunks and cancels once more than ``drainLimit`` were dropped.
  func append(_ chunk: Data) {
    enum Next { case kept, overCap, dropped, cancel }
    let next = state.withLock { state -> Next in
      if state.outcome != nil {
        state.discarded += chunk.count
        return state.discarded > Self.drainLimit && !state.cancelled ? .cancel : .dropped
      }
      guard state.body.count + chunk.count <= limits.maxBytes else { return .overCap }
      state.body.append(chunk)
      return .kept
    }
    switch next {
    case .overCap: fail(limits.tooLarge)
    case .cancel: cancelTransfer()
    case .kept, .dropped: break
    }
  }

  /// Cancels the URLSession task once, off the delegate's queue (cancelling from inside a
  /// delegate callback deadlocks corelibs Foundation, swift-corelibs-foundation #5412).
  private func cancelTransfer() {
    let first = state.withLock { state -> Bool in
      defer { state.cancelled = true }
      return !state.cancelled
    }
    guard first else { return }
    let task = task
    DispatchQueue.global().async { task.cancel() }
  }

  /// Settles the fetch when the task completes: with the body, or the transport error.
  func complete(error: (any Error)?) {
    if let error {
      settle(.failure(failure(for: error)))
    } else {
      let body = state.withLock { $0.body }
      settle(.success(body))
    }
  }

  /// Records the outcome and resumes the waiter; false if it was already settled (the first wins).
  @discardableResult
  private func settle(_ outcome: Result<Data, CoverFailure>) -> Bool {
    let (settled, continuation) = state.withLock {
      state -> (Bool, CheckedContinuation<Result<Data, CoverFailure>, Never>?) in
      guard state.outcome == nil else { return (false, nil) }
      state.outcome = outcome
      state.body = Data()
      let continuation = state.continuation
      state.continuation = nil
      return (true, continuation)
    }
    continuation?.resume(returning: outcome)
    return settled
  }

  /// The cover failure for a transport error.
  private func failure(for error: any Error) -> CoverFailure {
    let code = URLError.Code(rawValue: (error as NSError).code)
    switch code {
    case .cannotFindHost, .dnsLookupFailed: return .unresolvableHost(endpoint.host)
    case .timedOut: return limits.timedOut
    case .cannotConnectToHost: return .connectionRefused(host: endpoint.host, port: endpoint.port)
    case .cancelled: return .cancelled
    case .networkConnectionLost: return .downloadFailed("connection lost")
    case .notConnectedToInternet: return .downloadFailed("not connected to the internet")
    case .badServerResponse: return .downloadFailed("bad server response")
    case .httpTooManyRedirects: return .downloadFailed("too many redirects")
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
      return .downloadFailed("TLS failure with \(endpoint.host)")
    case .unsupportedURL, .badURL: return .downloadFailed("bad URL")
    default: return .downloadFailed("network error \((error as NSError).code)")
    }
  }
}

/// The session delegate: routes each task's callbacks to its ``HTTPFetch``.
final class HTTPSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private let fetches = Mutex<[Int: HTTPFetch]>([:])

  func register(_ fetch: HTTPFetch, for task: URLSessionTask) {
    fetches.withLock { $0[task.taskIdentifier] = fetch }
  }

  func unregister(_ task: URLSessionTask) {
    _ = fetches.withLock { $0.removeValue(forKey: task.taskIdentifier) }
  }

  private func fetch(for task: URLSessionTask) -> HTTPFetch? {
    fetches.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    completionHandler(.allow)
    guard let fetch = fetch(for: dataTask) else { return }
    if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
      fetch.fail(.httpStatus(http.statusCode))
    } else if response.expectedContentLength > Int64(fetch.limits.maxBytes) {
      fetch.fail(fetch.limits.tooLarge, stopNow: response.expectedContentLength > Int64(HTTPFetch.drainLimit))
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    fetch(for: dataTask)?.append(data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    fetch(for: task)?.complete(error: error)
  }
}
