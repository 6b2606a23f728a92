import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call in test set-up, naming the call.
package struct SystemCallError: Error, CustomStringConvertible {
  /// The `errno` the call left.
  package var errno: Int32
  /// The call's name (`mkdtemp`).
  package var call: String

  /// `mkdtemp failed: no such file or directory`.
  package var description: String { "\(call) failed: \(SystemError.reason(errno))" }

  /// The error `call` failed with.
  package init(errno: Int32, call: String) {
    self.errno = errno
    self.call = call
  }
}
