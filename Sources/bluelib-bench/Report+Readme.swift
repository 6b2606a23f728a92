import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The benchmark table (docs/benchmarks.md), written by the bench from the run it made (`--markdown
/// FILE`), never typed: when it was measured, on which commit and machine, and each figure
/// beside its reference and its goal.
extension Report {
  /// The line that opens the table in a file, and the one that closes it.
  static let tableStart = "<!-- bluelib-bench --markdown: the table below is written by the bench -->"
  static let tableEnd = "<!-- bluelib-bench --markdown: end of the table -->"

  /// The table's lines, markers included.
  func readmeTable(date: String, commit: String) -> [String] {
    var lines = [Self.tableStart]
    lines.append(
      "Measured on \(date) at commit \(commit) (`\(bluelibVersion)`) on \(Machine.cores()) cores (\(Machine.cpuModel()), "
        + "\(Machine.memory()), \(Machine.operatingSystem())), with `\(commandLine)`: medians of each figure and of its "
        + "reference, run in turn in the same run (\(plural(options.runsPerScenario, "run")), "
        + "\(options.importRuns) per import), peak RSS from `wait4`, the binary's page cache dropped first as `install` leaves it."
    )
    lines.append("")
    lines.append("| figure | bluelib | reference | ratio | goal |")
    lines.append("| --- | ---: | ---: | ---: | ---: |")
    for row in results.references {
      if let skipped = row.skipped {
        lines.append(
          "| \(cell(row.title)), \(code(row.bluelibCommand)) | \(cell(skipped)) | \(code(row.referenceCommand)) | – "
            + "| ≤ \(formatGoal(row.goal)) |")
        continue
      }
      var ours = figure(row.bluelib, perCommand: row.perCommand)
      if row.peakGoalKiB != nil, row.bluelib.succeeded { ours += ", peak \(formatKiB(row.bluelib.maxRSSKiB))" }
      let goal = "≤ \(formatGoal(row.goal))" + (row.peakGoalKiB.map { ", ≤ \(formatKiB($0))" } ?? "")
      lines.append(
        "| \(cell(row.title)), \(code(row.bluelibCommand)) | \(cell(ours)) | \(code(row.referenceCommand)) "
          + "\(cell(figure(row.reference, perCommand: row.perCommand))) | \(row.ratio.map(formatRatio) ?? "–") | \(goal) |"
      )
    }
    if let ours = results.bluelibImport {
      let theirs = results.sqliteImport.map { figure($0) } ?? "not installed"
      let ratio = ours.median.flatMap { mine in results.sqliteImport?.median.map { mine / $0 } }
      lines.append(
        "| import of a \(grouped(results.importSize))-row CSV into a fresh home, `bluelib --home H -c 'import FILE'` "
          + "| \(cell(figure(ours))), peak \(formatKiB(ours.maxRSSKiB)) | `sqlite3 .import --csv` \(cell(theirs)) "
          + "| \(ratio.map(formatRatio) ?? "–") | ≤ \(formatGoal(Results.importRatioGoal)), "
          + "< \(formatKiB(Results.importPeakGoalKiB)) |")
    }
    if let folder = results.folder {
      let ours = "\(figure(folder.bluelib)), peak \(formatKiB(folder.bluelib.maxRSSKiB))"
      lines.append(
        "| import of a \(grouped(folder.tracks))-track music folder into a fresh home, `bluelib --home H -c 'import DIR'` "
          + "| \(cell(ours)) | python3 mutagen's scan \(cell(folder.mutagen.map { figure($0) } ?? folder.mutagenMissing ?? "–")) "
          + "| \(folder.ratio(to: folder.mutagen).map(formatRatio) ?? "–") | ≤ \(formatGoal(FolderResult.mutagenGoal)), "
          + "< \(formatKiB(FolderResult.peakGoalKiB)) |")
      lines.append(
        "| the same, against the floor: a bare C++ program reading the files' tags with TagLib "
          + "| \(cell(figure(folder.bluelib))) | `taglib-floor DIR` \(cell(folder.floor.map { figure($0) } ?? folder.floorMissing ?? "–")) "
          + "| \(folder.ratio(to: folder.floor).map(formatRatio) ?? "–") | ≤ \(formatGoal(FolderResult.floorGoal)) |")
    }
    for start in results.unchangedStarts {
      let asked =
        start.failure ?? "\(plural(start.requests.count, "request")) (\(start.requests.joined(separator: ", ")))"
      lines.append(
        "| a start with the supysonic of \(grouped(start.albums)) albums unchanged, the same command again "
          + "| \(cell(asked)) | – | – | ≤ \(UnchangedStart.mostRequests) requests |")
    }
    if let downloads = results.downloads {
      lines.append(
        "| \(grouped(downloads.covers)) covers, each \(formatLatency(downloads.latency)) late, \(downloads.concurrency) at once, from a local HTTP server "
          + "| \(cell(figure(downloads.measurement))), CPU \(downloads.measurement.medianCPU.map { formatSeconds($0.user + $0.system) } ?? "–") "
          + "| the ideal ⌈N/C⌉ × L \(formatSeconds(downloads.ideal)); curl \(cell(downloads.curl.map { figure($0) } ?? "not installed")) "
          + "| \(downloads.ratio.map(formatRatio) ?? "–") the ideal | ≤ \(formatGoal(DownloadResult.wallLimit)), CPU ≤ \(formatSeconds(DownloadResult.cpuLimit)) |"
      )
    }
    if let art = results.coverArt {
      let chafa = art.chafa.map { figure($0) } ?? "not installed"
      let ratio = art.ours.median.flatMap { ours in art.chafa?.median.map { ours / $0 } }
      lines.append(
        "| decode + draw a \(CoverArtScenario.side)×\(CoverArtScenario.side) JPEG at \(CoverArtScenario.columns)×\(CoverArtScenario.rows) cells, half blocks (24-bit), in process "
          + "| \(cell(figure(art.ours))) | `chafa -f symbols` \(cell(chafa)) | \(ratio.map(formatRatio) ?? "–") "
          + "| < \(formatSeconds(CoverArtScenario.limit)) |")
      for row in art.pictures {
        lines.append(
          "| the same, encoded for \(row.graphics) | \(cell(figure(row.ours))) "
            + "| `chafa -f \(row.chafaFormat)` \(cell(row.chafa.map { figure($0) } ?? "not installed")) "
            + "| \(pictureRatio(row).map(formatRatio) ?? "–") | ≤ 1× |")
      }
    }
    lines.append("")
    lines += scenarioRows()
    let checks = self.checks
    let failed = checks.filter { $0.status == .fail }
    let passed = checks.filter { $0.status == .pass }.count
    lines.append(
      failed.isEmpty
        ? "Every check of the run passed (\(passed); `bluelib-bench` prints them)."
        : "\(plural(failed.count, "check")) of the run failed: "
          + failed.map { $0.text }.joined(separator: "; ") + ".")
    lines.append(Self.tableEnd)
    return lines
  }

