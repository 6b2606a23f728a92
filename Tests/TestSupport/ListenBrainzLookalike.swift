import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ListenBrainz look-alike on 127.0.0.1 (no real server runs here: it needs Postgres,
/// Redis and RabbitMQ) that enforces what ListenBrainz's API documentation says a client
/// must do, and keeps what it was sent:
///
/// - `POST /1/submit-listens` and `GET /1/validate-token` with `Authorization: Token …`:
///   another token, or none, is 401; a request without a `User-Agent` is 400;
/// - `listen_type` `single` (exactly one listen), `playing_now` (one, without
///   `listened_at`), `import` (1 to 1,000); a body of at most 10,240,000 bytes, a listen of
///   at most 10,240; `listened_at` an integer from 1033430400; `track_metadata` with
///   non-empty `artist_name` and `track_name`; `duration` and `duration_ms` not both;
///   MusicBrainz ids that are UUIDs — anything else is 400;
/// - a rate limit: `limit` requests per `window` seconds, told in every answer
///   (`X-RateLimit-Limit`, `-Remaining`, `-Reset-In`, `-Reset`); a request past it is 429
///   (counted in ``tooManyRequests``: a client that obeys the headers gets none).
///
/// ``stop()`` closes it (a server down); a new one on the same ``port`` is the same server
/// up again.
package final class ListenBrainzLookalike: Sendable {
  /// A listen as the server took it.
  package struct Received: Sendable, Equatable, CustomStringConvertible {
    package var listenType: String
    package var listenedAt: Int64?
    package var artist: String
    package var track: String
    package var release: String?
    /// `additional_info`, each value as text (`1`, `60000`, `bluelib`, `["…"]`).
    package var info: [String: String]

    package var description: String {
      "\(listenType) \(listenedAt.map(String.init) ?? "-") \(artist) — \(track)"
    }
  }

  package let port: Int
  package let token: String
  private let listener: Int32
  private let limit: Int
  private let window: Double
  private let userName: String
  private let state: Mutex<State>

  private struct State {
    var windowStart = ContinuousClock.now
    var used = 0
    var listens: [Received] = []
    var playingNow: [Received] = []
    var requests = 0
    var unauthorized = 0
    var tooMany = 0
    var invalid: [String] = []
    var batchSizes: [Int] = []
    var stopped = false
    var serving = true
  }

  /// Listens on 127.0.0.1:`port` (0: a free one) for `token`, `limit` requests a `window`
  /// seconds; `exhausted` starts with the window used up (the first request is 429).
  package init(
    port: Int = 0, token: String = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", limit: Int = 30, window: Double = 10,
    exhausted: Bool = false, userName: String = "listener"
  ) throws {
    let fd = socket(AF_INET, Self.streamType, 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.port = Int(UInt16(bigEndian: address.sin_port))
    listener = fd
    (self.token, self.limit, self.window, self.userName) = (token, limit, window, userName)
    var initial = State()
    if exhausted { initial.used = limit }
    state = Mutex(initial)
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  deinit { stop() }

  /// `http://127.0.0.1:PORT`.
  package var url: String { "http://127.0.0.1:\(port)" }

  /// The listens taken (`single` and `import`), in order.
  package var listens: [Received] { state.withLock { $0.listens } }
  /// The `playing_now` listens taken.
  package var playingNow: [Received] { state.withLock { $0.playingNow } }
  /// How many listens each accepted `single` or `import` carried.
  package var batchSizes: [Int] { state.withLock { $0.batchSizes } }
  /// Requests answered 429: made past the rate limit the headers told.
  package var tooManyRequests: Int { state.withLock { $0.tooMany } }
  /// Requests answered 401.
  package var unauthorized: Int { state.withLock { $0.unauthorized } }
  /// Why each request answered 400 was.
  package var invalid: [String] { state.withLock { $0.invalid } }
  /// Every request.
  package var requests: Int { state.withLock { $0.requests } }

  /// Closes the server: connections are refused from now on.
  package func stop() {
    let first = state.withLock { state -> Bool in
      defer { state.stopped = true }
      return !state.stopped
    }
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  /// Waits until `condition` holds (true), or `timeout` seconds pass (false).
  package func waitUntil(timeout: Double = 30, _ condition: (ListenBrainzLookalike) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(self) { return true }
      usleep(20_000)
    }
    return condition(self)
  }

  // MARK: - Serving

  #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
  #else
    private static let streamType = SOCK_STREAM
  #endif

  private func acceptLoop() {
    while true {
      let fd = accept(listener, nil, nil)
      if fd < 0 {
        if errno == EINTR { continue }
        return
      }
      serve(fd)
      close(fd)
    }
  }

  private func serve(_ fd: Int32) {
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    var headEnd: Int?
    while headEnd == nil {
      let count = recv(fd, &chunk, chunk.count, 0)
      guard count > 0 else { return }
      received += chunk[0..<count]
      if let range = Data(received).range(of: Data("\r\n\r\n".utf8)) { headEnd = range.upperBound }
      if received.count > 1 << 20 { return }
    }
    let head = String(decoding: received[0..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
    let requestLine = (head.first ?? "").split(separator: " ")
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    guard length <= 20_000_000 else { return }
    while received.count - headEnd! < length {
      let count = recv(fd, &chunk, chunk.count, 0)
      guard count > 0 else { return }
      received += chunk[0..<count]
    }
    let body = Data(received[headEnd!..<(headEnd! + length)])
    let method = requestLine.first.map(String.init) ?? ""
    let path = requestLine.count > 1 ? String(requestLine[1]) : ""
    let (status, json, limits) = answer(method: method, path: path, headers: headers, body: body)
    var text = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
    for (name, value) in limits { text += "\(name): \(value)\r\n" }
    text += "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n" + json
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  private func answer(
    method: String, path: String, headers: [String: String], body: Data
  ) -> (Int, String, [(String, String)]) {
    // The rate limit first, as ListenBrainz's own (a request past it is not looked at).
    let (allowed, remaining, resetIn) = state.withLock { state -> (Bool, Int, Int) in
      state.requests += 1
      let now = ContinuousClock.now
      if now - state.windowStart >= .milliseconds(Int(window * 1000)) {
        state.windowStart = now
        state.used = 0
      }
      let left = state.windowStart + .milliseconds(Int(window * 1000)) - now
      let resetIn = max(
        1, Int((Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18).rounded(.up)))
      guard state.used < limit else {
        state.tooMany += 1
        return (false, 0, resetIn)
      }
      state.used += 1
      return (true, limit - state.used, resetIn)
    }
    let limits = [
      ("X-RateLimit-Limit", String(limit)), ("X-RateLimit-Remaining", String(remaining)),
      ("X-RateLimit-Reset-In", String(resetIn)),
      ("X-RateLimit-Reset", String(Int(Date().timeIntervalSince1970) + resetIn)),
    ]
    guard allowed else { return (429, #"{"code":429,"error":"Too many requests"}"#, limits) }
    guard let agent = headers["user-agent"], !agent.isEmpty else { return bad("no User-Agent", limits) }
    let authorized = headers["authorization"] == "Token " + token
    switch (method, path) {
    case ("GET", "/1/validate-token"):
      guard authorized else { return (200, #"{"code":200,"message":"Token invalid.","valid":false}"#, limits) }
      let name = String(data: try! JSONSerialization.data(withJSONObject: [userName]), encoding: .utf8)!
      return (
        200, #"{"code":200,"message":"Token valid.","valid":true,"user_name":"# + name.dropFirst().dropLast() + "}",
        limits
      )
    case ("POST", "/1/submit-listens"):
      guard authorized else {
        state.withLock { $0.unauthorized += 1 }
        return (401, #"{"code":401,"error":"You need to provide an Authorization header."}"#, limits)
      }
      if let why = take(body) { return bad(why, limits) }
      return (200, #"{"status":"ok"}"#, limits)
    default:
      return (404, #"{"code":404,"error":"Not found"}"#, limits)
    }
  }

  private func bad(_ why: String, _ limits: [(String, String)]) -> (Int, String, [(String, String)]) {
    state.withLock { $0.invalid.append(why) }
    return (400, #"{"code":400,"error":"invalid"}"#, limits)
  }

  /// Takes the listens of `body`; why it is refused, or nil.
  private func take(_ body: Data) -> String? {
    guard body.count <= 10_240_000 else { return "payload too large" }
    guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return "not JSON" }
    guard let type = object["listen_type"] as? String, ["single", "playing_now", "import"].contains(type) else {
      return "listen_type"
    }
    guard let payload = object["payload"] as? [Any], !payload.isEmpty else { return "payload must be a list" }
    if type != "import" && payload.count != 1 { return "\(type) takes exactly one listen, not \(payload.count)" }
    if payload.count > 1_000 { return "too many listens: \(payload.count)" }
    var taken: [Received] = []
    for item in payload {
      guard let listen = item as? [String: Any] else { return "a listen is not an object" }
      let size = (try? JSONSerialization.data(withJSONObject: listen).count) ?? .max
      guard size <= 10_240 else { return "a listen is too large" }
      var listenedAt: Int64?
      if type == "playing_now" {
        if listen["listened_at"] != nil { return "playing_now with listened_at" }
      } else {
        guard let number = listen["listened_at"] as? NSNumber, number.doubleValue == Double(number.int64Value),
          number.int64Value >= 1_033_430_400
        else { return "listened_at missing or wrong" }
        listenedAt = number.int64Value
      }
      guard let metadata = listen["track_metadata"] as? [String: Any],
        let artist = metadata["artist_name"] as? String, !artist.isEmpty,
        let track = metadata["track_name"] as? String, !track.isEmpty
      else { return "track_metadata needs artist_name and track_name" }
      if let release = metadata["release_name"], !(release is String) { return "release_name" }
      var info: [String: String] = [:]
      if let additional = metadata["additional_info"] {
        guard let additional = additional as? [String: Any] else { return "additional_info" }
        if additional["duration"] != nil && additional["duration_ms"] != nil { return "duration and duration_ms" }
        for key in ["recording_mbid", "release_mbid", "release_group_mbid"] {
          if let id = additional[key] {
            guard let text = id as? String, UUID(uuidString: text) != nil else { return "\(key) is not a UUID" }
          }
        }
        for (key, value) in additional { info[key] = "\(value)" }
      }
      taken.append(
        Received(
          listenType: type, listenedAt: listenedAt, artist: artist, track: track,
          release: metadata["release_name"] as? String, info: info))
    }
    state.withLock { state in
      if type == "playing_now" {
        state.playingNow += taken
      } else {
        state.listens += taken
        state.batchSizes.append(taken.count)
      }
    }
    return nil
  }
}
