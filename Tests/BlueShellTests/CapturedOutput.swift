import Foundation
import TestSupport

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
