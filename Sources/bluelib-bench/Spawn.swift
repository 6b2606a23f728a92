import BlueLibrary
import BlueSystem
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a child process ended.
enum Termination: Equatable, Sendable {
  case exited(Int32)
  case signaled(Int32)
  case timedOut(seconds: Double)

  var succeeded: Bool { self == .exited(0) }
}

/// One finished child process: its wall-clock time and its own peak memory.
struct ChildRun: Sendable {
  /// Seconds from just before `posix_spawn` to `wait4` returning, on the monotonic clock.
  var seconds: Double
  var termination: Termination
  /// The child's peak resident set size (`ru_maxrss`, KiB on Linux).
  var maxRSSKiB: Int
  /// The child's CPU time, user and system (`ru_utime`, `ru_stime`), seconds.
  var userSeconds: Double = 0
  var systemSeconds: Double = 0
}

/// What a child reads on standard input.
enum ChildInput: Sendable {
  case null
  /// The bytes, written by us through a pipe while the child runs.
  case pipe([UInt8])
}

struct SpawnError: Error, CustomStringConvertible {
  var description: String
}

/// The monotonic clock, in seconds.
func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// What the forked child does, prepared before `fork`: raw pointers and file
/// descriptors only, so that the child runs no Swift code that could allocate or
/// take a lock (the parent has other threads) between `fork` and `execve`.
struct ExecPlan {
  var path: UnsafeMutablePointer<CChar>
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  var envp: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  /// Opened read-only as standard input, unless `stdinFD` is given.
  var stdinPath: UnsafeMutablePointer<CChar>
  var stdinFD: Int32
  var stdoutPath: UnsafeMutablePointer<CChar>
  var stderrPath: UnsafeMutablePointer<CChar>
  /// The write end of a close-on-exec pipe: the child writes its errno there if it cannot exec.
  var errorFD: Int32
  /// Whether the child leads a process group of its own (a server, ended with its children).
  var ownGroup = false
}

/// In the forked child: set up the standard descriptors and signals, and exec.
func execInChild(_ plan: ExecPlan) -> Never {
  var mask = sigset_t()
  sigemptyset(&mask)
  sigprocmask(SIG_SETMASK, &mask, nil)
  signal(SIGPIPE, SIG_DFL)
  if plan.ownGroup { setpgid(0, 0) }
  let input = plan.stdinFD >= 0 ? plan.stdinFD : open(plan.stdinPath, O_RDONLY)
  if input < 0 || dup2(input, 0) < 0 { childFailed(plan.errorFD) }
  let output = open(plan.stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  if output < 0 || dup2(output, 1) < 0 { childFailed(plan.errorFD) }
  let errors = open(plan.stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  if errors < 0 || dup2(errors, 2) < 0 { childFailed(plan.errorFD) }
  for fd in [input, output, errors] where fd > 2 { close(fd) }
  execve(plan.path, plan.argv, plan.envp)
  childFailed(plan.errorFD)
}

/// In the forked child: report errno to the parent and exit.
func childFailed(_ errorFD: Int32) -> Never {
  var code = errno
  _ = write(errorFD, &code, MemoryLayout<Int32>.size)
  _exit(127)
}

/// A C string copy the caller frees.
private func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
  guard let copy = strdup(text) else { preconditionFailure("out of memory") }
  return copy
}

/// A nil-terminated array of C strings the caller frees with `freeCStringArray`.
private func cStringArray(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
  let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
  for (index, string) in strings.enumerated() { array[index] = cString(string) }
  array[strings.count] = nil
  return array
}

private func freeCStringArray(_ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
  var index = 0
  while let string = array[index] {
    free(string)
    index += 1
  }
  array.deallocate()
}

/// Runs `executable` with `arguments` (fork, execve, then wait4 for its rusage),
/// standard output and error going to the given files, and times it.
///
/// Why fork and not posix_spawn: a child's `ru_maxrss` is never below the
/// resident size of the memory image it replaced at exec. glibc's posix_spawn
/// shares our memory with the child until exec (`CLONE_VM`), so every child
/// would report at least our own peak, shared libraries included (over 20 MiB
/// for a Swift process with Foundation). A forked child's image holds only our
/// private, written pages, a few MiB, which `rssFloorKiB` measures.
///
/// The child gets SIGPIPE back at its default and an empty signal mask (we
/// ignore SIGPIPE ourselves so that a child that stops reading cannot kill us).
/// After `timeout` seconds the child is killed and the run reports `.timedOut`.
func runChild(
  executable: String,
  arguments: [String],
  environment: [String],
  input: ChildInput,
  stdoutPath: String,
  stderrPath: String,
  timeout: Double
) throws(SpawnError) -> ChildRun {
  var inputPipe: [Int32] = [-1, -1]
  var errorPipe: [Int32] = [-1, -1]
  defer {
    for fd in inputPipe + errorPipe where fd >= 0 { close(fd) }
  }
  func makePipe(_ ends: inout [Int32]) throws(SpawnError) {
    guard pipe(&ends) == 0 else { throw SpawnError(description: "cannot create a pipe: \(SystemError.reason(errno))") }
    for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
  }
  if case .pipe = input { try makePipe(&inputPipe) }
  try makePipe(&errorPipe)

  let plan = ExecPlan(
    path: cString(executable), argv: cStringArray([executable] + arguments), envp: cStringArray(environment),
    stdinPath: cString("/dev/null"), stdinFD: inputPipe[0], stdoutPath: cString(stdoutPath),
    stderrPath: cString(stderrPath), errorFD: errorPipe[1])
  defer {
    for pointer in [plan.path, plan.stdinPath, plan.stdoutPath, plan.stderrPath] { free(pointer) }
    freeCStringArray(plan.argv)
    freeCStringArray(plan.envp)
  }

  let start = monotonicSeconds()
  let pid = try forkAndExec(plan, executable, errorPipe: &errorPipe)

  // The watchdog kills the child once the time is up, unless told it has ended.
  let finished = DispatchSemaphore(value: 0)
  let watchdogDone = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      kill(pid, SIGKILL)
    }
    watchdogDone.signal()
  }

  if case .pipe(let bytes) = input {
    close(inputPipe[0])
    inputPipe[0] = -1
    // EPIPE means the child stopped reading; its status tells why.
    _ = bytes.withUnsafeBytes { try? writeAll(inputPipe[1], $0) }
    close(inputPipe[1])
    inputPipe[1] = -1
  }

  var status: Int32 = 0
  var usage = rusage()
  do {
    try syscall("wait4") { wait4(pid, &status, 0, &usage) }
  } catch {
    finished.signal()
    watchdogDone.wait()
    throw SpawnError(description: "wait4 failed: \(error.reason)")
  }
  let seconds = monotonicSeconds() - start
  finished.signal()
  watchdogDone.wait()

  let signal = status & 0x7f
  var termination: Termination =
    signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  if termination == .signaled(SIGKILL) && seconds >= timeout {
    termination = .timedOut(seconds: timeout)
  }
  func inSeconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return ChildRun(
    seconds: seconds, termination: termination, maxRSSKiB: Int(usage.ru_maxrss),
    userSeconds: inSeconds(usage.ru_utime), systemSeconds: inSeconds(usage.ru_stime))
}

