#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard error sent to `/dev/null` from its creation to ``restore()``: the sound
/// libraries mpv loads (ALSA, PipeWire, PulseAudio) write their complaints there themselves,
/// not through mpv's log, and at a terminal they would land over the prompt.
///
/// - Important: The whole process's standard error goes nowhere meanwhile: keep it short,
///   on the thread that would otherwise print errors.
struct SilencedStandardError {
  /// A copy of the standard error it replaced; -1 when nothing was replaced.
  private let saved: Int32

  init() {
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    let saved = null >= 0 ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0) : -1
    if saved >= 0 { dup2(null, STDERR_FILENO) }
    if null >= 0 { close(null) }
    self.saved = saved
  }

  /// Puts the standard error back.
  func restore() {
    guard saved >= 0 else { return }
    dup2(saved, STDERR_FILENO)
    close(saved)
  }
}
