import BlueLibrary
import Foundation

/// One figure of the benchmark table (docs/benchmarks.md): bluelib against a reference tool in the same run.
struct ReferenceRow {
  /// What is timed, in words.
  var title: String
  var bluelibCommand: String
  var referenceCommand: String
  var bluelib: Measurement
  var reference: Measurement
  /// The most bluelib may take, as a multiple of the reference's median.
  var goal: Double
  /// Divides the medians for a per-command figure (the scroll row), else 1.
  var perCommand = 1
  /// The most bluelib's peak RSS may be, when checked (start-up).
  var peakGoalKiB: Int?
  /// Why it was not measured (a server that is not installed), or nil.
  var skipped: String?

  var ratio: Double? {
    guard let ours = bluelib.median, let theirs = reference.median, theirs > 0 else { return nil }
    return ours / theirs
  }
}

extension Bench {
  /// The start-up, piped-command and `list` figures against sqlite3 on the same files.
  /// The scroll row reuses the scroll scenario's bluelib runs on the large library.
  func runReferences() {
    guard let sqlite3 else { return }
    let runs = options.runsPerScenario
    let large = options.sizes.last ?? 0
    if options.only.contains(.startup) {
      let home = "\(work)/runs/startup/home"
      let prepared = Result { () throws(SetupError) in
        try DataSet.makeDirectory(home)
        try DataSet.copyFile(libraryPath(options.sizes.first ?? 0), to: home + "/library.sqlite")
      }
      // Start-up is milliseconds: more runs than elsewhere, so the medians settle.
      var (ours, theirs) = measureInTurn(("start-up bluelib", "start-up sqlite3"), runs: max(runs * 5, 15)) {
        run throws(RunFailure) in
        try invoke(
          bluelib, ["--home", home, "-c", "quit"], input: .null, in: "\(work)/runs/startup/b\(run)", keepOutput: false)
      } _: { run throws(RunFailure) in
        try invoke(sqlite3, [":memory:", ".quit"], input: .null, in: "\(work)/runs/startup/s\(run)", keepOutput: false)
      }
      if case .failure(let error) = prepared { ours.failure = "setup: \(error)" }
      results.references.append(
        ReferenceRow(
          title: "start-up", bluelibCommand: "bluelib --home H -c quit", referenceCommand: "sqlite3 :memory: .quit",
          bluelib: ours, reference: theirs, goal: 3, peakGoalKiB: 20 * 1024))
    }
    if options.only.contains(.scroll), large > 0 {
      // The same lookups by position, one statement per line, on the same library file,
      // each tool's runs in turn with the other's.
      var script = ""
      for index in 0..<options.scrolls { script += "select title from album where position=\(index % large);\n" }
      let input = Array(script.utf8)
      let turns = min(runs, 3)
      let (ours, theirs) = measureInTurn(("scroll bluelib", "scroll sqlite3"), runs: turns) { run throws(RunFailure) in
        try runLibraryScenarioOnce(.scroll, size: large, run: run, of: turns)
      } _: { run throws(RunFailure) in
        try invoke(
          sqlite3, [libraryPath(large)], input: .pipe(input), in: "\(work)/runs/scroll-sqlite3-\(run)",
          keepOutput: false)
      }
      results.references.append(
        ReferenceRow(
          title: "\(grouped(options.scrolls)) piped commands on \(grouped(large)) albums",
          bluelibCommand: "\(grouped(options.scrolls)) × `scroll right` | bluelib --home H",
          referenceCommand:
            "\(grouped(options.scrolls)) × `select title from album where position=N;` | sqlite3 H/library.sqlite",
          bluelib: ours, reference: theirs, goal: 1.5, perCommand: options.scrolls))
    }
    if options.only.contains(.list) {
      let home = "\(work)/runs/list/home"
      let prepared = Result { () throws(SetupError) in
        try DataSet.makeDirectory(home)
        try DataSet.copyFile(libraryPath(large), to: home + "/library.sqlite")
      }
      let query = "select position, title, artist, year, genre, coverUrl from album order by position"
      var (ours, theirs) = measureInTurn(("list bluelib", "list sqlite3"), runs: runs) { run throws(RunFailure) in
        try invoke(
          bluelib, ["--home", home, "-c", "list"], input: .null, in: "\(work)/runs/list/b\(run)", keepOutput: false)
      } _: { run throws(RunFailure) in
        try invoke(
          sqlite3, [home + "/library.sqlite", query], input: .null, in: "\(work)/runs/list/s\(run)", keepOutput: false)
      }
      if case .failure(let error) = prepared { ours.failure = "setup: \(error)" }
      results.references.append(
        ReferenceRow(
          title: "`list` of \(grouped(large)) albums to /dev/null", bluelibCommand: "bluelib --home H -c list",
          referenceCommand: "sqlite3 H/library.sqlite '\(query)'", bluelib: ours, reference: theirs, goal: 1.2))
    }
  }
}

