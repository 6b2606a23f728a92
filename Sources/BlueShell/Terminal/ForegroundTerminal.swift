#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal handed to another process group, which runs in the foreground (reads keys,
/// gets Ctrl-C and Ctrl-Z), and taken back when it is done — what a shell with job control
/// does for a foreground job.
struct ForegroundTerminal {
  /// A descriptor of the terminal.
  let descriptor: Int32
  /// The group it is handed to.
  let group: pid_t

  /// Hands the terminal to `group`, when one of the standard descriptors is a terminal whose
  /// foreground group is ours (nil otherwise: a script, a pipe, a background job).
  init?(handedTo group: pid_t) {
    guard
      let descriptor = [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].first(where: {
        isatty($0) == 1 && tcgetpgrp($0) == getpgrp()
      })
    else { return nil }
    self.descriptor = descriptor
    self.group = group
    give()
  }

  /// Makes `group` the foreground group, and wakes it in case it stopped reading the
  /// terminal before it had it (SIGTTIN).
  func give() {
    _ = tcsetpgrp(descriptor, group)
    kill(-group, SIGCONT)
  }

  /// Makes our group the foreground group again. From the background, that sends us
  /// SIGTTOU, blocked meanwhile.
  func takeBack() {
    var block = sigset_t()
    var previous = sigset_t()
    sigemptyset(&block)
    sigaddset(&block, SIGTTOU)
    pthread_sigmask(SIG_BLOCK, &block, &previous)
    _ = tcsetpgrp(descriptor, getpgrp())
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }
}
