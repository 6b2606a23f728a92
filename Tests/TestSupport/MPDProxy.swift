import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP proxy on 127.0.0.1 in front of an MPD (or a Mopidy): it passes every connection
/// through, line by line, keeping each line a client sent (``lines``), until told to
/// ``holdStickerSets``: then the first command list or `sticker set` a
/// client sends is kept back, and that client waits for an answer that never comes (as
/// under a server that went silent), so a test can stop the client at that very point.
package final class MPDProxy: @unchecked Sendable {
  package let port: Int
  /// `127.0.0.1:PORT`, as `--mpd` takes it.
  package var address: String { "127.0.0.1:\(port)" }
  private let upstream: Int
  private let listener: Int32
  private let lock = NSLock()
  private var sockets: [Int32] = []
  private var holding = false
  private var heldCount = 0
  private var sent: [String] = []
  private var stopped = false

  /// A proxy to the MPD listening on 127.0.0.1:`upstream`.
  package init(to upstream: Int) throws {
    self.upstream = upstream
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
    var on: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = Self.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
      }
    }
    guard ok, listen(listener, 16) == 0 else { throw FixtureError("MPD proxy: errno \(errno)") }
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread { [self] in serve() }.start()
  }

  deinit { stop() }

  /// Whether a command list or `sticker set` is kept back from now on.
  package var holdStickerSets: Bool {
    get { lock.withLock { holding } }
    set { lock.withLock { holding = newValue } }
  }

  /// How many clients wait on a command kept back.
  package var held: Int { lock.withLock { heldCount } }

  /// Every line the clients sent so far (without its newline), in the order they came.
  package var lines: [String] { lock.withLock { sent } }

  /// The requests among ``lines``: each command, and each command list as one.
  package var requests: Int {
    var inList = false
    var count = 0
    for line in lines {
      if line.hasPrefix("command_list_begin") || line.hasPrefix("command_list_ok_begin") {
        inList = true
        count += 1
      } else if line == "command_list_end" {
        inList = false
      } else if !inList {
        count += 1
      }
    }
    return count
  }

  /// Every command line the clients sent so far (without its newline), in order (``lines``).
  package var commands: [String] { lines }

  /// Closes the listener and every connection.
  package func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    stopped = true
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  private func serve() {
    while true {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = Self.loopback(port: upstream)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      lock.withLock { sockets += [client, server] }
      guard connected else {
        shutdown(client, Int32(SHUT_RDWR))
        continue
      }
      Thread { Self.copy(from: server, to: client) }.start()
      Thread { [self] in forwardLines(from: client, to: server) }.start()
    }
  }

  private static func copy(from source: Int32, to destination: Int32) {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(source, &buffer, buffer.count, 0)
      guard count > 0, send(destination, buffer, count, Int32(MSG_NOSIGNAL)) == count else { break }
    }
    shutdown(destination, Int32(SHUT_RDWR))
  }

  private func forwardLines(from client: Int32, to server: Int32) {
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      while let newline = pending.firstIndex(of: 10) {
        let line = Array(pending[...newline])
        pending.removeSubrange(...newline)
        let text = String(decoding: line, as: UTF8.self)
        lock.withLock { sent.append(String(text.dropLast())) }
        let isSet = text.hasPrefix("command_list") || (text.hasPrefix("sticker") && text.contains("set"))
        if isSet, holdStickerSets {
          lock.withLock { heldCount += 1 }
          return
        }
        guard send(server, line, line.count, Int32(MSG_NOSIGNAL)) == line.count else { return }
      }
      let count = recv(client, &buffer, buffer.count, 0)
      guard count > 0 else {
        shutdown(server, Int32(SHUT_RDWR))
        return
      }
      pending += buffer[..<count]
    }
  }
}
