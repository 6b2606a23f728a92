import BlueSystem
import BlueText
internal import CCurl
import Dispatch
import FoundationEssentials
import Synchronization

/// One GET (or, with a ``body``, POST) for ``CurlMulti``: no redirect followed, no proxy,
/// no decompression.
struct CurlRequest: Sendable {
  /// The absolute `http:` or `https:` URL.
  var url: String
  /// Header lines to send (`Accept: image/png`).
  var headers: [String]
  /// What the request says it comes from (`User-Agent`).
  var userAgent: String
  /// The longest the whole transfer may take, connecting included.
  var timeout: Duration
  /// The most bytes a 2xx body may have.
  var maxBytes: Int
  /// The longest the connection (TLS included) may take; nil: ``timeout``.
  var connectTimeout: Duration? = nil
  /// What a POST sends (its `Content-Type` is among ``headers``); nil: a GET.
  var body: Data? = nil
}

/// What a server answered: the status and headers, and the body of a 2xx answer.
struct CurlResponse: Sendable {
  /// The status code (`200`).
  var status: Int
  /// The answer's headers by lowercase name, the first of each name.
  var headers: [String: String]
  /// The body of a 2xx answer; any other answer's body is not read (the transfer stops at
  /// the end of the head, closing its HTTP/1 connection or resetting its HTTP/2 stream),
  /// and this is empty.
  var body: Data
}

/// Why a transfer ended without an answer.
enum CurlFailure: Error, Sendable {
  /// Its task was cancelled, or the loop stopped, before it ended.
  case cancelled
  /// A 2xx answer declared a body over the request's `maxBytes`, or sent more.
  case tooLarge
  /// libcurl's code, the system's error of the last connection attempt (0 if none) and
  /// libcurl's text for it (`Failed to connect to 127.0.0.1 port 9: Connection refused`).
  case failed(CURLcode, osError: Int32, message: String)
}

/// libcurl's multi interface on a thread of its own, which runs every transfer of one cover
/// source: downloads wait on the network, not the CPU, so one thread carries all of them.
///
/// ``get(_:)`` hands a request to the thread and waits for its end. The thread sleeps in
/// `curl_multi_poll` until a socket or a timer of libcurl's needs it, or until another thread
/// wakes it (`curl_multi_wakeup`, the one call libcurl allows from other threads) to take new
/// requests, cancellations or the stop. No transfer waits for another: up to 64 run at once
/// on one host (libcurl opens as many connections as there are transfers, and keeps idle
/// ones for the next request to the same host).
///
/// - Important: libcurl must be loaded (`ccurl_unavailable()` returned nil) before one is made.
final class CurlMulti: Sendable {
  /// Told the outcome of a transfer, once, on the loop's thread (or on the thread that
  /// cancelled it before the loop took it).
  typealias Completion = @Sendable (Result<CurlResponse, CurlFailure>) -> Void

  /// What other threads hand the loop, and what they need to know of it.
  private struct Inbox {
    var nextID: UInt64 = 0
    /// Requests not yet taken by the loop.
    var waiting: [(id: UInt64, request: CurlRequest, done: Completion)] = []
    /// Transfers to end, by id.
    var cancelled: [UInt64] = []
    /// The ids of the transfers the loop took and has not ended.
    var running: Set<UInt64> = []
    /// Set once by ``stop()``: no request is taken any more and the multi handle is going away.
    var stopping = false
  }

  /// The multi handle: the loop makes every call on it but `curl_multi_wakeup`, which other
  /// threads make only under ``inbox``'s lock while it is not ``Inbox/stopping`` (so never on
  /// a handle cleaned up).
  private struct Handle: @unchecked Sendable {
    let multi: UnsafeMutableRawPointer
  }

  private let inbox = Mutex(Inbox())
  private let handle: Handle
  /// Signalled by the loop once it has ended every transfer and cleaned the handle up.
  private let ended = DispatchSemaphore(value: 0)

  /// The name of the loop's thread (as `/proc/PID/task/TID/comm` shows it).
  static let threadName = "bluelib-http"

  /// Starts the loop's thread.
  init() throws(CoverFailure) {
    guard let multi = ccurl_multi_init() else { throw .downloadFailed("libcurl could not make a multi handle") }
    handle = Handle(multi: multi)
    DetachedThread.start(name: Self.threadName) { [self] in run() }
  }

