import AlbumModel
import BlueLibrary
import BlueSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The timed runs of one scenario.
struct Measurement {
  var times: [Double] = []
  /// The largest `ru_maxrss` over the runs, KiB.
  var maxRSSKiB = 0
  /// `failed: …` when a run did not succeed (the runs stop there).
  var failure: String?
  /// Each counted run's CPU time (user, system), seconds.
  var cpuTimes: [(user: Double, system: Double)] = []

  var succeeded: Bool { failure == nil && !times.isEmpty }

  var median: Double? {
    guard succeeded else { return nil }
    let sorted = times.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  var minimum: Double? { succeeded ? times.min() : nil }

  /// The run whose CPU time (user + system) is the median, as (user, system).
  var medianCPU: (user: Double, system: Double)? {
    guard succeeded, !cpuTimes.isEmpty else { return nil }
    return cpuTimes.sorted { $0.user + $0.system < $1.user + $1.system }[(cpuTimes.count - 1) / 2]
  }
}

/// Why one run does not count.
struct RunFailure: Error, CustomStringConvertible {
  var message: String

  var description: String { message }
}

/// A library scenario's measurement on one library size.
struct LibraryRow {
  var scenario: Scenario
  var size: Int
  var measurement: Measurement
}

/// Everything measured, for the report.
struct Results {
  /// Issue 36's goals for the import: its time against sqlite3's `.import` of the same CSV
  /// (median over median), and its peak RSS whatever the size of the file.
  static let importRatioGoal = 1.0
  static let importPeakGoalKiB = 32 * 1024

  var rows: [LibraryRow] = []
  /// The size of the imported CSV (the largest library size).
  var importSize = 0
  var bluelibImport: Measurement?
  /// `undo` of that import, then `redo` of it, each in the import's home.
  var bluelibUndo: Measurement?
  var bluelibRedo: Measurement?
  /// nil when sqlite3 was not run; `failure` says when it is missing.
  var sqliteImport: Measurement?
  var sqliteMissing = false
  /// The largest peak RSS a trivial child (`/bin/true`) reported, before and after
  /// the scenarios: what our own memory adds to a reading (see `runChild`).
  var rssFloorKiB: Int?
  /// The downloads scenario, when run.
  var downloads: DownloadResult?
  /// The cover-art scenario, when run.
  var coverArt: CoverArtResult?
  /// Start-up, piped commands and `list` against sqlite3 (References.swift).
  var references: [ReferenceRow] = []
  /// Sorted views, per size, and completing `artist:` values (QueryBench.swift).
  var views: [ViewRow] = []
  var completionSeconds: Double?
  var completionFailure: String?
  /// Whether the measured binary runs without the toolchain (References.swift).
  var staticBinary: StaticBinaryResult?
  /// The music-folder import against mutagen and the TagLib floor (FolderBench.swift).
  var folder: FolderResult?
  /// A start of bluelib with a Subsonic server unchanged, per size (SubsonicBench.swift).
  var unchangedStarts: [UnchangedStart] = []

  func row(_ scenario: Scenario, size: Int) -> Measurement? {
    rows.first { $0.scenario == scenario && $0.size == size }?.measurement
  }

  /// Every measurement taken.
  var measurements: [Measurement] {
    rows.map(\.measurement)
      + [bluelibImport, bluelibUndo, bluelibRedo, sqliteImport, downloads?.measurement]
      .compactMap { $0 }
      + (coverArt?.measurements ?? [])
  }

