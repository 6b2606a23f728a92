import BlueSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Signals the shell reacts to, recorded by a handler that only sets a bit and wakes the
/// terminal's owner — no work in signal context.
enum ShellSignal: UInt32, Sendable, CaseIterable {
  case interrupt = 1
  case terminate = 2
  case hangUp = 4
  case windowChange = 8
  /// SIGCONT: `fg` after Ctrl-Z; the prompt and the half-typed line are drawn again.
  case resume = 16

  var number: Int32 {
    switch self {
    case .interrupt: SIGINT
    case .terminate: SIGTERM
    case .hangUp: SIGHUP
    case .windowChange: SIGWINCH
    case .resume: SIGCONT
    }
  }
}

private let pendingSignals = Atomic<UInt32>(0)
/// How many SIGINT, SIGTERM and SIGHUP have arrived: each ends the rest of the line it came in.
private let stopRequests = Atomic<UInt32>(0)
/// The exit status the last SIGTERM (143) or SIGHUP (129) taken calls for.
private let lastTermination = Atomic<Int32>(143)

/// Installs and reads the shell's signal handlers.
enum SignalMonitor {
  /// Installs flag-only handlers (without SA_RESTART, so a blocked read returns EINTR) and
  /// ignores SIGPIPE, so a closed pipe shows up as a write error instead of killing us.
  static func install() {
    _ = WakeUpPipe.shared  // initialise before any handler can run
    signal(SIGPIPE, SIG_IGN)
    // Ctrl-\ is ignored, as bash and psql ignore it: no core, no runtime crash report.
    signal(SIGQUIT, SIG_IGN)
    // Past `ulimit -f` a write fails with EFBIG ("file too large") instead of killing us
    // with a half-written export or a cut `list > file`.
    signal(SIGXFSZ, SIG_IGN)
    for signal in ShellSignal.allCases {
      var action = sigaction()
      #if canImport(Glibc)
        // Async-signal-safe only: no allocation, no locks.
        action.__sigaction_handler.sa_handler = { number in
          let bit: UInt32 =
            switch number {
            case SIGINT: ShellSignal.interrupt.rawValue
            case SIGTERM: ShellSignal.terminate.rawValue
            case SIGHUP: ShellSignal.hangUp.rawValue
            case SIGCONT: ShellSignal.resume.rawValue
            default: ShellSignal.windowChange.rawValue
            }
          pendingSignals.bitwiseOr(bit, ordering: .relaxed)
          if number == SIGINT || number == SIGTERM || number == SIGHUP {
            stopRequests.wrappingAdd(1, ordering: .relaxed)
          }
          WakeUpPipe.shared.wake()
        }
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(signal.number, &action, nil)
    }
    // A parent may have started us with these blocked (threads of a test runner, some
    // launchers); blocked, they would never reach the handlers above.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signal in ShellSignal.allCases { sigaddset(&handled, signal.number) }
    sigprocmask(SIG_UNBLOCK, &handled, nil)
  }

  /// Returns and clears whether `signal` arrived.
  static func take(_ signal: ShellSignal) -> Bool {
    pendingSignals.bitwiseAnd(~signal.rawValue, ordering: .relaxed).oldValue & signal.rawValue != 0
  }

  /// Takes SIGTERM or SIGHUP, if either arrived: the exit status it calls for (143 or 129,
  /// 128 + the signal, as shells report it), also kept as ``terminationStatus``.
  static func takeTermination() -> Int32? {
    let status: Int32
    if take(.terminate) {
      status = 128 + SIGTERM
    } else if take(.hangUp) {
      status = 128 + SIGHUP
    } else {
      return nil
    }
    lastTermination.store(status, ordering: .relaxed)
    return status
  }

  /// The exit status of the last termination signal taken (143 before any).
  static var terminationStatus: Int32 { lastTermination.load(ordering: .relaxed) }

  /// SIGTERM or SIGHUP arrived and was not taken yet.
  static var terminationPending: Bool { peek(.terminate) || peek(.hangUp) }

  /// The exit status SIGTERM (143) or SIGHUP (129) calls for when one arrived and was not
  /// taken yet, without taking it; nil otherwise.
  static var pendingTermination: Int32? {
    peek(.terminate) ? 128 + SIGTERM : peek(.hangUp) ? 128 + SIGHUP : nil
  }

  /// A count that changes whenever SIGINT, SIGTERM or SIGHUP arrives, whether or not a
  /// command took the signal: the interpreter compares it to drop the rest of a line.
  static var stopRequestCount: UInt32 { stopRequests.load(ordering: .relaxed) }

  /// Whether `signal` arrived, without clearing it.
  static func peek(_ signal: ShellSignal) -> Bool {
    pendingSignals.load(ordering: .relaxed) & signal.rawValue != 0
  }
}
