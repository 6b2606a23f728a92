import BlueSystem
import Dispatch
import Foundation
import MusicFolder
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real supysonic (Debian's `supysonic`, served by `python3-waitress`) over a generated
/// folder of `albums` albums, one silent MP3 each (a copy of the fixture, tagged through
/// TagLib with its own album, artist, year and genre), on 127.0.0.1 (issue 48, item 7).
/// Its configuration (`HOME/.supysonic`), database and music are in `directory`, made once
/// and kept there, keyed by the number of albums (a marker file says what was made):
/// scanning 10,000 files takes supysonic most of a minute, so a kept work directory
/// (`--keep DIR`) serves the next run at once.
final class BenchSupysonic {
  let directory: String
  let albums: Int
  let port: Int
  let user = "admin"
  let password = "secret"
  private let environment: [String]
  private var child: BackgroundChild?

  static let server = "/usr/bin/supysonic-server"
  static let cli = "/usr/bin/supysonic-cli"
  static let waitress = "/usr/lib/python3/dist-packages/waitress/__init__.py"

  /// Why the scenario cannot run here, or nil.
  static var missing: String? {
    [server, cli, waitress].allSatisfy { FileManager.default.fileExists(atPath: $0) }
      ? nil : "supysonic is not installed (Debian: apt install supysonic python3-waitress)"
  }

  init(albums: Int, in directory: String, environment: [String: String]) throws(SetupError) {
    self.albums = albums
    self.directory = directory
    port = try Loopback.freePort()
    self.environment = [
      "PATH=" + (environment["PATH"] ?? "/usr/bin:/bin"), "HOME=" + directory + "/home", "LANG=C.UTF-8",
    ]
  }

  deinit { stop() }

  private var marker: String { directory + "/.bluelib-bench-supysonic" }
  private var signature: String { "\(albums) albums of one MP3, version 1\n" }

  /// The music, the user and the scanned database, unless made before.
  func makeUnlessMade() throws(SetupError) {
    if DataSet.contents(ofFileAt: marker) == signature { return }
    DataSet.remove(directory)
    for folder in ["home", "cache", "music"] { try DataSet.makeDirectory(directory + "/" + folder) }
    let configuration = """
      [base]
      database_uri = sqlite:///\(directory)/supysonic.db

      [webapp]
      cache_dir = \(directory)/cache
      log_level = WARNING

      [daemon]
      socket = \(directory)/supysonic.sock
      run_watcher = no

      """
    try write(configuration, to: directory + "/home/.supysonic")
    let mp3: Data
    do {
      mp3 = try Data(contentsOf: URL(fileURLWithPath: MusicFolderMaker.fixtures + "/silence.mp3"))
    } catch {
      throw SetupError(
        "cannot read the fixture \(MusicFolderMaker.fixtures)/silence.mp3: \(error.localizedDescription)")
    }
    let failures = Mutex<[String]>([])
    let albums = albums
    let music = directory + "/music"
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      for album in stride(from: half, to: albums, by: 2) {
        do {
          try Self.makeAlbum(album, in: music, mp3: mp3)
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    if let failure = failures.withLock({ $0.first }) { throw SetupError("cannot make the music: \(failure)") }
    try runCLI(["user", "add", user, "-p", password])
    try runCLI(["folder", "add", "music", music])
    try runCLI(["folder", "scan", "-f", "music"], timeout: 1800)
    try write(signature, to: marker)
  }

  /// Album `number`'s one song: `Artist 0012/Album 00061/01 Song.mp3`, five albums an artist.
  static func makeAlbum(_ number: Int, in music: String, mp3: Data) throws {
    let artist = String(format: "Artist %04d", number / 5)
    let title = String(format: "Album %05d", number)
    let folder = "\(music)/\(artist)/\(title)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/01 Song.mp3"
    try mp3.write(to: URL(fileURLWithPath: path))
    try TagEdit(
      album: title, artist: artist, albumArtist: artist, title: "Song of \(title)", trackNumber: "1",
      date: "\(1960 + number % 60)", genre: ["Rock", "Jazz", "Pop", "Folk"][number % 4]
    ).write(to: path)
  }

  private func write(_ text: String, to path: String) throws(SetupError) {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    } catch {
      throw SetupError("cannot write \(path): \(error.localizedDescription)")
    }
  }

  /// Runs `supysonic-cli arguments…` to its end.
  private func runCLI(_ arguments: [String], timeout: Double = 120) throws(SetupError) {
    let log = directory + "/cli.log"
    let child: ChildRun
    do {
      child = try runChild(
        executable: Self.cli, arguments: arguments, environment: environment, input: .null, stdoutPath: log,
        stderrPath: log + ".err", timeout: timeout)
    } catch {
      throw SetupError("supysonic-cli: \(error)")
    }
    guard child.termination.succeeded else {
      throw SetupError(
        "supysonic-cli \(arguments.joined(separator: " ")) failed (\(child.termination)): "
          + (DataSet.firstLine(ofFileAt: log + ".err") ?? ""))
    }
  }

  /// Starts the server and waits (up to 60 s) until `ping` answers.
  func start() throws(SetupError) {
    do {
      child = try BackgroundChild(
        executable: Self.server, arguments: ["-S", "waitress", "-h", "127.0.0.1", "-p", String(port)],
        environment: environment, logPath: directory + "/server.log")
    } catch {
      throw SetupError("cannot start supysonic-server: \(error)")
    }
    let deadline = monotonicSeconds() + 60
    while monotonicSeconds() < deadline {
      if child?.hasExited == true {
        throw SetupError(
          "supysonic-server exited: \(DataSet.contents(ofFileAt: directory + "/server.log").suffix(300))")
      }
      if let answer = get(path: url(method: "ping", [])), answer.contains("\"ok\"") { return }
      usleep(50_000)
    }
    throw SetupError("supysonic did not answer on port \(port) within 60 s")
  }

  func stop() {
    child?.end()
    child = nil
  }

  /// The albums of one page of `getAlbumList2`, as bluelib asks for them.
  static let pageSize = 500

  /// The pages bluelib reads of `albums` albums: full pages, then one that is not.
  static func pages(of albums: Int) -> Int { albums / pageSize + 1 }

  /// The path and query of `method` with bluelib's parameters, after `parameters`: its
  /// protocol version and client name, the user and the password (`enc:` hex: supysonic
  /// takes no token), JSON.
  func url(method: String, _ parameters: [(String, String)]) -> String {
    let hex = password.utf8.map { String(format: "%02x", $0) }.joined()
    let all = parameters + [("u", user), ("p", "enc:" + hex), ("v", "1.16.1"), ("c", "bluelib"), ("f", "json")]
    return "/rest/\(method)?" + all.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
  }

  /// The pages of `getAlbumList2` bluelib asks for, as full URLs.
  var pageURLs: [String] {
    (0..<Self.pages(of: albums)).map { page in
      "http://127.0.0.1:\(port)"
        + url(
          method: "getAlbumList2",
          [("type", "alphabeticalByName"), ("size", String(Self.pageSize)), ("offset", String(page * Self.pageSize))])
    }
  }

  /// The body of an HTTP/1.0 GET of `path`; nil when the server does not answer.
  func get(path: String) -> String? {
    guard let descriptor = Loopback.connected(port: port) else { return nil }
    defer { close(descriptor) }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    guard (try? request.withUnsafeBytes({ try writeAll(descriptor, $0) })) != nil else { return nil }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count <= 0 { break }
      answer += buffer[..<count]
    }
    let text = String(decoding: answer, as: UTF8.self)
    return text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) }
  }
}

