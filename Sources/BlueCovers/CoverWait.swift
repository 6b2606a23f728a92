/// How a wait for covers (the library's `waitForCovers`) is to end early.
package enum CoverWaitStop: Sendable {
  /// Cancel the pending downloads, each reported as cancelled, and wait for the reports.
  case cancel
  /// Cancel them without a report, event or state (the shell leaving on a signal:
  /// reporting a million of them took seconds).
  case cancelQuietly
}

/// How a wait for covers ended.
package enum CoverWaitEnd: Equatable, Sendable {
  /// Every download asked for has reported.
  case done
  /// The time given passed first; the downloads go on.
  case timedOut
  /// The wait was stopped and the downloads cancelled.
  case cancelled
}
