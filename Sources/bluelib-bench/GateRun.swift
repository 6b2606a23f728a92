import ArgumentParser
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `bluelib-bench gate`: the cost gate of CI (see ``Gate``).
struct GateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gate",
    abstract: "Counts instructions under callgrind, bluelib against sqlite3 and TagLib, each ratio against its bar.",
    discussion: """
      Runs bluelib and a reference doing the same work at a small size, each under \
      `valgrind --tool=callgrind`: start-up against `sqlite3 :memory: .quit`; a \
      \(grouped(GateRun.importRows))-row CSV import against sqlite3's .import; \
      \(grouped(GateRun.scrolls)) piped `scroll right`, `list` and a field query on \
      \(grouped(GateRun.albums)) albums against sqlite3 on the same file; a \
      \(grouped(GateRun.tracks))-track music folder against a bare C++ TagLib reader; the \
      first sync of an MPD of \(grouped(GateRun.mpdDatabase.songs)) songs (a real MPD on a \
      generated database) against mpc fetching the same songs with the same tags. \
      Each ratio of instructions must not pass its bar in the bars file.

      Exit status: 0 when every ratio is within its bar; 3 when one is over (each named); \
      1 when a run fails; 2 on a usage or setup error.
      """)

  @Option(help: ArgumentHelp("The bars file.", valueName: "FILE"), completion: .file())
  var bars = ".ci/gate-bars"

  @Option(help: .bluelibBinary)
  var bluelib: String?

  @Option(help: ArgumentHelp("The sqlite3 shell (default: `sqlite3` on PATH).", valueName: "PATH"))
  var sqlite3: String?

  @Option(help: ArgumentHelp("Work in DIR and keep it (default: a temporary directory).", valueName: "DIR"))
  var keep: String?

  func run() throws {
    let status = GateRun.main(
      barsPath: bars, bluelib: bluelib.map(DataSet.absolute), sqlite3: sqlite3.map(DataSet.absolute), keep: keep)
    if status != 0 { throw ExitCode(status) }
  }
}

/// Runs the gate's programs under callgrind and judges their counts (``Gate``).
struct GateRun {
  /// The sizes: small enough that the whole gate takes about a minute under callgrind.
  static let importRows = 100_000
  static let albums = 100_000
  static let scrolls = 10_000
  static let tracks = 200
  /// The MPD of the `mpd` figure: a fifth of the bench's (``MPDDatabase/issue``), with the
  /// same shape.
  static let mpdDatabase = MPDDatabase(songs: 4_029, albums: 336)
  static let query = "list -f '$title' 'artist:\(Bench.queryArtist)' year:\(Bench.queryYears.0)..\(Bench.queryYears.1)"

  let valgrind: String
  let bluelib: String
  let sqlite3: String
  let floor: String
  let work: String
  let environment: [String]
  /// The MPD the `mpd` figure syncs from, and mpc.
  let mpd: BenchMPD
  let mpc: String

