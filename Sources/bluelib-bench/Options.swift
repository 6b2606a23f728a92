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

  /// The names `--only` accepts for it.
  var names: [String] {
    switch self {
    case .open: ["open", "view", "render"]
    case .tap: ["tap", "tap-show", "show"]
    case .scroll: ["scroll"]
    case .import: ["import"]
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

  /// Library sizes, smallest first: the last is the large one the checks compare.
  var sizes: [Int] { quick ? [1_000, 100_000] : [1_000, 1_000_000] }
  /// How many `scroll right` lines the scroll scenario pipes in.
  var scrolls: Int { quick ? 10_000 : 100_000 }
  /// Timed runs per scenario.
  var runsPerScenario: Int { runs ?? (quick ? 3 : 5) }
  /// Timed runs of each import (a million rows take a while).
  var importRuns: Int { min(runsPerScenario, 3) }

  static let usage = """
    usage: bluelib-bench [--quick] [--runs N] [--only SCENARIO[,SCENARIO…]] [--keep DIR]
                         [--bluelib PATH] [--sqlite3 PATH] [--timeout SECONDS]

    Times the release `bluelib` binary as a user runs it, on generated libraries of
    1,000 and 1,000,000 albums, and prints a Markdown table to standard output
    (progress goes to standard error).

    Scenarios (SCENARIO names):
      open     open + first render:  bluelib --home H -c view
      tap      tap the last album + show:  bluelib --home H -c 'tap N; show'
      scroll   100,000 piped `scroll right` lines:  … | bluelib --home H
      import   import a 1,000,000-row CSV into a fresh home, against sqlite3's .import

    Options:
      --quick            smoke run: libraries of 1,000 and 100,000 albums, 10,000 scrolls, 3 runs
      --runs N           timed runs per scenario (default 5; imports run at most 3 times)
      --only LIST        run only these scenarios (comma-separated or repeated)
      --keep DIR         generate into DIR and keep the files (default: a temporary
                         directory, removed at the end)
      --bluelib PATH     the bluelib binary (default: `bluelib` next to this executable)
      --sqlite3 PATH     the sqlite3 shell (default: `sqlite3` on PATH)
      --timeout SECONDS  kill a run after this long (default 900)
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
