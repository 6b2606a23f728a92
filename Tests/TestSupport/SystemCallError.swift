import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call in test set-up, naming the call.
public struct SystemCallError: Error, CustomStringConvertible {
  /// The `errno` the call left.
  public var errno: Int32
  /// The call's name (`mkdtemp`).
  public var call: String

  /// `mkdtemp failed: no such file or directory`.
  public var description: String { "\(call) failed: \(SystemError.reason(errno))" }

  /// The error `call` failed with.
  public init(errno: Int32, call: String) {
    self.errno = errno
    self.call = call
  }
}
