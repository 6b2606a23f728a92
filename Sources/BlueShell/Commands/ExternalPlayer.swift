import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Another player (`BLUELIB_PLAYER`): a shell command line, as `$PAGER` is, run with an
/// album's files as its arguments, in the foreground with the terminal.
///
/// It runs in a process group of its own, so that a signal meant for the shell reaches the
/// player and whatever it started, and nothing else (the shell's own group may be its
/// parent's: a script's, a test runner's). SIGTERM and SIGHUP, and SIGINT in a script, are
/// passed on and the shell stops waiting at once, leaving the signal to end the run (143,
/// 129, 130); at a prompt, SIGINT is passed on and the shell waits for the player to end, as
/// a shell waits for its foreground job. It gets the command environment's variables (the
/// process's own in a shell; what a test injects in one).
struct ExternalPlayer {
  /// The command line.
  let command: String
  /// The variables the player runs with.
  let environment: [String: String]

  /// Plays `files` and waits for the player to end: whether it played to its end (false
  /// when it was stopped: Ctrl-C, or a signal for the shell); an error when it cannot be
  /// run, fails, or is killed by a signal (other than Ctrl-C's, which stops it on purpose).
  func play(_ files: [String], isInteractive: Bool) throws(CommandError) -> Bool {
    let pid = try spawn(files)
    let terminal = ForegroundTerminal(handedTo: pid)
    defer { terminal?.takeBack() }
    guard let status = wait(for: pid, terminal: terminal, isInteractive: isInteractive) else { return false }
    let named = "'\(TextSanitizer.escaped(command))'"
    let signal = status & 0x7F
    if signal != 0 {
      // Ctrl-C at the terminal went to the player alone: in a script it ends the run too,
      // as it did when both were one group.
      if signal == SIGINT {
        if !isInteractive { raise(SIGINT) }
        return false
      }
      throw CommandError("the player \(named) was killed by signal \(signal)")
    }
    let code = (status >> 8) & 0xFF
    if code == 127 { throw CommandError("cannot run the player \(named) (BLUELIB_PLAYER): not found") }
    if code != 0 { throw CommandError("the player \(named) failed (exit status \(code))") }
    return true
  }

  /// Starts `/bin/sh -c 'COMMAND "$@"' bluelib-player FILES…` in a new process group, every
  /// signal it may get at its default (the shell ignores some) and none blocked.
  private func spawn(_ files: [String]) throws(CommandError) -> pid_t {
    // `"$@"` passes each path as one argument, whatever it holds.
    let arguments = ["/bin/sh", "-c", command + " \"$@\"", "bluelib-player"] + files
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
    defer { for variable in envp { free(variable) } }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setpgroup(&attributes, 0)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGQUIT, SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, &argv, &envp)
    guard spawned == 0 else {
      throw CommandError("cannot run the player (BLUELIB_PLAYER): \(SystemError.reason(spawned))")
    }
    return pid
  }

  /// Waits for the player `pid` to end and returns its wait status; nil when a signal
  /// ended the wait, once passed on to the player's group. Polls the wake-up pipe, which
  /// every signal writes to, so a signal is seen at once; a player stopped by Ctrl-Z stops
  /// the shell too, and both go on at `fg`.
  private func wait(for pid: pid_t, terminal: ForegroundTerminal?, isInteractive: Bool) -> Int32? {
    var status: Int32 = 0
    while true {
      let reaped = waitpid(pid, &status, WNOHANG | WUNTRACED)
      if reaped == pid && status & 0xFF == 0x7F {
        let stop = (status >> 8) & 0xFF
        if let terminal, stop == SIGTSTP {
          // Ctrl-Z at the terminal it has: the shell's parent gets the terminal back when
          // the shell stops too, and `fg` continues both.
          terminal.takeBack()
          raise(SIGSTOP)
          terminal.give()
        } else if let terminal, stop == SIGTTIN || stop == SIGTTOU {
          // It used the terminal before it had it.
          terminal.give()
        }
      } else if reaped == pid {
        return status
      } else if reaped < 0 && errno != EINTR {
        // Reaped by someone else (ECHILD): nothing to wait for, nothing known of its end.
        return 0
      }
      if let signal = SignalMonitor.peek(.terminate) ? SIGTERM : SignalMonitor.peek(.hangUp) ? SIGHUP : nil {
        kill(-pid, signal)
        return nil
      }
      if isInteractive ? SignalMonitor.take(.interrupt) : SignalMonitor.peek(.interrupt) {
        kill(-pid, SIGINT)
        if !isInteractive { return nil }
      }
      var wake = pollfd(fd: WakeUpPipe.shared.readEnd, events: Int16(POLLIN), revents: 0)
      _ = poll(&wake, 1, 20)
      WakeUpPipe.shared.drain()
    }
  }
}
