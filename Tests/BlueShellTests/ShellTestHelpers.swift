import BlueSystem
import Foundation
// Every file of this target sees the shared helpers (makePipe, withTemporaryDirectory, …),
// also the files that do not import TestSupport themselves.
@_exported import TestSupport
import Testing

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Pipes

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

// MARK: - Outputs

/// A channel that writes to /dev/null, for an environment whose lines the test does not read.
func discardedOutput() -> OutputChannel {
  OutputChannel(fileDescriptor: devNull)
}

/// /dev/null, opened once for the whole test process.
private let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
