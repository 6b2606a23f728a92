import Foundation
import Testing

@testable import bluelib_bench

#if canImport(Glibc)
  import Glibc
#endif

/// The parts of the server scenarios (issue 47 item 6, issue 48 item 7): MPD's database file
/// as the bench writes it, read by a real MPD; the proxy that counts a Subsonic client's
/// requests.
struct ServerBenchTests {
  static let mpdInstalled = ["/usr/bin/mpd", "/usr/sbin/mpd"].contains { FileManager.default.fileExists(atPath: $0) }

  @Test func theIssuesLibraryHasItsSongsInItsAlbums() {
    let database = MPDDatabase.issue
    #expect((0..<database.albums).reduce(0) { $0 + database.songCount(ofAlbum: $1) } == 20_145)
    #expect(database.albums == 1_679)
    let text = database.text(tags: ["Artist", "Album", "Title"])
    #expect(text.components(separatedBy: "\nsong_begin: ").count - 1 == 20_145)
    #expect(text.hasPrefix("info_begin\nformat: 2\n"))
    // Tags the server does not list are left out of the songs (MPD would discard the file).
    #expect(!text.contains("\nGenre: ") && text.contains("\nArtist: "))
  }

  /// A real MPD reads the file the bench writes for its own tags: every song, in every album
  /// (MPD discards a database whose tag list is not its own, and would serve none).
  @Test(.enabled(if: mpdInstalled, "mpd is not installed"))
  func aRealMPDServesTheGeneratedDatabase() throws {
    let directory = NSTemporaryDirectory() + "bench-mpd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let mpd = FileManager.default.fileExists(atPath: "/usr/bin/mpd") ? "/usr/bin/mpd" : "/usr/sbin/mpd"
    let server = try BenchMPD(
      mpd: mpd, database: MPDDatabase(songs: 359, albums: 30), in: directory, environment: ["PATH=/usr/bin:/bin"])
    defer { server.stop() }
    try server.start()
    let albums = try #require(Loopback.mpdRequest(port: server.port, "list album"))
    #expect(albums.split(separator: "\n").filter { $0.hasPrefix("Album: ") }.count == 30)
    let found = try #require(Loopback.mpdRequest(port: server.port, "find \"(modified-since '0')\""))
    #expect(found.split(separator: "\n").filter { $0.hasPrefix("file: ") }.count == 359)
    #expect(found.contains("Artist: Artiste 0003 Ørsted Café"))
    #expect(found.contains("Disc: 2"))
  }

  /// The proxy passes requests and answers through and counts each request a client sends,
  /// on one connection kept alive or on several.
  @Test func theProxyCountsEveryRequestThatPasses() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    var address = Loopback.address(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
      }
    }
    try #require(bound && listen(listener, 4) == 0)
    // A server that answers each request line on its connection with one line, until closed.
    Thread {
      while true {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        Thread {
          defer { close(connection) }
          var buffer = [UInt8](repeating: 0, count: 4096)
          while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            let requests =
              String(decoding: buffer[..<count], as: UTF8.self).components(separatedBy: "\r\n\r\n").count - 1
            for _ in 0..<requests { _ = send(connection, "answer\n", 7, Int32(MSG_NOSIGNAL)) }
          }
        }.start()
      }
    }.start()
    let proxy = try CountingProxy(to: Int(UInt16(bigEndian: address.sin_port)))
    defer { proxy.stop() }
    func ask(_ paths: [String]) throws -> String {
      let descriptor = try #require(Loopback.connected(port: proxy.port))
      defer { close(descriptor) }
      var answers = ""
      for path in paths {
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _ = send(descriptor, request, request.utf8.count, Int32(MSG_NOSIGNAL))
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        answers += String(decoding: buffer[..<max(count, 0)], as: UTF8.self)
      }
      return answers
    }
    #expect(try ask(["/rest/getIndexes?u=a&p=b", "/rest/getStarred2?f=json"]) == "answer\nanswer\n")
    #expect(try ask(["/rest/ping"]) == "answer\n")
    #expect(proxy.requests == ["getIndexes", "getStarred2", "ping"])
    proxy.reset()
    #expect(proxy.requests.isEmpty)
  }

  @Test func theServerScenariosAreNamed() throws {
    #expect(Scenario(name: "mpd") == .mpd)
    #expect(Scenario(name: "supysonic") == .subsonic)
    #expect(try Scenario.list("mpd,subsonic") == [.mpd, .subsonic])
  }
}