  /// The scenarios on each library size, and a sorted view's scrolls, when measured.
  private func scenarioRows() -> [String] {
    let scenarios = [Scenario.open, .tap, .scroll, .delete].filter { options.only.contains($0) }
    guard !scenarios.isEmpty || !results.views.isEmpty else { return [] }
    var lines = [
      "| scenario | " + options.sizes.map { "\(grouped($0)) albums" }.joined(separator: " | ") + " | peak RSS |"
    ]
    lines.append("| --- |" + String(repeating: " ---: |", count: options.sizes.count + 1))
    for scenario in scenarios {
      let measurements = options.sizes.map { results.row(scenario, size: $0) }
      let cells = measurements.map {
        $0.map { figure($0, perCommand: scenario == .scroll ? options.scrolls : 1) } ?? "–"
      }
      let peak = measurements.compactMap { $0?.maxRSSKiB }.max().map(formatKiB) ?? "–"
      lines.append("| \(cell(scenarioTitle(scenario))) | " + cells.map(cell).joined(separator: " | ") + " | \(peak) |")
    }
    if !results.views.isEmpty {
      let cells = options.sizes.map { size in
        results.views.first { $0.size == size }?.perScroll.map { String(format: "%.1f µs", $0 * 1e6) } ?? "–"
      }
      let peak = results.views.map { max($0.find.maxRSSKiB, $0.findAndScroll.maxRSSKiB) }.max().map(formatKiB) ?? "–"
      lines.append(
        "| a `scroll right` in a sorted view (`find year-`, then \(grouped(options.scrolls)) piped) | "
          + cells.joined(separator: " | ")
          + " | \(peak) |")
    }
    lines.append("")
    return lines
  }

