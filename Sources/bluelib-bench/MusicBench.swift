import CoverArt
import Dispatch
import Foundation
import MusicFolder
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The music-folder import benchmark (issue 14), apart from the scenarios of `Options`:
///
///     bluelib-bench music [--folder DIR] [--albums N] [--tracks-per-album N] [--runs N] [--bluelib PATH]
///
/// makes a folder of N albums (copies of the silent fixtures, each tagged through TagLib:
/// mixed formats, compilations, two-disc albums, embedded and folder covers), then times, on
/// a warm cache and in the same run, the real command — `bluelib --home H -c 'import DIR'`
/// into a fresh home each run, the way a user imports a music folder — against a Python
/// mutagen scan of the same files (`mutagen.File(path, easy=True)` reading album, artist,
/// date, genre and length). For the record it also times the import again into the same
/// home (every album unchanged) and `bluelib-bench music-scan DIR` (the MusicFolder
/// scanner alone, in a process of its own). `--folder DIR` keeps the folder and reuses it
/// next time. When `strace` is on PATH, one more unchanged re-import runs under it to count
/// the audio files it opens. Exit status 0 when the goals hold (import ≤ 0.25× mutagen's
/// time, peak RSS < 64 MiB; unchanged re-import ≤ 0.15× the import, opening no audio file),
/// 3 when one does not, 1 when a run fails, 2 on a usage or setup error.
enum MusicBench {
  /// The internal subcommand that scans a folder in a process of its own.
  static let scanCommand = "music-scan"

  // MARK: - The scan, in its own process

  /// Scans `folder` and prints `albums tracks skipped seconds`.
  static func scanInProcess(_ folder: String) -> Int32 {
    let clock = ContinuousClock()
    let start = clock.now
    do {
      let scan = try MusicFolderScanner().scan(folder)
      let elapsed = clock.now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      print(scan.albums.count, scan.trackCount, scan.skipped.count, seconds)
      return 0
    } catch {
      standardError("bluelib-bench: \(error)")
      return 1
    }
  }

  // MARK: - The benchmark

  struct Settings {
    var folder: String?
    var albums = 2000
    var tracksPerAlbum = 10
    var runs = 5
  }

