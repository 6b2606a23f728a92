import BlueSystem
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small real HTTP/1.1 server on 127.0.0.1 for tests and the benchmarks: routes set by
/// the caller, a thread per connection, one request per connection, and a count of requests
/// per path.
///
/// ```swift
/// let server = try LoopbackHTTPServer()
/// defer { server.stop() }
/// server.route("/a.png", .ok(pngBytes, delay: 0.5))
/// // fetch server.url("/a.png") …
/// #expect(server.requestCount("/a.png") == 1)
/// ```
///
/// Unrouted paths answer 404. A TLS handshake gets a plain-text 400, as from a real HTTP
/// port. ``stop()`` (also run on deinit) closes the listener and every open connection, so
/// held and endless answers end too.
package final class LoopbackHTTPServer: Sendable {
  /// What the server does for one path.
  package struct Response: Sendable {
    /// What follows the headers.
    package enum Body: Sendable {
      /// These bytes, with a `Content-Length`.
      case bytes(Data)
      /// `count` zero bytes, with a `Content-Length` only if `declared`
      /// (otherwise the body ends when the connection closes).
      case zeros(count: Int, declared: Bool)
      /// Zero bytes without end (and without `Content-Length`) at about 32 MiB/s,
      /// a fast real link, until the client hangs up.
      case endless
      /// These bytes under a `Content-Length` of `declared`, more than they are: the server
      /// hangs up in the middle of the body.
      case cutShort(Data, declared: Int)
      /// These bytes, with a `Content-Length`, one byte every `interval` seconds.
      case trickle(Data, interval: Double)
    }

    /// The status code.
    package var status: Int
    /// Extra header lines (`Content-Length` and `Connection: close` are added).
    package var headers: [String: String]
    /// The body.
    package var body: Body
    /// Seconds to wait after reading the request before answering.
    package var delay: Double
    /// Whether to read the request and then never answer (hold the connection open).
    package var holds: Bool

    /// A response with every part spelled out.
    package init(
      status: Int = 200, headers: [String: String] = [:], body: Body = .bytes(Data()), delay: Double = 0,
      holds: Bool = false
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.delay = delay
      self.holds = holds
    }

    /// 200 with `body` (an image, say), after `delay` seconds.
    package static func ok(_ body: Data, contentType: String = "image/png", delay: Double = 0) -> Response {
      Response(headers: ["Content-Type": contentType], body: .bytes(body), delay: delay)
    }

    /// A status with a short plain-text body (`404 Not Found`).
    package static func status(_ code: Int) -> Response {
      Response(status: code, headers: ["Content-Type": "text/plain"], body: .bytes(Data("status \(code)\n".utf8)))
    }

    /// 200 with an HTML page: what a captive portal or a wrong link serves.
    package static func html(_ text: String = "<!DOCTYPE html><html><body>not a cover</body></html>") -> Response {
      Response(headers: ["Content-Type": "text/html"], body: .bytes(Data(text.utf8)))
    }

    /// 200 with `mebibytes` MiB of zeros, declaring its length or not.
    package static func mebibytes(_ mebibytes: Int, declared: Bool = true) -> Response {
      Response(headers: ["Content-Type": "image/png"], body: .zeros(count: mebibytes << 20, declared: declared))
    }

    /// 200 and a body that never ends.
    package static let endless = Response(headers: ["Content-Type": "image/png"], body: .endless)

    /// Reads the request and never answers.
    package static let neverAnswer = Response(holds: true)

    /// A redirect (`302 Found` unless told) to `location`, as the `Location` header gives it.
    package static func redirect(to location: String, status: Int = 302) -> Response {
      Response(status: status, headers: ["Location": location, "Content-Type": "text/plain"], body: .bytes(Data()))
    }
  }

  /// The port the server listens on (chosen by the system).
  package var port: Int { core.port }

  // The threads retain the core, not this object, so dropping the server stops it.
  private let core: LoopbackHTTPServerCore

  /// Starts a server on 127.0.0.1 on a free port.
  package init() throws(LoopbackHTTPServerError) {
    core = try LoopbackHTTPServerCore()
  }

  deinit {
    core.stop()
  }

  /// `http://127.0.0.1:PORT` + `path`.
  package func url(_ path: String) -> String {
    "http://127.0.0.1:\(port)" + (path.hasPrefix("/") ? path : "/" + path)
  }

  /// Makes `path` (without query) answer with `response`.
  package func route(_ path: String, _ response: Response) {
    core.route(path, [response])
  }

  /// Makes `path` answer its requests with `responses` in turn, the last one from then on
  /// (a busy server, then the image).
  package func route(_ path: String, inTurn responses: [Response]) {
    precondition(!responses.isEmpty, "a route needs a response")
    core.route(path, responses)
  }

  /// Makes every path that starts with `prefix` and has no route of its own answer with
  /// what `answer` says for its path and query (the text after `?`, nil without one),
  /// called on the connection's thread: a server that answers by what is asked.
  package func route(
    startingWith prefix: String, _ answer: @escaping @Sendable (_ path: String, _ query: String?) -> Response
  ) {
    core.route(startingWith: prefix, answer)
  }

  /// One request as it arrived: its path (without query), its query (percent-encoded, as
  /// sent; nil without one), when, and its `User-Agent`.
  package struct Request: Sendable {
    package var path: String
    package var query: String? = nil
    package var time: ContinuousClock.Instant
    package var userAgent: String?
  }

  /// Every request so far, in the order they arrived.
  package var requests: [Request] {
    core.requests
  }

  /// How many requests arrived for `path`.
  package func requestCount(_ path: String) -> Int {
    core.requestCount(path)
  }

  /// How many requests arrived in all.
  package var totalRequests: Int {
    core.totalRequests
  }

  /// How many body bytes were written for `path` before each client hung up or the body ended.
  package func bytesSent(_ path: String) -> Int {
    core.bytesSent(path)
  }

  /// The connections being served now: one the client closed counts until the server
  /// notices, at its next read or write (within a few hundredths of a second while it sends).
  package var openConnections: Int {
    core.openConnections
  }

  /// The most connections that were open at once.
  package var peakConnections: Int {
    core.peakConnections
  }

  /// Stops listening, closes every open connection, and waits (up to 2 s) for the threads to end.
  package func stop() {
    core.stop()
  }
}