  static func main(barsPath: String, bluelib given: String?, sqlite3 givenSQLite: String?, keep: String?) -> Int32 {
    let processEnvironment = ProcessInfo.processInfo.environment
    let bars: Gate.Bars
    do {
      let text = try String(contentsOfFile: barsPath, encoding: .utf8)
      bars = try Gate.Bars(parsing: text, source: barsPath)
    } catch let error as GateError {
      standardError("bluelib-bench: gate: \(error)")
      return 2
    } catch {
      standardError("bluelib-bench: gate: cannot read the bars \(barsPath): \(error.localizedDescription)")
      return 2
    }
    let benchExecutable = BenchMain.executablePath(CommandLine.arguments)
    let bluelib = given ?? (benchExecutable as NSString).deletingLastPathComponent + "/bluelib"
    let tools = ["valgrind", "strip"].map { ($0, findInPath($0, environment: processEnvironment)) }
    if let (name, _) = tools.first(where: { $0.1 == nil }) {
      standardError(
        "bluelib-bench: gate: \(name) is not on PATH (Debian: apt install \(name == "strip" ? "binutils" : name))")
      return 2
    }
    guard let sqlite3 = givenSQLite ?? findInPath("sqlite3", environment: processEnvironment) else {
      standardError("bluelib-bench: gate: sqlite3 is not on PATH (Debian: apt install sqlite3)")
      return 2
    }
    guard access(bluelib, X_OK) == 0 else {
      standardError("bluelib-bench: gate: no bluelib binary at \(bluelib) (build it, or pass --bluelib PATH)")
      return 2
    }

    let work: String
    do {
      work = try DataSet.workDirectory(keep: keep, environment: processEnvironment)
    } catch {
      standardError("bluelib-bench: gate: \(error)")
      return 2
    }
    defer { if keep == nil { DataSet.remove(work) } }

    var environment = processEnvironment
    environment["BLUELIB_HOME"] = nil
    environment["NO_COLOR"] = "1"
    // The same hashes in every run: a Swift process seeds its hashing at random, which
    // moves its instruction count by a little from run to run.
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    let start = monotonicSeconds()
    let gate: GateRun
    do {
      gate = try prepare(
        bluelib: bluelib, sqlite3: sqlite3, valgrind: tools[0].1!, strip: tools[1].1!, bench: benchExecutable,
        work: work, environment: environment)
    } catch {
      standardError("bluelib-bench: gate: \(error)")
      return 2
    }
    let counts: [Gate.Count]
    do {
      defer { gate.mpd.stop() }
      counts = try gate.countAll()
    } catch {
      standardError("bluelib-bench: gate: \(error)")
      return 1
    }
    let verdicts = Gate.verdicts(counts, bars: bars)
    print("## cost gate: instructions under callgrind, bluelib / reference (bars: \(barsPath))")
    print()
    print("| figure | bluelib | instructions | reference | instructions | ratio | bar |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: |")
    for verdict in verdicts {
      let figure = verdict.count.figure
      print(
        "| \(cell(figure.title)) | `\(cell(figure.ours))` | \(grouped(Int(verdict.count.ours))) | `\(cell(figure.theirs))` | \(grouped(Int(verdict.count.theirs))) | \(formatGateRatio(verdict.count.ratio)) | ≤ \(formatGateRatio(verdict.bar)) |"
      )
    }
    print()
    for verdict in verdicts { print("- " + verdict.line) }
    print(String(format: "- the gate took %.0f s", monotonicSeconds() - start))
    let failed = verdicts.filter { !$0.passed }
    for verdict in failed { standardError("bluelib-bench: gate: " + verdict.line) }
    return failed.isEmpty ? 0 : 3
  }

