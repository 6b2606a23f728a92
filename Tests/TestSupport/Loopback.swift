import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// TCP connections to a server a test started on 127.0.0.1, made without any client of
/// ours: what the fixtures use to ask their servers directly.
package enum Loopback {
  /// A connection to 127.0.0.1:`port` (the caller closes it), waiting at most `timeout`
  /// seconds for each read; nil when it is refused.
  package static func connect(port: Int, timeout: Int = 10) throws -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw FixtureError("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      return nil
    }
    var wait = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    return descriptor
  }

  /// Connects to 127.0.0.1:`port`, sends `text` whole (then ends its side of the connection
  /// when `endWriting`) and returns everything the server sent until it closed the
  /// connection (or was silent for 10 s).
  package static func exchange(port: Int, _ text: String, endWriting: Bool = false) throws -> [UInt8] {
    guard let descriptor = try connect(port: port) else { throw FixtureError("connect to \(port): errno \(errno)") }
    defer { close(descriptor) }
    _ = text.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    if endWriting { shutdown(descriptor, Int32(SHUT_WR)) }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count <= 0 { break }
      answer += buffer[..<count]
    }
    return answer
  }
}
