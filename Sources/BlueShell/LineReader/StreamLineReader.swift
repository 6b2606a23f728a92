import BlueLibrary
import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines from a file descriptor (a pipe, a file, a string) with no prompt and no
/// escapes: script mode.
///
/// Bytes are read in 64 KiB chunks and split on `\n` (a trailing `\r` is dropped). A line
/// longer than ``maximumLineLength`` is skipped without being held in memory, and lines
/// that are not UTF-8 or contain NUL are reported as ``LineEvent/malformed(_:)`` — never
/// a crash.
final class StreamLineReader: LineReader {
  /// The longest line accepted, in bytes.
  static let maximumLineLength = 1 << 20

  private(set) var lineNumber = 0
  private let fileDescriptor: Int32
  private let ownsDescriptor: Bool
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  private let stopRequested: () -> LineEvent?
  /// What a signal handler writes to, polled with the input.
  private let wakeUpPipe: WakeUpPipe
  /// A FIFO opened without waiting for its writer: the first read would see end of input
  /// before the writer came, so the reader polls (stopping on a signal) before it.
  private var waitsForWriter: Bool
  /// Why reading failed (`is a directory`, `input/output error`), once ``readLine()``
  /// returned ``LineEvent/endOfInput`` because of it; nil at a true end of input.
  private(set) var readFailure: String?
  /// Called before a read that may block: the shell flushes its output and saves state,
  /// so what was done is visible and kept while we wait for more input.
  var beforeBlocking: () -> Void = {}

  /// Reads from `fileDescriptor`; `stopRequested` is asked before a wait for input and
  /// after each wake of it whether a signal asks the shell to stop (nil means keep reading).
  /// `waitForWriter` is for a FIFO opened with `O_NONBLOCK` (which does not wait for a
  /// writer, unlike a blocking open, which no signal ends). `wakeUpPipe` is the one the
  /// signal handlers write to.
  init(
    fileDescriptor: Int32, closeWhenDone: Bool = false, waitForWriter: Bool = false,
    wakeUpPipe: WakeUpPipe = .shared, stopRequested: @escaping () -> LineEvent? = { nil }
  ) {
    self.fileDescriptor = fileDescriptor
    self.ownsDescriptor = closeWhenDone
    self.waitsForWriter = waitForWriter
    self.wakeUpPipe = wakeUpPipe
    self.stopRequested = stopRequested
  }

  /// Reads the given text, as for `-c`.
  convenience init(text: String, stopRequested: @escaping () -> LineEvent? = { nil }) {
    self.init(fileDescriptor: -1, stopRequested: stopRequested)
    buffer = Array(text.utf8)
    atEnd = true
  }

