import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread of the system's running `body` to its end, nobody joining it: what Foundation's
/// `Thread { … }.start()` and `Thread.detachNewThread` made, without Foundation (issue 47).
package enum DetachedThread {
  /// Starts `body` on a new thread named `name` (as `/proc/PID/task/TID/comm` shows it, at
  /// most 15 bytes); a thread that cannot be made is a crash, as Foundation's was.
  package static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { context in
        let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
        if let name = work.name { ThreadName.set(name) }
        work.body()
        return nil
      }, box)
    guard status == 0 else {
      Unmanaged<Work>.fromOpaque(box).release()
      fatalError("cannot start a thread: \(SystemError.reason(status))")
    }
    pthread_detach(thread)
  }

  private final class Work {
    let name: String?
    let body: @Sendable () -> Void

    init(name: String?, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }
}

extension DetachedThread {
  /// Starts `body` on a thread named `name` when `claim`, run under `lock`, marks it started
  /// (returns true): a poller or a listener that runs at most once at a time. The look and
  /// the mark are one step under the lock, so two callers at once start one thread.
  package static func start<State: ~Copyable>(
    name: String, in lock: borrowing Mutex<State>, claiming claim: (inout State) -> Bool,
    running body: @escaping @Sendable () -> Void
  ) {
    guard lock.withLock({ claim(&$0) }) else { return }
    start(name: name, body)
  }
}
