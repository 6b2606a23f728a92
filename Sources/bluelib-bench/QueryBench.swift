import BlueLibrary
import Foundation

/// The views issue's figures: a field query with a range against sqlite3 answering the same
/// question, scrolling in a sorted view (1M against 1k, per command), and completing
/// `artist:` values in process.
struct ViewRow {
  var size: Int
  /// `find year-` alone, then with the scrolls piped after it.
  var find: Measurement
  var findAndScroll: Measurement
  var scrolls: Int

  /// What one `scroll right` in the view costs: the difference of the medians, per scroll.
  var perScroll: Double? {
    guard let alone = find.median, let both = findAndScroll.median else { return nil }
    return max(0, both - alone) / Double(scrolls)
  }
}

extension Bench {
  /// The artist and range the field query asks for: about 1 album in 700 of the data set.
  static let queryArtist = "Artist 42"
  static let queryYears = (1990, 1999)

  func runQueries() {
    let runs = options.runsPerScenario
    guard let large = options.sizes.last else { return }
    if let sqlite3 {
      let home = "\(work)/runs/query/home"
      let prepared = Result { () throws(SetupError) in
        try DataSet.makeDirectory(home)
        try DataSet.copyFile(libraryPath(large), to: home + "/library.sqlite")
      }
      let (low, high) = Self.queryYears
      let ours = "list -f '$title' 'artist:\(Self.queryArtist)' year:\(low)..\(high)"
      let theirs =
        "select title from album where artist like '%\(Self.queryArtist)%' and year between \(low) and \(high) order by position"
      var (bluelibRun, sqliteRun) = measureInTurn(("query bluelib", "query sqlite3"), runs: runs) {
        run throws(RunFailure) in
        let child = try invoke(
          bluelib, ["--home", home, "-c", ours], input: .null, in: "\(work)/runs/query/b\(run)", keepOutput: true)
        let lines = DataSet.contents(ofFileAt: "\(work)/runs/query/b\(run)/stdout").split(separator: "\n")
        guard lines.count > 100 else { throw RunFailure(message: "the query listed \(lines.count) albums") }
        return child
      } _: { run throws(RunFailure) in
        try invoke(
          sqlite3, [home + "/library.sqlite", theirs], input: .null, in: "\(work)/runs/query/s\(run)", keepOutput: false
        )
      }
      if case .failure(let error) = prepared { bluelibRun.failure = "setup: \(error)" }
      _ = sqliteRun
      results.references.append(
        ReferenceRow(
          title: "field query with a range on \(grouped(large)) albums",
          bluelibCommand: "bluelib --home H -c \"\(ours)\"",
          referenceCommand: "sqlite3 H/library.sqlite \"\(theirs)\"", bluelib: bluelibRun, reference: sqliteRun,
          goal: 1.5
        ))
    }
    // Scrolling in a sorted view: `find year-` then N × `scroll right`, piped, against
    // `find year-` alone, on each size. As many scrolls as the piped scenario (100,000): with
    // 10,000 the scrolls took a tenth of the time of the `find` on 1,000,000 albums, and the
    // difference of the two medians was mostly the noise of the `find` (a scroll 19 to 49 µs
    // from run to run, where callgrind counts 58 k instructions against 44 k on 1,000).
    let scrolls = options.scrolls
    for size in options.sizes {
      let find = Array("find year-\n".utf8)
      let both = Array(("find year-\n" + String(repeating: "scroll right\n", count: scrolls)).utf8)
      let (alone, withScrolls) = measureInTurn(("find \(grouped(size))", "find + scroll \(grouped(size))"), runs: runs)
      {
        run throws(RunFailure) in
        try runInCopy(size: size, name: "find-\(size)-\(run)", input: find)
      } _: { run throws(RunFailure) in
        try runInCopy(size: size, name: "find-scroll-\(size)-\(run)", input: both)
      }
      results.views.append(ViewRow(size: size, find: alone, findAndScroll: withScrolls, scrolls: scrolls))
    }
    // Completing `artist:` values in process, on the large library.
    do {
      let store = try AlbumStore.open(path: libraryPath(large))
      var times: [Double] = []
      for _ in 0..<max(3, runs) {
        let start = monotonicSeconds()
        let values = try store.values(of: .artist, withPrefix: "Artist 4", limit: 200)
        times.append(monotonicSeconds() - start)
        guard values.count == 11 else {
          results.completionFailure = "completion found \(values.count) values, expected 11"
          return
        }
      }
      results.completionSeconds = times.sorted()[times.count / 2]
    } catch {
      results.completionFailure = "\(error)"
    }
  }

  /// Pipes `input` into bluelib over a fresh copy of the `size`-album library.
  private func runInCopy(size: Int, name: String, input: [UInt8]) throws(RunFailure) -> ChildRun {
    let directory = "\(work)/runs/\(name)"
    defer { DataSet.remove(directory) }
    let home = try homeWithCopy(size: size, in: directory)
    return try invoke(bluelib, ["--home", home], input: .pipe(input), in: directory, keepOutput: false)
  }
}

extension Report {
  func queryLines() -> [String] {
    guard !results.views.isEmpty else { return [] }
    var lines = ["## a sorted view (`find year-`), then piped `scroll right`", ""]
    lines.append("| albums | `find year-` | find + scrolls | per scroll | peak RSS |")
    lines.append("| ---: | ---: | ---: | ---: | ---: |")
    for row in results.views {
      let perScroll = row.perScroll.map { String(format: "%.1f µs", $0 * 1e6) } ?? "–"
      lines.append(
        "| \(grouped(row.size)) | \(row.find.failure ?? row.find.median.map(formatSeconds) ?? "–") | "
          + "\(row.findAndScroll.failure ?? row.findAndScroll.median.map(formatSeconds) ?? "–") (\(grouped(row.scrolls))) | "
          + "\(perScroll) | \(formatKiB(max(row.find.maxRSSKiB, row.findAndScroll.maxRSSKiB))) |")
    }
    lines.append("")
    if let seconds = results.completionSeconds {
      lines.append("Completing `artist:Artist 4` (11 values) on the largest library: \(formatSeconds(seconds)).")
      lines.append("")
    }
    return lines
  }

  func queryChecks() -> [Check] {
    guard options.only.contains(.query) else { return [] }
    var checks: [Check] = []
    if let small = results.views.first, let large = results.views.last, small.size != large.size,
      let smallCost = small.perScroll, let largeCost = large.perScroll, smallCost > 0
    {
      let ratio = largeCost / smallCost
      checks.append(
        Check(
          status: ratio <= 1.5 ? .pass : .fail,
          text:
            "a scroll in a sorted view of \(grouped(large.size)) albums ≤ 1.5× one in \(grouped(small.size)): \(formatRatio(ratio))"
        ))
      let peak = max(large.find.maxRSSKiB, large.findAndScroll.maxRSSKiB)
      checks.append(
        Check(
          status: peak < 64 * 1024 ? .pass : .fail,
          text: "peak RSS of a sorted view of \(grouped(large.size)) albums < 64 MiB: \(formatKiB(peak))"))
    } else {
      checks.append(Check(status: .fail, text: "a scroll in a sorted view: not measured"))
    }
    if let seconds = results.completionSeconds {
      checks.append(
        Check(
          status: seconds < 0.05 ? .pass : .fail,
          text: "completing artist: values < 50 ms: \(formatSeconds(seconds))"))
    } else {
      checks.append(
        Check(status: .fail, text: "completing artist: values: \(results.completionFailure ?? "not measured")"))
    }
    return checks
  }
}
