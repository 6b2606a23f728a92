import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fake MPD on 127.0.0.1 whose database is `count` songs made up on demand (`song(i)`:
/// the `NAME: VALUE` lines of the `i`th song, from its `file:` line on), answering what a
/// sync asks, as MPD would: `stats`, `tagtypes` (and `clear`, `enable`, `all`), `find …
/// window A:B` (the songs A to B-1 of the database's order), `sticker find` (none); `OK` to
/// anything else. Nothing is held but one answer at a time, so it serves a million songs.
package final class GeneratedMPD: @unchecked Sendable {
  package let port: Int
  /// `127.0.0.1:PORT`, as `--mpd` takes it.
  package var address: String { "127.0.0.1:\(port)" }
  private let listener: Int32
  private let count: Int
  private let song: @Sendable (Int) -> String
  private let lock = NSLock()
  private var connections: [Int32] = []
  private var stopped = false
  /// The requests read so far, in the order they came (one line each).
  private var requests: [String] = []
  /// How many connections the client closed (or this server dropped).
  private var closedConnections = 0
  /// Locks ``requests`` and ``closedConnections``; signalled when either changes.
  private let noticed = NSCondition()

  /// The `i`th song of a library of albums of four songs (`Artist 00001/Album 000012/03
  /// Song.flac`), ten albums an artist: the database the reliability notes sync.
  package static func fourSongAlbums(_ index: Int) -> String {
    let album = index / 4
    let artist = String(format: "Artist %05d", album / 10)
    return """
      file: \(artist)/Album \(String(format: "%06d", album))/\(String(format: "%02d", index % 4 + 1)) Song.flac
      Last-Modified: 2024-01-02T03:04:05Z
      Time: 200
      duration: 200.000
      Artist: \(artist)
      AlbumArtist: \(artist)
      Album: Album \(String(format: "%06d", album))
      Title: Song \(index)
      Track: \(index % 4 + 1)
      Date: 2001
      Genre: Rock

      """
  }

  package init(songs count: Int, song: @escaping @Sendable (Int) -> String = GeneratedMPD.fourSongAlbums) throws {
    self.count = count
    self.song = song
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
    guard ok, listen(listener, 16) == 0 else { throw FixtureError("generated MPD: errno \(errno)") }
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread { [self] in serve() }.start()
  }

  deinit { stop() }

  /// Closes the listener and every connection.
  package func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    stopped = true
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
  }

  /// Waits until `count` requests that start with `prefix` came (from any connection), or
  /// `seconds` passed; whether they came.
  package func waitForRequests(startingWith prefix: String, count: Int, seconds: Double) -> Bool {
    wait(seconds: seconds) { requests.count(where: { $0.hasPrefix(prefix) }) >= count }
  }

  /// Waits until `count` connections were closed, or `seconds` passed; whether they were.
  package func waitForClosedConnections(_ count: Int, seconds: Double) -> Bool {
    wait(seconds: seconds) { closedConnections >= count }
  }

  /// Waits until `done` (asked with ``noticed`` locked), or `seconds` passed; whether it is.
  private func wait(seconds: Double, until done: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    noticed.lock()
    defer { noticed.unlock() }
    while !done() {
      guard noticed.wait(until: deadline) else { return false }
    }
    return true
  }

  /// How many requests that start with `prefix` came so far.
  package func requestCount(startingWith prefix: String) -> Int {
    noticed.lock()
    defer { noticed.unlock() }
    return requests.count(where: { $0.hasPrefix(prefix) })
  }

  private func serve() {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      lock.lock()
      connections.append(connection)
      lock.unlock()
      Thread { [self] in talk(connection) }.start()
    }
  }

  private func talk(_ connection: Int32) {
    defer {
      close(connection)
      noticed.lock()
      closedConnections += 1
      noticed.broadcast()
      noticed.unlock()
    }
    func say(_ text: String) -> Bool {
      var bytes = Array(text.utf8)[...]
      while !bytes.isEmpty {
        let sent = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent > 0 else { return false }
        bytes = bytes.dropFirst(sent)
      }
      return true
    }
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    guard say("OK MPD 0.23.5\n") else { return }
    while true {
      guard let newline = pending.firstIndex(of: 10) else {
        let received = recv(connection, &buffer, buffer.count, 0)
        guard received > 0 else { return }
        pending += buffer[..<received]
        continue
      }
      let line = String(decoding: pending[..<newline], as: UTF8.self)
      pending.removeSubrange(...newline)
      noticed.lock()
      requests.append(line)
      noticed.broadcast()
      noticed.unlock()
      if line == "close" { return }
      guard say(answer(line) + "OK\n") else { return }
    }
  }

  private func answer(_ line: String) -> String {
    let words = line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    switch words.first {
    case "stats":
      return "songs: \(count)\ndb_update: 1700000000\n"
    case "tagtypes" where words.count == 1:
      return ["Artist", "AlbumArtist", "Album", "Title", "Track", "Date", "Genre", "Disc"].map { "tagtype: \($0)\n" }
        .joined()
    case "find":
      guard let window = words.firstIndex(of: "window"), window + 1 < words.count else { return "" }
      let bounds = words[window + 1].split(separator: ":").compactMap { Int($0) }
      guard bounds.count == 2 else { return "" }
      let range = min(bounds[0], count)..<min(bounds[1], count)
      return range.map(song).joined()
    default:
      return ""
    }
  }
}
