import BlueLibrary
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Numbers

/// `1234567` → `1,234,567`, as the shell writes counts.
func grouped(_ value: Int) -> String { Library.grouped(value) }

/// A duration with a unit that suits it: `850 µs`, `12.3 ms`, `4.21 s`.
func formatSeconds(_ seconds: Double) -> String {
  switch seconds {
  case ..<1e-3: String(format: "%.0f µs", seconds * 1e6)
  case ..<1e-2: String(format: "%.2f ms", seconds * 1e3)
  case ..<1: String(format: "%.1f ms", seconds * 1e3)
  default: String(format: "%.2f s", seconds)
  }
}

/// KiB as MiB: `23.4 MiB`.
func formatKiB(_ kib: Int) -> String {
  String(format: "%.1f MiB", Double(kib) / 1024)
}

/// `1 run`, `5 runs`.
func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

func formatRatio(_ ratio: Double) -> String {
  String(format: "%.2f×", ratio)
}

/// Text for a Markdown table cell: no pipes or line breaks.
func cell(_ text: String) -> String {
  text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
}

// MARK: - The machine

enum Machine {
  static func cores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  static func cpuModel() -> String {
    let text = DataSet.contents(ofFileAt: "/proc/cpuinfo")
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return "unknown CPU"
  }

  static func memory() -> String {
    let text = DataSet.contents(ofFileAt: "/proc/meminfo")
    for line in text.split(separator: "\n") where line.hasPrefix("MemTotal:") {
      let fields = line.split(separator: " ")
      if fields.count >= 2, let kib = Int(fields[1]) {
        return String(format: "%.1f GiB RAM", Double(kib) / 1024 / 1024)
      }
    }
    return "unknown RAM"
  }

  static func operatingSystem() -> String {
    let text = DataSet.contents(ofFileAt: "/etc/os-release")
    for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
      return String(line.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }
    var name = utsname()
    uname(&name)
    return withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
  }
}

// MARK: - The report

enum CheckStatus: String {
  case pass = "PASS"
  case fail = "FAIL"
  case skip = "SKIP"
}

struct Check {
  var status: CheckStatus
  var text: String
}

struct Report {
  let options: Options
  let results: Results
  let commandLine: String
  let bluelib: String
  let bluelibVersion: String
  let sqlite3: String?
  let sqliteVersion: String
  let work: String

  var small: Int { options.sizes.first ?? 0 }
  var large: Int { options.sizes.last ?? 0 }

  func scenarioTitle(_ scenario: Scenario) -> String {
    switch scenario {
    case .open: "open + first render (`-c view`)"
    case .tap: "tap the last album + show (`-c 'tap N; show'`)"
    case .scroll: "\(grouped(options.scrolls)) × `scroll right`, piped"
    case .delete: "delete every album, then undo (`-c 'delete all; undo'`)"
    case .import: "import"
    case .downloads: "downloads"
    case .art: "cover art"
    case .startup: "start-up"
    case .list: "list"
    case .query: "queries and views"
    case .folder: "music folder"
    case .mpd: "MPD"
    case .subsonic: "Subsonic"
    }
  }

  func timeCell(_ seconds: Double?, perCommand: Bool) -> String {
    guard let seconds else { return "–" }
    let text = formatSeconds(seconds)
    guard perCommand else { return text }
    return text + " (" + String(format: "%.1f µs", seconds * 1e6 / Double(options.scrolls)) + "/cmd)"
  }

  /// One table row: label cells, then median | min | peak RSS, or the failure across them.
  func measurementCells(_ measurement: Measurement, perCommand: Bool = false) -> String {
    if let failure = measurement.failure {
      return "\(cell(failure)) | – | –"
    }
    var rss = formatKiB(measurement.maxRSSKiB)
    if let floor = results.rssFloorKiB, measurement.maxRSSKiB <= floor + 512 {
      rss = "≤ " + rss + " (floor)"
    }
    return
      "\(timeCell(measurement.median, perCommand: perCommand)) | \(timeCell(measurement.minimum, perCommand: perCommand)) | \(rss)"
  }

