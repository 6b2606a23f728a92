import Foundation
import MusicFolder

#if canImport(Glibc)
  import Glibc
#endif

/// A real MPD (Debian's `mpd`) for one test: on 127.0.0.1 at a free port, a null audio
/// output, its music folder, database, state and sticker files in a temporary directory of
/// its own; run as a ``ServerProcess``, stopped when the fixture goes, or by ``stop()``.
///
/// ```swift
/// let mpd = try MPDFixture { music in
///   try music.track("Queen/Innuendo/01.flac", TagEdit(album: "Innuendo", artist: "Queen"))
/// }
/// try mpd.start()
/// ```
package final class MPDFixture {
  private let directory: TemporaryDirectory
  /// The music folder MPD serves (made by the `prepare` closure).
  package let music: MusicFolderFixture
  /// The TCP port it listens on.
  package let port: Int
  /// The password it asks for, if any (`password "SECRET@read,add,control,admin"`, and no
  /// permission without it).
  package let password: String?
  private var process: ServerProcess?

  /// `127.0.0.1:PORT`, as `--mpd` takes it.
  package var address: String { "127.0.0.1:\(port)" }

  /// Makes the directory, a music folder filled by `prepare`, and the configuration; MPD is
  /// not started yet.
  package init(password: String? = nil, prepare: (MusicFolderFixture) throws -> Void) throws {
    directory = try TemporaryDirectory()
    music = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    port = try Self.freePort()
    self.password = password
    try prepare(music)
    var configuration = """
      music_directory "\(music.root)"
      db_file "\(directory.file("db"))"
      state_file "\(directory.file("state"))"
      sticker_file "\(directory.file("sticker.sql"))"
      log_file "\(directory.file("log"))"
      bind_to_address "127.0.0.1"
      port "\(port)"
      auto_update "no"
      zeroconf_enabled "no"
      audio_output {
        type "null"
        name "null"
      }

      """
    if let password {
      configuration += "password \"\(password)@read,add,control,admin\"\ndefault_permissions \"\"\n"
    }
    try configuration.write(toFile: directory.file("mpd.conf"), atomically: true, encoding: .utf8)
  }

  deinit {
    stop()
  }

  /// Starts MPD and waits (up to 20 s) until it answers and its database holds the music.
  package func start() throws {
    process = try ServerProcess.started(
      "/usr/bin/mpd", ["--no-daemon", "--stderr", directory.file("mpd.conf")],
      environment: ProcessInfo.processInfo.environment.map { $0 + "=" + $1 }, output: directory.file("mpd.out"),
      name: "mpd on port \(port)", within: 20, log: log
    ) {
      // A new database is built at start; `updating_db` is in the status until it is done.
      guard let status = try? request("status") else { return false }
      return status.hasSuffix("OK\n") && !status.contains("updating_db")
    }
  }

  /// Stops MPD (SIGTERM to its process group, SIGKILL to what is left of it) and waits
  /// until it is gone.
  package func stop() {
    guard let process else { return }
    self.process = nil
    process.end()
  }

  /// Stops MPD and starts it again on the same port, with the same files.
  package func restart() throws {
    stop()
    try start()
  }

  /// What MPD logged.
  package var log: String { (try? String(contentsOfFile: directory.file("log"), encoding: .utf8)) ?? "" }

  /// Sends `commands` (one a line) on a connection of its own, with the password first when
  /// there is one, and returns everything MPD answered after its greeting.
  package func request(_ commands: String...) throws -> String {
    var result = try Self.conversation(port: port, (password.map { ["password \"\($0)\""] } ?? []) + commands)
    // Drop the greeting and the password's OK.
    if let newline = result.firstIndex(of: "\n") { result = String(result[result.index(after: newline)...]) }
    if password != nil, result.hasPrefix("OK\n") { result = String(result.dropFirst(3)) }
    return result
  }

  /// Connects to 127.0.0.1:`port`, sends `lines` (one a line) and then `close`, or ends its
  /// side of the connection (`shutdown`) when `close` is false, and returns all the server
  /// sent until it closed the connection, its greeting first: a conversation with any server
  /// that speaks MPD's protocol (MPD, Mopidy), waiting at most 10 s for each answer.
  package static func conversation(port: Int, _ lines: [String], close sayClose: Bool = true) throws -> String {
    let text = (lines + (sayClose ? ["close"] : [])).map { $0 + "\n" }.joined()
    return String(decoding: try Loopback.exchange(port: port, text, endWriting: !sayClose), as: UTF8.self)
  }

  /// The value of `name` in the answer to `command` (`state` of `status`).
  package func value(_ name: String, of command: String) throws -> String? {
    try request(command).split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map {
      String($0.dropFirst(name.count + 2))
    }
  }

  /// Runs `mpc -h 127.0.0.1 -p PORT arguments…` (the password in the host when there is
  /// one) and returns its standard output.
  @discardableResult
  package func mpc(_ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/mpc")
    process.arguments = ["-h", (password.map { $0 + "@" } ?? "") + "127.0.0.1", "-p", String(port)] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// Rescans the music folder (`update`) and waits until the database holds what it has now.
  package func update() throws {
    _ = try request("update")
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if !(try request("status")).contains("updating_db") { return }
      usleep(20_000)
    }
    throw FixtureError("mpd did not finish its update")
  }

  /// A port no one listens on now (the kernel's choice for a socket bound to port 0).
  package static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
      }
    }
    guard bound else { throw FixtureError("cannot find a free port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Writes `seconds` of silence at `relative` in the music folder with ffmpeg (the
  /// format from the extension), then `edit`'s tags: tracks long enough to be playing
  /// when a test looks.
  @discardableResult
  package static func silence(
    _ seconds: Int, at relative: String, in music: MusicFolderFixture, _ edit: TagEdit = TagEdit()
  ) throws -> String {
    let path = music.path(relative)
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments = [
      "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", String(seconds), "-y",
      path,
    ]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw FixtureError("ffmpeg could not write \(relative)") }
    try edit.write(to: path)
    return path
  }
}