/// Forks a child that runs `plan` (``execInChild(_:)``) and waits until it has run
/// `executable`: the read end of `errorPipe` sees the pipe close at the exec, or brings the
/// child's errno (then the child is reaped and the error says why).
private func forkAndExec(_ plan: ExecPlan, _ executable: String, errorPipe: inout [Int32]) throws(SpawnError) -> pid_t {
  let pid = fork()
  if pid == 0 { execInChild(plan) }
  guard pid > 0 else { throw SpawnError(description: "cannot fork: \(SystemError.reason(errno))") }
  close(errorPipe[1])
  errorPipe[1] = -1
  var childErrno: Int32 = 0
  let got = try? syscall("read") { read(errorPipe[0], &childErrno, MemoryLayout<Int32>.size) }
  if got == MemoryLayout<Int32>.size {
    var status: Int32 = 0
    _ = try? syscall("waitpid") { waitpid(pid, &status, 0) }
    throw SpawnError(description: "cannot run \(executable): \(SystemError.reason(childErrno))")
  }
  return pid
}

/// The first executable file named `name` in the directories of `PATH`.
func findInPath(_ name: String, environment: [String: String]) -> String? {
  for directory in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
    let candidate = "\(directory)/\(name)"
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}

/// A child left running while the bench works (a music server): started as ``runChild``
/// starts one, standard input from /dev/null, its output and errors into `logPath`, in a
/// process group of its own; ``end()`` stops the group (SIGTERM, then SIGKILL after 10 s).
final class BackgroundChild {
  let pid: pid_t
  private var ended = false

  init(executable: String, arguments: [String], environment: [String], logPath: String) throws(SpawnError) {
    var errorPipe: [Int32] = [-1, -1]
    guard pipe(&errorPipe) == 0 else {
      throw SpawnError(description: "cannot create a pipe: \(SystemError.reason(errno))")
    }
    defer { for fd in errorPipe where fd >= 0 { close(fd) } }
    for fd in errorPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let plan = ExecPlan(
      path: cString(executable), argv: cStringArray([executable] + arguments), envp: cStringArray(environment),
      stdinPath: cString("/dev/null"), stdinFD: -1, stdoutPath: cString(logPath), stderrPath: cString(logPath),
      errorFD: errorPipe[1], ownGroup: true)
    defer {
      for pointer in [plan.path, plan.stdinPath, plan.stdoutPath, plan.stderrPath] { free(pointer) }
      freeCStringArray(plan.argv)
      freeCStringArray(plan.envp)
    }
    pid = try forkAndExec(plan, executable, errorPipe: &errorPipe)
  }

  deinit { end() }

  /// Whether it has exited (it is reaped then).
  var hasExited: Bool {
    guard !ended else { return true }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid {
      ended = true
      return true
    }
    return false
  }

  /// Stops its process group and waits for it.
  func end() {
    guard !hasExited else { return }
    kill(-pid, SIGTERM)
    let deadline = monotonicSeconds() + 10
    while monotonicSeconds() < deadline {
      if hasExited { return }
      usleep(20_000)
    }
    kill(-pid, SIGKILL)
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
    ended = true
  }
}
