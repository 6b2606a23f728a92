import MusicSource

/// Where bluelib keeps its files (SPEC §1): everything under `--home DIR` when given,
/// otherwise the XDG base directories.
struct AppPaths: Sendable, Equatable {
  /// The SQLite library file.
  var library: String
  /// The input history file.
  var history: String
  /// The cover cache directory.
  var coverCache: String
  /// The file `listenbrainz token` keeps the ListenBrainz token in (mode 0600).
  var listenBrainzToken: String

  /// Paths under one home directory (`--home`, `BLUELIB_HOME`).
  init(home: String) {
    let base = home.hasSuffix("/") && home.count > 1 ? String(home.dropLast()) : home
    library = base + "/library.sqlite"
    history = base + "/history"
    coverCache = base + "/covers"
    listenBrainzToken = base + "/listenbrainz-token"
  }

  /// Paths from the XDG variables in `environment`, defaulting under `$HOME`.
  init(environment: [String: String]) throws(PathError) {
    func directory(_ variable: String, _ fallback: String) throws(PathError) -> String {
      if let value = environment[variable], value.hasPrefix("/") { return value + "/bluelib" }
      guard let home = environment["HOME"], !home.isEmpty else { throw PathError(variable: variable) }
      return home + "/" + fallback + "/bluelib"
    }
    library = try directory("XDG_DATA_HOME", ".local/share") + "/library.sqlite"
    history = try directory("XDG_STATE_HOME", ".local/state") + "/history"
    coverCache = try directory("XDG_CACHE_HOME", ".cache") + "/covers"
    listenBrainzToken = try directory("XDG_CONFIG_HOME", ".config") + "/listenbrainz-token"
  }

  /// The library file of the music server `name` (``MusicSource/libraryName``), beside the
  /// library file of this machine: `DIR/servers/NAME.sqlite`.
  func serverLibrary(named name: String) -> String {
    let directory = library.lastIndex(of: "/").map { String(library[..<$0]) } ?? "."
    return directory + "/servers/" + name + ".sqlite"
  }

  /// Neither `--home`, `BLUELIB_HOME`, the XDG variable nor `HOME` says where to write.
  struct PathError: Error, CustomStringConvertible {
    /// The XDG variable that was needed.
    var variable: String
    var description: String {
      "cannot tell where to keep files: set --home, BLUELIB_HOME, \(variable) or HOME"
    }
  }
}