extension Report {
  /// The table of figures against their references.
  func referenceLines() -> [String] {
    guard !results.references.isEmpty else { return [] }
    var lines = ["## against a reference tool (sqlite3, mpc, curl), same data, same run", ""]
    lines.append("| figure | bluelib | median | reference | median | ratio | goal |")
    lines.append("| --- | --- | ---: | --- | ---: | ---: | ---: |")
    for row in results.references {
      if let skipped = row.skipped {
        lines.append(
          "| \(cell(row.title)) | `\(cell(row.bluelibCommand))` | \(cell(skipped)) | `\(cell(row.referenceCommand))` | – | – | ≤ \(formatRatio(row.goal)) |"
        )
        continue
      }
      let ours = row.bluelib.failure ?? row.bluelib.median.map { perCommandTime($0, row.perCommand) } ?? "–"
      let theirs = row.reference.failure ?? row.reference.median.map { perCommandTime($0, row.perCommand) } ?? "–"
      lines.append(
        "| \(cell(row.title)) | `\(cell(row.bluelibCommand))` | \(cell(ours)) | `\(cell(row.referenceCommand))` | \(cell(theirs)) | \(row.ratio.map(formatRatio) ?? "–") | ≤ \(formatRatio(row.goal)) |"
      )
    }
    lines.append("")
    return lines
  }

  func referenceChecks() -> [Check] {
    results.references.flatMap { row in
      var checks: [Check] = []
      if let skipped = row.skipped {
        return [Check(status: .skip, text: "\(row.title) ≤ \(formatRatio(row.goal)) the reference: \(skipped)")]
      }
      if let ratio = row.ratio {
        checks.append(
          Check(
            status: ratio <= row.goal ? .pass : .fail,
            text: "\(row.title): bluelib ≤ \(formatRatio(row.goal)) the reference: ratio \(formatRatio(ratio))"))
      } else {
        checks.append(missing("\(row.title) ≤ \(formatRatio(row.goal)) the reference", row.bluelib, row.reference))
      }
      if let limit = row.peakGoalKiB, row.bluelib.succeeded {
        checks.append(
          Check(
            status: row.bluelib.maxRSSKiB <= limit ? .pass : .fail,
            text: "peak RSS of \(row.title) ≤ \(formatKiB(limit)): \(formatKiB(row.bluelib.maxRSSKiB))"))
      }
      return checks
    }
  }

  private func perCommandTime(_ seconds: Double, _ commands: Int) -> String {
    guard commands > 1 else { return formatSeconds(seconds) }
    return formatSeconds(seconds) + String(format: " (%.1f µs/cmd)", seconds * 1e6 / Double(commands))
  }
}

/// Whether the measured binary is the one to ship: the Swift runtime linked in
/// (`--static-swift-stdlib`), so it runs on a machine without the toolchain.
struct StaticBinaryResult {
  /// The shared libraries `ldd` lists that belong to the Swift runtime or Foundation.
  var swiftLibraries: [String]
  /// What happened running `-c quit` with the toolchain's library folder hidden (nil: ran fine).
  var hiddenToolchainFailure: String?
  /// Why the check could not run (no ldd, no unshare), or nil.
  var skipped: String?
}

