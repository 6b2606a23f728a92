/// The measured scenarios, in the order they run and are reported.
enum Scenario: String, CaseIterable, Sendable {
  /// `bluelib --home H -c view`
  case open
  /// `bluelib --home H -c 'tap N; show'`
  case tap
  /// `scroll right` × count, piped into `bluelib --home H`
  case scroll
  /// `bluelib --home H -c 'delete all; undo'`: every album out and back, each one step
  case delete
  /// `bluelib --home FRESH -c 'import FILE'` against `sqlite3 DB '.import --csv FILE t'`
  case `import`
  /// `bluelib --home H --downloads C -c 'download all; wait'`: N covers from a local server, each L seconds late
  case downloads
  /// A 600×600 JPEG decoded and drawn at 40×20 cells in-process, against `chafa --size 40x20 -f symbols`
  case art
  /// `bluelib --home H -c quit` against `sqlite3 :memory: .quit`
  case startup
  /// `bluelib --home H -c list` on the large library against sqlite3 selecting the same rows
  case list
  /// A field query against sqlite3, `find year-` + piped scrolls on each size, completion
  case query
  /// `bluelib --home FRESH -c 'import DIR'` on a music folder against mutagen and a C++ TagLib reader
  case folder
  /// `bluelib --home FRESH --mpd 127.0.0.1:PORT -c quit` on a real MPD against `mpc search`
  case mpd
  /// `bluelib --home FRESH --subsonic http://USER@127.0.0.1:PORT -c quit` on a real supysonic against curl
  case subsonic

  /// The names `--only` accepts for it.
  var names: [String] {
    switch self {
    case .open: ["open", "view", "render"]
    case .tap: ["tap", "tap-show", "show"]
    case .scroll: ["scroll"]
    case .delete: ["delete", "undo"]
    case .import: ["import"]
    case .downloads: ["downloads", "download", "covers"]
    case .art: ["art", "cover-art"]
    case .startup: ["startup", "start-up", "quit"]
    case .list: ["list"]
    case .query: ["query", "find", "views"]
    case .folder: ["folder", "music"]
    case .mpd: ["mpd", "mpc"]
    case .subsonic: ["subsonic", "supysonic"]
    }
  }

  init?(name: String) {
    guard let found = Self.allCases.first(where: { $0.names.contains(name.lowercased()) }) else { return nil }
    self = found
  }

  /// The scenarios a comma-separated `--only` value names.
  static func list(_ text: String) throws(UnknownScenario) -> Set<Scenario> {
    var scenarios: Set<Scenario> = []
    for name in text.split(separator: ",", omittingEmptySubsequences: true) {
      guard let scenario = Scenario(name: String(name)) else { throw UnknownScenario(name: String(name)) }
      scenarios.insert(scenario)
    }
    return scenarios
  }
}

/// An `--only` value that names no scenario.
struct UnknownScenario: Error, CustomStringConvertible {
  var name: String

  var description: String {
    "unknown scenario '\(name)' (scenarios: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")))"
  }
}
