import BlueCovers
import BlueSystem
import Dispatch
import FoundationEssentials
import MusicSource
import Synchronization

/// A Subsonic (or OpenSubsonic) server as bluelib uses it: a source of albums
/// (``MusicSource``: its albums listed without their tracks, `getAlbumList2` by pages of
/// 500, each album's tracks asked for when the library first needs them), covers
/// (``SubsonicCoverSource``), streams for a player (``SubsonicEngine``), and stars and
/// ratings shared with every other client of it.
///
/// Requests go over HTTP(S) through BlueCovers' libcurl loop (``HTTPGetter``): TLS verified,
/// every answer capped, no redirect to another server. How a request proves who asks is
/// found once per process and kept: the API key when one is given (OpenSubsonic's
/// `apiKeyAuthentication`), else the salted token (`t`, `s`); a server that takes no token
/// (error 41, or 10 as supysonic answers for the missing `p`) gets the password, hex-encoded
/// (`p=enc:…`), from then on.
///
/// - Important: Safe from any thread; each request blocks the calling thread (on the one
///   that owns the terminal, Ctrl-C ends the wait).
package final class SubsonicServer: MusicSource, Sendable {
  /// Where the server is and whose library it is.
  package let address: SubsonicAddress
  /// Seconds a request may take (a page of 500 albums from a slow server included); the
  /// connection itself gets ``connectTimeout`` at most.
  package let timeout: Double
  /// Seconds between two looks at the server while a shell follows it (0: never).
  let pollInterval: Double
  private let password: String?
  private let apiKey: String?
  let http: HTTPGetter
  private let state = Mutex(State())
  private let stopping = WakeUpPipe()

  /// How requests prove who asks.
  package enum Authentication: String, Sendable {
    /// `apiKey=` (OpenSubsonic), no user.
    case apiKey = "API key"
    /// `u`, `t` = md5(password + salt), `s` = a fresh salt each request.
    case token
    /// `u`, `p=enc:` and the password in hex.
    case password
  }

  /// What the server said of itself: its protocol version, name and version (OpenSubsonic's
  /// `type` and `serverVersion`), and the OpenSubsonic extensions it lists.
  package struct Features: Sendable, Equatable {
    package var version: String?
    package var type: String?
    package var serverVersion: String?
    package var openSubsonic = false
    package var extensions: [String] = []
  }

  private struct State {
    var authentication: Authentication?
    var features: Features?
    var events = SourceEventOutlet()
    var following = false
    var polling = false
    var stopped = false
    /// Learnt from an error 70 for an album's id: ratings go on the songs.
    var ratesSongsOnly = false
    /// Lines said once (a refusal of stars or ratings, a failed scrobble).
    var said: Set<String> = []
    /// Requests made, for the tests and the benchmark.
    var requests = 0
    var methods: [String] = []
    /// The fingerprint the poller last saw.
    var lastFingerprint: String?
    /// Whether the poller saw the server gone (and said so).
    var gone = false
  }

  /// The protocol version bluelib speaks.
  static let protocolVersion = "1.16.1"
  /// What bluelib calls itself to the server (`c`).
  static let client = "bluelib"
  /// The albums one page of `getAlbumList2` asks for: the most the API allows.
  static let albumsPerPage = 500
  /// The most bytes of one answer of a list or an album; of any other answer.
  static let largestList = 32 << 20
  static let largestAnswer = 4 << 20
  /// The most pages listed (a million albums): a server that pages for ever is stopped.
  static let mostPages = 2000
  /// The longest a connection (TLS included) may take: an unreachable host fails the start
  /// in less than 5 s.
  static let connectTimeout: Duration = .seconds(4)

  /// A server at `address`; `password` for a user's token or password, `apiKey` for
  /// OpenSubsonic's API keys (one of them); `cancellation` ends a request on the terminal's
  /// thread. Nothing is asked until a request needs it.
  package init(
    address: SubsonicAddress, password: String?, apiKey: String? = nil, timeout: Double = 30,
    pollInterval: Double = 60, cancellation: Cancellation = .never
  ) {
    self.address = address
    self.http = HTTPGetter(cancellation: cancellation)
    self.password = password.flatMap { $0.isEmpty ? nil : $0 }
    self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
    self.timeout = timeout
    self.pollInterval = pollInterval
  }

  deinit {
    stopping.close()
  }

  /// The seconds of `BLUELIB_SUBSONIC_TIMEOUT` in `environment`, else 30.
  package static func timeout(from environment: [String: String]) -> Double {
    guard let text = environment["BLUELIB_SUBSONIC_TIMEOUT"], let seconds = Double(text), seconds > 0,
      seconds <= 3600
    else { return 30 }
    return seconds
  }

  // MARK: - MusicSource

  package var name: String {
    "Subsonic at " + (address.user.map { $0 + "@" } ?? "")
      + (address.host.contains(":") ? "[\(address.host)]" : address.host)
      + ":\(address.port)" + address.path
  }
  package var root: String { "subsonic://" + address.authority }
  /// `subsonic-admin@music.example.org:443` (a path's `/` written `%2F`); a name longer than
  /// 200 bytes keeps its first 183 and ends in a hash of the whole.
  package var libraryName: String {
    let name = "subsonic-" + address.authority.replacing("/", with: "%2F")
    guard name.utf8.count > 200 else { return name }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let hex = String(hash, radix: 16)
    var cut = name.utf8.prefix(183)
    while let last = cut.last, last & 0xC0 == 0x80 { cut = cut.dropLast() }
    if let last = cut.last, last >= 0xC0 { cut = cut.dropLast() }
    return String(decoding: cut, as: UTF8.self) + "-" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  package func setEventHandler(_ handler: @escaping @Sendable (SourceEvent) -> Void) {
    let pending = state.withLock { $0.events.set(handler) }
    for line in pending { handler(.notice(line)) }
  }

  /// What the server said of itself, once it was asked (the first request asks).
  package var features: Features? { state.withLock { $0.features } }

  /// How requests prove who asks, once the first one has.
  package var authentication: Authentication? { state.withLock { $0.authentication } }

  /// How many requests were made, and their methods in order (for tests and the benchmark).
  package var requestLog: (count: Int, methods: [String]) { state.withLock { ($0.requests, $0.methods) } }

  /// Checks the server answers, with the credentials given (`ping`): the one line to say
  /// when it does not (connection refused, wrong password, a certificate not trusted).
  package func check() throws(SourceError) {
    do throws(SubsonicError) {
      _ = try call("ping")
    } catch {
      throw error.sourceError
    }
  }

  // MARK: - Requests

  /// The answer of `method` with `parameters`, in at most `maxBytes`: the first request of
  /// the process tries the ways to authenticate in order and keeps the one that worked.
  ///
  /// - Throws: ``SubsonicError``: the server refused (`status: failed`, an HTTP error), or
  ///   could not be reached, or answered what is not Subsonic's.
  func call(
    _ method: String, _ parameters: [(String, String)] = [], maxBytes: Int = largestAnswer
  ) throws(SubsonicError) -> SubsonicAnswer {
    var way = state.withLock { $0.authentication } ?? firstWay
    let settled = state.withLock { $0.authentication != nil }
    while true {
      let answer = try send(method, parameters, way: way, maxBytes: maxBytes)
      if let error = answer.error, answer.status != "ok" {
        if !settled, let next = nextWay(after: way, code: error.code) {
          way = next
          continue
        }
        let failure = SubsonicError(server: name, .failed(code: error.code, message: error.message))
        // Any answer but one about the credentials says they are right.
        if ![10, 40, 41, 42, 43, 44].contains(error.code) { learn(way, from: answer) }
        throw failure
      }
      guard answer.status == "ok" else {
        throw SubsonicError(server: name, .badAnswer("status '\(answer.status.prefix(20))'"))
      }
      learn(way, from: answer)
      return answer
    }
  }

  /// Takes the password from the first request (the last start found the server takes no
  /// token), unless an API key is given or a way is known already.
  func usePasswordFromTheStart() {
    guard apiKey == nil, password != nil else { return }
    state.withLock { state in
      if state.authentication == nil { state.authentication = .password }
    }
  }

  /// The way the first request tries: the API key when given, else the token.
  private var firstWay: Authentication { apiKey != nil ? .apiKey : .token }

  /// The way to try after `way` failed with `code`, before any worked; nil for none.
  private func nextWay(after way: Authentication, code: Int) -> Authentication? {
    guard password != nil else { return nil }
    switch (way, code) {
    // An API key the server does not take (42), with a password given: the token.
    case (.apiKey, 42): return .token
    // No token authentication (41), or supysonic's missing `p` (10): the password.
    case (.token, 41), (.token, 10): return .password
    default: return nil
    }
  }

  /// Keeps `way` as the one that works, and what the first answer said of the server.
  private func learn(_ way: Authentication, from answer: SubsonicAnswer) {
    state.withLock { state in
      state.authentication = way
      if state.features == nil {
        state.features = Features(
          version: answer.version, type: answer.type, serverVersion: answer.serverVersion,
          openSubsonic: answer.openSubsonic)
      }
    }
  }

  /// The query of a request: `parameters`, then who asks (by `way`), the protocol version,
  /// the client and the format, each percent-encoded.
  func query(_ parameters: [(String, String)], way: Authentication) -> String {
    var all = parameters
    switch way {
    case .apiKey:
      all.append(("apiKey", apiKey ?? ""))
    case .token:
      var generator = SystemRandomNumberGenerator()
      let salt = (0..<12).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16).leftPadded(to: 2) }
        .joined()
      all += [("u", address.user ?? ""), ("t", MD5.hex((password ?? "") + salt)), ("s", salt)]
    case .password:
      let hex = (password ?? "").utf8.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
      all += [("u", address.user ?? ""), ("p", "enc:" + hex)]
    }
    all += [("v", Self.protocolVersion), ("c", Self.client), ("f", "json")]
    return all.map { Self.percentEncoded($0.0) + "=" + Self.percentEncoded($0.1) }.joined(separator: "&")
  }

  /// The URL of `method` with `parameters`, authenticated as the server takes it (the way
  /// found by the first request): a stream's, a cover's.
  func url(_ method: String, _ parameters: [(String, String)]) -> String {
    let way = state.withLock { $0.authentication } ?? firstWay
    return address.base + "/rest/" + method + "?" + query(parameters, way: way)
  }

  /// One request, read and decoded.
  private func send(
    _ method: String, _ parameters: [(String, String)], way: Authentication, maxBytes: Int
  ) throws(SubsonicError) -> SubsonicAnswer {
    let answer = try get(address.base + "/rest/" + method + "?" + query(parameters, way: way), maxBytes: maxBytes)
    state.withLock { state in
      if state.methods.count < 10_000 { state.methods.append(method) }
    }
    guard (200...299).contains(answer.status) else { throw SubsonicError(server: name, .httpStatus(answer.status)) }
    do {
      return try SubsonicAnswer.decode(answer.body)
    } catch {
      let start = answer.body.prefix(1).first
      throw SubsonicError(
        server: name, .badAnswer(start == UInt8(ascii: "{") ? "JSON without 'subsonic-response'" : "not JSON"))
    }
  }

  /// The answer to a GET of `url`, counted.
  func get(_ url: String, maxBytes: Int) throws(SubsonicError) -> HTTPGetter.Answer {
    state.withLock { $0.requests += 1 }
    do {
      return try http.get(
        url, headers: ["Accept: application/json"],
        limits: HTTPGetter.Limits(
          maxBytes: maxBytes, timeout: .milliseconds(Int(timeout * 1000)),
          connectTimeout: min(Self.connectTimeout, .milliseconds(Int(timeout * 1000)))))
    } catch let failure where failure == .cancelled {
      throw SubsonicError(server: name, .interrupted)
    } catch {
      throw SubsonicError(server: name, .transport(error))
    }
  }

  /// `text` percent-encoded but for RFC 3986's unreserved characters.
  static func percentEncoded(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return out
  }

  // MARK: - What it can

  /// Asks the OpenSubsonic extensions of a server that says it speaks OpenSubsonic, once
  /// (`getOpenSubsonicExtensions`); a server without them answers none.
  func askExtensions() {
    guard let features = state.withLock({ $0.features }), features.openSubsonic, features.extensions.isEmpty else {
      return
    }
    let names = (try? call("getOpenSubsonicExtensions"))?.openSubsonicExtensions?.map(\.name) ?? []
    state.withLock { $0.features?.extensions = names.isEmpty ? ["none"] : names }
  }

  // MARK: - Lines

  /// Shows `line` above the shell's prompt; kept until a handler is set when none is yet.
  func notify(_ line: String) {
    let handler = state.withLock { $0.events.handler(forNotice: line) }
    handler?(.notice(line))
  }

  /// Shows `line` once for the process.
  func notifyOnce(_ line: String) {
    guard state.withLock({ $0.said.insert(line).inserted }) else { return }
    notify(line)
  }

  /// Whether ratings are known to go on songs only (the server said 70 for an album's id).
  var ratesSongsOnly: Bool {
    get { state.withLock { $0.ratesSongsOnly } }
    set { state.withLock { $0.ratesSongsOnly = newValue } }
  }

  // MARK: - Following

  package func startFollowing() {
    DetachedThread.start(
      name: "subsonic poll", in: state,
      claiming: { state in
        state.following = true
        guard !state.polling, !state.stopped, pollInterval > 0 else { return false }
        state.polling = true
        return true
      },
      running: { [self] in watch() })
  }

  /// Stops the poller (tests; a shell leaves it to the end of the process).
  package func stop() {
    state.withLock { $0.stopped = true }
    stopping.wake()
  }

  /// Every ``pollInterval`` seconds, the fingerprint (a few small requests): a change is told
  /// as a change of the database; the server gone, and back, said once each.
  private func watch() {
    while !sleepUnlessStopped(pollInterval) {
      let now: String
      do throws(SourceError) {
        now = try fingerprint()
      } catch {
        let say = state.withLock { state -> Bool in
          defer { state.gone = true }
          return !state.gone
        }
        if say { notify("\(error.description); looking again in \(Int(pollInterval)) s") }
        continue
      }
      let (before, back, handler) = state.withLock { state in
        defer {
          state.lastFingerprint = now
          state.gone = false
        }
        return (state.lastFingerprint, state.gone, state.events.handler)
      }
      if back { handler?(.notice("\(name) is back")) }
      if before != nil && before != now { handler?(.databaseChanged) }
    }
  }

  /// Sleeps `seconds`, or less when ``stop()`` is called; true when it was.
  private func sleepUnlessStopped(_ seconds: Double) -> Bool {
    stopping.wait(atMost: seconds)
    return state.withLock { $0.stopped }
  }

  /// Remembers `fingerprint` as the one the poller compares with (the sync's).
  func noteFingerprint(_ fingerprint: String) {
    state.withLock { $0.lastFingerprint = fingerprint }
  }
}