  /// Makes `request` and waits for the answer; cancelling the calling task ends the transfer
  /// at once (closing its connection) with ``CurlFailure/cancelled``, as ``stop()`` does.
  func get(_ request: CurlRequest) async -> Result<CurlResponse, CurlFailure> {
    let id = nextID()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<CurlResponse, CurlFailure>, Never>) in
        // A task cancelled before this point ran its handler already (finding nothing to
        // cancel): it sees its flag here, under the same lock.
        start(request, id: id, unless: { Task.isCancelled }) { continuation.resume(returning: $0) }
      }
    } onCancel: {
      cancel(id)
    }
  }

  /// A number for the next transfer (``start(_:id:unless:done:)``, ``cancel(_:)``).
  func nextID() -> UInt64 {
    inbox.withLock { inbox in
      inbox.nextID += 1
      return inbox.nextID
    }
  }

  /// Hands `request` to the loop as the transfer `id` (``nextID()``), `done` told its
  /// outcome; told ``CurlFailure/cancelled`` at once when the loop stopped or `cancelled`
  /// says so (asked under the lock ``cancel(_:)`` takes).
  func start(_ request: CurlRequest, id: UInt64, unless cancelled: () -> Bool = { false }, done: @escaping Completion) {
    let taken = inbox.withLock { inbox in
      guard !inbox.stopping, !cancelled() else { return false }
      inbox.waiting.append((id, request, done))
      _ = ccurl_multi_wakeup(handle.multi)
      return true
    }
    if !taken { done(.failure(.cancelled)) }
  }

  /// Ends the transfer `id` at once (its connection closed), its outcome
  /// ``CurlFailure/cancelled``; nothing when it ended or was never started.
  func cancel(_ id: UInt64) {
    let waiting = inbox.withLock { inbox -> Completion? in
      if let index = inbox.waiting.firstIndex(where: { $0.id == id }) { return inbox.waiting.remove(at: index).done }
      guard inbox.running.contains(id), !inbox.stopping else { return nil }
      inbox.cancelled.append(id)
      _ = ccurl_multi_wakeup(handle.multi)
      return nil
    }
    waiting?(.failure(.cancelled))
  }

  /// Ends every transfer (each with ``CurlFailure/cancelled``), closes every connection and
  /// ends the thread, without waiting for it; later requests fail at once. Safe to call more
  /// than once.
  func stop() {
    inbox.withLock { inbox in
      guard !inbox.stopping else { return }
      inbox.stopping = true
      _ = ccurl_multi_wakeup(handle.multi)
    }
  }

  /// ``stop()``, then waits until the thread has ended (milliseconds).
  ///
  /// - Important: Call it once, and never from the loop's own thread.
  func stopAndWait() {
    stop()
    ended.wait()
  }

  // MARK: - The loop

  /// The loop: takes what the inbox holds, lets libcurl run, hands each finished transfer its
  /// outcome, and sleeps until there is more to do.
  private func run() {
    let multi = handle.multi
    var transfers: [UInt64: Transfer] = [:]
    var byHandle: [UnsafeMutableRawPointer: Transfer] = [:]
    func end(_ transfer: Transfer, _ outcome: Result<CurlResponse, CurlFailure>) {
      _ = ccurl_multi_remove_handle(multi, transfer.easy)
      transfers[transfer.id] = nil
      byHandle[transfer.easy] = nil
      transfer.close()
      _ = inbox.withLock { $0.running.remove(transfer.id) }
      transfer.done(outcome)
    }
    while true {
      let (arrived, cancelled, stopping) = inbox.withLock { inbox in
        defer {
          inbox.waiting = []
          inbox.cancelled = []
        }
        if !inbox.stopping { inbox.running.formUnion(inbox.waiting.map(\.id)) }
        return (inbox.waiting, inbox.cancelled, inbox.stopping)
      }
      if stopping {
        for request in arrived { request.done(.failure(.cancelled)) }
        for transfer in Array(transfers.values) { end(transfer, .failure(.cancelled)) }
        break
      }
      for (id, request, done) in arrived {
        do throws(CurlFailure) {
          let transfer = try Transfer(id: id, request: request, done: done)
          transfers[id] = transfer
          byHandle[transfer.easy] = transfer
          let added = ccurl_multi_add_handle(multi, transfer.easy)
          if added != CURLM_OK {
            let message = "libcurl could not start the transfer (code \(added.rawValue))"
            end(transfer, .failure(.failed(CURLE_FAILED_INIT, osError: 0, message: message)))
          }
        } catch {
          _ = inbox.withLock { $0.running.remove(id) }
          done(.failure(error))
        }
      }
      for id in cancelled {
        if let transfer = transfers[id] { end(transfer, .failure(.cancelled)) }
      }
      var running: Int32 = 0
      _ = ccurl_multi_perform(multi, &running)
      var queued: Int32 = 0
      while let message = ccurl_multi_info_read(multi, &queued) {
        // The message does not outlive the removal of its handle: read it first.
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
        let code = message.pointee.data.result
        if let transfer = byHandle[easy] { end(transfer, transfer.outcome(code)) }
      }
      // libcurl wakes up sooner for its own timers (each transfer's timeout among them).
      _ = ccurl_multi_poll(multi, 1000, nil)
    }
    _ = ccurl_multi_cleanup(multi)
    ended.signal()
  }
}