  var anyFailed: Bool {
    rows.contains { !$0.measurement.succeeded }
      || bluelibImport.map { !$0.succeeded } == true
      || bluelibUndo.map { !$0.succeeded } == true || bluelibRedo.map { !$0.succeeded } == true
      || (!sqliteMissing && sqliteImport.map { !$0.succeeded } == true)
      || downloads.map { !$0.measurement.succeeded } == true
      || coverArt?.anyFailed == true
      || folder.map { !$0.bluelib.succeeded || $0.mutagen?.succeeded == false || $0.floor?.succeeded == false } == true
  }
}

/// Runs the scenarios.
final class Bench {
  let options: Options
  /// This executable, which creates the libraries in a child (see `generate`).
  let benchExecutable: String
  let bluelib: String
  let sqlite3: String?
  let work: String
  let childEnvironment: [String]
  var results = Results()

  init(
    options: Options, benchExecutable: String, bluelib: String, sqlite3: String?, work: String,
    environment: [String: String]
  ) {
    self.options = options
    self.benchExecutable = benchExecutable
    self.bluelib = bluelib
    self.sqlite3 = sqlite3
    self.work = work
    var childEnvironment = environment
    childEnvironment["BLUELIB_HOME"] = nil
    childEnvironment["NO_COLOR"] = "1"
    self.childEnvironment = childEnvironment.map { "\($0.key)=\($0.value)" }.sorted()
  }

  func csvPath(_ size: Int) -> String { "\(work)/albums-\(size).csv" }
  func libraryPath(_ size: Int) -> String { "\(work)/library-\(size)/library.sqlite" }

  // MARK: - Setup

  /// Writes the CSVs and libraries the selected scenarios need.
  ///
  /// A library is made in a child process (`bluelib-bench make-library CSV PATH`):
  /// decoding a million albums takes hundreds of MiB, and every process we spawn
  /// afterwards would otherwise report at least our own resident memory as its peak.
  func generate() throws(SetupError) {
    let needsLibrary = [.open, .tap, .scroll, .delete, .startup, .list, .query].contains { options.only.contains($0) }
    for size in options.sizes {
      let needsCSV = needsLibrary || (options.only.contains(.import) && size == options.sizes.last)
      guard needsCSV else { continue }
      var start = monotonicSeconds()
      log("writing \(csvPath(size)) (\(grouped(size)) rows)…")
      try DataSet.writeCSV(count: size, to: csvPath(size))
      log("  done in \(formatSeconds(monotonicSeconds() - start))")
      guard needsLibrary else { continue }
      start = monotonicSeconds()
      log("creating \(libraryPath(size)) through AlbumStore…")
      try makeLibrary(from: csvPath(size), at: libraryPath(size), expecting: size)
      log("  done in \(formatSeconds(monotonicSeconds() - start))")
    }
  }

  /// Creates the library at `library` (its directory too) from `csv` in a child
  /// (`bluelib-bench make-library CSV LIBRARY`), and checks it holds `count` albums.
  func makeLibrary(from csv: String, at library: String, expecting count: Int) throws(SetupError) {
    DataSet.remove(library)
    let parent = (library as NSString).deletingLastPathComponent
    try DataSet.makeDirectory(parent)
    let directory = parent + "-make"
    defer { DataSet.remove(directory) }
    do {
      _ = try invoke(
        benchExecutable, ["make-library", csv, library], input: .null, in: directory, keepOutput: true)
    } catch {
      throw SetupError("cannot create \(library): \(error.message)")
    }
    let output = DataSet.contents(ofFileAt: directory + "/stdout").trimmingCharacters(in: .whitespacesAndNewlines)
    let made = Int(output) ?? -1
    guard made == count else {
      throw SetupError("the library made from \(csv) has \(made) albums, expected \(count)")
    }
  }

  // MARK: - Scenarios