  /// `command` as code in a table cell; as it is when it quotes code itself (the scroll's
  /// ``… × `scroll right` | bluelib``), where an outer pair of backticks would break.
  private func code(_ command: String) -> String {
    command.contains("`") ? cell(command) : "`" + cell(command) + "`"
  }

  /// A measurement's median for a table cell, its failure, or `–`.
  private func figure(_ measurement: Measurement, perCommand: Int = 1) -> String {
    if let failure = measurement.failure { return failure }
    guard let median = measurement.median else { return "–" }
    guard perCommand > 1 else { return formatSeconds(median) }
    return formatSeconds(median) + String(format: " (%.1f µs/cmd)", median * 1e6 / Double(perCommand))
  }

  /// A goal as a ratio, without trailing zeros: `3×`, `1.2×`, `0.1×`.
  private func formatGoal(_ ratio: Double) -> String {
    var text = String(format: "%.2f", ratio)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "×"
  }
}

/// Writes the benchmark table into a file (`--markdown FILE`).
enum MarkdownTable {
  /// Puts `lines` (markers included) into the file at `path`: in place of the table
  /// between the markers when the file has them, as the whole file when there is none;
  /// refuses a file without the markers rather than overwrite it.
  static func write(_ lines: [String], to path: String) throws(SetupError) {
    let table = lines.joined(separator: "\n")
    guard FileManager.default.fileExists(atPath: path) else {
      try save(table + "\n", to: path)
      return
    }
    let text = DataSet.contents(ofFileAt: path, limit: 16 << 20)
    guard let start = text.range(of: Report.tableStart), let end = text.range(of: Report.tableEnd),
      start.lowerBound < end.lowerBound
    else {
      throw SetupError(
        "\(path) has no table to replace (the lines '\(Report.tableStart)' and '\(Report.tableEnd)'); "
          + "give a new file, or put them where the table goes")
    }
    try save(String(text[..<start.lowerBound]) + table + String(text[end.upperBound...]), to: path)
  }

  private static func save(_ text: String, to path: String) throws(SetupError) {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw SetupError("cannot write \(path): \(error.localizedDescription)")
    }
  }

  /// The commit the bench was built from, short, `+` when the checkout has changes; from
  /// git in the checkout this source file is in.
  static func commit(environment: [String: String]) -> String {
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    guard let git = findInPath("git", environment: environment) else { return "unknown (no git)" }
    let directory = NSTemporaryDirectory() + "bluelib-bench-git-\(getpid())"
    defer { DataSet.remove(directory) }
    func run(_ arguments: [String]) -> String? {
      try? DataSet.makeDirectory(directory)
      let child = try? runChild(
        executable: git, arguments: ["-C", checkout] + arguments,
        environment: environment.map { "\($0.key)=\($0.value)" }, input: .null, stdoutPath: directory + "/stdout",
        stderrPath: directory + "/stderr", timeout: 60)
      guard child?.termination.succeeded == true else { return nil }
      return DataSet.contents(ofFileAt: directory + "/stdout").trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard let hash = run(["rev-parse", "--short", "HEAD"]) else { return "unknown" }
    let changed = run(["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
    return changed ? hash + "+ (with local changes)" : hash
  }

  /// Today, `2026-11-27`.
  static func today() -> String {
    var now = time(nil)
    var parts = tm()
    localtime_r(&now, &parts)
    return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
  }
}
