import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the thread that owns the terminal wakes for while it waits on something slow (a
/// music server's answer), and how it asks whether a signal means to stop the wait: the
/// shell's wake-up pipe and its check of Ctrl-C, SIGTERM and SIGHUP.
///
/// The shell installs it once, on its own thread; a wait on any other thread (a background
/// listener, a cover download) never consults it — those stop by their own means.
package enum Interruption {
  /// What ``install(pipe:shouldStop:)`` set, and on which thread.
  package struct Installed: Sendable {
    /// The self-pipe signal handlers and background work write to; a wait that empties it
    /// wakes it again when it ends, so its owner still sees what was waiting.
    package var pipe: WakeUpPipe
    /// Whether a signal that arrived asks to stop the wait.
    package var shouldStop: @Sendable () -> Bool
    var thread: pthread_t
  }

  private static let installed = Mutex<Installed?>(nil)

  /// Makes waits on the calling thread wake when `pipe` is readable and stop when
  /// `shouldStop` says so.
  package static func install(pipe: WakeUpPipe, shouldStop: @escaping @Sendable () -> Bool) {
    installed.withLock { $0 = Installed(pipe: pipe, shouldStop: shouldStop, thread: pthread_self()) }
  }

  /// The pipe to poll beside what a wait is for, and the check to ask when it is readable;
  /// nil on any thread but the one that installed them (or before they were).
  package static var forThisThread: Installed? {
    installed.withLock { installed in
      guard let installed, pthread_equal(installed.thread, pthread_self()) != 0 else { return nil }
      return installed
    }
  }
}
