import ArgumentParser
import Foundation

/// The command line of `bluelib-bench`: the scenarios by default, the music-folder import
/// and playback benchmarks, and two subcommands the bench runs itself in a process of
/// their own.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bluelib-bench",
    abstract: "Times the release `bluelib` binary as a user runs it.",
    discussion: """
      Exit status: 0 when every run passed its checks; 1 when a run failed; 2 on a usage \
      or setup error; 3 when a check failed.
      """,
    subcommands: [
      Options.self, MusicCommand.self, PlayCommand.self, GateCommand.self, MusicScanCommand.self,
      MakeLibraryCommand.self,
    ],
    defaultSubcommand: Options.self)
}

extension ArgumentHelp {
  /// `--bluelib PATH`, which every scenario that runs the binary takes.
  static let bluelibBinary = ArgumentHelp(
    "The bluelib binary (default: `bluelib` next to this executable).", valueName: "PATH")
}

/// The `bluelib` binary next to this executable, unless `given`.
private func bluelibBinary(_ given: String?) -> String {
  given.map(DataSet.absolute)
    ?? (BenchMain.executablePath(CommandLine.arguments) as NSString).deletingLastPathComponent + "/bluelib"
}

/// `bluelib-bench music`: a music folder imported by the real binary, against Python
/// mutagen reading the same files (see ``MusicBench``).
struct MusicCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "music", abstract: "Times `import DIR` on a generated music folder against Python mutagen.")

  @Option(help: ArgumentHelp("Make the folder in DIR and keep it (reused next time).", valueName: "DIR"))
  var folder: String?

  @Option(help: ArgumentHelp("Albums in the folder.", valueName: "N"))
  var albums = 2000

  @Option(help: ArgumentHelp("Tracks per album, at least 2.", valueName: "N"))
  var tracksPerAlbum = 10

  @Option(help: ArgumentHelp("Timed runs.", valueName: "N"))
  var runs = 5

  @Option(help: .bluelibBinary)
  var bluelib: String?

  func validate() throws {
    guard albums > 0, tracksPerAlbum > 1, runs > 0 else {
      throw ValidationError("--albums, --tracks-per-album (at least 2) and --runs take positive numbers")
    }
  }

  func run() throws {
    let settings = MusicBench.Settings(folder: folder, albums: albums, tracksPerAlbum: tracksPerAlbum, runs: runs)
    let status = MusicBench.bench(settings, bluelib: bluelibBinary(bluelib))
    if status != 0 { throw ExitCode(status) }
  }
}

/// `bluelib-bench play`: what playing costs (see ``PlayBench``).
struct PlayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play", abstract: "Times play to the first sample, the shell's CPU while playing, memory over a queue."
  )

  @Option(help: ArgumentHelp("Plays to the first sample, 2 to 1000.", valueName: "N"))
  var runs = 20

  @Option(help: ArgumentHelp("Seconds of audio the shell plays for its CPU time, 2 to 3600.", valueName: "S"))
  var seconds = 20

  @Option(help: .bluelibBinary)
  var bluelib: String?

  func validate() throws {
    guard (2...1000).contains(runs) else { throw ValidationError("--runs must be from 2 to 1000, got \(runs)") }
    guard (2...3600).contains(seconds) else {
      throw ValidationError("--seconds must be from 2 to 3600, got \(seconds)")
    }
  }

  func run() throws {
    let status = PlayBench.run(runs: runs, seconds: seconds, bluelib: bluelibBinary(bluelib))
    if status != 0 { throw ExitCode(status) }
  }
}

/// `bluelib-bench music-scan DIR` (internal): the MusicFolder scanner alone, in a process of
/// its own; prints `albums tracks skipped seconds`.
struct MusicScanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: MusicBench.scanCommand, abstract: "Scans DIR and prints what it found (internal).",
    shouldDisplay: false)

  @Argument(help: "The music folder.")
  var folder: String

  func run() throws {
    let status = MusicBench.scanInProcess(folder)
    if status != 0 { throw ExitCode(status) }
  }
}

/// `bluelib-bench make-library CSV LIBRARY` (internal): creates a library from a CSV file
/// through the album store and prints its album count.
struct MakeLibraryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "make-library", abstract: "Creates LIBRARY from CSV (internal).", shouldDisplay: false)

  @Argument(help: "The CSV file.")
  var csv: String

  @Argument(help: "The library file to create.")
  var library: String

  func run() throws {
    do {
      print(try DataSet.makeLibrary(from: csv, at: library))
    } catch {
      standardError("bluelib-bench: \(error)")
      throw ExitCode(1)
    }
  }
}