  static func bench(_ settings: Settings, bluelib: String) -> Int32 {
    let executable = BenchMain.executablePath(CommandLine.arguments)
    guard access(bluelib, X_OK) == 0 else {
      standardError("bluelib-bench: no bluelib binary at \(bluelib) (build it, or pass --bluelib PATH)")
      return 2
    }
    let environment = ProcessInfo.processInfo.environment
    guard let python = findInPath("python3", environment: environment) else {
      standardError("bluelib-bench: python3 is not on PATH")
      return 2
    }

    let work: String
    do {
      work = try DataSet.makeTemporaryDirectory(environment: environment)
    } catch {
      standardError("bluelib-bench: \(error)")
      return 2
    }
    defer { DataSet.remove(work) }
    let folder = settings.folder.map(DataSet.absolute) ?? work + "/Music"
    let script = work + "/mutagen-scan.py"
    do {
      try Data(mutagenScript().utf8).write(to: URL(fileURLWithPath: script))
      try MusicFolderMaker(settings: settings, folder: folder).makeUnlessMade()
    } catch {
      standardError("bluelib-bench: \(error)")
      return 2
    }

    let childEnvironment = environment.map { "\($0.key)=\($0.value)" }
    func runOnce(_ command: String, _ arguments: [String]) throws -> (run: ChildRun, output: [Substring]) {
      let run = try runChild(
        executable: command, arguments: arguments, environment: childEnvironment, input: .null,
        stdoutPath: work + "/stdout", stderrPath: work + "/stderr", timeout: 600)
      guard run.termination.succeeded else {
        throw SetupError(
          "\(command) \(arguments.joined(separator: " ")) failed (\(run.termination)): "
            + DataSet.contents(ofFileAt: work + "/stderr"))
      }
      return (run, DataSet.contents(ofFileAt: work + "/stdout").split(whereSeparator: \.isWhitespace))
    }

    // The real command: a fresh home each run (the library created, then the albums added),
    // then the same import again into that home (every album unchanged).
    let importCommand = "import " + quotedForShell(folder)
    func importRun(fresh: Bool) throws -> (run: ChildRun, summary: String) {
      let home = work + "/home"
      if fresh { DataSet.remove(home) }
      let result = try runOnce(bluelib, ["--home", home, "-c", importCommand])
      return (result.run, DataSet.firstLine(ofFileAt: work + "/stdout") ?? "")
    }

    var imports: [ChildRun] = []
    var reimports: [ChildRun] = []
    var scans: [(wall: Double, scan: Double, rssKiB: Int)] = []
    var theirs: [(wall: Double, scan: Double, rssKiB: Int)] = []
    var importSummary = ""
    var reimportSummary = ""
    var theirCounts: [Substring] = []
    do {
      // One untimed run each warms the page cache, Python's bytecode cache and the libraries.
      _ = try importRun(fresh: true)
      _ = try runOnce(executable, [scanCommand, folder])
      _ = try runOnce(python, [script, folder])
      for run in 1...settings.runs {
        standardError("music import: run \(run) of \(settings.runs)")
        let imported = try importRun(fresh: true)
        imports.append(imported.run)
        importSummary = imported.summary
        let them = try runOnce(python, [script, folder])
        theirs.append((them.run.seconds, Double(them.output.last ?? "") ?? .nan, them.run.maxRSSKiB))
        theirCounts = Array(them.output.prefix(3))
        let again = try importRun(fresh: false)
        reimports.append(again.run)
        reimportSummary = again.summary
        let scan = try runOnce(executable, [scanCommand, folder])
        scans.append((scan.run.seconds, Double(scan.output.last ?? "") ?? .nan, scan.run.maxRSSKiB))
      }
    } catch {
      standardError("bluelib-bench: \(error)")
      return 1
    }
    // The audio files an unchanged re-import opens, counted by strace (not timed).
    var opened: Int?
    if let strace = findInPath("strace", environment: environment) {
      let trace = work + "/trace"
      do {
        _ = try runOnce(
          strace,
          ["-f", "-qq", "-e", "trace=open,openat", "-o", trace, bluelib, "--home", work + "/home", "-c", importCommand])
        opened =
          DataSet.contents(ofFileAt: trace).split(separator: "\n").filter { line in
            line.contains(folder)
              && MusicFolderScanner.audioExtensions.contains { line.lowercased().contains(".\($0)\"") }
          }.count
      } catch {
        standardError("bluelib-bench: strace: \(error)")
      }
    }

    let importWall = median(imports.map(\.seconds))
    let theirWall = median(theirs.map(\.wall))
    let importRSS = imports.map(\.maxRSSKiB).max() ?? 0
    let ratio = importWall / theirWall
    let tracks = settings.albums * settings.tracksPerAlbum
    func mebibytes(_ kibibytes: Int) -> String { format(Double(kibibytes) / 1024, digits: 1) }
    func cpu(_ runs: [ChildRun]) -> String { format(median(runs.map { $0.userSeconds + $0.systemSeconds })) }
    print(
      "## Music-folder import: \(tracks) tracks in \(settings.albums) album folders (median of \(settings.runs), warm cache)"
    )
    print()
    print("| command | wall s | CPU s | peak RSS MiB | printed |")
    print("| --- | ---: | ---: | ---: | --- |")
    print(
      "| `bluelib --home H -c 'import DIR'`, fresh home | \(format(importWall)) | \(cpu(imports)) "
        + "| \(mebibytes(importRSS)) | \(importSummary) |")
    let reimportWall = median(reimports.map(\.seconds))
    print(
      "| the same again, same home (all unchanged) | \(format(reimportWall)) | \(cpu(reimports)) "
        + "| \(mebibytes(reimports.map(\.maxRSSKiB).max() ?? 0)) | \(reimportSummary) |")
    print(
      "| MusicFolderScanner alone (`bluelib-bench \(scanCommand)`), 2 workers | \(format(median(scans.map(\.wall)))) "
        + "| – | \(mebibytes(scans.map(\.rssKiB).max() ?? 0)) | in-process \(format(median(scans.map(\.scan)))) s |")
    print(
      "| python3 mutagen.File(easy=True) | \(format(theirWall)) | – "
        + "| \(mebibytes(theirs.map(\.rssKiB).max() ?? 0)) "
        + "| \(theirCounts.joined(separator: " ")) (files skipped folder-albums), in-process \(format(median(theirs.map(\.scan)))) s |"
    )
    print()
    let fastEnough = ratio <= 0.25
    let smallEnough = importRSS < 64 << 10
    let reimportRatio = reimportWall / importWall
    let reimportFast = reimportRatio <= 0.15
    let nothingOpened = opened.map { $0 == 0 } ?? true
    print("- time: import \(format(ratio, digits: 2))× mutagen (goal ≤ 0.25×): \(fastEnough ? "PASS" : "FAIL")")
    print("- peak RSS of the import: \(mebibytes(importRSS)) MiB (goal < 64 MiB): \(smallEnough ? "PASS" : "FAIL")")
    print(
      "- time: unchanged re-import \(format(reimportRatio, digits: 3))× the import (goal ≤ 0.15×): "
        + (reimportFast ? "PASS" : "FAIL"))
    print(
      "- audio files an unchanged re-import opens (strace): "
        + (opened.map { "\($0) (goal 0): " + (nothingOpened ? "PASS" : "FAIL") } ?? "not counted (no strace on PATH)"))
    print("- folder: \(folder)")
    return fastEnough && smallEnough && reimportFast && nothingOpened ? 0 : 3
  }