  /// Makes what the figures need: a stripped copy of bluelib (valgrind cannot read Swift's
  /// DWARF), a CSV, libraries of 1,000 and ``albums`` albums, a music folder and the
  /// TagLib floor, and starts an MPD on a generated database (``mpdDatabase``).
  static func prepare(
    bluelib: String, sqlite3: String, valgrind: String, strip: String, bench: String, work: String,
    environment: [String: String]
  ) throws -> GateRun {
    let mpdProgram =
      findInPath("mpd", environment: environment) ?? (access("/usr/sbin/mpd", X_OK) == 0 ? "/usr/sbin/mpd" : nil)
    guard let mpdProgram, let mpc = findInPath("mpc", environment: environment) else {
      throw GateError("mpd or mpc is not installed (Debian: apt install mpd mpc)")
    }
    let mpd = try BenchMPD(
      mpd: mpdProgram, database: mpdDatabase, in: work + "/mpd-server",
      environment: environment.map { "\($0.key)=\($0.value)" }.sorted())
    try mpd.start()
    let stripped = work + "/bluelib"
    // Two halves at once, one per core: the libraries; the music folder and the floor.
    let floor = Mutex<Result<String, any Error>?>(nil)
    let libraries = Mutex<(any Error)?>(nil)
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      do {
        if half == 0 {
          DataSet.remove(stripped)
          try run(strip, ["--strip-debug", "-o", stripped, bluelib], in: work + "/strip", environment: environment)
          // TagLib's plug-in, which bluelib loads from beside itself at the first tag read.
          let plugIn = (bluelib as NSString).deletingLastPathComponent + "/libbluelib-taglib.so"
          DataSet.remove(work + "/libbluelib-taglib.so")
          try FileManager.default.copyItem(atPath: plugIn, toPath: work + "/libbluelib-taglib.so")
          try DataSet.writeCSV(count: importRows, to: work + "/albums.csv")
          for size in [1_000, albums] {
            let csv = work + "/albums-\(size).csv"
            try DataSet.writeCSV(count: size, to: csv)
            let library = work + "/library-\(size).sqlite"
            DataSet.remove(library)
            try run(bench, ["make-library", csv, library], in: work + "/make-\(size)", environment: environment)
          }
        } else {
          let settings = MusicBench.Settings(albums: tracks / 10, tracksPerAlbum: 10)
          try MusicFolderMaker(settings: settings, folder: work + "/Music").makeUnlessMade()
          let built = try TagLibFloor.build(in: work + "/floor", environment: environment)
          floor.withLock { $0 = .success(built) }
        }
      } catch {
        if half == 0 { libraries.withLock { $0 = error } } else { floor.withLock { $0 = .failure(error) } }
      }
    }
    if let error = libraries.withLock({ $0 }) { throw error }
    guard let built = floor.withLock({ $0 }) else { throw GateError("the TagLib floor was not built") }
    let floorProgram = try built.get()
    return GateRun(
      valgrind: valgrind, bluelib: stripped, sqlite3: sqlite3, floor: floorProgram, work: work,
      environment: environment.map { "\($0.key)=\($0.value)" }.sorted(), mpd: mpd, mpc: mpc)
  }

  /// Runs `executable` to its end, outside callgrind; throws with its first line of errors.
  private static func run(
    _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]
  )
    throws
  {
    try DataSet.makeDirectory(directory)
    let child = try runChild(
      executable: executable, arguments: arguments, environment: environment.map { "\($0.key)=\($0.value)" },
      input: .null, stdoutPath: directory + "/stdout", stderrPath: directory + "/stderr", timeout: 600)
    guard child.termination.succeeded else {
      throw SetupError(
        "\((executable as NSString).lastPathComponent) \(arguments.first ?? "") failed: "
          + (DataSet.firstLine(ofFileAt: directory + "/stderr") ?? "\(child.termination)"))
    }
  }

  // MARK: - The figures

  /// One program to count: bluelib's or its reference's side of a figure.
  private struct Run {
    var figure: Int
    var ours: Bool
    var count: () throws -> UInt64
  }

  /// Counts every figure for bluelib and for its reference, two programs at a time (one
  /// per core: callgrind runs a program on one); the counts do not depend on the order.
  func countAll() throws -> [Gate.Count] {
    var runs: [Run] = []
    for (index, figure) in Gate.figures.enumerated() {
      let (ours, theirs) = try programs(figure)
      runs += [Run(figure: index, ours: true, count: ours), Run(figure: index, ours: false, count: theirs)]
    }
    // The longest first (both imports, bluelib's scrolls and its first sync of an MPD: a
    // billion instructions or so each), so that the two cores end together.
    let long: Set<String> = ["import", "scroll", "mpd"]
    runs.sort { long.contains(Gate.figures[$0.figure].name) && !long.contains(Gate.figures[$1.figure].name) }
    let next = Mutex(0)
    let counted = Mutex<[(figure: Int, ours: Bool, count: UInt64)]>([])
    let failure = Mutex<(any Error)?>(nil)
    // Read-only from here: each worker takes the next index.
    nonisolated(unsafe) let queued = runs
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      while failure.withLock({ $0 }) == nil {
        let index = next.withLock { index in
          defer { index += 1 }
          return index
        }
        guard index < queued.count else { return }
        let run = queued[index]
        do {
          let count = try run.count()
          counted.withLock { $0.append((run.figure, run.ours, count)) }
        } catch {
          let name = Gate.figures[run.figure].name
          failure.withLock { $0 = GateError("\(name): \(error)") }
        }
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    let all = counted.withLock { $0 }
    return Gate.figures.enumerated().map { index, figure in
      let ours = all.first { $0.figure == index && $0.ours }?.count ?? 0
      let theirs = all.first { $0.figure == index && !$0.ours }?.count ?? 0
      standardError(
        "bluelib-bench: gate: \(figure.name): \(grouped(Int(ours))) against \(grouped(Int(theirs))) instructions")
      return Gate.Count(figure: figure, ours: ours, theirs: theirs)
    }
  }

  /// Prepares `figure`'s directories and returns how to count bluelib and its reference.
  private func programs(_ figure: Gate.Figure) throws -> (ours: () throws -> UInt64, theirs: () throws -> UInt64) {
    let directory = "\(work)/\(figure.name)"
    DataSet.remove(directory)
    try DataSet.makeDirectory(directory)
    let home = directory + "/home"
    try DataSet.makeDirectory(home)
    let ours = directory + "/ours"
    let theirs = directory + "/theirs"
    let large = work + "/library-\(Self.albums).sqlite"
    switch figure.name {
    case "startup":
      try DataSet.copyFile(work + "/library-1000.sqlite", to: home + "/library.sqlite")
      return (
        { try instructions(bluelib, ["--home", home, "-c", "quit"], in: ours) },
        { try instructions(sqlite3, [":memory:", ".quit"], in: theirs) }
      )
    case "import":
      let csv = work + "/albums.csv"
      return (
        { try instructions(bluelib, ["--home", home, "-c", "import \(shellQuoted(csv))"], in: ours) },
        { try instructions(sqlite3, [directory + "/t.db", ".import --csv \(dotCommandQuoted(csv)) t"], in: theirs) }
      )
    case "scroll":
      try DataSet.copyFile(large, to: home + "/library.sqlite")
      let scrolls = Array(String(repeating: "scroll right\n", count: Self.scrolls).utf8)
      var selects = ""
      for index in 0..<Self.scrolls { selects += "select title from album where position=\(index % Self.albums);\n" }
      let input = Array(selects.utf8)
      return (
        { try instructions(bluelib, ["--home", home], input: .pipe(scrolls), in: ours) },
        { try instructions(sqlite3, [large], input: .pipe(input), in: theirs) }
      )
    case "list":
      try DataSet.copyFile(large, to: home + "/library.sqlite")
      let query = "select position, title, artist, year, genre, coverUrl from album order by position"
      return (
        { try instructions(bluelib, ["--home", home, "-c", "list"], in: ours) },
        { try instructions(sqlite3, [large, query], in: theirs) }
      )
    case "query":
      try DataSet.copyFile(large, to: home + "/library.sqlite")
      let (low, high) = Bench.queryYears
      let query =
        "select title from album where artist like '%\(Bench.queryArtist)%' and year between \(low) and \(high) order by position"
      return (
        { try instructions(bluelib, ["--home", home, "-c", Self.query], in: ours) },
        { try instructions(sqlite3, [large, query], in: theirs) }
      )
    case "folder":
      let music = work + "/Music"
      return (
        { try instructions(bluelib, ["--home", home, "-c", "import \(shellQuoted(music))"], in: ours) },
        { try instructions(floor, [music], in: theirs) }
      )
    case "mpd":
      // A fresh home for each count (the first sync), the server's own database.
      let port = String(mpd.port)
      let songs = Self.mpdDatabase.songs
      let albums = Self.mpdDatabase.albums
      let search = ["-h", "127.0.0.1", "-p", port, "-f", Bench.mpcFormat, "search", "(modified-since \"0\")"]
      return (
        {
          let count = try instructions(
            bluelib, ["--home", home, "--mpd", "127.0.0.1:" + port, "-c", "quit"], in: ours)
          try Bench.expectServerAlbums(albums, in: home)
          return count
        },
        {
          let count = try instructions(mpc, search, in: theirs)
          let lines = DataSet.contents(ofFileAt: theirs + "/stdout", limit: 64 << 20).utf8.count { $0 == 10 }
          guard lines == songs else { throw GateError("mpc printed \(lines) songs, expected \(songs)") }
          return count
        }
      )
    default:
      throw GateError("no figure named \(figure.name)")
    }
  }

  /// The instructions `executable arguments…` runs under callgrind (its threads together);
  /// throws unless it exits 0.
  func instructions(_ executable: String, _ arguments: [String], input: ChildInput = .null, in directory: String)
    throws -> UInt64
  {
    try DataSet.makeDirectory(directory)
    let log = directory + "/callgrind.log"
    let child = try runChild(
      executable: valgrind,
      arguments: ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-file=" + log, executable] + arguments,
      environment: environment, input: input, stdoutPath: directory + "/stdout", stderrPath: directory + "/stderr",
      timeout: 600)
    guard child.termination.succeeded else {
      let reason = DataSet.firstLine(ofFileAt: directory + "/stderr") ?? "\(child.termination)"
      throw GateError("\((executable as NSString).lastPathComponent) failed under callgrind: \(reason)")
    }
    guard let count = Gate.collected(fromLog: DataSet.contents(ofFileAt: log)) else {
      throw GateError("no instruction count in \(log)")
    }
    return count
  }
}
