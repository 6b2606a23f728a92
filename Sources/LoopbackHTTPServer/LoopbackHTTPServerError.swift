import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a ``LoopbackHTTPServer`` could not start.
package enum LoopbackHTTPServerError: Error, CustomStringConvertible {
  /// A socket call failed with `errno`.
  case socket(String, Int32)

  /// `loopback server: bind/listen failed: address already in use`.
  package var description: String {
    switch self {
    case .socket(let call, let code): "loopback server: \(call) failed: \(SystemError.reason(code))"
    }
  }
}
