import ArgumentParser

/// `bluelib-bench [scenarios]`: the scenarios, the default subcommand.
struct Options: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenarios",
    abstract: "Times the release `bluelib` binary as a user runs it (the default).",
    discussion: """
      Generates libraries of 1,000 and 1,000,000 albums and prints a Markdown table to \
      standard output (progress goes to standard error).

      Scenarios (the names --only takes):
        open       open + first render: bluelib --home H -c view
        tap        tap the last album + show: bluelib --home H -c 'tap N; show'
        scroll     100,000 piped `scroll right` lines: … | bluelib --home H
        delete     every album deleted, then back: bluelib --home H -c 'delete all; undo'
        import     import a 1,000,000-row CSV into a fresh home, against
                   sqlite3's .import
        downloads  48 covers from a local HTTP server, each 0.25 s late, 6 at
                   once, into a fresh cover cache:
                   bluelib --home H --downloads 6 -c 'download all; wait'
                   (timed against the ideal ⌈N / C⌉ × L, CPU time checked),
                   and the same URLs through curl --parallel
                   --parallel-immediate --parallel-max 6
        startup    bluelib --home H -c quit against sqlite3 :memory: .quit
        list       bluelib --home H -c list on the large library, against
                   sqlite3 selecting the same rows in order (to /dev/null);
                   with scroll, sqlite3 also runs the same number of
                   lookups by position on the large library
        query      list -f '$title' 'artist:Artist 42' year:1990..1999 on the
                   large library against sqlite3 answering the same question;
                   `find year-` alone and with 100,000 piped `scroll right` on
                   each size (per scroll: 1M ≤ 1.5× 1k, peak RSS < 64 MiB);
                   completing artist: values in this process (< 50 ms)
        folder     import a music folder of 20,000 tracks (2,000 with --quick)
                   into a fresh home: bluelib --home H -c 'import DIR',
                   against python3 mutagen reading the same files and a bare
                   C++ TagLib reader (compiled with g++), in turn
        mpd        the first sync of a real MPD serving a generated database
                   of 20,145 songs in 1,679 albums (MPD's own text db, no
                   audio files): bluelib --home FRESH --mpd 127.0.0.1:PORT
                   -c quit, against mpc fetching the same songs with the same
                   tags (search '(modified-since "0")'), in turn
        subsonic   the first sync of a real supysonic of 1,000 and 10,000
                   albums (1,000 with --quick; one tagged MP3 each, made and
                   scanned once, kept with --keep):
                   bluelib --home FRESH --subsonic http://admin@127.0.0.1:PORT
                   -c quit, against curl paging the same getAlbumList2 with
                   the same parameters, in turn; then a start with the
                   server unchanged, its requests counted by a proxy (≤ 4)
        art        decode + draw a 600×600 JPEG at 40×20 cells in this process
                   (200 runs), and the same JPEG through
                   `chafa --size 40x20 -f symbols` (20 runs) when chafa is on
                   PATH, reported as a ratio; then the same JPEG encoded for
                   kitty, sixel and iTerm2 in this process against
                   `chafa -f kitty`, `-f sixels` and `-f iterm` (goal: ≤ chafa)

      Exit status: 0 when every scenario ran and every check passed; 1 when a scenario \
      failed; 2 on a usage or setup error; 3 when a check failed.
      """)

  @Flag(help: "Smoke run: libraries of 1,000 and 100,000 albums, 10,000 scrolls, 12 covers, 3 runs.")
  var quick = false

  @Option(
    help: ArgumentHelp(
      "Timed runs per scenario, 1 to 1000 (default 5, 3 with --quick; imports run at most 3 times).", valueName: "N"))
  var runs: Int?

  @Option(
    help: ArgumentHelp(
      "Generate into DIR and keep the files (default: a temporary directory, removed at the end).", valueName: "DIR"),
    completion: .directory)
  var keep: String?

  @Option(
    name: .customLong("only"),
    help: ArgumentHelp(
      "Run only these scenarios (comma-separated or repeated): "
        + Scenario.allCases.map(\.rawValue).joined(separator: ", ") + ".",
      valueName: "LIST"),
    transform: Scenario.list)
  var onlyGiven: [Set<Scenario>] = []

  @Option(help: .bluelibBinary, completion: .file())
  var bluelib: String?

  @Option(help: ArgumentHelp("The sqlite3 shell (default: `sqlite3` on PATH).", valueName: "PATH"), completion: .file())
  var sqlite3: String?

  @Option(
    help: ArgumentHelp(
      "Also write the table of the figures measured (docs/benchmarks.md) into FILE: in place of the table between its markers, or as a new file.",
      valueName: "FILE"),
    completion: .file())
  var markdown: String?

  @Option(
    name: .customLong("music-folder"),
    help: ArgumentHelp(
      "Make the folder scenario's music in DIR and keep it (reused next time).", valueName: "DIR"),
    completion: .directory)
  var musicFolder: String?

  @Option(help: ArgumentHelp("Kill a run after this long.", valueName: "SECONDS"))
  var timeout: Double = 900

  @Option(
    name: .customLong("download-covers"),
    help: ArgumentHelp("Covers per downloads run, 1 to 10,000 (default 48, 12 with --quick).", valueName: "N"))
  var downloadCoversGiven: Int?

  @Option(help: ArgumentHelp("The server's delay before each cover, 0 to 10.", valueName: "SECONDS"))
  var downloadLatency = 0.25

  @Option(help: ArgumentHelp("bluelib's --downloads, 1 to 64.", valueName: "C"))
  var downloadConcurrency = 6

  /// The limits of the download flags. bluelib's own `--download-timeout` is 15 s, so a
  /// latency over 10 s would time its downloads out.
  static let downloadCoversRange = 1...10_000
  static let downloadLatencyRange = 0.0...10.0
  static let downloadConcurrencyRange = 1...64

  func validate() throws {
    if let runs, !(1...1000).contains(runs) {
      throw ValidationError("--runs needs a whole number from 1 to 1000, got '\(runs)'")
    }
    if let keep, keep.isEmpty { throw ValidationError("--keep needs a directory") }
    if let musicFolder, musicFolder.isEmpty { throw ValidationError("--music-folder needs a directory") }
    if let markdown, markdown.isEmpty { throw ValidationError("--markdown needs a file") }
    guard timeout > 0, timeout.isFinite else {
      throw ValidationError("--timeout needs a positive number of seconds, got '\(timeout)'")
    }
    if let count = downloadCoversGiven, !Self.downloadCoversRange.contains(count) {
      throw ValidationError("--download-covers needs a whole number from 1 to 10000, got '\(count)'")
    }
    guard downloadLatency.isFinite, Self.downloadLatencyRange.contains(downloadLatency) else {
      throw ValidationError(
        "--download-latency needs a number of seconds from 0 to 10 (bluelib's download timeout is 15 s), "
          + "got '\(downloadLatency)'")
    }
    guard Self.downloadConcurrencyRange.contains(downloadConcurrency) else {
      throw ValidationError(
        "--download-concurrency needs a whole number from 1 to 64 (bluelib's --downloads), "
          + "got '\(downloadConcurrency)'")
    }
  }

  func run() throws {
    let status = BenchMain.runScenarios(self)
    if status != 0 { throw ExitCode(status) }
  }

  /// The scenarios to run: those `--only` names, or all.
  var only: Set<Scenario> {
    onlyGiven.isEmpty ? Set(Scenario.allCases) : onlyGiven.reduce(into: []) { $0.formUnion($1) }
  }
  /// Library sizes, smallest first: the last is the large one the checks compare.
  var sizes: [Int] { quick ? [1_000, 100_000] : [1_000, 1_000_000] }
  /// Tracks in the folder scenario's music folder (ten per album).
  var folderTracks: Int { quick ? 2_000 : 20_000 }
  /// How many `scroll right` lines the scroll scenario pipes in.
  var scrolls: Int { quick ? 10_000 : 100_000 }
  /// Timed runs per scenario.
  var runsPerScenario: Int { runs ?? (quick ? 3 : 5) }
  /// Timed runs of each import (a million rows take a while).
  var importRuns: Int { min(runsPerScenario, 3) }
  /// The sizes of the supysonic the subsonic scenario syncs, in albums.
  var subsonicSizes: [Int] { quick ? [1_000] : [1_000, 10_000] }
  /// Covers the downloads scenario serves and downloads per run.
  var downloadCovers: Int { downloadCoversGiven ?? (quick ? 12 : 48) }
}
