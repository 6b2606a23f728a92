import Foundation
import MusicFolder

#if canImport(Glibc)
  import Glibc
#endif

/// A real Mopidy (Debian's `mopidy`, `mopidy-mpd` and `mopidy-local`) for one test: a second
/// server that speaks MPD's protocol, with less of it than MPD (no filter expressions, no
/// `window`, no stickers, no pictures, zeros in `stats`, no `idle database`).
///
/// Its MPD frontend listens on 127.0.0.1 at a free port; its audio goes to a `fakesink` that
/// keeps time (`sync=true`: a song plays for its length, with no sound card); its library is
/// Mopidy-Local's, scanned from a music folder of its own (`mopidy local scan`) before it
/// starts. Its configuration, cache, data, playlists and home (the GStreamer registry) are in
/// a temporary directory of its own: no configuration of the user's or the system's
/// (`~/.config/mopidy`, `/etc/mopidy`) is read, nothing outside the directory is written.
/// It runs as root or as any user. Stopped (SIGTERM to its process group) when the fixture goes, or by
/// ``stop()``.
///
/// ```swift
/// @Test(.enabled(if: MopidyFixture.isInstalled, Comment(rawValue: MopidyFixture.unavailable)))
/// func … {
///   let mopidy = try MopidyFixture(prepare: MPDFixture.sampleMusic)
///   try mopidy.start()
/// }
/// ```
///
/// Measured on this project's two shared cores (Mopidy 3.4.1): the scan of seven songs (the
/// GStreamer registry made in the fresh home included) 0.5–0.6 s, the start to the greeting
/// 0.3–0.35 s, the stop 0.1 s, at a load of 4; the scan up to 4 s and the start up to 1.3 s
/// at a load of 8. A scan of 300 songs took 1.7 s.
package final class MopidyFixture {
  private let directory: TemporaryDirectory
  /// The music folder Mopidy serves (made by the `prepare` closure), its `[local] media_dir`.
  package let music: MusicFolderFixture
  /// The TCP port its MPD frontend listens on.
  package let port: Int
  private var process: ServerProcess?

  /// `127.0.0.1:PORT`, as `--mpd` takes it.
  package var address: String { "127.0.0.1:\(port)" }

  /// The process id of the running Mopidy, which is also its process group's; nil when it
  /// is not started or stopped.
  package var processIdentifier: pid_t? { process?.pid }

  /// The program, and the Debian package of each part it needs.
  static let executable = "/usr/bin/mopidy"
  private static let parts = [
    (path: executable, package: "mopidy"),
    (path: "/usr/lib/python3/dist-packages/mopidy_mpd/__init__.py", package: "mopidy-mpd"),
    (path: "/usr/lib/python3/dist-packages/mopidy_local/__init__.py", package: "mopidy-local"),
  ]

  /// The Debian packages of Mopidy that are not installed.
  package static var missingPackages: [String] {
    parts.filter { !FileManager.default.fileExists(atPath: $0.path) }.map(\.package)
  }

  /// Whether Mopidy and the two extensions the fixture needs are installed.
  package static var isInstalled: Bool { missingPackages.isEmpty }

  /// Why tests of Mopidy are skipped, for `.enabled(if:_:)`: the packages to install.
  package static var unavailable: String {
    let missing = missingPackages
    return missing.isEmpty
      ? "Mopidy is installed"
      : "Mopidy is not installed (no \(missing.joined(separator: ", "))): "
        + "apt-get install mopidy mopidy-mpd mopidy-local"
  }

  /// Makes the directory, a music folder filled by `prepare`, and the configuration; Mopidy
  /// is neither scanned nor started yet. `searchLimit` is `[local] max_search_results`: the
  /// most songs one `find` or `search` answers (Mopidy's default, 100, cuts an answer short
  /// without a word).
  package init(searchLimit: Int = 100, prepare: (MusicFolderFixture) throws -> Void) throws {
    directory = try TemporaryDirectory()
    music = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    port = try MPDFixture.freePort()
    try prepare(music)
    for folder in ["home", "cache", "config", "data", "playlists"] {
      try FileManager.default.createDirectory(atPath: directory.file(folder), withIntermediateDirectories: true)
    }
    // Mopidy's defaults but for: its folders here; no sound card; the MPD frontend on this
    // port, not announced (zeroconf); the `file` backend (it browses the home) and the HTTP
    // frontend (port 6680) off.
    let configuration = """
      [core]
      cache_dir = \(directory.file("cache"))
      config_dir = \(directory.file("config"))
      data_dir = \(directory.file("data"))
      restore_state = false

      [logging]
      color = false

      [audio]
      output = fakesink sync=true

      [mpd]
      hostname = 127.0.0.1
      port = \(port)
      zeroconf =

      [local]
      media_dir = \(music.root)
      max_search_results = \(searchLimit)

      [m3u]
      playlists_dir = \(directory.file("playlists"))
      base_dir = \(music.root)

      [file]
      enabled = false

      [http]
      enabled = false

      """
    try configuration.write(toFile: directory.file("mopidy.conf"), atomically: true, encoding: .utf8)
  }

  deinit {
    stop()
  }

  /// Scans the music folder, then starts Mopidy and waits (up to 60 s) until its MPD port
  /// greets.
  package func start() throws {
    try scan()
    process = try ServerProcess.started(
      Self.executable, ["--config", directory.file("mopidy.conf")], environment: environment,
      output: directory.file("mopidy.log"), name: "mopidy on port \(port)", within: 60, log: log
    ) { (try? greeting())?.hasPrefix("OK MPD ") == true }
  }

  /// Stops Mopidy and every process it started (SIGTERM to its process group, SIGKILL to
  /// what is left of it after 20 s) and waits until they are gone.
  package func stop() {
    guard let process else { return }
    self.process = nil
    process.end()
  }

  /// Stops Mopidy and starts it again (scanning first) on the same port, with the same files.
  package func restart() throws {
    stop()
    try start()
  }

  /// Scans the music folder into Mopidy-Local's database (`mopidy local scan`; up to 120 s).
  /// A running Mopidy answers from the new database at once; it tells no client (no `idle
  /// database`, no `update` event): Mopidy has no `update` of its own (it answers
  /// `updating_db: 0` and does nothing).
  package func scan() throws {
    try ServerProcess.run(
      Self.executable, ["--config", directory.file("mopidy.conf"), "local", "scan"], environment: environment,
      output: directory.file("scan.log"), name: "mopidy local scan", within: 120, log: log)
  }

  /// Mopidy's environment: its home the directory's.
  private var environment: [String] {
    [
      "PATH=" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOME=" + directory.file("home"),
      "LANG=C.UTF-8",
    ]
  }

  /// What the scans and Mopidy logged.
  package var log: String {
    ["scan.log", "mopidy.log"].compactMap { try? String(contentsOfFile: directory.file($0), encoding: .utf8) }
      .joined(separator: "\n")
  }

  /// The first line Mopidy sends on a new connection (`OK MPD 0.19.0`).
  package func greeting() throws -> String {
    let answer = try MPDFixture.conversation(port: port, [], close: false)
    return String(answer.prefix { $0 != "\n" })
  }

  /// Sends `commands` (one a line) on a connection of its own and returns everything Mopidy
  /// answered after its greeting. The connection ends with the end of the commands (a
  /// `shutdown`), not with `close`, which Mopidy answers with an `OK` that MPD does not send.
  package func request(_ commands: String...) throws -> String {
    let answer = try MPDFixture.conversation(port: port, commands, close: false)
    guard let newline = answer.firstIndex(of: "\n") else { return "" }
    return String(answer[answer.index(after: newline)...])
  }
}