  func runAll() {
    measureFloor()
    for scenario in [Scenario.open, .tap, .scroll, .delete] where options.only.contains(scenario) {
      for size in options.sizes {
        results.rows.append(
          LibraryRow(scenario: scenario, size: size, measurement: runLibraryScenario(scenario, size: size)))
      }
    }
    results.staticBinary = checkStaticBinary()
    runReferences()
    if options.only.contains(.query) { runQueries() }
    if options.only.contains(.import), let size = options.sizes.last {
      runImports(size: size)
    }
    if options.only.contains(.folder) {
      runFolder()
    }
    if options.only.contains(.mpd) {
      runMPD()
    }
    if options.only.contains(.subsonic) {
      runSubsonic()
    }
    if options.only.contains(.downloads) {
      runDownloads()
    }
    // The floor is read again before the cover-art scenario, which runs in this process:
    // its decoding adds to our resident memory (about 0.5 MiB), which the children of the
    // scenarios above never inherited.
    measureFloor()
    if options.only.contains(.art) {
      runCoverArt()
    }
  }

  /// Runs `/bin/true` to see the lowest peak RSS a child of ours can report.
  func measureFloor() {
    guard access("/bin/true", X_OK) == 0,
      let child = try? invoke("/bin/true", [], input: .null, in: "\(work)/floor", keepOutput: false)
    else { return }
    results.rssFloorKiB = max(results.rssFloorKiB ?? 0, child.maxRSSKiB)
    DataSet.remove("\(work)/floor")
  }

  /// Runs `scenario` on a copy of the `size`-album library, a fresh copy (and home) per run.
  func runLibraryScenario(_ scenario: Scenario, size: Int) -> Measurement {
    let runs = options.runsPerScenario
    let label = "\(scenario.rawValue) \(grouped(size))"
    return measure(label, runs: runs) { run throws(RunFailure) in
      try runLibraryScenarioOnce(scenario, size: size, run: run, of: runs)
    }
  }

  /// Run `run` of `runs` of ``runLibraryScenario(_:size:)``.
  func runLibraryScenarioOnce(_ scenario: Scenario, size: Int, run: Int, of runs: Int) throws(RunFailure) -> ChildRun {
    let directory = "\(work)/runs/\(scenario.rawValue)-\(size)-\(run)"
    defer { if options.keep == nil || run < runs { DataSet.remove(directory) } }
    let home = try homeWithCopy(size: size, in: directory)
    switch scenario {
    case .open:
      let child = try invoke(
        bluelib, ["--home", home, "-c", "view"], input: .null, in: directory, keepOutput: true)
      guard !DataSet.contents(ofFileAt: directory + "/stdout").isEmpty else {
        throw RunFailure(message: "`view` printed nothing")
      }
      return child
    case .tap:
      let child = try invoke(
        bluelib, ["--home", home, "-c", "tap \(size); show"], input: .null, in: directory, keepOutput: true)
      let expected = DataSet.title(size, of: size)
      guard DataSet.contents(ofFileAt: directory + "/stdout").contains(expected) else {
        throw RunFailure(message: "`show` did not print '\(expected)'")
      }
      return child
    case .scroll:
      let input = ChildInput.pipe(Array(String(repeating: "scroll right\n", count: options.scrolls).utf8))
      return try invoke(bluelib, ["--home", home], input: input, in: directory, keepOutput: false)
    case .delete:
      let child = try invoke(
        bluelib, ["--home", home, "-c", "delete all; undo"], input: .null, in: directory, keepOutput: true)
      let expected = "undid delete \(grouped(size)) albums"
      guard DataSet.contents(ofFileAt: directory + "/stdout").contains(expected) else {
        throw RunFailure(message: "`undo` did not print '\(expected)'")
      }
      return child
    case .import, .downloads, .art, .startup, .list, .query, .folder, .mpd, .subsonic:
      preconditionFailure("\(scenario.rawValue) is not a library scenario")
    }
  }

  /// A fresh `directory` (removed first) holding `home/library.sqlite`, a copy of the
  /// `size`-album library; returns the home.
  func homeWithCopy(size: Int, in directory: String) throws(RunFailure) -> String {
    let home = directory + "/home"
    try DataSet.freshRun(directory, making: home, library: libraryPath(size))
    return home
  }

