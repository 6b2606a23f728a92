import BlueCovers
import BlueSystem

extension Cancellation {
  /// The shell's token: it reads the flags of the shell's signal handlers (``SignalMonitor``,
  /// which ``Shell/run(_:)`` installs) and sleeps on the pipe they write to. Ctrl-C at a terminal stops a long command and the
  /// shell goes on; in a script SIGINT ends the run (130), and SIGTERM or SIGHUP end it in
  /// any mode, so those are left pending for the shell to see once the command has stopped.
  package static func signals() -> Cancellation {
    Cancellation(
      wakeUpPipe: .shared, termination: { SignalMonitor.pendingTermination },
      interrupt: { taking in taking ? SignalMonitor.take(.interrupt) : SignalMonitor.peek(.interrupt) })
  }

  /// Whether a wait for covers (`wait`, and the shell's as it leaves) stops now, and how:
  /// for the signals that woke it, taking what woke it off the wake-up pipe. SIGTERM or
  /// SIGHUP drop the downloads without a word (the shell then leaves with 143/129; reporting
  /// a million of them took seconds); Ctrl-C cancels them, taken at a terminal (the shell
  /// goes on) and left in a script, where SIGINT ends the run (130).
  func coverWaitStop() -> CoverWaitStop? {
    wakeUpPipe.drain()
    if isRunEnding { return .cancelQuietly }
    return takeInterrupt() ? .cancel : nil
  }
}