/// The listener, the connection threads and the counts behind a ``LoopbackHTTPServer``.
private final class LoopbackHTTPServerCore: Sendable {
  typealias Response = LoopbackHTTPServer.Response

  /// The port the server listens on (chosen by the system).
  let port: Int

  private let listener: Int32
  private struct State {
    var routes: [String: [Response]] = [:]
    var answerers: [(prefix: String, answer: @Sendable (String, String?) -> Response)] = []
    var requests: [LoopbackHTTPServer.Request] = []
    var counts: [String: Int] = [:]
    var bytesSent: [String: Int] = [:]
    var connections: Set<Int32> = []
    var peakConnections = 0
    var threads = 0
    var stopped = false
  }
  private let state = Mutex(State())

  /// Starts a server on 127.0.0.1 on a free port.
  init() throws(LoopbackHTTPServerError) {
    let fd = socket(AF_INET, Self.streamType, 0)
    guard fd >= 0 else { throw .socket("socket", errno) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 128) == 0 else {
      let code = errno
      close(fd)
      throw .socket("bind/listen", code)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else {
      let code = errno
      close(fd)
      throw .socket("getsockname", code)
    }
    listener = fd
    port = Int(UInt16(bigEndian: address.sin_port))
    state.withLock { $0.threads += 1 }
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  /// Makes `path` (without query) answer with `responses` in turn, the last one from then on.
  func route(_ path: String, _ responses: [Response]) {
    state.withLock { $0.routes[path] = responses }
  }

  /// Makes the paths under `prefix` without a route answer as `answer` says.
  func route(startingWith prefix: String, _ answer: @escaping @Sendable (String, String?) -> Response) {
    state.withLock { $0.answerers.append((prefix, answer)) }
  }

  /// Every request so far.
  var requests: [LoopbackHTTPServer.Request] {
    state.withLock { $0.requests }
  }

  /// How many requests arrived for `path`.
  func requestCount(_ path: String) -> Int {
    state.withLock { $0.counts[path, default: 0] }
  }

  /// How many requests arrived in all.
  var totalRequests: Int {
    state.withLock { $0.counts.values.reduce(0, +) }
  }

  /// How many body bytes were written for `path` before each client hung up or the body ended.
  func bytesSent(_ path: String) -> Int {
    state.withLock { $0.bytesSent[path, default: 0] }
  }

  /// The connections open now.
  var openConnections: Int {
    state.withLock { $0.connections.count }
  }

  /// The most connections that were open at once.
  var peakConnections: Int {
    state.withLock { $0.peakConnections }
  }

  /// Stops listening, closes every open connection, and waits (up to 2 s) for the threads to end.
  func stop() {
    let connections = state.withLock { state -> Set<Int32>? in
      guard !state.stopped else { return nil }
      state.stopped = true
      return state.connections
    }
    guard let connections else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
    let deadline = Date().addingTimeInterval(2)
    while state.withLock({ $0.threads }) > 0, Date() < deadline {
      usleep(1_000)
    }
    close(listener)
  }

  // MARK: - Serving

  #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
  #endif

  private var isStopped: Bool { state.withLock { $0.stopped } }

  private func acceptLoop() {
    defer { state.withLock { $0.threads -= 1 } }
    while true {
      guard let fd = try? syscall("accept", { accept(listener, nil, nil) }) else { return }
      let admitted = state.withLock { state -> Bool in
        guard !state.stopped else { return false }
        state.connections.insert(fd)
        state.peakConnections = max(state.peakConnections, state.connections.count)
        state.threads += 1
        return true
      }
      guard admitted else {
        close(fd)
        return
      }
      Thread.detachNewThread { [self] in serve(fd) }
    }
  }

  private func serve(_ fd: Int32) {
    defer {
      state.withLock {
        $0.connections.remove(fd)
        $0.threads -= 1
      }
      close(fd)
    }
    guard let (path, query, userAgent) = readRequest(fd) else { return }
    let routed = state.withLock { state -> Result<Response, Never>? in
      state.counts[path, default: 0] += 1
      state.requests.append(.init(path: path, query: query, time: .now, userAgent: userAgent))
      guard let responses = state.routes[path] else { return nil }
      return .success(responses[min(state.counts[path, default: 1], responses.count) - 1])
    }
    let response: Response
    if case .success(let fixed) = routed {
      response = fixed
    } else if let answer = state.withLock({ $0.answerers.last { path.hasPrefix($0.prefix) }?.answer }) {
      response = answer(path, query)
    } else {
      response = .status(404)
    }
    if response.holds {
      // Hold the connection until the client hangs up or the server stops.
      var byte: UInt8 = 0
      while recv(fd, &byte, 1, 0) > 0 {}
      return
    }
    if response.delay > 0, !sleep(response.delay, unlessClosed: fd) { return }
    var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
      head += "\(name): \(value)\r\n"
    }
    switch response.body {
    case .bytes(let data): head += "Content-Length: \(data.count)\r\n"
    case .zeros(let count, true): head += "Content-Length: \(count)\r\n"
    case .cutShort(_, let declared): head += "Content-Length: \(declared)\r\n"
    case .trickle(let data, _): head += "Content-Length: \(data.count)\r\n"
    case .zeros, .endless: break
    }
    head += "Connection: close\r\n\r\n"
    guard send(fd, Data(head.utf8)) else { return }
    switch response.body {
    case .bytes(let data):
      if send(fd, data) { count(data.count, for: path) }
    case .zeros(let total, _):
      sendZeros(fd, total: total, path: path)
    case .endless:
      sendZeros(fd, total: nil, path: path)
    case .cutShort(let data, _):
      if send(fd, data) { count(data.count, for: path) }
    case .trickle(let data, let interval):
      for byte in data {
        guard sleep(interval, unlessClosed: fd), send(fd, Data([byte])) else { break }
        count(1, for: path)
      }
    }
  }

  /// Reads up to the end of the request head; returns the path without its query, and the
  /// `User-Agent` header.
  private func readRequest(_ fd: Int32) -> (path: String, query: String?, userAgent: String?)? {
    var received = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 4096)
    let end: [UInt8] = Array("\r\n\r\n".utf8)
    while received.count < 65536 {
      let count =
        (try? syscall("recv") { chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }) ?? -1
      guard count > 0 else { return nil }
      if received.isEmpty && chunk[0] == 0x16 {
        // A TLS handshake record: answer as an HTTP server does when spoken TLS to.
        _ = send(fd, Data("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        return nil
      }
      received.append(contentsOf: chunk[0..<count])
      if received.count >= 4, (0...(received.count - 4)).contains(where: { Array(received[$0..<$0 + 4]) == end }) {
        break
      }
    }
    let lines = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")
    let parts = (lines.first ?? "").split(separator: " ")
    guard parts.count >= 2 else { return nil }
    let userAgent = lines.dropFirst().first { $0.lowercased().hasPrefix("user-agent:") }.map {
      $0.dropFirst("user-agent:".count).trimmingCharacters(in: .whitespaces)
    }
    let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    return (String(target[0]), target.count > 1 ? String(target[1]) : nil, userAgent)
  }

  /// Sleeps `seconds`, but returns false early if the client hangs up or the server stops.
  private func sleep(_ seconds: Double, unlessClosed fd: Int32) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if isStopped { return false }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(max(1, min(50, deadline.timeIntervalSinceNow * 1000))))
      if ready > 0 {
        var byte: UInt8 = 0
        if recv(fd, &byte, 1, Int32(MSG_PEEK)) <= 0 { return false }
      }
    }
    return true
  }

  private func send(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written =
          (try? syscall("send") {
            rawSend(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, Self.sendFlags)
          }) ?? -1
        guard written > 0 else { return false }
        offset += written
      }
      return true
    }
  }

  /// Sends `total` zero bytes, or zero bytes without end at a bounded rate.
  private func sendZeros(_ fd: Int32, total: Int?, path: String) {
    let chunk = Data(count: 64 << 10)
    var sent = 0
    while total.map({ sent < $0 }) ?? true {
      let size = min(chunk.count, total.map { $0 - sent } ?? chunk.count)
      guard send(fd, chunk.prefix(size)) else { break }
      sent += size
      count(size, for: path)
      if total == nil { usleep(2_000) }
    }
  }

  private func count(_ bytes: Int, for path: String) {
    state.withLock { $0.bytesSent[path, default: 0] += bytes }
  }

  private func rawSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
      Glibc.send(fd, bytes, count, flags)
    #else
      Darwin.send(fd, bytes, count, flags)
    #endif
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 404: "Not Found"
    case 500: "Internal Server Error"
    case 429: "Too Many Requests"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }
}