  func readLine() -> LineEvent {
    // A signal that arrived while the last command ran ends the run here, even when more
    // input is already buffered (a blocked read would see EINTR, a buffered one never).
    if let stop = stopRequested() { return stop }
    var tooLong = false
    var skipped = 0
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        let lineStart = start
        start = newline + 1
        lineNumber += 1
        if tooLong || newline - lineStart > Self.maximumLineLength {
          return tooLongEvent(skipped + newline - lineStart)
        }
        return decode(lineStart..<newline)
      }
      if atEnd {
        guard start < buffer.count || tooLong else { return .endOfInput }
        let lineStart = start
        start = buffer.count
        lineNumber += 1
        if tooLong || buffer.count - lineStart > Self.maximumLineLength {
          return tooLongEvent(skipped + buffer.count - lineStart)
        }
        return decode(lineStart..<buffer.count)
      }
      if buffer.count - start > Self.maximumLineLength {
        tooLong = true
        skipped += buffer.count - start
        start = buffer.count
      }
      // Endless input without a newline (`/dev/zero`) never blocks, so no read is ever
      // interrupted: the skip asks itself whether a signal came.
      if tooLong, let stop = stopRequested() { return stop }
      if let stop = fill() { return stop }
    }
  }

  func close() {
    if ownsDescriptor && fileDescriptor >= 0 { Glibc.close(fileDescriptor) }
  }

  /// Reads the next chunk; returns an event when a signal asks to stop.
  private func fill() -> LineEvent? {
    // Only before a read that would wait: not per 64 KiB of a file or of `/dev/zero`. The wait
    // is a poll that a signal ends whenever it came (a FIFO without a writer is waited for
    // there too: its read would see the end of input at once).
    var ready = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    // (No descriptor, -1, is left to the read to say: a poll would wait on it for ever.)
    if fileDescriptor >= 0 && (poll(&ready, 1, 0) != 1 || waitsForWriter) {
      waitsForWriter = false
      beforeBlocking()
      if let stop = waitUntilReadable() { return stop }
    }
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    let chunk = 64 * 1024
    let old = buffer.count
    buffer.reserveCapacity(old + chunk)
    buffer.append(contentsOf: repeatElement(0, count: chunk))
    while true {
      do throws(SystemError) {
        // A signal interrupts the read: the moment to ask whether it means stop.
        let outcome = try syscall("read", stoppingOnSignal: stopRequested) {
          buffer.withUnsafeMutableBytes { POSIX.read(fileDescriptor, $0.baseAddress! + old, chunk) }
        }
        switch outcome {
        case .completed(let n):
          buffer.removeLast(chunk - n)
          if n == 0 { atEnd = true }
          return nil
        case .stopped(let stop):
          buffer.removeLast(chunk)
          return stop
        }
      } catch  where error.wouldBlock {
        // A parent left the descriptor non-blocking: wait for data instead of ending.
        if let stop = waitUntilReadable() {
          buffer.removeLast(chunk)
          return stop
        }
      } catch {
        // A directory (EISDIR), a device that fails (EIO): the input ends, and the shell
        // says why instead of taking it for an empty script.
        buffer.removeLast(chunk)
        atEnd = true
        readFailure = error.reason
        return nil
      }
    }
  }

  /// Waits until the descriptor has something to read (data, its end, a FIFO's writer), or
  /// returns what `stopRequested` says when a signal asks to stop. The signal handlers write
  /// to the wake-up pipe, which is polled with the descriptor: a signal that comes
  /// after the last ask and before the poll blocks ends the wait too. A poll of the
  /// descriptor alone missed it, and waited for input that might never come (a script FIFO
  /// that has no writer, a pipe whose writer waits).
  private func waitUntilReadable() -> LineEvent? {
    let wakeUp = wakeUpPipe
    var descriptors = [
      pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      // Emptied before the ask: a signal after it leaves a byte that ends the poll.
      wakeUp.drain()
      if let stop = stopRequested() { return stop }
      // An error of the poll is left to the read to say.
      guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return nil }
      if descriptors[0].revents != 0 { return nil }
    }
  }

  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  private func tooLongEvent(_ length: Int) -> LineEvent {
    .malformed("line is too long (\(length) bytes; the limit is \(Self.maximumLineLength) bytes)")
  }

  private func decode(_ range: Range<Int>) -> LineEvent {
    var end = range.upperBound
    if end > range.lowerBound && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    var begin = range.lowerBound
    // A UTF-8 byte order mark before the first line (editors on Windows write one) is not
    // part of the command.
    if lineNumber == 1 && buffer[begin..<end].starts(with: Self.byteOrderMark) { begin += Self.byteOrderMark.count }
    let bytes = buffer[begin..<end]
    if let nul = bytes.firstIndex(of: 0) {
      return .malformed("line contains a NUL byte (byte \(nul - range.lowerBound + 1))")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .malformed("line is not valid UTF-8 (byte \(firstInvalidUTF8(bytes) + 1))")
    }
    return .line(text)
  }

  private func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    var offset = 0
    var scalarStart = 0
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        offset += UTF8.width(scalar)
        scalarStart = offset
      case .emptyInput: break loop
      case .error: return scalarStart
      }
    }
    return scalarStart
  }
}
