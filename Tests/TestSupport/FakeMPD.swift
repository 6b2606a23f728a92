import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP server on 127.0.0.1 that plays a misbehaving MPD, one connection after another:
/// each accepted connection gets the next of `behaviours` (the last one repeats). It counts
/// the connections and keeps every command line it was sent.
///
/// ```swift
/// let fake = try FakeMPD([.scripted { command in
///   command.hasPrefix("readpicture") ? .send("size: 10\nbinary: 9223372036854775807\n") : FakeMPD.album(command)
/// }])
/// ```
package final class FakeMPD: Sendable {
  /// How one connection is served.
  package enum Behaviour: Sendable {
    /// Accepts and never says a word.
    case silent
    /// Greets, reads one command, and hangs up without an answer: a server gone mid-command.
    case hangUpOnFirstCommand
    /// Greets and answers `OK` to every command.
    case answersOK
    /// Sends `greeting` as it is, then answers each command line (without its newline) with
    /// what `answer` returns, on the connection's own thread (which it may hold: a slow server).
    case scripted(greeting: String = "OK MPD 0.23.5\n", _ answer: @Sendable (String) -> Answer)
  }

  /// What a scripted server does with one command.
  package enum Answer: Sendable {
    /// Sends these bytes (nothing, for `idle`: it waits for `noidle`), then reads the next command.
    case bytes([UInt8])
    /// Sends `first`, then `repeating` again and again until the client goes or `limit`
    /// bytes were sent (then hangs up: a test of the code before a fix ends).
    case endless(first: [UInt8], repeating: [UInt8], limit: Int = 1 << 30)
    /// Sends `first`, then the bytes of `slowly` one at a time, `pause` seconds apart, then
    /// reads the next command.
    case trickle(first: [UInt8], slowly: [UInt8], pause: Double)
    /// Hangs up.
    case hangUp

    /// Sends `text`, then reads the next command.
    package static func send(_ text: String) -> Answer { .bytes(Array(text.utf8)) }
  }

  /// The TCP port it listens on.
  package let port: Int
  private let listener: Int32
  private let behaviours: [Behaviour]
  private let state = Mutex(State())

  private struct State {
    var accepted: [Int32] = []
    var commands: [String] = []
    var trickles: [(sent: Int, of: Int)] = []
    var stopped = false
  }

  /// `127.0.0.1:PORT`, as `--mpd` takes it.
  package var address: String { "127.0.0.1:\(port)" }

  /// How many connections it accepted so far.
  package var connections: Int { state.withLock { $0.accepted.count } }

  /// Every command line it was sent so far, in order.
  package var commands: [String] { state.withLock { $0.commands } }

  /// Each ``Answer/trickle(first:slowly:pause:)`` that ended, in order: how many of its slow
  /// bytes it sent before it ended, and how many it had (fewer: the client hung up).
  package var trickles: [(sent: Int, of: Int)] { state.withLock { $0.trickles } }

  /// Listens on a free port and serves each connection on a thread of its own.
  package init(_ behaviours: [Behaviour]) throws {
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
    guard ok, listen(listener, 64) == 0 else { throw FixtureError("fake MPD: errno \(errno)") }
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread { [self] in serve() }.start()
  }

  deinit { stop() }

  /// Stops listening and hangs up on every client.
  package func stop() {
    state.withLock { state in
      guard !state.stopped else { return }
      state.stopped = true
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
      // Shut down, not closed: a thread may still be sending on it.
      for connection in state.accepted { shutdown(connection, Int32(SHUT_RDWR)) }
    }
  }

  private func serve() {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      let index = state.withLock { state -> Int? in
        guard !state.stopped else { return nil }
        state.accepted.append(connection)
        return state.accepted.count - 1
      }
      guard let index else {
        close(connection)
        return
      }
      let behaviour = behaviours[min(index, behaviours.count - 1)]
      Thread { [self] in
        talk(connection, behaviour)
        // A silent server keeps the connection open (until ``stop()``); the others hang up.
        if case .silent = behaviour { return }
        shutdown(connection, Int32(SHUT_RDWR))
      }.start()
    }
  }

  private func talk(_ connection: Int32, _ behaviour: Behaviour) {
    func say(_ bytes: [UInt8]) -> Bool {
      var offset = 0
      while offset < bytes.count {
        let sent = bytes.withUnsafeBytes {
          send(connection, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        }
        guard sent > 0 else { return false }
        offset += sent
      }
      return true
    }
    func readLine() -> String? {
      var line: [UInt8] = []
      var byte: UInt8 = 0
      while recv(connection, &byte, 1, 0) == 1 {
        if byte == 10 { return String(decoding: line, as: UTF8.self) }
        line.append(byte)
      }
      return nil
    }
    switch behaviour {
    case .silent:
      return
    case .hangUpOnFirstCommand:
      _ = say(Array("OK MPD 0.23.5\n".utf8))
      _ = readLine()
    case .answersOK:
      _ = say(Array("OK MPD 0.23.5\n".utf8))
      while readLine() != nil { _ = say(Array("OK\n".utf8)) }
    case .scripted(let greeting, let answer):
      guard say(Array(greeting.utf8)) else { return }
      var list: [String]?
      while let command = readLine() {
        state.withLock { $0.commands.append(command) }
        // A command list is answered once, at its end (each command's answer is left out).
        if command == "command_list_begin" || command == "command_list_ok_begin" {
          list = []
          continue
        }
        if var commands = list {
          guard command == "command_list_end" else {
            commands.append(command)
            list = commands
            continue
          }
          list = nil
          // As MPD answers a list: each command's lines, then one `OK`; the first refusal
          // (`ACK`) ends it instead.
          var answered: [UInt8] = []
          var refused = false
          for command in commands {
            guard case .bytes(let bytes) = answer(command) else { continue }
            if bytes.starts(with: Array("ACK".utf8)) {
              answered = bytes
              refused = true
              break
            }
            let ends = bytes.count >= 3 && Array(bytes.suffix(3)) == Array("OK\n".utf8)
            answered += ends ? bytes.dropLast(3) : bytes[...]
          }
          guard say(refused ? answered : answered + Array("OK\n".utf8)) else { return }
          continue
        }
        switch answer(command) {
        case .bytes(let bytes):
          guard say(bytes) else { return }
        case .endless(let first, let repeating, let limit):
          guard say(first) else { return }
          var sent = first.count
          while sent < limit, say(repeating) { sent += repeating.count }
          return
        case .trickle(let first, let slowly, let pause):
          guard say(first) else { return }
          var sent = 0
          while sent < slowly.count {
            usleep(useconds_t(pause * 1_000_000))
            guard say([slowly[sent]]) else { break }
            sent += 1
          }
          state.withLock { $0.trickles.append((sent, slowly.count)) }
          if sent < slowly.count { return }
        case .hangUp:
          return
        }
      }
    }
  }
}