  /// `path` in single quotes for bluelib's tokenizer (a quote inside as `'\''`, as a shell does).
  static func quotedForShell(_ path: String) -> String {
    "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  static func format(_ value: Double, digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

  /// The Python side: mutagen on every audio file (by the extensions bluelib reads: TagLib's
  /// list), reading what an album import needs.
  static func mutagenScript() -> String {
    let extensions = MusicFolderScanner.audioExtensions.sorted().map { "\".\($0)\"" }.joined(separator: ", ")
    return """
      import os, sys, time
      import mutagen

      EXTENSIONS = (\(extensions))

      def first(audio, key):
          values = audio.get(key)
          return values[0] if values else None

      start = time.monotonic()
      files = skipped = 0
      albums = set()
      for folder, folders, names in os.walk(sys.argv[1], followlinks=True):
          folders[:] = sorted(name for name in folders if not name.startswith("."))
          for name in sorted(names):
              if name.startswith(".") or not name.lower().endswith(EXTENSIONS):
                  continue
              files += 1
              try:
                  audio = mutagen.File(os.path.join(folder, name), easy=True)
              except Exception:
                  audio = None
              if audio is None or not audio.info.length:
                  skipped += 1
                  continue
              tags = (first(audio, "album"), first(audio, "artist"), first(audio, "date"), first(audio, "genre"))
              length = audio.info.length
              albums.add((folder, tags[0]))
      print(files, skipped, len(albums), time.monotonic() - start)

      """
  }
}

/// Makes the benchmark's music folder: `albums` folders of `tracksPerAlbum` tracks, one
/// fixture format per album, tagged through TagLib. Every 10th album is a compilation
/// without album-artist tags, every 20th is split into `CD1/` and `CD2/`; a third of the
/// albums embed a 300×300 JPEG cover in every track, and half of the others have a
/// `cover.jpg` beside them. A marker file records what was made, so a kept folder is reused.
struct MusicFolderMaker {
  var settings: MusicBench.Settings
  var folder: String

