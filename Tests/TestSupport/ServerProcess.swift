import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A server a fixture runs (MPD, Mopidy, supysonic, a TLS server), or a tool of one (a scan,
/// a CLI): started with no signal blocked and every signal at its default action, in a
/// process group of its own, and ended with that group (``end()``). Foundation's `Process`
/// passes on the signal mask of the thread that starts it, and the test runner's threads
/// (libdispatch's) block SIGTERM: a Mopidy started so never sees it.
package final class ServerProcess {
  /// Its process id, and its process group's.
  package let pid: pid_t
  /// Its wait status once it ended and was reaped.
  private var status: Int32?

  /// Starts `path` with `arguments` and `environment` (`NAME=VALUE`), standard input from
  /// `/dev/null`, standard output and error appended to `output`.
  package init(_ path: String, _ arguments: [String], environment: [String], output: String) throws {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let failed = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard failed == 0 else { throw FixtureError("cannot start \(path): errno \(failed)") }
    self.pid = pid
  }

  deinit {
    end()
  }

  /// Starts `path` as ``init(_:_:environment:output:)`` does and waits (up to `seconds`)
  /// until `isReady` says it is; when it exits first or the time is up, it is ended and the
  /// error names it (`name`) with what it logged (`log`).
  package static func started(
    _ path: String, _ arguments: [String], environment: [String], output: String, name: String,
    within seconds: Double, log: @autoclosure () -> String, until isReady: () -> Bool
  ) throws -> ServerProcess {
    let process = try ServerProcess(path, arguments, environment: environment, output: output)
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let status = process.exitStatus {
        throw FixtureError("\(name) exited (wait status \(status)) before it answered: \(log())")
      }
      if isReady() { return process }
      usleep(20_000)
    }
    process.end()
    throw FixtureError("\(name) did not answer within \(Int(seconds)) s: \(log())")
  }

  /// Runs `path` as ``init(_:_:environment:output:)`` starts it, to its end (within
  /// `seconds`, else it is ended); an error names it (`name`) with what it logged (`log`)
  /// unless it exits with status 0.
  package static func run(
    _ path: String, _ arguments: [String], environment: [String], output: String, name: String,
    within seconds: Double, log: @autoclosure () -> String
  ) throws {
    let process = try ServerProcess(path, arguments, environment: environment, output: output)
    let deadline = Date().addingTimeInterval(seconds)
    while process.exitStatus == nil && Date() < deadline { usleep(20_000) }
    guard let status = process.exitStatus else {
      process.end()
      throw FixtureError("\(name) did not end within \(Int(seconds)) s: \(log())")
    }
    guard status == 0 else { throw FixtureError("\(name) failed (wait status \(status)): \(log())") }
  }

  /// Its wait status once it has ended (reaped now if it just did), else nil.
  package var exitStatus: Int32? {
    if status == nil {
      var raw: Int32 = 0
      if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
    }
    return status
  }

  /// Ends it and what it started: SIGTERM to its process group; once it has ended (or after
  /// 20 s, with SIGKILL to the group), SIGKILL to the rest of the group, and it is reaped.
  /// Until then its zombie keeps the group's id, which no other process can get: every
  /// signal reaches only its group.
  package func end() {
    guard status == nil else { return }
    kill(-pid, SIGTERM)
    if !ended(within: 20) {
      kill(-pid, SIGKILL)
      _ = ended(within: 10)
    }
    kill(-pid, SIGKILL)
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
    status = raw
  }

  /// Whether it ended within `seconds`, left a zombie (not reaped).
  private func ended(within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      var info = siginfo_t()
      if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid {
        return true
      }
      usleep(20_000)
    }
    return false
  }
}
