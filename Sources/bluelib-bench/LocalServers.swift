import BlueSystem
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Talking to the servers the bench starts on 127.0.0.1: a free port, a connection, a
/// request of MPD's line protocol.
enum Loopback {
  /// A port no one listens on now (the kernel's choice for a socket bound to port 0).
  static func freePort() throws(SetupError) -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw SetupError("socket: \(SystemError.reason(errno))") }
    defer { close(descriptor) }
    var address = address(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
      }
    }
    guard bound else { throw SetupError("cannot find a free port: \(SystemError.reason(errno))") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func address(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  /// A connected socket to 127.0.0.1:`port` whose reads time out after `timeout` seconds;
  /// nil when nothing listens.
  static func connected(port: Int, timeout: Int = 10) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = address(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      return nil
    }
    var time = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    return descriptor
  }

  /// Sends `command` to the MPD at 127.0.0.1:`port` on a connection of its own and returns
  /// its answer, the `OK` or `ACK …` line included; nil when it does not answer.
  static func mpdRequest(port: Int, _ command: String) -> String? {
    guard let descriptor = connected(port: port) else { return nil }
    defer { close(descriptor) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    func readLine(after start: Int) -> Int? {
      while true {
        if let newline = received[start...].firstIndex(of: 10) { return newline + 1 }
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        received += buffer[..<count]
      }
    }
    guard let greeting = readLine(after: 0), received.starts(with: Array("OK MPD ".utf8)) else { return nil }
    let line = Array((command + "\n").utf8)
    guard (try? line.withUnsafeBytes({ try writeAll(descriptor, $0) })) != nil else { return nil }
    var start = greeting
    while let end = readLine(after: start) {
      let text = received[start..<end]
      if text.starts(with: Array("OK\n".utf8)) || text.starts(with: Array("ACK ".utf8)) {
        return String(decoding: received[greeting..<end], as: UTF8.self)
      }
      start = end
    }
    return nil
  }
}

/// A TCP proxy on 127.0.0.1 in front of a server, counting the HTTP requests that pass
/// (each request line a client sends: `GET /rest/getIndexes?…`), and keeping what each asked
/// for (`getIndexes`): the requests of a start, whatever the client does with its connections.
final class CountingProxy: Sendable {
  let port: Int
  private let upstream: Int
  private let listener: Int32
  private let asked = Mutex<[String]>([])
  private let sockets = Mutex<(open: [Int32], stopped: Bool)>(([], false))

  init(to upstream: Int) throws(SetupError) {
    self.upstream = upstream
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw SetupError("socket: \(SystemError.reason(errno))") }
    var on: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = Loopback.address(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
      }
    }
    guard bound, listen(listener, 16) == 0 else {
      close(listener)
      throw SetupError("the counting proxy cannot listen: \(SystemError.reason(errno))")
    }
    self.listener = listener
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread { [self] in accepting() }.start()
  }

  deinit { stop() }

  /// What the requests since the last ``reset()`` asked for, in order: the last part of
  /// each request's path (`getAlbumList2`).
  var requests: [String] { asked.withLock { $0 } }

  func reset() { asked.withLock { $0.removeAll() } }

  /// Closes the listener and every connection.
  func stop() {
    let open = sockets.withLock { state -> [Int32] in
      guard !state.stopped else { return [] }
      state.stopped = true
      return state.open
    }
    shutdown(listener, Int32(SHUT_RDWR))
    for socket in open { shutdown(socket, Int32(SHUT_RDWR)) }
  }

  private func accepting() {
    defer { close(listener) }
    while true {
      let client = accept(listener, nil, nil)
      guard client >= 0 else {
        if errno == EINTR { continue }
        return
      }
      guard let server = Loopback.connected(port: upstream, timeout: 0) else {
        close(client)
        continue
      }
      let stopped = sockets.withLock { state in
        state.open += [client, server]
        return state.stopped
      }
      if stopped {
        for socket in [client, server] { shutdown(socket, Int32(SHUT_RDWR)) }
      }
      Thread { [self] in relay(client, server) }.start()
    }
  }

  /// Passes bytes both ways until either side closes, reading the client's request lines.
  private func relay(_ client: Int32, _ server: Int32) {
    defer {
      sockets.withLock { state in state.open.removeAll { $0 == client || $0 == server } }
      close(client)
      close(server)
    }
    var line: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    var descriptors = [
      pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      guard poll(&descriptors, 2, -1) >= 0 else {
        if errno == EINTR { continue }
        return
      }
      for index in 0..<2 where descriptors[index].revents != 0 {
        let from = descriptors[index].fd
        let count = recv(from, &buffer, buffer.count, 0)
        guard count > 0 else { return }
        let to = from == client ? server : client
        guard (try? buffer[..<count].withUnsafeBytes({ try writeAll(to, $0) })) != nil else { return }
        guard from == client else { continue }
        for byte in buffer[..<count] {
          if byte == 10 {
            note(line)
            line.removeAll(keepingCapacity: true)
          } else if line.count < 4096 {
            line.append(byte)
          }
        }
      }
    }
  }

  /// Keeps the method of a request line (`GET /rest/ping?… HTTP/1.1`).
  private func note(_ line: [UInt8]) {
    let text = String(decoding: line, as: UTF8.self)
    let words = text.split(separator: " ")
    guard words.count == 3, words[2].hasPrefix("HTTP/"), ["GET", "POST", "HEAD"].contains(words[0]) else { return }
    let path = words[1].prefix { $0 != "?" }
    let method = path.split(separator: "/").last.map(String.init) ?? String(path)
    asked.withLock { $0.append(method) }
  }
}
