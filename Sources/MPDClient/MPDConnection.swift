import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One connection to an MPD server, speaking its line protocol over a non-blocking socket.
///
/// Every wait is a `poll` with the request's timeout (the time without a byte from the
/// server), and, on the thread that owns the terminal, the run's ``Cancellation`` token's
/// pipe: a signal ends the wait at once, whatever the server does. A wait for
/// `idle` has no timeout and ends when ``cancel`` is written to.
///
/// - Important: One thread at a time: the server's pool hands a connection to one request.
final class MPDConnection: @unchecked Sendable {
  let address: MPDAddress
  /// Seconds without a byte from the server before a request fails.
  let timeout: Double
  /// What ends a wait on the terminal's thread at a signal.
  let cancellation: Cancellation
  /// The protocol version the server greeted with (`[0, 23, 5]`).
  private(set) var version: [Int] = []
  private var descriptor: Int32 = -1
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  private var head = 0
  private var tail = 0
  /// Written to by another thread to end a wait on this connection (``close()`` of an idle one).
  let cancel = WakeUpPipe()
  /// When every wait gives up, whatever the server sends (``withDeadline(_:seconds:_:)``), and
  /// the seconds a timeout then reports.
  private var overall: (instant: ContinuousClock.Instant, seconds: Double)?
  /// The failure that left the connection out of step (the rest of an answer unread): every
  /// later request fails with it, rather than read that rest as its own answer.
  private var outOfStep: MPDError?
  /// The commands sent ahead (``send(_:)``) whose answers are not read yet, oldest first.
  private var unanswered: [MPDCommand] = []

  /// The longest line of an answer: MPD's own are bounded by its output buffer
  /// (`max_output_buffer_size`, 8 MiB by default); a tag is a few kilobytes.
  static let longestLine = 8 << 20
  /// The most bytes of names and values one answer kept whole (``run(_:)``) may hold: a
  /// `sticker find` of a large database is a few megabytes (MPD's whole answer is bounded by
  /// its output buffer, 8 MiB unless configured larger).
  static let longestAnswer = 32 << 20
  /// The most `changed:` lines one answer to `idle` may hold (MPD has about fifteen subsystems).
  static let mostChanges = 64

  /// Connects to `address`, reads the greeting and sends the password, if any.
  ///
  /// - Throws: ``MPDError`` (connection refused, unknown host, timed out, not MPD, wrong password).
  init(address: MPDAddress, timeout: Double, cancellation: Cancellation = .never) throws(MPDError) {
    self.address = address
    self.timeout = timeout
    self.cancellation = cancellation
    do throws(MPDError) {
      try open()
      let text = text(of: try readLine())
      guard text.hasPrefix("OK MPD ") else { throw error(.notMPD(text)) }
      version = text.dropFirst(7).split(separator: ".").map { Int($0) ?? 0 }
      if let password = address.password {
        try run(MPDCommand("password", password))
      }
    } catch {
      close()
      throw error
    }
  }

  deinit {
    close()
    cancel.close()
  }

  /// Closes the socket; the connection cannot be used after it.
  func close() {
    if descriptor >= 0 {
      #if canImport(Glibc)
        _ = Glibc.close(descriptor)
      #else
        _ = Darwin.close(descriptor)
      #endif
      descriptor = -1
    }
  }

  /// Whether an answer to a command sent ahead (``send(_:)``) is unread.
  var hasUnanswered: Bool { !unanswered.isEmpty }

