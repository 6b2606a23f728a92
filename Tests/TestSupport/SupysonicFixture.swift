import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real supysonic (Debian's `supysonic`, served by `python3-waitress`) for one test: a
/// Subsonic server (API 1.10.2) that takes passwords only (no token: error 10), rates songs
/// only (an album's id: error 70), answers errors with HTTP 200 and `status: failed`.
///
/// It listens on 127.0.0.1 at a free port (`supysonic-server -S waitress -h 127.0.0.1 -p
/// PORT`); its configuration (`HOME/.supysonic`), database, cache and daemon socket are in a
/// temporary directory of its own, its library one music folder made by `prepare`, scanned
/// in the foreground (`supysonic-cli folder scan -f`) before it starts, with the user
/// ``user`` (password ``password``). Nothing outside the directory is read or written.
/// Started with no signal blocked, in a process group of its own, and stopped by SIGTERM to
/// that group (``ServerProcess``: the test runner's threads block SIGTERM, which a server started
/// through Foundation's `Process` would inherit and never see).
///
/// ```swift
/// @Test(.enabled(if: SupysonicFixture.isInstalled, Comment(rawValue: SupysonicFixture.unavailable)))
/// func … {
///   let supysonic = try SupysonicFixture(prepare: MPDFixture.sampleMusic)
///   try supysonic.start()
/// }
/// ```
package final class SupysonicFixture {
  private let directory: TemporaryDirectory
  /// The music folder supysonic serves (made by the `prepare` closure).
  package let music: MusicFolderFixture
  /// The TCP port it listens on.
  package let port: Int
  /// The user whose library it is, and the password.
  package let user = "admin"
  package let password = "secret"
  private var process: ServerProcess?

  /// `http://admin@127.0.0.1:PORT`, as `--subsonic` takes it.
  package var url: String { "http://\(user)@127.0.0.1:\(port)" }

  /// The process id of the running server, which is also its process group's; nil when it
  /// is not started or stopped.
  package var processIdentifier: pid_t? { process?.pid }

  static let server = "/usr/bin/supysonic-server"
  static let cli = "/usr/bin/supysonic-cli"
  private static let parts = [
    (path: server, package: "supysonic"),
    (path: "/usr/lib/python3/dist-packages/waitress/__init__.py", package: "python3-waitress"),
  ]

  /// The Debian packages the fixture needs that are not installed.
  package static var missingPackages: [String] {
    parts.filter { !FileManager.default.fileExists(atPath: $0.path) }.map(\.package)
  }

  /// Whether supysonic and waitress are installed.
  package static var isInstalled: Bool { missingPackages.isEmpty }

  /// Why tests of supysonic are skipped, for `.enabled(if:_:)`: the packages to install.
  package static var unavailable: String {
    let missing = missingPackages
    return missing.isEmpty
      ? "supysonic is installed"
      : "supysonic is not installed (no \(missing.joined(separator: ", "))): apt-get install supysonic python3-waitress"
  }

  /// Makes the directory, a music folder filled by `prepare`, and the configuration;
  /// nothing is scanned or started yet.
  package init(prepare: (MusicFolderFixture) throws -> Void) throws {
    directory = try TemporaryDirectory()
    music = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    port = try MPDFixture.freePort()
    try prepare(music)
    for folder in ["home", "cache"] {
      try FileManager.default.createDirectory(atPath: directory.file(folder), withIntermediateDirectories: true)
    }
    let configuration = """
      [base]
      database_uri = sqlite:///\(directory.file("supysonic.db"))

      [webapp]
      cache_dir = \(directory.file("cache"))
      log_level = WARNING

      [daemon]
      socket = \(directory.file("supysonic.sock"))
      run_watcher = no

      """
    try configuration.write(toFile: directory.file("home/.supysonic"), atomically: true, encoding: .utf8)
  }

  deinit {
    stop()
  }

  /// Adds the user and the music folder, scans it, then starts the server and waits (up
  /// to 60 s) until `ping` answers.
  package func start() throws {
    try runCLI(["user", "add", user, "-p", password])
    try runCLI(["folder", "add", "music", music.root])
    try scan()
    try launch()
  }

  /// Scans the music folder again (`folder scan -f`): what changed is in the server's
  /// database at once.
  package func scan() throws {
    try runCLI(["folder", "scan", "-f", "music"])
  }

  /// Starts the server on the port, with the files as they are.
  private func launch() throws {
    process = try ServerProcess.started(
      Self.server, ["-S", "waitress", "-h", "127.0.0.1", "-p", String(port)], environment: environment,
      output: directory.file("server.log"), name: "supysonic on port \(port)", within: 60, log: log
    ) { (try? get("ping"))?.contains("\"ok\"") == true }
  }

  /// Stops the server (SIGTERM to its process group) and waits until it is gone.
  package func stop() {
    guard let process else { return }
    self.process = nil
    process.end()
  }

  /// Stops the server and starts it again on the same port, with the same database.
  package func restart() throws {
    stop()
    try launch()
  }

  private var environment: [String] {
    [
      "PATH=" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOME=" + directory.file("home"),
      "LANG=C.UTF-8",
    ]
  }

  /// Runs `supysonic-cli arguments…` (up to 120 s), its output appended to the log.
  private func runCLI(_ arguments: [String]) throws {
    try ServerProcess.run(
      Self.cli, arguments, environment: environment, output: directory.file("cli.log"),
      name: "supysonic-cli \(arguments.joined(separator: " "))", within: 120, log: log)
  }

  /// What the CLI and the server logged.
  package var log: String {
    ["cli.log", "server.log"].compactMap { try? String(contentsOfFile: directory.file($0), encoding: .utf8) }
      .joined(separator: "\n")
  }

  /// The body of `GET /rest/METHOD?…` with the user's password and `f=json`, and the
  /// `parameters` (percent-encoded here): the server's own API, asked without bluelib.
  package func get(_ method: String, _ parameters: [(String, String)] = []) throws -> String {
    let all = parameters + [("u", user), ("p", password), ("v", "1.10.2"), ("c", "fixture"), ("f", "json")]
    let query = all.map { name, value in
      name + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
    }.joined(separator: "&")
    return try Self.httpGet(port: port, path: "/rest/\(method)?\(query)")
  }

  /// The JSON object under `subsonic-response` of ``get(_:_:)``.
  package func response(_ method: String, _ parameters: [(String, String)] = []) throws -> [String: Any] {
    let text = try get(method, parameters)
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
      let response = object["subsonic-response"] as? [String: Any]
    else { throw FixtureError("not a Subsonic answer: \(text.prefix(200))") }
    return response
  }

  /// The body of an HTTP/1.0 GET of `path` on 127.0.0.1:`port` (the head left out): the
  /// request sent whole, the answer read until the server closes (within 10 s).
  package static func httpGet(port: Int, path: String) throws -> String {
    let answer = try Loopback.exchange(port: port, "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    let text = String(decoding: answer, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else { throw FixtureError("no HTTP head: \(text.prefix(200))") }
    return String(text[end.upperBound...])
  }
}