/// A fixture that could not be set up.
package struct FixtureError: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

extension MPDFixture {
  /// ``sampleMusic(_:)`` with Innuendo's two songs thirty seconds long (playing while a test
  /// looks), embedding `picture` when given.
  package static func sampleMusicWithLongInnuendo(
    _ music: MusicFolderFixture, picture: (bytes: [UInt8], mimeType: String)? = nil
  ) throws {
    try sampleMusic(music)
    for (number, title) in [(1, "Innuendo"), (2, "Headlong")] {
      let name = number == 1 ? "01 Innuendo.flac" : "02 Headlong.mp3"
      try FileManager.default.removeItem(atPath: music.path("Queen/Innuendo/" + name))
      try silence(
        30, at: "Queen/Innuendo/" + name, in: music,
        TagEdit(
          album: "Innuendo", artist: "Queen", title: title, trackNumber: String(number), date: "1991",
          genre: "Rock", picture: picture))
    }
  }
}

/// The music of a test server: an album embedding a red picture in its songs, a two-disc
/// album in `CD1/` and `CD2/` with a green `cover.jpg` beside its first disc, and a
/// compilation with neither.
extension MPDFixture {
  package static func sampleMusic(_ music: MusicFolderFixture) throws {
    let red = (bytes: TestPicture.jpeg(TestPicture.red), mimeType: "image/jpeg")
    try music.track(
      "Queen/Innuendo/01 Innuendo.flac",
      TagEdit(
        album: "Innuendo", artist: "Queen", title: "Innuendo", trackNumber: "1", date: "1991", genre: "Rock",
        picture: red))
    try music.track(
      "Queen/Innuendo/02 Headlong.mp3",
      TagEdit(
        album: "Innuendo", artist: "Queen", title: "Headlong", trackNumber: "2", date: "1991", genre: "Rock",
        picture: red))
    try music.track(
      "Pink Floyd/The Wall/CD1/01 In the Flesh.flac",
      TagEdit(album: "The Wall", artist: "Pink Floyd", title: "In the Flesh?", trackNumber: "1", discNumber: "1"))
    try music.track(
      "Pink Floyd/The Wall/CD2/01 Hey You.flac",
      TagEdit(album: "The Wall", artist: "Pink Floyd", title: "Hey You", trackNumber: "1", discNumber: "2"))
    try music.file("Pink Floyd/The Wall/CD1/cover.jpg", TestPicture.jpeg(TestPicture.green))
    try music.track(
      "Various/Hits/01.ogg", TagEdit(album: "Hits", artist: "Madonna", title: "Frozen", trackNumber: "1"))
    try music.track("Various/Hits/02.ogg", TagEdit(album: "Hits", artist: "U2", title: "One", trackNumber: "2"))
  }
}
