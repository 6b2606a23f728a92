#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A self-pipe: one thread sleeps in `poll` on ``readEnd`` and another thread, or a signal
/// handler, wakes it by writing a byte to ``writeEnd``.
///
/// ``shared`` wakes the thread owning the terminal: written by signal handlers and by
/// background work (the shell's message queue), polled beside stdin. A thread waiting for
/// something else makes one of its own (the cover loader's idle wait) and closes it after.
///
/// - Important: Both ends are non-blocking and close-on-exec; a full pipe already means
///   "wake up", so writes ignore EAGAIN.
package struct WakeUpPipe: Sendable {
  /// The end to poll.
  package let readEnd: Int32
  /// The end to write one byte to.
  package let writeEnd: Int32

  /// The process's pipe (signal handlers cannot carry context).
  package static let shared = WakeUpPipe()

  /// A new pipe; both ends are -1 when the process is out of descriptors.
  package init() {
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) != 0 { fds = [-1, -1] }
    for fd in fds where fd >= 0 {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    readEnd = fds[0]
    writeEnd = fds[1]
  }

  /// Whether the pipe was made.
  package var isOpen: Bool { readEnd >= 0 }

  /// Writes one byte; async-signal-safe.
  package func wake() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Waits until the pipe is woken (a byte in it, left there) or `seconds` have passed (a
  /// day at most; none for a negative time, which poll would take as no end), whichever
  /// comes first.
  package func wait(atMost seconds: Double) {
    var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, Int32(max(0, min(seconds, 86_400)) * 1000))
  }

  /// Empties the pipe.
  package func drain() {
    var scratch = [UInt8](repeating: 0, count: 256)
    while scratch.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress!, 256) }) > 0 {}
  }

  /// Closes both ends: for a pipe of one's own, once nothing can write to it any more.
  package func close() {
    for fd in [readEnd, writeEnd] where fd >= 0 {
      #if canImport(Glibc)
        _ = Glibc.close(fd)
      #else
        _ = Darwin.close(fd)
      #endif
    }
  }
}

extension Duration {
  /// This duration as `poll`'s timeout: whole milliseconds, one more than it holds (a wait
  /// never ends before its deadline), at most `Int32.max`; 0 for none left.
  package var pollMilliseconds: Int32 {
    guard self > .zero else { return 0 }
    let (seconds, attoseconds) = components
    guard seconds < Int64(Int32.max / 1000) else { return .max }
    return Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
  }
}
