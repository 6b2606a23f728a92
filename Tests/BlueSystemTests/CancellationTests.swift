import Dispatch
import Foundation
import Synchronization
import Testing

@testable import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The token's waits: one armed on a thread ends at a signal it reads, and a stop asked of
/// one token does not end a wait under another.
struct CancellationTests {
  /// A token woken through a pipe of its own, reading a Ctrl-C flag of its own.
  final class Token: Sendable {
    let pipe = WakeUpPipe()
    let interrupt = Atomic<Bool>(false)
    var cancellation: Cancellation {
      Cancellation(
        wakeUpPipe: pipe,
        interrupt: { [self] taking in
          taking ? interrupt.exchange(false, ordering: .relaxed) : interrupt.load(ordering: .relaxed)
        })
    }

    /// Whether a Ctrl-C is waiting, not taken.
    var isPressed: Bool { interrupt.load(ordering: .relaxed) }

    /// Ctrl-C, as the shell's handler records it: the flag, then a byte on the pipe.
    func press() {
      interrupt.store(true, ordering: .relaxed)
      pipe.wake()
    }

    deinit { pipe.close() }
  }

  /// A pipe with a byte waiting: what a server's answer looks like to `poll`.
  static func readablePipe() -> WakeUpPipe {
    let pipe = WakeUpPipe()
    pipe.wake()
    return pipe
  }

  @Test func aStopAskedOfOneTokenDoesNotEndAWaitUnderAnother() {
    let (first, second) = (Token(), Token())
    let (stopping, going) = (first.cancellation, second.cancellation)
    stopping.arm(interactive: true)
    going.arm(interactive: true)
    first.press()
    let answer = Self.readablePipe()
    defer { answer.close() }
    let silent = WakeUpPipe()
    defer { silent.close() }

    // The first token's wait for a server that never answers ends at its Ctrl-C, at once
    // (the deadline is far), and takes it: the shell goes on.
    var nothing = [pollfd(fd: silent.readEnd, events: Int16(POLLIN), revents: 0)]
    #expect(stopping.wait(for: &nothing, until: .now + .seconds(600)) == .stopped)
    #expect(!first.isPressed)
    // The second token's wait sees its answer: the first's Ctrl-C is none of its business.
    first.press()
    var ready = [pollfd(fd: answer.readEnd, events: Int16(POLLIN), revents: 0)]
    #expect(going.wait(for: &ready, until: .now + .seconds(600)) == .ready)
    #expect(ready[0].revents & Int16(POLLIN) != 0)
    #expect(!going.shouldStop())
    #expect(first.isPressed)
  }

  /// A token armed on one thread stops only that thread's waits: another thread's (a
  /// background listener) is not its to end.
  @Test func aWaitOnAnotherThreadIsNotEndedByTheToken() {
    let token = Token()
    let cancellation = token.cancellation
    cancellation.arm(interactive: true)
    token.press()
    let silent = WakeUpPipe()
    defer { silent.close() }
    let end = Mutex<Cancellation.WaitEnd?>(nil)
    let done = DispatchSemaphore(value: 0)
    // A thread of its own, alive while the armed one is: only its deadline ends its wait.
    let thread = Thread {
      var nothing = [pollfd(fd: silent.readEnd, events: Int16(POLLIN), revents: 0)]
      let ended = cancellation.wait(for: &nothing, until: .now + .milliseconds(50))
      end.withLock { $0 = ended }
      done.signal()
    }
    thread.start()
    done.wait()
    #expect(end.withLock { $0 } == .timedOut)
    #expect(token.isPressed)
    // On the armed thread the same wait ends at the Ctrl-C.
    var nothing = [pollfd(fd: silent.readEnd, events: Int16(POLLIN), revents: 0)]
    #expect(cancellation.wait(for: &nothing, until: .now + .seconds(600)) == .stopped)
  }
}