  var checks: [Check] {
    var checks: [Check] = []
    let quickNote = options.quick ? " (quick run: \(grouped(large)) albums stand in for 1,000,000)" : ""

    let smallTap = results.row(.tap, size: small)
    let largeTap = results.row(.tap, size: large)
    if let smallMedian = smallTap?.median, let largeMedian = largeTap?.median {
      let limit = 1.5 * smallMedian
      checks.append(
        Check(
          status: largeMedian <= limit ? .pass : .fail,
          text:
            "tap to the last album + show on \(grouped(large)) albums takes ≤ 1.5× its time on \(grouped(small)): \(formatSeconds(largeMedian)) vs \(formatSeconds(smallMedian)) (limit \(formatSeconds(limit))), ratio \(formatRatio(largeMedian / smallMedian))\(quickNote)"
        ))
    } else {
      checks.append(missing("tap to the last album + show ≤ 1.5× across sizes", smallTap, largeTap))
    }

    if let largeTap, largeTap.succeeded {
      let limitKiB = 64 * 1024
      checks.append(
        Check(
          status: largeTap.maxRSSKiB < limitKiB ? .pass : .fail,
          text:
            "peak RSS of tap + show on \(grouped(large)) albums < 64 MiB: \(formatKiB(largeTap.maxRSSKiB))\(quickNote)")
      )
    } else {
      checks.append(missing("peak RSS of tap + show < 64 MiB", largeTap))
    }

    let importRatio = Results.importRatioGoal
    let importQuickNote = options.quick ? " (quick run: \(grouped(large)) rows stand in for 1,000,000)" : ""
    if results.sqliteMissing && options.only.contains(.import) {
      checks.append(
        Check(
          status: .skip,
          text: "import ≤ \(formatRatio(importRatio)) sqlite3's `.import`: sqlite3 is not installed (see --sqlite3)"))
    } else if let ours = results.bluelibImport?.median, let theirs = results.sqliteImport?.median {
      checks.append(
        Check(
          status: ours <= importRatio * theirs ? .pass : .fail,
          text:
            "import of the \(grouped(results.importSize))-row CSV takes ≤ \(formatRatio(importRatio)) sqlite3's `.import`: \(formatSeconds(ours)) vs \(formatSeconds(theirs)) (limit \(formatSeconds(importRatio * theirs))), ratio \(formatRatio(ours / theirs))\(importQuickNote)"
        ))
    } else {
      checks.append(
        missing(
          "import ≤ \(formatRatio(importRatio)) sqlite3's `.import`", results.bluelibImport, results.sqliteImport))
    }

    if let ours = results.bluelibImport, ours.succeeded {
      let limitKiB = Results.importPeakGoalKiB
      checks.append(
        Check(
          status: ours.maxRSSKiB < limitKiB ? .pass : .fail,
          text:
            "peak RSS of the import of the \(grouped(results.importSize))-row CSV < \(formatKiB(limitKiB)): \(formatKiB(ours.maxRSSKiB))\(importQuickNote)"
        ))
    } else if options.only.contains(.import) {
      checks.append(missing("peak RSS of the import < \(formatKiB(Results.importPeakGoalKiB))", results.bluelibImport))
    }

    if let undo = results.bluelibUndo, let redo = results.bluelibRedo, undo.succeeded, redo.succeeded {
      let peak = max(undo.maxRSSKiB, redo.maxRSSKiB)
      checks.append(
        Check(
          status: peak < 64 * 1024 ? .pass : .fail,
          text:
            "peak RSS of undo and redo of the \(grouped(results.importSize))-album import < 64 MiB: \(formatKiB(peak)) (undo \(formatSeconds(undo.median ?? 0)), redo \(formatSeconds(redo.median ?? 0)))"
        ))
    } else if options.only.contains(.import) {
      checks.append(
        missing("peak RSS of undo and redo of the import < 64 MiB", results.bluelibUndo, results.bluelibRedo))
    }

    checks += referenceChecks()
    checks += queryChecks()
    checks += folderChecks(results.folder)
    checks += unchangedStartChecks()
    if let check = staticBinaryCheck(results.staticBinary) { checks.append(check) }
    checks += downloadChecks(results.downloads)
    checks.append(coverArtCheck(results.coverArt))
    checks += pictureChecks(results.coverArt)
    return checks
  }