  /// Whether the server closed its end (it stopped, or dropped an idle client) or sent
  /// something unasked since the last answer: the connection is not to be used again.
  var isStale: Bool {
    guard descriptor >= 0 else { return true }
    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&ready, 1, 0) > 0
  }

  // MARK: - Requests

  /// Sends `command` and reads its answer, handing each `NAME: VALUE` line to `pair` (the
  /// bytes are valid only during the call) and the bytes of a binary answer to `binary`.
  ///
  /// - Throws: ``MPDError``: the server's refusal (`ACK`), or a failure of the connection,
  ///   after which it is not to be used again (``MPDError/leavesConnectionUsable``).
  ///
  /// `pair` may throw to stop reading (an answer longer than asked for): the connection is
  /// then out of step. A binary chunk longer than `binaryLimit` (the `binarylimit` asked for)
  /// is refused before a byte of it is read or any room is made for it.
  func stream(
    _ command: MPDCommand,
    pair: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(MPDError) -> Void,
    binaryLimit: Int = 0, binary: ((_ bytes: UnsafeRawBufferPointer) -> Void)? = nil
  ) throws(MPDError) {
    try expectNoAnswerAhead(command)
    try send(command)
    try streamAnswer(pair: pair, binaryLimit: binaryLimit, binary: binary)
  }

  /// Throws when an answer to a command sent ahead is unread: `command`'s would be taken for it.
  private func expectNoAnswerAhead(_ command: MPDCommand) throws(MPDError) {
    guard let ahead = unanswered.first else { return }
    throw error(.badAnswer("'\(command.verb)' asked before the answer to '\(ahead.verb)' was read"))
  }

  /// Sends `command` and leaves its answer to be read later (``streamAnswer(pair:binaryLimit:binary:)``):
  /// the server, which answers commands in the order they came, prepares it meanwhile (a
  /// listing asks for its next window before it files the last). A connection with an
  /// answer left unread (``hasUnanswered``) is closed when given back, not used again.
  func send(_ command: MPDCommand) throws(MPDError) {
    if let problem = command.problem { throw error(.badArgument(problem)) }
    // A server quick to answer each request never makes a wait time out.
    if let overall, ContinuousClock.now >= overall.instant { throw error(.timedOut(seconds: overall.seconds)) }
    try inStep { () throws(MPDError) in try transmit(command.line) }
    unanswered.append(command)
  }

  /// Reads the answer to the oldest command ``send(_:)`` sent, as ``stream(_:pair:binaryLimit:binary:)`` does.
  func streamAnswer(
    pair: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(MPDError) -> Void,
    binaryLimit: Int = 0, binary: ((_ bytes: UnsafeRawBufferPointer) -> Void)? = nil
  ) throws(MPDError) {
    guard !unanswered.isEmpty else { throw error(.badAnswer("an answer read for a command not sent")) }
    let command = unanswered.removeFirst()
    try inStep { () throws(MPDError) in
      try readAnswer(to: command, pair: pair, binaryLimit: binary == nil ? 0 : binaryLimit, binary: binary)
    }
  }

  /// Runs `body`, a request; fails at once when an earlier one left the connection out of
  /// step, and remembers a failure of this one that does.
  private func inStep<T>(_ body: () throws(MPDError) -> T) throws(MPDError) -> T {
    if let outOfStep { throw outOfStep }
    do throws(MPDError) {
      return try body()
    } catch {
      if !error.leavesConnectionUsable { outOfStep = error }
      throw error
    }
  }

  /// Runs `body` with every wait of this connection ending at `deadline` at the latest (a
  /// timeout then says `seconds`): one bound for a read of many requests (a cover's chunks),
  /// which a server that sends a byte now and then cannot stretch.
  func withDeadline<T>(
    _ deadline: ContinuousClock.Instant, seconds: Double, _ body: () throws(MPDError) -> T
  ) throws(MPDError) -> T {
    overall = (deadline, seconds)
    defer { overall = nil }
    return try body()
  }

  /// An error of this connection's server.
  func error(_ reason: MPDError.Reason) -> MPDError {
    MPDError(server: address.description, reason)
  }

  /// Throws when one more line of `count` bytes would take an answer kept whole past
  /// ``longestAnswer``.
  private func count(_ bytes: Int, into total: inout Int) throws(MPDError) {
    total += bytes + 2
    if total > Self.longestAnswer { throw error(.badAnswer("an answer longer than 32 MiB")) }
  }

  /// Sends `commands` as one command list (MPD runs them all, or up to the first that fails,
  /// whose `ACK` is thrown) and returns the answers' lines, in order.
  @discardableResult
  func runList(_ commands: [MPDCommand]) throws(MPDError) -> [(name: String, value: String)] {
    try collect { pair throws(MPDError) in try streamList(commands, pair: pair) }
  }

  /// Sends `commands` as one command list and hands each `NAME: VALUE` line of their
  /// answers, in order, to `pair` (the bytes are valid only during the call), as
  /// ``stream(_:pair:binaryLimit:binary:)`` does for one command.
  func streamList(
    _ commands: [MPDCommand],
    pair: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(MPDError) -> Void
  ) throws(MPDError) {
    if let problem = commands.lazy.compactMap(\.problem).first { throw error(.badArgument(problem)) }
    if let overall, ContinuousClock.now >= overall.instant { throw error(.timedOut(seconds: overall.seconds)) }
    var line = Array("command_list_begin\n".utf8)
    for command in commands { line += command.line }
    line += Array("command_list_end\n".utf8)
    try expectNoAnswerAhead(MPDCommand("command_list_begin"))
    try inStep { () throws(MPDError) in
      try transmit(line)
      try readAnswer(to: MPDCommand("command_list_begin"), pair: pair, binaryLimit: 0, binary: nil)
    }
  }

  /// Sends `command` and returns its answer's lines as names and values, in order.
  @discardableResult
  func run(_ command: MPDCommand) throws(MPDError) -> [(name: String, value: String)] {
    try collect { pair throws(MPDError) in try stream(command, pair: pair) }
  }

  /// The lines `streaming` hands to the function it is given, as names and values, in order
  /// (an answer longer than ``longestAnswer`` refused).
  private func collect(
    _ streaming: (
      (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws(MPDError) -> Void
    ) throws(MPDError) -> Void
  ) throws(MPDError) -> [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = []
    var total = 0
    try streaming { name, value throws(MPDError) in
      try count(name.count + value.count, into: &total)
      pairs.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }
    return pairs
  }

  /// Waits in `idle` for a change of one of `subsystems`: their names, or nil when
  /// ``cancel`` was written to (the connection is then left as it is: close it).
  func idle(_ subsystems: [String]) throws(MPDError) -> [String]? {
    try expectNoAnswerAhead(MPDCommand("idle"))
    try transmit(MPDCommand("idle", subsystems).line)
    var changed: [String] = []
    do throws(MPDError) {
      while true {
        let line = text(of: try readLine(forever: true))
        if line == "OK" { return changed }
        if line.hasPrefix("ACK ") { throw acknowledgement(line, command: "idle") }
        if line.hasPrefix("changed: ") { changed.append(String(line.dropFirst(9))) }
        if changed.count > Self.mostChanges {
          throw error(.badAnswer("more than \(Self.mostChanges) changes in one answer to 'idle'"))
        }
      }
    } catch  where error.reason == .interrupted {
      return nil
    }
  }

  /// The line at `range` of the buffer, as text.
  private func text(of range: Range<Int>) -> String {
    buffer.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
  }

  /// What one line of an answer is.
  private enum Line {
    case ok
    case refused(String)
    /// `binary: N`: N (Int.max for any larger number), as the server wrote it; nil when not a number.
    case binary(Int?, said: String)
    case pair(name: Range<Int>, value: Range<Int>)
    case listOK
    case notAPair(String)
  }

  /// Reads an answer to its `OK`, or throws its `ACK`.
  private func readAnswer(
    to command: MPDCommand, pair: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws(MPDError) -> Void,
    binaryLimit: Int, binary: ((UnsafeRawBufferPointer) -> Void)?
  ) throws(MPDError) {
    while true {
      let range = try readLine()
      let line = buffer.withUnsafeBufferPointer { all -> Line in
        let text = UnsafeBufferPointer(rebasing: all[range])
        if text.count == 2 && Self.hasPrefix(text, "OK") { return .ok }
        if Self.hasPrefix(text, "ACK ") { return .refused(String(decoding: text, as: UTF8.self)) }
        // A line of nothing but a name (`list_OK`) carries no value.
        if Self.equals(text, "list_OK") { return .listOK }
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon + 1 < text.count,
          text[colon + 1] == UInt8(ascii: " ")
        else {
          return .notAPair(String(decoding: UnsafeBufferPointer(rebasing: text.prefix(60)), as: UTF8.self))
        }
        let name = UnsafeBufferPointer(rebasing: text[..<colon])
        if Self.equals(name, "binary") {
          let said = String(decoding: UnsafeBufferPointer(rebasing: text[(colon + 2)...].prefix(40)), as: UTF8.self)
          guard !said.isEmpty, said.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return .binary(nil, said: said)
          }
          return .binary(Int(said) ?? .max, said: said)
        }
        return .pair(
          name: range.lowerBound..<range.lowerBound + colon, value: range.lowerBound + colon + 2..<range.upperBound)
      }
      switch line {
      case .ok: return
      case .refused(let text): throw acknowledgement(text, command: command.verb)
      case .pair(let name, let value):
        try buffer.withUnsafeBufferPointer { all throws(MPDError) in
          try pair(UnsafeBufferPointer(rebasing: all[name]), UnsafeBufferPointer(rebasing: all[value]))
        }
      case .listOK: continue
      case .notAPair(let text): throw error(.badAnswer("'\(text)'"))
      case .binary(let count, let said):
        guard let count else { throw error(.badAnswer("a binary length that is not a number: '\(said)'")) }
        // Refused before any arithmetic or allocation with the count.
        guard count <= binaryLimit else {
          throw error(
            .badAnswer(
              binary == nil
                ? "a binary chunk of \(said) bytes in the answer to '\(command.verb)'"
                : "a binary chunk of \(said) bytes, more than the \(Self.format(bytes: binaryLimit)) asked for"))
        }
        try readBinary(count, into: binary)
      }
    }
  }

  /// `1 MiB`, `8 KiB`, `1000 bytes`.
  private static func format(bytes: Int) -> String {
    if bytes > 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes > 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }

  /// Reads `count` bytes of binary data and the newline after them.
  private func readBinary(_ count: Int, into body: ((UnsafeRawBufferPointer) -> Void)?) throws(MPDError) {
    try fill(atLeast: count + 1)
    buffer.withUnsafeBytes { bytes in body?(UnsafeRawBufferPointer(rebasing: bytes[head..<head + count])) }
    guard buffer[head + count] == UInt8(ascii: "\n") else {
      throw error(.badAnswer("no newline after \(count) bytes of binary data"))
    }
    head += count + 1
  }

  /// The `ACK [code@index] {command} message` line as an error.
  private func acknowledgement(_ line: String, command verb: String) -> MPDError {
    var code = 0
    var command = verb
    var message = line
    if let open = line.firstIndex(of: "["), let at = line.firstIndex(of: "@"), at > open {
      code = Int(line[line.index(after: open)..<at]) ?? 0
    }
    if let brace = line.firstIndex(of: "{"), let closing = line[brace...].firstIndex(of: "}") {
      let named = String(line[line.index(after: brace)..<closing])
      if !named.isEmpty { command = named }
      message = String(line[line.index(after: closing)...].drop { $0 == " " })
    }
    // MPD's error codes (src/protocol/Ack.hxx): 3 password, 4 permission.
    if code == 3 && command == "password" { return error(.wrongPassword) }
    if code == 4 { return error(.needsPassword(command: command)) }
    return error(.refused(code: code, command: command, message: message))
  }

  // MARK: - Bytes

  /// Writes all of `line`.
  private func transmit(_ line: [UInt8]) throws(MPDError) {
    guard descriptor >= 0 else { throw error(.closed) }
    var offset = 0
    while offset < line.count {
      let written = line.withUnsafeBytes { bytes in
        Self.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      }
      if written > 0 {
        offset += written
        continue
      }
      let code = errno
      switch code {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLOUT), deadline: deadline())
      case EPIPE, ECONNRESET: throw error(.closed)
      default: throw error(.broken(SystemError.reason(code)))
      }
    }
  }

  /// The next line of the answer (without its newline), as a range of ``buffer``; `forever`
  /// waits without a timeout, until the line comes or ``cancel`` is written to (`idle`).
  private func readLine(forever: Bool = false) throws(MPDError) -> Range<Int> {
    var searched = head
    while true {
      if let newline = buffer.withUnsafeBufferPointer({ bytes -> Int? in
        guard searched < tail else { return nil }
        let found = memchr(bytes.baseAddress! + searched, 0x0A, tail - searched)
        return found.map { UnsafeRawPointer($0) - UnsafeRawPointer(bytes.baseAddress!) }
      }) {
        defer { head = newline + 1 }
        return head..<newline
      }
      searched = tail
      // A line longer than any of MPD's: not its protocol (and memory for ever otherwise).
      if tail - head > Self.longestLine { throw error(.badAnswer("an answer line longer than 8 MiB")) }
      let before = head
      try readMore(deadline: forever ? nil : deadline())
      searched -= before - head  // the bytes may have moved to the front
    }
  }

  /// Makes ``buffer`` hold at least `count` bytes from ``head`` on.
  private func fill(atLeast count: Int) throws(MPDError) {
    while tail - head < count {
      if buffer.count - head < count {
        compact()
        if buffer.count < count { buffer += [UInt8](repeating: 0, count: count - buffer.count) }
      }
      try readMore(deadline: deadline())
    }
  }

  /// Moves the unread bytes to the front of the buffer.
  private func compact() {
    guard head > 0 else { return }
    let count = tail - head
    if count > 0 {
      buffer.withUnsafeMutableBytes { bytes in
        _ = memmove(bytes.baseAddress!, bytes.baseAddress! + head, count)
      }
    }
    head = 0
    tail = count
  }

  /// Reads what the server sent, waiting for it until `deadline` (nil: for ever); grows the
  /// buffer when a line fills it.
  private func readMore(deadline: ContinuousClock.Instant?) throws(MPDError) {
    if head == tail {
      head = 0
      tail = 0
    } else if tail == buffer.count {
      compact()
      if tail == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
    }
    while true {
      guard descriptor >= 0 else { throw error(.closed) }
      let count = buffer.withUnsafeMutableBytes { bytes in
        recv(descriptor, bytes.baseAddress! + tail, bytes.count - tail, 0)
      }
      if count > 0 {
        tail += count
        return
      }
      if count == 0 { throw error(.closed) }
      let code = errno
      switch code {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLIN), deadline: deadline)
      case ECONNRESET: throw error(.closed)
      default: throw error(.broken(SystemError.reason(code)))
      }
    }
  }

  /// When a wait for the server's next bytes gives up: the timeout from now, or the
  /// connection's overall deadline when that comes first.
  private func deadline() -> ContinuousClock.Instant {
    let next = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
    guard let overall else { return next }
    return min(next, overall.instant)
  }

  /// Waits until the socket is ready for `events`, the deadline passes (timed out; nil:
  /// never), a signal asks to stop (on the terminal's thread: ``cancellation``), or
  /// ``cancel`` is written to.
  private func wait(for events: Int16, deadline: ContinuousClock.Instant?) throws(MPDError) {
    var descriptors = [
      pollfd(fd: descriptor, events: events, revents: 0), pollfd(fd: cancel.readEnd, events: Int16(POLLIN), revents: 0),
    ]
    switch cancellation.wait(for: &descriptors, until: deadline) {
    case .ready:
      if descriptors[1].revents != 0 { throw error(.interrupted) }
    case .timedOut:
      if let overall, let deadline, overall.instant <= deadline { throw error(.timedOut(seconds: overall.seconds)) }
      throw error(.timedOut(seconds: timeout))
    case .stopped:
      throw error(.interrupted)
    case .failed(let code):
      throw error(.broken(SystemError.reason(code)))
    }
  }

  /// `send(2)` without SIGPIPE (a closed server is an error of the write).
  private static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
      Darwin.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
  }

  // MARK: - Connecting

  private func open() throws(MPDError) {
    switch address.endpoint {
    case .socket(let path):
      try openLocal(path)
    case .tcp(let host, let port):
      var hints = addrinfo()
      hints.ai_family = AF_UNSPEC
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var found: UnsafeMutablePointer<addrinfo>?
      let status = getaddrinfo(host, String(port), &hints, &found)
      guard status == 0, let first = found else {
        if status == EAI_SYSTEM { throw error(.cannotConnect(SystemError.reason(errno))) }
        throw error(.unknownHost(host))
      }
      defer { freeaddrinfo(first) }
      var last = MPDError(server: address.description, .cannotConnect("no address"))
      var current: UnsafeMutablePointer<addrinfo>? = first
      while let entry = current {
        do throws(MPDError) {
          try open(family: entry.pointee.ai_family, entry.pointee.ai_addr, entry.pointee.ai_addrlen)
          var on: Int32 = 1
          _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
          return
        } catch {
          if error.reason == .interrupted { throw error }
          last = error
        }
        current = entry.pointee.ai_next
      }
      throw last
    }
  }

  /// Connects to the Unix-domain socket at `path` (`@name`: in the abstract namespace).
  private func openLocal(_ path: String) throws(MPDError) {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let abstract = bytes.first == UInt8(ascii: "@")
    withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
      for (index, byte) in bytes.enumerated() where index < sunPath.count - 1 {
        sunPath[index] = abstract && index == 0 ? 0 : byte
      }
    }
    let length =
      MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count + (abstract ? 0 : 1)
    try withUnsafePointer(to: &address) { pointer throws(MPDError) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic throws(MPDError) in
        try open(family: AF_UNIX, generic, socklen_t(length))
      }
    }
  }

  /// Opens a non-blocking socket of `family` and connects it to `target`, waiting at most the
  /// timeout for the connection.
  private func open(family: Int32, _ target: UnsafePointer<sockaddr>, _ length: socklen_t) throws(MPDError) {
    close()
    let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    let opened = socket(family, kind, 0)
    guard opened >= 0 else { throw error(.cannotConnect(SystemError.reason(errno))) }
    descriptor = opened
    guard connect(opened, target, length) != 0 else { return }
    // In progress (or cut short by a signal, which leaves it in progress): wait for it.
    let code = errno
    guard code == EINPROGRESS || code == EINTR || code == EAGAIN else {
      close()
      throw error(.cannotConnect(SystemError.reason(code)))
    }
    do throws(MPDError) {
      try wait(for: Int16(POLLOUT), deadline: deadline())
    } catch {
      close()
      if case .timedOut = error.reason {
        throw self.error(.cannotConnect("no answer within \(MPDError.format(timeout))"))
      }
      throw error
    }
    var failure: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    _ = getsockopt(opened, SOL_SOCKET, SO_ERROR, &failure, &size)
    if failure != 0 {
      close()
      throw error(.cannotConnect(SystemError.reason(failure)))
    }
  }

  // MARK: - Helpers

  private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
    guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
    return memcmp(bytes.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
  }

  static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
    bytes.count == text.utf8CodeUnitCount && hasPrefix(bytes, text)
  }
}

/// One request: a verb and its arguments, each quoted as MPD reads them.
struct MPDCommand: Sendable {
  /// The verb, for messages: `readpicture`.
  let verb: String
  /// The request as sent, newline included.
  let line: [UInt8]
  /// Why it cannot be sent (an argument with a line break), or nil.
  let problem: String?

  init(_ verb: String, _ arguments: String...) {
    self.init(verb, arguments)
  }

  init(_ verb: String, _ arguments: [String]) {
    self.verb = verb
    var line = Array(verb.utf8)
    var problem: String?
    for argument in arguments {
      line.append(UInt8(ascii: " "))
      line.append(UInt8(ascii: "\""))
      for byte in argument.utf8 {
        if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
          problem = "an argument of '\(verb)' holds a line break"
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { line.append(UInt8(ascii: "\\")) }
        line.append(byte)
      }
      line.append(UInt8(ascii: "\""))
    }
    line.append(UInt8(ascii: "\n"))
    self.line = line
    self.problem = problem
  }
}
