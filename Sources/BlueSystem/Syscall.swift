#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call that failed: the call's name and its `errno`.
///
/// The one place errno becomes text; every message about a failed call says its ``reason``.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The call that failed ("open", "read", …).
  package var call: String
  /// Its errno value.
  package var errno: Int32

  /// A failure of `call` with `errno`.
  package init(_ call: String, errno code: Int32) {
    self.call = call
    self.errno = code
  }

  /// A failure of `call` with the current `errno`.
  package init(_ call: String) {
    self.init(call, errno: currentErrno())
  }

  /// The system's text for ``errno``, lowercase: "permission denied".
  package var reason: String { Self.reason(errno) }

  /// Whether the descriptor is non-blocking and the call would have waited (EAGAIN).
  package var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

  /// `CALL: REASON`, as in "open: no such file or directory".
  package var description: String { "\(call): \(reason)" }

  /// The system's text for `code`, first letter lowercased: "permission denied".
  package static func reason(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    let reason = String(cString: text)
    return reason.prefix(1).lowercased() + reason.dropFirst()
  }
}

/// Runs a system call, retrying it while a signal interrupts it (EINTR); a result of -1
/// throws the call's errno as a ``SystemError`` named `name`.
///
/// EAGAIN is thrown like any other errno (see ``SystemError/wouldBlock``): a caller on a
/// non-blocking descriptor decides for itself how to wait.
@discardableResult
package func syscall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(SystemError) -> T {
  while true {
    let result = body()
    if result != -1 { return result }
    let code = errno
    if code != EINTR { throw SystemError(name, errno: code) }
  }
}

/// How an interruptible system call ended.
package enum Interruptible<Value, Stop> {
  /// The call returned `Value`.
  case completed(Value)
  /// A signal interrupted the call and `Stop` asked the caller to give up waiting.
  case stopped(Stop)
}

/// Runs a system call that a signal may end: on EINTR `stop` is asked whether the signal
/// means to stop (a non-nil answer, returned as ``Interruptible/stopped(_:)``) or to retry.
///
/// For blocking reads and polls whose signal handlers only set a flag: the interrupted call
/// is the moment the flag is checked, so retrying blindly would wait past a Ctrl-C.
package func syscall<T: FixedWidthInteger, Stop>(
  _ name: String, stoppingOnSignal stop: () -> Stop?, _ body: () -> T
) throws(SystemError) -> Interruptible<T, Stop> {
  while true {
    let result = body()
    if result != -1 { return .completed(result) }
    let code = errno
    guard code == EINTR else { throw SystemError(name, errno: code) }
    if let stop = stop() { return .stopped(stop) }
  }
}

/// `errno`, which ``SystemError`` shadows with its own.
private func currentErrno() -> Int32 { errno }

// MARK: - Whole reads and writes

/// Writes all of `bytes` to `fd`, waiting for room when the descriptor is non-blocking
/// and full (EAGAIN), so that "all" holds for pipes a parent left non-blocking too.
package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
  guard let base = bytes.baseAddress else { return }
  var offset = 0
  while offset < bytes.count {
    do throws(SystemError) {
      let written = try syscall("write") { write(fd, base + offset, bytes.count - offset) }
      guard written > 0 else { throw SystemError("write", errno: EIO) }
      offset += written
    } catch  where error.wouldBlock {
      var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      try syscall("poll") { poll(&descriptor, 1, -1) }
    }
  }
}

/// Reads `fd` to its end, or to its first `limit` bytes.
package func readToEnd(_ fd: Int32, sizeHint: Int = 0, atMost limit: Int = .max) throws(SystemError) -> [UInt8] {
  var bytes: [UInt8] = []
  bytes.reserveCapacity(min(sizeHint, limit))
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while bytes.count < limit {
    let wanted = min(chunk.count, limit - bytes.count)
    let count = try syscall("read") { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, wanted) } }
    if count == 0 { return bytes }
    bytes.append(contentsOf: chunk[..<count])
  }
  return bytes
}
