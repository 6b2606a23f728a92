#if canImport(Glibc)
  import Glibc
#endif

/// Names the calling thread as the system shows it (`/proc/PID/task/TID/comm`, `top -H`).
///
/// Foundation's `Thread.current.name` names the system's thread only once the thread that
/// started it has recorded it: on a busy machine the new thread can run well before that,
/// and stay unnamed. The kernel's own file for the calling thread has no such race.
package enum ThreadName {
  /// Sets the calling thread's name (at most 15 bytes are kept); false when the system
  /// would not.
  @discardableResult
  package static func set(_ name: String) -> Bool {
    #if os(Linux)
      let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      let bytes = Array(name.utf8.prefix(15))
      return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    #else
      return false
    #endif
  }
}
