/// The measured scenarios, in the order they run and are reported.
enum Scenario: String, CaseIterable, Sendable {
  /// `bluelib --home H -c view`
  case open
  /// `bluelib --home H -c 'tap N; show'`
  case tap
  /// `scroll right` × count, piped into `bluelib --home H`
  case scroll
  /// `bluelib --home FRESH -c 'import FILE'` against `sqlite3 DB '.import --csv FILE t'`
  case `import`
  /// `bluelib --home H --downloads C -c 'download all; wait'`: N covers from a local server, each L seconds late
  case downloads
  /// A 600×600 JPEG decoded and drawn at 40×20 cells in-process, against `chafa --size 40x20 -f symbols`
  case art

  /// The names `--only` accepts for it.
  var names: [String] {
    switch self {
    case .open: ["open", "view", "render"]
    case .tap: ["tap", "tap-show", "show"]
    case .scroll: ["scroll"]
    case .import: ["import"]
    case .downloads: ["downloads", "download", "covers"]
    case .art: ["art", "cover-art"]
    }
  }

  init?(name: String) {
    guard let found = Self.allCases.first(where: { $0.names.contains(name.lowercased()) }) else { return nil }
    self = found
  }
}

/// The command line of `bluelib-bench`.
struct Options {
  var quick = false
  var runs: Int?
  var keep: String?
  var only: Set<Scenario> = Set(Scenario.allCases)
  var bluelib: String?
  var sqlite3: String?
  var timeout: Double = 900
  var help = false
  /// `--download-covers`: nil takes the default (48, or 12 with `--quick`).
  var downloadCoversGiven: Int?
  /// `--download-latency`: seconds the server waits before answering each cover.
  var downloadLatency = 0.25
  /// `--download-concurrency`: bluelib's `--downloads`.
  var downloadConcurrency = 6

  /// Library sizes, smallest first: the last is the large one the checks compare.
  var sizes: [Int] { quick ? [1_000, 100_000] : [1_000, 1_000_000] }
  /// How many `scroll right` lines the scroll scenario pipes in.
  var scrolls: Int { quick ? 10_000 : 100_000 }
  /// Timed runs per scenario.
  var runsPerScenario: Int { runs ?? (quick ? 3 : 5) }
  /// Timed runs of each import (a million rows take a while).
  var importRuns: Int { min(runsPerScenario, 3) }
  /// Covers the downloads scenario serves and downloads per run.
  var downloadCovers: Int { downloadCoversGiven ?? (quick ? 12 : 48) }

  /// The limits of the download flags. bluelib's own `--download-timeout` is 15 s, so a
  /// latency over 10 s would time its downloads out.
  static let downloadCoversRange = 1...10_000
  static let downloadLatencyRange = 0.0...10.0
  static let downloadConcurrencyRange = 1...64

  static let usage = """
    usage: bluelib-bench [--quick] [--runs N] [--only SCENARIO[,SCENARIO…]] [--keep DIR]
                         [--bluelib PATH] [--sqlite3 PATH] [--timeout SECONDS]
                         [--download-covers N] [--download-latency SECONDS]
                         [--download-concurrency C]

    Times the release `bluelib` binary as a user runs it, on generated libraries of
    1,000 and 1,000,000 albums, and prints a Markdown table to standard output
    (progress goes to standard error).

    Scenarios (SCENARIO names):
      open     open + first render:  bluelib --home H -c view
      tap      tap the last album + show:  bluelib --home H -c 'tap N; show'
      scroll   100,000 piped `scroll right` lines:  … | bluelib --home H
      import   import a 1,000,000-row CSV into a fresh home, against sqlite3's .import
      downloads  48 covers from a local HTTP server, each 0.25 s late, 6 at once, into
                 a fresh cover cache:  bluelib --home H --downloads 6 -c 'download all; wait'
                 (timed against the ideal ⌈N / C⌉ × L)
      art      decode + draw a 600×600 JPEG at 40×20 cells in this process (200 runs), and
               the same JPEG through `chafa --size 40x20 -f symbols` (20 runs) when chafa
               is on PATH, reported as a ratio

    Options:
      --quick            smoke run: libraries of 1,000 and 100,000 albums, 10,000 scrolls,
                         12 covers, 3 runs
      --runs N           timed runs per scenario (default 5; imports run at most 3 times)
      --only LIST        run only these scenarios (comma-separated or repeated)
      --keep DIR         generate into DIR and keep the files (default: a temporary
                         directory, removed at the end)
      --bluelib PATH     the bluelib binary (default: `bluelib` next to this executable)
      --sqlite3 PATH     the sqlite3 shell (default: `sqlite3` on PATH)
      --timeout SECONDS  kill a run after this long (default 900)
      --download-covers N
                         covers per downloads run, 1 to 10,000 (default 48; 12 with --quick)
      --download-latency SECONDS
                         the server's delay before each cover, 0 to 10 (default 0.25)
      --download-concurrency C
                         bluelib's --downloads, 1 to 64 (default 6)
      --help             show this help

    Exit status: 0 when every scenario ran and every check passed; 1 when a scenario
    failed; 2 on a usage or setup error; 3 when a check failed.
    """

  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var onlyGiven: Set<Scenario> = []
    var index = 0
    func value(_ flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      var argument = arguments[index]
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        inline = String(argument[argument.index(after: equals)...])
        argument = String(argument[..<equals])
      }
      func take() throws(UsageError) -> String {
        if let inline { return inline }
        return try value(argument)
      }
      switch argument {
      case "--quick": options.quick = true
      case "--help", "-h": options.help = true
      case "--runs":
        let text = try take()
        guard let runs = Int(text), runs >= 1, runs <= 1000 else {
          throw UsageError("--runs needs a whole number from 1 to 1000, got '\(text)'")
        }
        options.runs = runs
      case "--keep":
        let directory = try take()
        guard !directory.isEmpty else { throw UsageError("--keep needs a directory") }
        options.keep = directory
      case "--only":
        for name in try take().split(separator: ",", omittingEmptySubsequences: true) {
          guard let scenario = Scenario(name: String(name)) else {
            let known = Scenario.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--only: unknown scenario '\(name)' (scenarios: \(known))")
          }
          onlyGiven.insert(scenario)
        }
      case "--bluelib": options.bluelib = try take()
      case "--sqlite3": options.sqlite3 = try take()
      case "--timeout":
        let text = try take()
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
          throw UsageError("--timeout needs a positive number of seconds, got '\(text)'")
        }
        options.timeout = seconds
      case "--download-covers":
        let text = try take()
        guard let count = Int(text), downloadCoversRange.contains(count) else {
          throw UsageError("--download-covers needs a whole number from 1 to 10000, got '\(text)'")
        }
        options.downloadCoversGiven = count
      case "--download-latency":
        let text = try take()
        guard let seconds = Double(text), seconds.isFinite, downloadLatencyRange.contains(seconds) else {
          throw UsageError(
            "--download-latency needs a number of seconds from 0 to 10 (bluelib's download timeout is 15 s), got '\(text)'")
        }
        options.downloadLatency = seconds
      case "--download-concurrency":
        let text = try take()
        guard let count = Int(text), downloadConcurrencyRange.contains(count) else {
          throw UsageError("--download-concurrency needs a whole number from 1 to 64 (bluelib's --downloads), got '\(text)'")
        }
        options.downloadConcurrency = count
      default:
        throw UsageError("unknown argument '\(arguments[index])'")
      }
      index += 1
    }
    if !onlyGiven.isEmpty { options.only = onlyGiven }
    return options
  }
}

struct UsageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
