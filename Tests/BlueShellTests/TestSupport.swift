import Foundation
import TestSupport
import Testing

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Temporary directories

/// Runs `body` with a fresh, empty directory that is removed afterwards, whatever happens.
func withTemporaryDirectory<Result>(_ body: (String) throws -> Result) throws -> Result {
  var template = Array((NSTemporaryDirectory() + "/BlueShellTests.XXXXXX").utf8CString)
  let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  guard created != nil else { throw SystemCallError(errno: errno, call: "mkdtemp") }
  let path = String(
    decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

/// A failed system call in test set-up, naming the call.
struct SystemCallError: Error, CustomStringConvertible {
  var errno: Int32
  var call: String
  var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }

  init(errno: Int32, call: String) {
    self.errno = errno
    self.call = call
  }
}

// MARK: - Files

/// The bytes of the file at `path`, or nil when it does not exist.
func fileContents(_ path: String) -> String? {
  FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

/// Writes `text` to `path`, replacing what was there.
func writeFile(_ path: String, _ text: String) throws {
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// Whether anything exists at `path`.
func fileExists(_ path: String) -> Bool {
  var info = stat()
  return stat(path, &info) == 0
}

/// The permission bits of the file at `path`.
func permissions(of path: String) throws -> mode_t {
  var info = stat()
  guard stat(path, &info) == 0 else { throw SystemCallError(errno: errno, call: "stat") }
  return info.st_mode & 0o777
}

// MARK: - Pipes

/// A pipe's two ends.
func makePipe() throws -> (read: Int32, write: Int32) {
  var fds: [Int32] = [0, 0]
  guard pipe(&fds) == 0 else { throw SystemCallError(errno: errno, call: "pipe") }
  return (fds[0], fds[1])
}

/// A reader over a real pipe that delivers `bytes` and then end of file.
///
/// Small inputs are written before returning; inputs larger than a pipe's buffer are written
/// from a background thread while the test reads, as a producer process would.
func pipeReader(feeding bytes: [UInt8]) throws -> StreamLineReader {
  // A test that stops reading early must not kill the whole test process with SIGPIPE.
  signal(SIGPIPE, SIG_IGN)
  let (readEnd, writeEnd) = try makePipe()
  if bytes.count <= 4096 {
    _ = bytes.withUnsafeBytes { POSIX.writeAll(writeEnd, $0) }
    close(writeEnd)
  } else {
    Thread.detachNewThread {
      _ = bytes.withUnsafeBytes { POSIX.writeAll(writeEnd, $0) }
      close(writeEnd)
    }
  }
  return StreamLineReader(fileDescriptor: readEnd, closeWhenDone: true)
}

/// A reader over a real pipe that delivers `text`.
func pipeReader(feeding text: String) throws -> StreamLineReader {
  try pipeReader(feeding: Array(text.utf8))
}

/// Every event up to and including ``LineEvent/endOfInput`` (bounded, so a reader that never
/// ends fails the test instead of hanging it).
func readAll(_ reader: some LineReader, atMost limit: Int = 10_000) -> [LineEvent] {
  var events: [LineEvent] = []
  while events.count < limit {
    let event = reader.readLine()
    events.append(event)
    if event == .endOfInput { break }
  }
  return events
}

// MARK: - Captured output

/// An ``OutputChannel`` over a real pipe whose other end the test reads.
///
/// Meant for the few lines a command prints: more than a pipe's buffer (64 KiB) between two
/// calls to ``text()`` would block the flush.
final class CapturedOutput {
  /// The channel commands print to.
  let channel: OutputChannel
  private let readEnd: Int32
  private let writeEnd: Int32

  init() throws {
    (readEnd, writeEnd) = try makePipe()
    // Non-blocking, so `text()` returns what has been written so far and can be called again.
    _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
    channel = OutputChannel(fileDescriptor: writeEnd)
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  /// Flushes the channel and returns everything printed since the last call.
  func text() -> String {
    channel.flush()
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { POSIX.read(readEnd, $0.baseAddress!, $0.count) }
      guard n > 0 else { break }
      bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

