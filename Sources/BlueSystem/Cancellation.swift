import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How work learns that it is to stop: the one token of a run, which the composition root
/// hands to what waits — the library's statements, a music server's answers, the audio
/// engine — and the shell to its commands. It reads what signals arrived through the
/// closures it is made with (the shell's: its signal handlers' flags) and sleeps on the
/// pipe they write to; nothing in it is process-wide.
///
/// Made unarmed: only SIGTERM and SIGHUP stop a statement, and no wait polls its pipe. The
/// shell arms it once it knows its mode, on the thread that owns the terminal
/// (``arm(interactive:)``): from then on a statement stops in a script for Ctrl-C too
/// (which ends the run there), and a wait on that thread (``wait(for:until:)``) ends at
/// once on Ctrl-C, SIGTERM or SIGHUP. A wait on any other thread (a background listener,
/// a cover download) never consults it: those stop by their own means.
package final class Cancellation: Sendable {
  /// The pipe whose write wakes a wait (the shell's signal handlers write to theirs).
  package let wakeUpPipe: WakeUpPipe
  private let pendingTermination: @Sendable () -> Int32?
  private let interrupted: @Sendable (_ taking: Bool) -> Bool
  /// A ``Mode``: read, without a lock, every 1,000 steps of SQLite's machine.
  private let mode = Atomic<UInt8>(Mode.unarmed.rawValue)
  /// The thread that armed it: the one whose waits it stops.
  private let owner = Mutex<pthread_t?>(nil)

  private enum Mode: UInt8 {
    case unarmed, script, interactive
  }

  /// How a ``wait(for:until:)`` ended.
  package enum WaitEnd: Equatable, Sendable {
    /// One of the descriptors is ready (their `revents` say which).
    case ready
    /// The deadline passed.
    case timedOut
    /// A signal asks to stop (on the thread that armed the token).
    case stopped
    /// `poll` failed with this errno.
    case failed(Int32)
  }

  /// A token woken through `wakeUpPipe` that asks `termination` for the SIGTERM or SIGHUP
  /// pending (nil: none), and `interrupt` whether Ctrl-C arrived — taking it (clearing it)
  /// when its argument is true.
  package init(
    wakeUpPipe: WakeUpPipe = .shared, termination: @escaping @Sendable () -> Int32? = { nil },
    interrupt: @escaping @Sendable (_ taking: Bool) -> Bool = { _ in false }
  ) {
    self.wakeUpPipe = wakeUpPipe
    self.pendingTermination = termination
    self.interrupted = interrupt
  }

  /// A token that never stops anything: for tests and tools, which make their own when they
  /// mean to stop something.
  package static var never: Cancellation { Cancellation() }

  /// Arms the token on the calling thread, whose waits it stops from now on: at a terminal
  /// (`interactive`) Ctrl-C is taken by what it stops, and the shell goes on; in a script it
  /// is left for the shell to end the run, and it stops statements too.
  package func arm(interactive: Bool) {
    owner.withLock { $0 = pthread_self() }
    mode.store((interactive ? Mode.interactive : .script).rawValue, ordering: .relaxed)
  }

  /// Whether the run is ending (SIGTERM or SIGHUP arrived, and the shell has not taken it
  /// yet): a command that stopped leaves without a word.
  package var isRunEnding: Bool { pendingTermination() != nil }

  /// Whether Ctrl-C arrived: taken at a terminal (the command it stops is the one that
  /// sees it), left in a script, where it ends the run.
  package func takeInterrupt() -> Bool { interrupted(mode.load(ordering: .relaxed) == Mode.interactive.rawValue) }

  /// Whether any of the three arrived, nothing taken: for a wait outside the shell's own
  /// (libmpv opening its audio output, a script playing to the end of its queue).
  package var isStopRequested: Bool { isRunEnding || interrupted(false) }

  /// Whether a statement of the library stops now: SIGTERM or SIGHUP, and, once armed for a
  /// script, Ctrl-C too — the signals that end the run. Asked on any thread, without a lock.
  package var stopsStatements: Bool {
    isRunEnding || (mode.load(ordering: .relaxed) == Mode.script.rawValue && interrupted(false))
  }

  /// Whether a wait stops now: SIGTERM or SIGHUP, or Ctrl-C (``takeInterrupt()``).
  package func shouldStop() -> Bool { isRunEnding || takeInterrupt() }

  /// A check for one long command (an import, `download all`, a look-up): true from the
  /// moment it is to stop — a Ctrl-C it took stays taken for it.
  package func check() -> () -> Bool {
    var interrupted = false
    return { [self] in
      if takeInterrupt() { interrupted = true }
      return interrupted || isRunEnding
    }
  }

  /// Whether the calling thread is the one that armed the token.
  private var isOwnersThread: Bool {
    owner.withLock { owner in owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
  }

  /// Sleeps in `poll` until one of `descriptors` is ready, `deadline` passes (nil: never),
  /// or — on the thread that armed the token — a signal asks to stop: its pipe is polled
  /// too, and what the wait took from it is written back as it ends, for the shell to see.
  package func wait(for descriptors: inout [pollfd], until deadline: ContinuousClock.Instant?) -> WaitEnd {
    let watching = isOwnersThread && wakeUpPipe.isOpen
    var emptiedWakeUps = false
    defer { if emptiedWakeUps { wakeUpPipe.wake() } }
    var polled = descriptors
    if watching { polled.append(pollfd(fd: wakeUpPipe.readEnd, events: Int16(POLLIN), revents: 0)) }
    while true {
      var milliseconds: Int32 = -1
      if let deadline {
        let left = deadline - .now
        guard left > .zero else { return .timedOut }
        milliseconds = left.pollMilliseconds
      }
      for index in polled.indices { polled[index].revents = 0 }
      let ready = poll(&polled, nfds_t(polled.count), milliseconds)
      if ready < 0 {
        let code = errno
        guard code == EINTR else { return .failed(code) }
        if watching && shouldStop() { return .stopped }
        continue
      }
      if watching, polled[polled.count - 1].revents != 0 {
        wakeUpPipe.drain()
        emptiedWakeUps = true
        if shouldStop() { return .stopped }
      }
      if polled.prefix(descriptors.count).contains(where: { $0.revents != 0 }) {
        descriptors = Array(polled.prefix(descriptors.count))
        return .ready
      }
    }
  }

  /// Sleeps `duration`, or less when a signal asks to stop (on the thread that armed the
  /// token); true when it did.
  package func sleep(for duration: Duration) -> Bool {
    var none: [pollfd] = []
    return wait(for: &none, until: .now + duration) == .stopped
  }

  /// Whether a wait on the calling thread stops now (``shouldStop()``); false on any thread
  /// but the one that armed the token.
  package func stopsWaitOnThisThread() -> Bool { isOwnersThread && shouldStop() }
}