  /// A check that cannot be decided: FAIL when a scenario it needs failed, SKIP when it was not run.
  func missing(_ text: String, _ measurements: Measurement?...) -> Check {
    if measurements.contains(where: { $0?.failure != nil }) {
      return Check(status: .fail, text: "\(text): a scenario it needs failed")
    }
    return Check(status: .skip, text: "\(text): not measured (see --only)")
  }

  func render() -> String {
    var lines: [String] = []
    lines.append("# bluelib benchmark\(options.quick ? " (quick)" : "")")
    lines.append("")
    lines.append(
      "- machine: nproc \(Machine.cores()), \(Machine.cpuModel()), \(Machine.memory()), \(Machine.operatingSystem())")
    lines.append("- bluelib: `\(bluelib)` (\(bluelibVersion))")
    lines.append("- sqlite3: " + (sqlite3.map { "`\($0)` (\(sqliteVersion))" } ?? "not installed"))
    lines.append("- command: `\(commandLine)`")
    lines.append("- data: `\(work)`\(options.keep == nil ? " (removed at the end)" : " (kept)")")
    lines.append(
      "- method: each run is a fresh process with its own `--home` (a copy of the generated library), stdin from /dev/null or a pipe, stdout to a file or /dev/null, `NO_COLOR=1`; time is spawn to exit on the monotonic clock; peak RSS is the child's `ru_maxrss` from `wait4`, the largest over the runs; \(plural(options.runsPerScenario, "run")) per scenario, \(options.importRuns) per import"
    )
    if let floor = results.rssFloorKiB {
      lines.append(
        "- peak RSS floor: \(formatKiB(floor)), what `/bin/true` reports when run the same way (a child's `ru_maxrss` counts the pages it inherits from the bench until exec); a reading within 0.5 MiB of it is marked ≤ (floor)"
      )
    }
    lines.append("")

    let libraryScenarios = [Scenario.open, .tap, .scroll, .delete].filter { options.only.contains($0) }
    if !libraryScenarios.isEmpty {
      lines.append("| scenario | library (albums) | median | min | peak RSS |")
      lines.append("| --- | ---: | ---: | ---: | ---: |")
      for scenario in libraryScenarios {
        for size in options.sizes {
          guard let measurement = results.row(scenario, size: size) else { continue }
          lines.append(
            "| \(scenarioTitle(scenario)) | \(grouped(size)) | \(measurementCells(measurement, perCommand: scenario == .scroll)) |"
          )
        }
      }
      lines.append("")
    }

    lines += referenceLines()
    lines += queryLines()

    if options.only.contains(.import) {
      let size = results.importSize
      lines.append("## import of the \(grouped(size))-row CSV into a fresh home")
      lines.append("")
      lines.append("| tool | command | median | min | peak RSS |")
      lines.append("| --- | --- | ---: | ---: | ---: |")
      if let ours = results.bluelibImport {
        lines.append(
          "| bluelib | `bluelib --home FRESH -c 'import albums-\(size).csv'` | \(measurementCells(ours)) |")
      }
      if let undo = results.bluelibUndo, let redo = results.bluelibRedo {
        lines.append(
          "| bluelib | `bluelib --home SAME -c undo` (the import, in the next run) | \(measurementCells(undo)) |")
        lines.append("| bluelib | `bluelib --home SAME -c redo` | \(measurementCells(redo)) |")
      }
      if results.sqliteMissing {
        lines.append("| sqlite3 | `sqlite3 FRESH/t.db '.import --csv albums-\(size).csv t'` | not installed | – | – |")
      } else if let theirs = results.sqliteImport {
        lines.append(
          "| sqlite3 | `sqlite3 FRESH/t.db '.import --csv albums-\(size).csv t'` | \(measurementCells(theirs)) |")
      }
      lines.append("")
      if let ours = results.bluelibImport?.median, let theirs = results.sqliteImport?.median {
        lines.append(
          "ratio bluelib / sqlite3: \(formatRatio(ours / theirs)) (medians), \(formatRatio((results.bluelibImport?.minimum ?? ours) / (results.sqliteImport?.minimum ?? theirs))) (minimums)"
        )
      } else {
        lines.append("ratio bluelib / sqlite3: – (not both measured)")
      }
      lines.append("")
    }

    if let folder = results.folder {
      lines += folderLines(folder)
    }

    if let downloads = results.downloads {
      lines += downloadLines(downloads)
      lines += downloadComparisonLines(downloads)
    }

    if let coverArt = results.coverArt {
      lines += coverArtLines(coverArt)
    }

    lines.append("## checks")
    lines.append("")
    for check in checks {
      lines.append("- \(check.status.rawValue) — \(check.text)")
    }
    return lines.joined(separator: "\n")
  }
}