// MARK: - One transfer

/// One transfer on the loop's thread (and only there): its easy handle, what it sends and
/// what has arrived.
private final class Transfer {
  let id: UInt64
  let easy: UnsafeMutableRawPointer
  let done: CurlMulti.Completion
  private let maxBytes: Int
  private var headerLines: UnsafeMutablePointer<curl_slist>?
  private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
  private var closed = false

  /// The status of the head being read (the last one: an informational `100` comes first).
  private var status = 0
  private var headers: [String: String] = [:]
  /// Whether the final head was read whole (its empty line arrived).
  private var headRead = false
  private var body = Data()
  /// Whether the body passed (or was declared over) the cap: the transfer was stopped.
  private var tooLarge = false

  init(
    id: UInt64, request: CurlRequest, done: @escaping CurlMulti.Completion
  ) throws(CurlFailure) {
    guard let easy = ccurl_easy_init() else {
      errorText.deallocate()
      throw .failed(CURLE_OUT_OF_MEMORY, osError: 0, message: "libcurl could not make a transfer")
    }
    self.id = id
    self.easy = easy
    self.done = done
    self.maxBytes = request.maxBytes
    errorText[0] = 0
    // A POST sends no `Expect: 100-continue`: its body goes with the head, whatever its size.
    for line in request.headers + (request.body == nil ? [] : ["Expect:"]) {
      headerLines = ccurl_slist_append(headerLines, line)
    }
    let context = Unmanaged.passUnretained(self).toOpaque()
    // The whole fetch's time, connecting included; at least a millisecond (0 is "none").
    let parts = request.timeout.components
    let milliseconds = max(1, min(parts.seconds.multipliedReportingOverflow(by: 1000).partialValue, 86_400_000))
    let timeout = Int(milliseconds + parts.attoseconds / 1_000_000_000_000_000)
    let connecting = request.connectTimeout.map { limit in
      let parts = limit.components
      let milliseconds = max(1, min(parts.seconds.multipliedReportingOverflow(by: 1000).partialValue, 86_400_000))
      return min(timeout, Int(milliseconds + parts.attoseconds / 1_000_000_000_000_000))
    }
    let settings: [(CURLoption, Setting)] = [
      (CURLOPT_URL, .text(request.url)),
      (CURLOPT_PROTOCOLS_STR, .text("http,https")),
      (CURLOPT_REDIR_PROTOCOLS_STR, .text("http,https")),
      // Redirects are followed by the source, which checks each one.
      (CURLOPT_FOLLOWLOCATION, .number(0)),
      // The server's certificate is checked against the system's authorities and its name
      // (libcurl's defaults, said here so that nothing turns them off).
      (CURLOPT_SSL_VERIFYPEER, .number(1)),
      (CURLOPT_SSL_VERIFYHOST, .number(2)),
      // Covers are fetched directly: not through `http_proxy` and the like.
      (CURLOPT_PROXY, .text("")),
      // Threads are not signalled (a timed-out name look-up would be, through SIGALRM).
      (CURLOPT_NOSIGNAL, .number(1)),
      (CURLOPT_USERAGENT, .text(request.userAgent)),
      (CURLOPT_HTTPHEADER, .pointer(UnsafeRawPointer(headerLines))),
      (CURLOPT_TIMEOUT_MS, .number(timeout)),
      (CURLOPT_CONNECTTIMEOUT_MS, .number(connecting ?? timeout)),
      // An idle connection is reused for 30 s at most.
      (CURLOPT_MAXAGE_CONN, .number(30)),
      (CURLOPT_ERRORBUFFER, .pointer(UnsafeRawPointer(errorText))),
      (CURLOPT_HEADERDATA, .pointer(UnsafeRawPointer(context))),
      (CURLOPT_WRITEDATA, .pointer(UnsafeRawPointer(context))),
    ]
    if let body = request.body {
      // A POST of these bytes, copied by libcurl (the size first: the bytes may hold NULs).
      if ccurl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)) != CURLE_OK {
        close()
        throw .failed(CURLE_BAD_FUNCTION_ARGUMENT, osError: 0, message: "libcurl refused the size of a POST")
      }
      let bytes = body.isEmpty ? [0] : [UInt8](body)
      let copied = bytes.withUnsafeBytes { ccurl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
      if copied != CURLE_OK {
        close()
        throw .failed(copied, osError: 0, message: String(cString: ccurl_easy_strerror(copied)))
      }
    }
    for (option, setting) in settings {
      let code: CURLcode
      switch setting {
      case .number(let value): code = ccurl_easy_setopt_long(easy, option, value)
      case .text(let value): code = ccurl_easy_setopt_pointer(easy, option, value)
      case .pointer(let value): code = ccurl_easy_setopt_pointer(easy, option, value)
      }
      guard code == CURLE_OK else {
        let message = String(cString: ccurl_easy_strerror(code))
        close()
        throw .failed(code, osError: 0, message: message)
      }
    }
    // A transfer ended while its name is being looked up (cancelled, timed out) must not
    // wait for the look-up: libcurl's resolver thread would be joined on this loop's thread,
    // which a resolver that never answers holds for its whole timeout (20 s and more), and
    // every other download with it. With QUICK_EXIT the look-up's thread is left to end on
    // its own. libcurl 7.87 and later; an older one refuses the option, and waits.
    _ = ccurl_easy_setopt_long(easy, CURLOPT_QUICK_EXIT, 1)
    // No Accept-Encoding is sent (CURLOPT_ACCEPT_ENCODING is not set), so nothing is inflated.
    _ = ccurl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { bytes, size, count, context in
      let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
      let length = size * count
      return transfer.headerLine(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
    }
    _ = ccurl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { bytes, size, count, context in
      let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
      let length = size * count
      return transfer.received(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
    }
  }

  private enum Setting {
    case number(Int)
    case text(String)
    case pointer(UnsafeRawPointer?)
  }

  deinit { close() }

  /// Frees the handle, its header list and its error text (once; the handle is out of the multi).
  func close() {
    guard !closed else { return }
    closed = true
    ccurl_easy_cleanup(easy)
    ccurl_slist_free_all(headerLines)
    errorText.deallocate()
  }

  /// One line of a head, CRLF included; false stops the transfer.
  private func headerLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
    // Trailers after a chunked body change nothing.
    guard !headRead else { return true }
    let line = String(decoding: bytes, as: UTF8.self).trimming(.whitespacesAndNewlines)
    if line.hasPrefix("HTTP/") {
      // A new head (after an informational one): `HTTP/1.1 200 OK`, `HTTP/2 200`.
      let words = line.split(separator: " ", maxSplits: 2)
      status = words.count > 1 ? Int(words[1]) ?? 0 : 0
      headers = [:]
      return true
    }
    guard line.isEmpty else {
      if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimming(.whitespaces).lowercased()
        if headers[name] == nil {
          headers[name] = line[line.index(after: colon)...].trimming(.whitespaces)
        }
      }
      return true
    }
    // The end of a head: an informational one (100, 103) is followed by the real one.
    if (100...199).contains(status) { return true }
    headRead = true
    // Only a 2xx body is wanted: any other answer stops here, its connection closed rather
    // than its body read.
    guard (200...299).contains(status) else { return false }
    let declared = headers["content-length"].flatMap { Int($0) }
    if let declared, declared > maxBytes {
      tooLarge = true
      return false
    }
    body.reserveCapacity(max(0, min(declared ?? 64 << 10, maxBytes)))
    return true
  }

  /// Bytes of the body; false (over the cap) stops the transfer and closes its connection.
  private func received(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard body.count + bytes.count <= maxBytes else {
      tooLarge = true
      return false
    }
    body.append(contentsOf: bytes)
    return true
  }

  /// The outcome of the transfer libcurl ended with `code`.
  func outcome(_ code: CURLcode) -> Result<CurlResponse, CurlFailure> {
    if tooLarge { return .failure(.tooLarge) }
    // Another status's head is the whole answer, however the transfer stopped after it.
    if headRead && !(200...299).contains(status) {
      return .success(CurlResponse(status: status, headers: headers, body: Data()))
    }
    if code == CURLE_OK && headRead { return .success(CurlResponse(status: status, headers: headers, body: body)) }
    var osError = 0
    _ = ccurl_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &osError)
    let message = errorText[0] != 0 ? String(cString: errorText) : String(cString: ccurl_easy_strerror(code))
    return .failure(.failed(code, osError: Int32(truncatingIfNeeded: osError), message: message))
  }
}