/// What an unchanged start asked of a Subsonic server: the requests a proxy counted.
struct UnchangedStart {
  var albums: Int
  var requests: [String] = []
  var failure: String?

  /// Issue 48, item 7: an unchanged start in at most four requests.
  static let mostRequests = 4
}

extension Bench {
  /// The first sync of a supysonic of each size (`bluelib --home FRESH --subsonic
  /// http://admin@127.0.0.1:PORT -c quit`) against curl paging the same `getAlbumList2` with
  /// the same parameters, in turn; then a start with the server unchanged, its requests
  /// counted by a proxy in front of the server.
  func runSubsonic() {
    for albums in options.subsonicSizes {
      let title = "first sync of a supysonic of \(grouped(albums)) albums"
      let ours = "bluelib --home FRESH --subsonic http://admin@127.0.0.1:PORT -c quit"
      let pages = BenchSupysonic.pages(of: albums)
      let theirs = "curl -s \(plural(pages, "URL")) (getAlbumList2 … size=500&offset=N, the same parameters)"
      var row = ReferenceRow(
        title: title, bluelibCommand: ours, referenceCommand: theirs, bluelib: Measurement(), reference: Measurement(),
        goal: UnchangedStart.subsonicGoal)
      var unchanged = UnchangedStart(albums: albums)
      defer {
        results.references.append(row)
        if row.skipped == nil { results.unchangedStarts.append(unchanged) }
      }
      if let missing = BenchSupysonic.missing {
        row.skipped = missing
        return
      }
      let environment = ProcessInfo.processInfo.environment
      guard let curl = findInPath("curl", environment: environment) else {
        row.skipped = "curl is not installed (Debian: apt install curl)"
        return
      }
      let server: BenchSupysonic
      do {
        server = try BenchSupysonic(albums: albums, in: "\(work)/subsonic-\(albums)", environment: environment)
        let start = monotonicSeconds()
        log("making and scanning \(grouped(albums)) albums for supysonic in \(server.directory) (kept with --keep)…")
        try server.makeUnlessMade()
        log("  done in \(formatSeconds(monotonicSeconds() - start))")
        try server.start()
      } catch {
        row.bluelib.failure = "setup: \(error)"
        unchanged.failure = row.bluelib.failure
        return
      }
      defer { server.stop() }
      let password = ["BLUELIB_SUBSONIC_PASSWORD=" + server.password]
      let address = { (port: Int) in "http://\(server.user)@127.0.0.1:\(port)" }
      let sync = { (run: Int) throws(RunFailure) -> ChildRun in
        let directory = "\(self.work)/runs/subsonic-\(albums)-\(run)"
        defer { DataSet.remove(directory) }
        try DataSet.freshRun(directory, making: directory + "/home")
        let child = try self.invoke(
          self.bluelib, ["--home", directory + "/home", "--subsonic", address(server.port), "-c", "quit"],
          input: .null, in: directory, keepOutput: true, adding: password)
        try Self.expectServerAlbums(albums, in: directory + "/home")
        return child
      }
      let urls = server.pageURLs
      let fetch = { (run: Int) throws(RunFailure) -> ChildRun in
        let directory = "\(self.work)/runs/curl-\(albums)-\(run)"
        defer { DataSet.remove(directory) }
        let child = try self.invoke(curl, ["-sSf"] + urls, input: .null, in: directory, keepOutput: true)
        let answer = DataSet.contents(ofFileAt: directory + "/stdout", limit: 256 << 20)
        let lists = answer.components(separatedBy: "\"albumList2\"").count - 1
        guard lists == urls.count else {
          throw RunFailure(message: "curl got \(lists) lists of albums, expected \(urls.count)")
        }
        return child
      }
      _ = try? sync(0)
      _ = try? fetch(0)
      (row.bluelib, row.reference) = measureInTurn(
        ("subsonic \(grouped(albums)) bluelib", "subsonic \(grouped(albums)) curl"), runs: options.runsPerScenario,
        sync,
        fetch)

      // A start with nothing changed on the server, through a proxy that counts the requests.
      do {
        let proxy = try CountingProxy(to: server.port)
        defer { proxy.stop() }
        let directory = "\(work)/runs/subsonic-\(albums)-unchanged"
        defer { DataSet.remove(directory) }
        try DataSet.freshRun(directory, making: directory + "/home")
        for pass in ["first", "again"] {
          proxy.reset()
          _ = try invoke(
            bluelib, ["--home", directory + "/home", "--subsonic", address(proxy.port), "-c", "quit"], input: .null,
            in: directory + "/" + pass, keepOutput: true, adding: password)
        }
        unchanged.requests = proxy.requests
        log("subsonic \(grouped(albums)): an unchanged start asked \(unchanged.requests.joined(separator: ", "))")
      } catch let error as SetupError {
        unchanged.failure = "setup: \(error)"
      } catch let error as RunFailure {
        unchanged.failure = error.message
      } catch {
        unchanged.failure = "\(error)"
      }
    }
  }
}

extension UnchangedStart {
  /// The most a first sync may take against curl paging the same list (issue 48, item 7).
  static let subsonicGoal = 1.5
}

extension Report {
  func unchangedStartChecks() -> [Check] {
    results.unchangedStarts.map { start in
      let text =
        "a start with a supysonic of \(grouped(start.albums)) albums unchanged asks ≤ \(UnchangedStart.mostRequests) requests"
      if let failure = start.failure { return Check(status: .fail, text: "\(text): \(failure)") }
      return Check(
        status: start.requests.count <= UnchangedStart.mostRequests ? .pass : .fail,
        text: "\(text): \(start.requests.count) (\(start.requests.joined(separator: ", ")))")
    }
  }
}