extension Bench {
  /// Runs `ldd` on the binary, then `bluelib -c quit` in a mount namespace where an empty
  /// tmpfs covers the toolchain's `lib/swift/linux` (where a dynamically linked build
  /// finds libswiftCore.so and Foundation).
  func checkStaticBinary() -> StaticBinaryResult {
    let environment = ProcessInfo.processInfo.environment
    guard let ldd = findInPath("ldd", environment: environment),
      let unshare = findInPath("unshare", environment: environment)
    else {
      return StaticBinaryResult(swiftLibraries: [], skipped: "ldd or unshare is not installed")
    }
    let directory = "\(work)/runs/static"
    guard (try? invoke(ldd, [bluelib], input: .null, in: directory + "/ldd", keepOutput: true)) != nil else {
      return StaticBinaryResult(swiftLibraries: [], skipped: "ldd failed on \(bluelib)")
    }
    var swiftLibraries = Self.swiftLibraries(listedIn: directory + "/ldd/stdout")
    // TagLib's plug-in, loaded at the first tag read: linked as a Swift product it would need
    // the toolchain's libswiftCore.so (`bash .ci/run` compiles it with clang++).
    let plugin = URL(fileURLWithPath: bluelib).deletingLastPathComponent().path + "/libbluelib-taglib.so"
    if FileManager.default.fileExists(atPath: plugin),
      (try? invoke(ldd, [plugin], input: .null, in: directory + "/ldd-plugin", keepOutput: true)) != nil
    {
      swiftLibraries += Self.swiftLibraries(listedIn: directory + "/ldd-plugin/stdout").map {
        "\($0) (for libbluelib-taglib.so)"
      }
    }
    // The folder a dynamically linked bluelib loads its runtime from.
    let runtime =
      (findInPath("swift", environment: environment).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath() })
      .map { $0.deletingLastPathComponent().deletingLastPathComponent().path + "/lib/swift/linux" }
    guard let runtime, FileManager.default.fileExists(atPath: runtime + "/libswiftCore.so") else {
      return StaticBinaryResult(swiftLibraries: swiftLibraries, skipped: "no Swift toolchain found to hide")
    }
    let home = directory + "/home"
    try? DataSet.makeDirectory(home)
    let script =
      "mount -t tmpfs none \(shellQuoted(runtime)) && exec \(shellQuoted(bluelib)) --home \(shellQuoted(home)) -c quit"
    do throws(RunFailure) {
      _ = try invoke(unshare, ["-m", "sh", "-c", script], input: .null, in: directory + "/hidden", keepOutput: true)
      return StaticBinaryResult(swiftLibraries: swiftLibraries)
    } catch {
      return StaticBinaryResult(swiftLibraries: swiftLibraries, hiddenToolchainFailure: error.message)
    }
  }
}

extension Bench {
  /// The Swift runtime's and Foundation's libraries in `ldd`'s output at `path`.
  static func swiftLibraries(listedIn path: String) -> [String] {
    DataSet.contents(ofFileAt: path).split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("libswift") || $0.hasPrefix("libFoundation") || $0.hasPrefix("libdispatch") }
      .map { String($0.prefix { $0 != " " }) }
  }
}

extension Report {
  func staticBinaryCheck(_ result: StaticBinaryResult?) -> Check? {
    guard let result else { return nil }
    if let skipped = result.skipped {
      return Check(status: .skip, text: "the binary runs without the Swift toolchain: \(skipped)")
    }
    if !result.swiftLibraries.isEmpty {
      return Check(
        status: .fail,
        text:
          "the binary runs without the Swift toolchain: ldd lists \(result.swiftLibraries.joined(separator: ", ")) (build with `bash .ci/run bench`)"
      )
    }
    if let failure = result.hiddenToolchainFailure {
      return Check(
        status: .fail, text: "the binary runs without the Swift toolchain: with its library folder hidden: \(failure)")
    }
    return Check(
      status: .pass,
      text:
        "the binary runs without the Swift toolchain: ldd lists no Swift runtime library for it or its TagLib plug-in, and `-c quit` runs with the toolchain's library folder hidden (unshare -m)"
    )
  }
}