  /// Imports the `size`-row CSV with bluelib and with sqlite3, alternating, each into a fresh home.
  func runImports(size: Int) {
    results.importSize = size
    let runs = options.importRuns
    let csv = csvPath(size)
    var bluelibMeasurement = Measurement()
    var sqliteMeasurement = Measurement()
    var undoMeasurement = Measurement()
    var redoMeasurement = Measurement()
    results.sqliteMissing = sqlite3 == nil
    for run in 1...runs {
      if bluelibMeasurement.failure == nil {
        record(&bluelibMeasurement, label: "import bluelib \(grouped(size))", run: run, of: runs) {
          () throws(RunFailure) in
          let directory = "\(work)/runs/import-bluelib-\(run)"
          let home = directory + "/home"
          defer { if options.keep == nil || run < runs { DataSet.remove(directory) } }
          try DataSet.freshRun(directory, making: home)
          let child = try invoke(
            bluelib, ["--home", home, "-c", "import \(shellQuoted(csv))"], input: .null, in: directory,
            keepOutput: true)
          // The sample albums a fresh home starts with make room for the file's.
          let expected = size
          let count: Int
          do {
            count = try DataSet.albumCount(at: home + "/library.sqlite")
          } catch {
            throw RunFailure(message: "after import: \(error)")
          }
          guard count == expected else {
            throw RunFailure(
              message: "the library has \(grouped(count)) albums after the import, expected \(grouped(expected))")
          }
          // Undo and redo of the import as one step each, in the next runs (the log is in
          // the library file): the log holds ids, so memory does not grow with the import.
          let step = { (verb: String, albums: Int) throws(RunFailure) -> ChildRun in
            let stepped = try self.invoke(
              self.bluelib, ["--home", home, "-c", verb], input: .null, in: directory + "/" + verb, keepOutput: true)
            let count = (try? DataSet.albumCount(at: home + "/library.sqlite")) ?? -1
            guard count == albums else {
              throw RunFailure(
                message: "the library has \(grouped(count)) albums after \(verb), expected \(grouped(albums))")
            }
            return stepped
          }
          record(&undoMeasurement, label: "undo of the import \(grouped(size))", run: run, of: runs) {
            () throws(RunFailure) in try step("undo", DefaultCatalogue.albums.count)
          }
          record(&redoMeasurement, label: "redo of the import \(grouped(size))", run: run, of: runs) {
            () throws(RunFailure) in try step("redo", expected)
          }
          return child
        }
      }
      if let sqlite3, sqliteMeasurement.failure == nil {
        record(&sqliteMeasurement, label: "import sqlite3 \(grouped(size))", run: run, of: runs) {
          () throws(RunFailure) in
          let directory = "\(work)/runs/import-sqlite3-\(run)"
          defer { if options.keep == nil || run < runs { DataSet.remove(directory) } }
          try DataSet.freshRun(directory, making: directory)
          let database = directory + "/t.db"
          let child = try invoke(
            sqlite3, [database, ".import --csv \(dotCommandQuoted(csv)) t"], input: .null, in: directory,
            keepOutput: true)
          _ = try invoke(
            sqlite3, [database, "SELECT count(*) FROM t"], input: .null, in: directory + "/count", keepOutput: true)
          let text = DataSet.contents(ofFileAt: directory + "/count/stdout").trimmingCharacters(
            in: .whitespacesAndNewlines)
          guard Int(text) == size else {
            throw RunFailure(message: "sqlite3's table has '\(text)' rows after the import, expected \(size)")
          }
          return child
        }
      }
    }
    results.bluelibImport = bluelibMeasurement
    results.bluelibUndo = undoMeasurement
    results.bluelibRedo = redoMeasurement
    results.sqliteImport = sqlite3 == nil ? nil : sqliteMeasurement
  }

  // MARK: - Running