  /// The fixtures, found from this source file (the benchmark runs from a checkout).
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/music").path
  static let formats = ["mp3", "flac", "m4a", "ogg", "opus"]

  var marker: String { folder + "/.bluelib-bench-music" }
  var signature: String { "\(settings.albums) albums of \(settings.tracksPerAlbum) tracks, version 1\n" }

  func makeUnlessMade() throws {
    if DataSet.contents(ofFileAt: marker) == signature { return }
    if FileManager.default.fileExists(atPath: folder) {
      guard (try FileManager.default.contentsOfDirectory(atPath: folder)).isEmpty || fileExists(marker) else {
        throw SetupError("\(folder) is not empty and was not made by the benchmark: give another --folder")
      }
      try FileManager.default.removeItem(atPath: folder)
    }
    standardError("music scan: making \(settings.albums * settings.tracksPerAlbum) tracks in \(folder)")
    var fixtures: [String: Data] = [:]
    for format in Self.formats {
      fixtures[format] = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/silence." + format))
    }
    let cover = SampleCover.sampleJPEG(width: 300, height: 300)
    let failures = LockedFailures()
    let albums = settings.albums
    let tracksPerAlbum = settings.tracksPerAlbum
    let folder = folder
    let made = fixtures
    // Two makers at once: TagLib rewrites every file, and there are two cores.
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      for album in stride(from: half, to: albums, by: 2) {
        do {
          try Self.makeAlbum(album, tracks: tracksPerAlbum, in: folder, fixtures: made, cover: cover)
        } catch {
          failures.record("\(error)")
        }
      }
    }
    if let failure = failures.first { throw SetupError(failure) }
    try Data(signature.utf8).write(to: URL(fileURLWithPath: marker))
  }

  private func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  static func makeAlbum(_ album: Int, tracks: Int, in root: String, fixtures: [String: Data], cover: [UInt8]) throws {
    let format = formats[album % formats.count]
    let artist = String(format: "Artist %04d", album / 4)
    let year = 1960 + album % 60
    let title = String(format: "Album %05d", album)
    let compilation = album % 10 == 9
    let discs = album % 20 == 4 ? 2 : 1
    let embedded = album % 3 == 0
    let directory = "\(root)/\(compilation ? "Compilations" : artist)/\(title) (\(year))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    if !embedded && album % 2 == 1 {
      try Data(cover).write(to: URL(fileURLWithPath: directory + "/cover.jpg"))
    }
    for track in 1...tracks {
      let disc = discs == 1 ? 1 : (track <= tracks / 2 ? 1 : 2)
      let discDirectory = discs == 1 ? directory : directory + "/CD\(disc)"
      if track == 1 || (discs == 2 && track == tracks / 2 + 1) {
        try FileManager.default.createDirectory(atPath: discDirectory, withIntermediateDirectories: true)
      }
      let path = String(format: "%@/%02d Track %d.%@", discDirectory, track, track, format)
      try fixtures[format]!.write(to: URL(fileURLWithPath: path))
      try TagEdit(
        album: title, artist: compilation ? String(format: "Artist %04d", (album * 7 + track) % 500) : artist,
        albumArtist: album % 4 == 1 ? artist : nil, title: "Track \(track)", trackNumber: "\(track)/\(tracks)",
        date: album % 2 == 0 ? "\(year)-05-21" : "\(year)", genre: ["Rock", "Jazz", "Pop", "Folk"][album % 4],
        picture: embedded ? (cover, "image/jpeg") : nil, id3v2Version: album % 2 == 0 ? 3 : 4
      ).write(to: path)
    }
  }
}

/// The failures of several threads.
private final class LockedFailures: Sendable {
  private let failures = Mutex<[String]>([])

  func record(_ failure: String) { failures.withLock { $0.append(failure) } }
  var first: String? { failures.withLock { $0.first } }
}
