import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP server on 127.0.0.1 that plays a misbehaving MPD, one connection after another:
/// each accepted connection gets the next of `behaviours` (the last one repeats).
final class FakeMPD: @unchecked Sendable {
  enum Behaviour {
    /// Accepts and never says a word.
    case silent
    /// Greets, reads one command, and hangs up without an answer: a server gone mid-command.
    case hangUpOnFirstCommand
    /// Greets and answers `OK` to every command.
    case answersOK
  }

  let port: Int
  private let listener: Int32
  private let behaviours: [Behaviour]
  private let lock = NSLock()
  private var accepted: [Int32] = []
  private var stopped = false

  init(_ behaviours: [Behaviour]) throws {
    self.behaviours = behaviours
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
    var on: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
      }
    }
    guard ok, listen(listener, 8) == 0 else { throw FixtureError("fake MPD: errno \(errno)") }
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread { [self] in serve() }.start()
  }

  deinit { stop() }

  func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    stopped = true
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    for connection in accepted { close(connection) }
  }

  private func serve() {
    var index = 0
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      lock.lock()
      accepted.append(connection)
      lock.unlock()
      let behaviour = behaviours[min(index, behaviours.count - 1)]
      index += 1
      Thread { Self.talk(connection, behaviour) }.start()
    }
  }

  private static func talk(_ connection: Int32, _ behaviour: Behaviour) {
    func say(_ text: String) { _ = text.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
    func readLine() -> Bool {
      var byte: UInt8 = 0
      while recv(connection, &byte, 1, 0) == 1 { if byte == 10 { return true } }
      return false
    }
    switch behaviour {
    case .silent:
      return
    case .hangUpOnFirstCommand:
      say("OK MPD 0.23.5\n")
      _ = readLine()
      shutdown(connection, Int32(SHUT_RDWR))
    case .answersOK:
      say("OK MPD 0.23.5\n")
      while readLine() { say("OK\n") }
    }
  }
}