// MARK: - A small database

extension FakeMPD {
  /// The `file:` lines of `count` songs of one album (`A/Album/01.flac` …), each with
  /// `duration` as its length.
  package static func songs(_ count: Int, duration: String = "180") -> String {
    (1...max(count, 1)).prefix(count).map { number in
      let name = number < 10 ? "0\(number)" : String(number)
      return "file: A/Album/\(name).flac\nLast-Modified: 2020-01-01T00:00:00Z\nTime: 180\nduration: \(duration)\n"
        + "Artist: R\nAlbum: Album\nTitle: Song \(number)\nTrack: \(number)\n"
    }.joined()
  }

  /// What an honest MPD with one album of `count` songs (``songs(_:duration:)``) answers to
  /// `command`: its stats, the songs for `find … window`, a status that plays nothing, no
  /// pictures, `idle` waiting; `OK` to anything else.
  package static func album(_ command: String, count: Int = 2, duration: String = "180") -> Answer {
    let verb = command.prefix { $0 != " " }
    switch verb {
    case "stats": return .send("songs: \(count)\ndb_update: 1\nOK\n")
    case "find":
      // Only the first window holds songs.
      let first = command.contains("\"window\" \"0:") || !command.contains("window")
      return .send((first ? songs(count, duration: duration) : "") + "OK\n")
    case "status": return .send("state: stop\nplaylist: 1\nplaylistlength: 0\nvolume: 50\nOK\n")
    case "readpicture", "albumart": return .send("ACK [50@0] {\(verb)} No file exists\n")
    case "sticker": return .send("ACK [50@0] {sticker} no such sticker\n")
    case "idle": return .bytes([])
    case "close": return .hangUp
    default: return .send("OK\n")
    }
  }
}