extension Report {
  /// The downloads section: the table and how to read it.
  func downloadLines(_ downloads: DownloadResult) -> [String] {
    let latency = formatLatency(downloads.latency)
    var lines: [String] = []
    lines.append(
      "## downloads: \(plural(downloads.covers, "cover")) from a local HTTP server, each \(latency) late, \(downloads.concurrency) at once"
    )
    lines.append("")
    lines.append(
      "`bluelib --home FRESH --downloads \(downloads.concurrency) -c '\(Bench.downloadCommands)'` on a library of \(grouped(downloads.covers)) albums whose covers are distinct \(CoverPNG.side)×\(CoverPNG.side) PNGs served by the test HTTP server (127.0.0.1, one connection per request) after \(latency) each; a fresh home, so an empty cover cache, per run. A run counts when bluelib exits 0, prints \(downloads.covers) `cover of` lines and no `failed`, the server receives exactly \(downloads.covers) requests (one per cover) and the cache holds \(downloads.covers) covers. The time is spawn to exit, so it includes starting bluelib and opening the library; CPU is bluelib's `ru_utime` + `ru_stime` from `wait4`, the run with the median total."
    )
    lines.append("")
    lines.append(
      "| covers (N) | latency (L) | concurrency (C) | median | min | ideal ⌈N/C⌉ × L | median / ideal | server requests | CPU (user + sys) | peak RSS |"
    )
    lines.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    let ideal = formatSeconds(downloads.ideal)
    let requests =
      "\(grouped(downloads.requests)) (\(grouped(downloads.covers)) × \(plural(downloads.runs, "run")))"
    let head = "| \(grouped(downloads.covers)) | \(latency) | \(downloads.concurrency)"
    let measurement = downloads.measurement
    if let failure = measurement.failure {
      lines.append(
        "\(head) | \(cell(failure)) | – | \(ideal) | – | \(downloads.runs > 0 ? requests : "–") | – | – |")
    } else {
      let ratio = downloads.ratio.map(formatRatio) ?? "– (L = 0)"
      let cpu =
        measurement.medianCPU.map { cpu in
          "\(formatSeconds(cpu.user + cpu.system)) (\(formatSeconds(cpu.user)) + \(formatSeconds(cpu.system)))"
        } ?? "–"
      lines.append(
        "\(head) | \(timeCell(measurement.median, perCommand: false)) | \(timeCell(measurement.minimum, perCommand: false)) | \(ideal) | \(ratio) | \(requests) | \(cpu) | \(formatKiB(measurement.maxRSSKiB)) |"
      )
    }
    lines.append("")
    return lines
  }

  /// A latency as given: `0.25 s`, `2 s`.
  func formatLatency(_ seconds: Double) -> String {
    (seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) + " s"
  }
}

/// The command line, quoted so that it can be pasted back into a shell.
func quotedCommandLine(_ arguments: [String]) -> String {
  arguments.map(shellQuoted).joined(separator: " ")
}
