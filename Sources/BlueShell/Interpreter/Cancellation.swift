import BlueCovers
import BlueSystem

/// How a command learns that it is to stop: the check a long command (an import, the
/// requests of `download all`, a look-up) asks as it goes, what `wait` does when woken, and
/// the pipe that wakes a command sleeping in `poll`. The shell's come from its signals
/// (``signals(interactive:)``); a test makes its own.
struct Cancellation {
  /// The pipe whose write wakes a command that sleeps (the shell's signal handlers write
  /// to theirs).
  let wakeUpPipe: WakeUpPipe
  private let makeCheck: () -> () -> Bool
  private let coverWait: () -> CoverWaitStop?
  private let endsRun: () -> Bool

  /// A cancellation whose long commands ask the checks `check` makes (one per command),
  /// whose waits for covers, woken through `wakeUpPipe`, ask `coverWait`, and whose run is
  /// ending when `endsRun` says so.
  init(
    wakeUpPipe: WakeUpPipe, check: @escaping () -> () -> Bool, coverWait: @escaping () -> CoverWaitStop?,
    endsRun: @escaping () -> Bool
  ) {
    self.wakeUpPipe = wakeUpPipe
    self.makeCheck = check
    self.coverWait = coverWait
    self.endsRun = endsRun
  }

  /// A check for one long command: true from the moment it is to stop.
  func check() -> () -> Bool { makeCheck() }

  /// Whether a wait for covers (`wait`, and the shell's as it leaves) stops now, and how.
  func coverWaitStop() -> CoverWaitStop? { coverWait() }

  /// Whether the run is ending (SIGTERM or SIGHUP arrived): a command that stopped leaves
  /// without a word.
  var isRunEnding: Bool { endsRun() }

  /// Nothing stops a command: for tests, which make their own when they mean to stop one.
  static var never: Cancellation {
    Cancellation(wakeUpPipe: .shared, check: { { false } }, coverWait: { nil }, endsRun: { false })
  }

  /// The shell's: Ctrl-C at a terminal stops a long command and the shell goes on; in a
  /// script SIGINT ends the run (130), and SIGTERM or SIGHUP end it in any mode, so those
  /// are left pending for the shell to see once the command has stopped.
  ///
  /// A wait for covers stops for the signals that woke it, taking what woke it off the
  /// wake-up pipe: SIGTERM or SIGHUP drop the downloads without a word (the shell then
  /// leaves with 143/129; reporting a million of them took seconds); Ctrl-C cancels them,
  /// taken at a terminal (the shell goes on) and left in a script, where SIGINT ends the
  /// run (130).
  static func signals(interactive: Bool) -> Cancellation {
    Cancellation(
      wakeUpPipe: .shared,
      check: {
        var interrupted = false
        return {
          if interactive ? SignalMonitor.take(.interrupt) : SignalMonitor.peek(.interrupt) {
            interrupted = true
          }
          return interrupted || SignalMonitor.terminationPending
        }
      },
      coverWait: {
        WakeUpPipe.shared.drain()
        if SignalMonitor.terminationPending { return .cancelQuietly }
        return (interactive ? SignalMonitor.take(.interrupt) : SignalMonitor.peek(.interrupt)) ? .cancel : nil
      },
      endsRun: { SignalMonitor.terminationPending })
  }
}