  /// Runs `once` `runs` times, stopping at the first failure.
  func measure(_ label: String, runs: Int, _ once: (Int) throws(RunFailure) -> ChildRun) -> Measurement {
    var measurement = Measurement()
    for run in 1...runs {
      record(&measurement, label: label, run: run, of: runs) { () throws(RunFailure) in try once(run) }
      if measurement.failure != nil { break }
    }
    return measurement
  }

  /// Measures two commands run by run in turn (ours, theirs, ours, …), so that a change in
  /// the machine's load during the measurement weighs on both alike.
  func measureInTurn(
    _ labels: (String, String), runs: Int, _ ours: (Int) throws(RunFailure) -> ChildRun,
    _ theirs: (Int) throws(RunFailure) -> ChildRun
  ) -> (Measurement, Measurement) {
    var first = Measurement()
    var second = Measurement()
    for run in 1...runs {
      if first.failure == nil {
        record(&first, label: labels.0, run: run, of: runs) { () throws(RunFailure) in try ours(run) }
      }
      if second.failure == nil {
        record(&second, label: labels.1, run: run, of: runs) { () throws(RunFailure) in try theirs(run) }
      }
    }
    return (first, second)
  }

  func record(
    _ measurement: inout Measurement, label: String, run: Int, of runs: Int,
    _ once: () throws(RunFailure) -> ChildRun
  ) {
    do {
      let child = try once()
      measurement.times.append(child.seconds)
      measurement.cpuTimes.append((child.userSeconds, child.systemSeconds))
      measurement.maxRSSKiB = max(measurement.maxRSSKiB, child.maxRSSKiB)
      log("\(label): run \(run)/\(runs) \(formatSeconds(child.seconds)), peak RSS \(formatKiB(child.maxRSSKiB))")
    } catch {
      measurement.failure = "failed: " + error.message
      log("\(label): run \(run)/\(runs) failed: \(error.message)")
    }
  }

  /// Runs one child with its output in `directory` (stdout to /dev/null unless `keepOutput`);
  /// throws unless it exits 0.
  func invoke(
    _ executable: String, _ arguments: [String], input: ChildInput, in directory: String, keepOutput: Bool,
    adding variables: [String] = []
  ) throws(RunFailure) -> ChildRun {
    do {
      try DataSet.makeDirectory(directory)
    } catch {
      throw RunFailure(message: "setup: \(error)")
    }
    let stderrPath = directory + "/stderr"
    let child: ChildRun
    do {
      child = try runChild(
        executable: executable, arguments: arguments, environment: childEnvironment + variables, input: input,
        stdoutPath: keepOutput ? directory + "/stdout" : "/dev/null", stderrPath: stderrPath,
        timeout: options.timeout)
    } catch {
      throw RunFailure(message: error.description)
    }
    switch child.termination {
    case .exited(0):
      return child
    case .exited(let code):
      throw RunFailure(message: DataSet.firstLine(ofFileAt: stderrPath) ?? "exit status \(code), nothing on stderr")
    case .signaled(let signal):
      let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
      throw RunFailure(message: "killed by signal \(signal) (\(name))")
    case .timedOut(let seconds):
      throw RunFailure(message: "timed out after \(formatSeconds(seconds)) (see --timeout)")
    }
  }

  func log(_ text: String) {
    standardError("bluelib-bench: " + text)
  }
}

/// Writes a line to standard error.
func standardError(_ text: String) {
  _ = Array((text + "\n").utf8).withUnsafeBytes { try? writeAll(STDERR_FILENO, $0) }
}

/// `text` quoted for a shell (and bluelib's tokenizer) when it needs it.
func shellQuoted(_ text: String) -> String {
  let plain =
    !text.isEmpty
    && text.unicodeScalars.allSatisfy { scalar in
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+,:=@%".unicodeScalars.contains(scalar)
    }
  return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// `text` as one argument of a sqlite3 dot-command.
func dotCommandQuoted(_ text: String) -> String {
  text.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" || $0 == "'" || $0 == "\t" })
    ? "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    : text
}
