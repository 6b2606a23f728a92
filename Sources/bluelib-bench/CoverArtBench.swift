import BlueLibrary
import CoverArt

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The cover-art scenario: decode + draw a 600×600 JPEG at 40×20 in-process, and the same
/// picture through `chafa --size 40x20 -f symbols` as a child process, in the same run.
struct CoverArtResult {
  var ours = Measurement()
  /// nil when chafa is not on PATH.
  var chafa: Measurement?
  /// chafa on an 8×8 JPEG: its process start-up and library loading, which ours never pays.
  var chafaFloor: Measurement?
  var jpegBytes = 0
  /// The chafa binary, when found.
  var chafaPath: String?
  /// The same cover encoded for each image protocol, against chafa's encoder for it.
  var pictures: [PictureRow] = []

  /// Every measurement taken.
  var measurements: [Measurement] {
    [ours, chafa, chafaFloor].compactMap { $0 } + pictures.flatMap { [$0.ours, $0.chafa].compactMap { $0 } }
  }

  /// A measurement failed (a missing chafa is not a failure).
  var anyFailed: Bool { measurements.contains { !$0.succeeded } }
}

/// One image protocol: bluelib's decode + scale + encode in-process, and `chafa -f FORMAT`.
struct PictureRow {
  var graphics: TerminalGraphics
  var chafaFormat: String
  var ours = Measurement()
  var chafa: Measurement?
}

/// The cover the scenario draws, its size in cells and chafa's arguments (before the file).
enum CoverArtScenario {
  static let side = 600
  static let columns = 40
  static let rows = 20
  static let chafaArguments = ["--size", "\(columns)x\(rows)", "-f", "symbols"]
  /// Ours draws in 24-bit colour; chafa picks its colours from the environment, so it is
  /// told the terminal does 24-bit too, whatever the bench runs in (and gets no `NO_COLOR`).
  static let chafaEnvironment = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
  /// The limit the check holds decode + draw to, seconds.
  static let limit = 0.005
}

/// Runs the cover-art scenario; `runs` in-process repetitions, `childRuns` chafa runs.
func measureCoverArt(
  work: String, environment: [String: String], timeout: Double, runs: Int = 200, childRuns: Int = 20
) -> CoverArtResult {
  var result = CoverArtResult()
  let side = CoverArtScenario.side
  let columns = CoverArtScenario.columns
  let rows = CoverArtScenario.rows
  let jpeg = SampleCover.sampleJPEG(width: side, height: side)
  result.jpegBytes = jpeg.count
  do {
    // One untimed run warms the caches and the decimal table.
    _ = try CoverArtTiming.timeDecodeAndDraw(jpeg, columns: columns, rows: rows, mode: .trueColor, runs: 1)
    result.ours.times = try CoverArtTiming.timeDecodeAndDraw(
      jpeg, columns: columns, rows: rows, mode: .trueColor, runs: runs)
  } catch {
    result.ours.failure = "failed: \(error)"
  }
  for (graphics, format) in [(TerminalGraphics.kitty, "kitty"), (.sixel, "sixels"), (.iterm, "iterm")] {
    var row = PictureRow(graphics: graphics, chafaFormat: format)
    do {
      _ = try CoverArtTiming.timeDecodeAndEncode(jpeg, graphics: graphics, columns: columns, rows: rows, runs: 1)
      row.ours.times = try CoverArtTiming.timeDecodeAndEncode(
        jpeg, graphics: graphics, columns: columns, rows: rows, runs: max(5, runs / 4))
    } catch {
      row.ours.failure = "failed: \(error)"
    }
    result.pictures.append(row)
  }
  guard let chafa = findInPath("chafa", environment: environment) else { return result }
  result.chafaPath = chafa
  let path = work + "/cover-\(side).jpg"
  let tinyPath = work + "/cover-8.jpg"
  guard write(jpeg, to: path), write(ImageEncoder.jpeg(RGBImage(width: 8, height: 8, filledWith: .white)), to: tinyPath)
  else {
    result.chafa = Measurement(failure: "failed: cannot write the sample JPEG in \(work)")
    return result
  }
  var chafaEnvironment = environment.merging(CoverArtScenario.chafaEnvironment) { $1 }
  chafaEnvironment["NO_COLOR"] = nil
  let childEnvironment = chafaEnvironment.map { "\($0.key)=\($0.value)" }.sorted()
  let stderrPath = work + "/chafa-stderr"
  defer { DataSet.remove(stderrPath) }
  func measure(_ file: String, arguments: [String] = CoverArtScenario.chafaArguments) -> Measurement {
    var measurement = Measurement()
    for _ in 0..<childRuns {
      do {
        let run = try runChild(
          executable: chafa, arguments: arguments + [file], environment: childEnvironment,
          input: .null, stdoutPath: "/dev/null", stderrPath: stderrPath, timeout: timeout)
        guard run.termination.succeeded else {
          let reason = DataSet.firstLine(ofFileAt: stderrPath) ?? "nothing on stderr"
          measurement.failure = "failed: chafa \(run.termination): \(reason)"
          break
        }
        measurement.times.append(run.seconds)
        measurement.cpuTimes.append((run.userSeconds, run.systemSeconds))
        measurement.maxRSSKiB = max(measurement.maxRSSKiB, run.maxRSSKiB)
      } catch {
        measurement.failure = "failed: \(error)"
        break
      }
    }
    return measurement
  }
  result.chafa = measure(path)
  result.chafaFloor = measure(tinyPath)
  for index in result.pictures.indices {
    let format = result.pictures[index].chafaFormat
    result.pictures[index].chafa = measure(path, arguments: ["--size", "\(columns)x\(rows)", "-f", format])
  }
  return result
}

private func write(_ bytes: [UInt8], to path: String) -> Bool {
  guard let file = fopen(path, "wb") else { return false }
  defer { fclose(file) }
  return bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) } == bytes.count
}

extension Bench {
  /// Runs the cover-art scenario into `results.coverArt`.
  func runCoverArt() {
    let label = "art \(CoverArtScenario.side)×\(CoverArtScenario.side) JPEG"
    log("\(label): decode + draw at \(CoverArtScenario.columns)×\(CoverArtScenario.rows) in-process, then chafa…")
    let result = measureCoverArt(work: work, environment: processEnvironment(), timeout: options.timeout)
    func summary(_ name: String, _ measurement: Measurement?) {
      guard let measurement else { return }
      if let median = measurement.median {
        log("\(label): \(name) median \(formatSeconds(median)) over \(plural(measurement.times.count, "run"))")
      } else {
        log("\(label): \(name) \(measurement.failure ?? "no runs")")
      }
    }
    summary("bluelib", result.ours)
    if result.chafaPath == nil { log("\(label): chafa is not installed, no comparison") }
    summary("chafa", result.chafa)
    summary("chafa 8×8", result.chafaFloor)
    for row in result.pictures {
      summary("bluelib \(row.graphics)", row.ours)
      summary("chafa -f \(row.chafaFormat)", row.chafa)
    }
    results.coverArt = result
  }
}

extension Report {
  /// The cover-art section: the table and the ratio.
  func coverArtLines(_ result: CoverArtResult) -> [String] {
    let side = CoverArtScenario.side
    let columns = CoverArtScenario.columns
    let rows = CoverArtScenario.rows
    let chafaCommand = "chafa \(CoverArtScenario.chafaArguments.joined(separator: " "))"
    var lines: [String] = []
    lines.append(
      "## cover art: \(side)×\(side) JPEG (q95, \(grouped(result.jpegBytes)) bytes) → \(columns)×\(rows) cells, 24-bit")
    lines.append("")
    lines.append(
      "bluelib's CoverArt decodes and draws in this process (`HalfBlockRenderer.renderBytes(encoded:columns:rows:mode: .trueColor)`, libjpeg scaling the decode down to what the cells need), timed on the monotonic clock after one untimed run; chafa is a process per run like the other scenarios (spawn to exit, output to /dev/null, `\(CoverArtScenario.chafaEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))` so it draws in 24-bit too), so its time includes its start-up, which the 8×8 JPEG row measures."
    )
    lines.append("")
    lines.append("| tool | command | runs | median | min | peak RSS |")
    lines.append("| --- | --- | ---: | ---: | ---: | ---: |")
    let ours = result.ours
    if let failure = ours.failure {
      lines.append("| bluelib (in-process) | decode + draw | – | \(cell(failure)) | – | – |")
    } else {
      lines.append(
        "| bluelib (in-process) | decode + draw | \(ours.times.count) | \(timeCell(ours.median, perCommand: false)) | \(timeCell(ours.minimum, perCommand: false)) | – (in-process) |"
      )
    }
    if result.chafaPath == nil {
      lines.append("| chafa | `\(chafaCommand) cover-\(side).jpg` | – | not installed | – | – |")
    } else {
      for (measurement, file, note) in [
        (result.chafa, "cover-\(side).jpg", ""), (result.chafaFloor, "cover-8.jpg", " (8×8: its start-up)"),
      ] {
        guard let measurement else { continue }
        lines.append(
          "| chafa\(note) | `\(chafaCommand) \(file)` | \(measurement.times.count) | \(measurementCells(measurement)) |"
        )
      }
    }
    lines.append("")
    if let ours = ours.median, let theirs = result.chafa?.median {
      var ratio =
        "ratio chafa / bluelib: \(formatRatio(theirs / ours)) (medians), \(formatRatio((result.chafa?.minimum ?? theirs) / (result.ours.minimum ?? ours))) (minimums)"
      if let floor = result.chafaFloor?.median {
        ratio += "; beyond chafa's start-up (median − 8×8 median): \(formatRatio(max(theirs - floor, 0) / ours))"
      }
      lines.append(ratio)
    } else if result.chafaPath == nil {
      lines.append("ratio chafa / bluelib: – (chafa is not installed: apt-get install chafa)")
    } else {
      lines.append("ratio chafa / bluelib: – (not both measured)")
    }
    lines.append("")
    lines += pictureLines(result)
    return lines
  }

  /// The image protocols: the same JPEG in real pixels, against chafa's encoder for each.
  func pictureLines(_ result: CoverArtResult) -> [String] {
    guard !result.pictures.isEmpty else { return [] }
    let columns = CoverArtScenario.columns
    let rows = CoverArtScenario.rows
    var lines = [
      "### in real pixels: the same JPEG at \(columns)×\(rows) cells of 10×20 px (400×400 px)", "",
      "bluelib decodes, scales and encodes in this process (`PixelRenderer.render(encoded:graphics:…)` and the escape sequence: PNG + base64 for kitty and iTerm2, libsixel for sixel); chafa is a process per run, `chafa --size \(columns)x\(rows) -f FORMAT`, its start-up included.",
      "", "| protocol | bluelib median | chafa command | chafa median | ratio bluelib / chafa | goal |",
      "| --- | ---: | --- | ---: | ---: | ---: |",
    ]
    for row in result.pictures {
      let ours = row.ours.failure ?? row.ours.median.map(formatSeconds) ?? "–"
      let command = "`chafa --size \(columns)x\(rows) -f \(row.chafaFormat)`"
      let theirs =
        result.chafaPath == nil ? "not installed" : row.chafa?.failure ?? row.chafa?.median.map(formatSeconds) ?? "–"
      let ratio = pictureRatio(row).map(formatRatio) ?? "–"
      lines.append("| \(row.graphics) | \(ours) | \(command) | \(cell(theirs)) | \(ratio) | ≤ 1 |")
    }
    lines.append("")
    return lines
  }

  func pictureRatio(_ row: PictureRow) -> Double? {
    guard let ours = row.ours.median, let theirs = row.chafa?.median, theirs > 0 else { return nil }
    return ours / theirs
  }

  /// PASS when bluelib encodes for the protocol no slower than chafa (medians); SKIP
  /// without chafa.
  func pictureChecks(_ result: CoverArtResult?) -> [Check] {
    guard let result else { return [] }
    return result.pictures.map { row in
      let text = "\(row.graphics) picture of a 600×600 JPEG at 40×20 ≤ chafa -f \(row.chafaFormat)"
      guard result.chafaPath != nil else { return Check(status: .skip, text: "\(text): chafa is not installed") }
      guard let ratio = pictureRatio(row) else { return missing(text, row.ours, row.chafa) }
      return Check(status: ratio <= 1 ? .pass : .fail, text: "\(text): ratio \(formatRatio(ratio))")
    }
  }

  /// PASS when decode + draw takes under 5 ms (the median).
  func coverArtCheck(_ result: CoverArtResult?) -> Check {
    let text = "decode + draw 600×600 JPEG at 40×20 < 5 ms"
    guard let result, let median = result.ours.median else {
      return missing(text, result?.ours)
    }
    #if DEBUG
      let buildNote = " (debug build: the limit is for release)"
    #else
      let buildNote = ""
    #endif
    return Check(
      status: median < CoverArtScenario.limit ? .pass : .fail,
      text: "\(text): \(formatSeconds(median)) (median of \(plural(result.ours.times.count, "run")))\(buildNote)")
  }
}

/// The cover-art benchmark's timing loops.
enum CoverArtTiming {
  /// Decodes and draws `encoded` `runs` times; the seconds of each run, on the
  /// monotonic clock. The frames are checked to be non-empty so nothing is optimised away.
  static func timeDecodeAndDraw(
    _ encoded: [UInt8], columns: Int = 40, rows: Int = 20, mode: ColorMode = .trueColor, runs: Int = 200
  ) throws(CoverArtError) -> [Double] {
    try timed(runs: runs) { () throws(CoverArtError) in
      !(try HalfBlockRenderer.renderBytes(encoded: encoded, columns: columns, rows: rows, mode: mode)).isEmpty
    }
  }

  /// Decodes `encoded` and encodes it for `graphics` (`.kitty`, `.sixel`, `.iterm`) over
  /// `columns` × `rows` cells of `cell`, escape sequence included, `runs` times; the seconds
  /// of each run on the monotonic clock.
  static func timeDecodeAndEncode(
    _ encoded: [UInt8], graphics: TerminalGraphics, columns: Int = 40, rows: Int = 20, cell: CellPixelSize = .assumed,
    runs: Int = 50
  ) throws(CoverArtError) -> [Double] {
    try timed(runs: runs) { () throws(CoverArtError) in
      let frame = try PixelRenderer.render(
        encoded: encoded, graphics: graphics, columns: columns, rows: rows, cell: cell)
      return !frame.sequence(imageID: 1).isEmpty
    }
  }

  /// The seconds of each of `runs` calls of `body`, on the monotonic clock; `body` says
  /// whether it made something (checked, so nothing is optimised away).
  private static func timed(runs: Int, _ body: () throws(CoverArtError) -> Bool) throws(CoverArtError) -> [Double] {
    let clock = ContinuousClock()
    var times: [Double] = []
    times.reserveCapacity(runs)
    for _ in 0..<runs {
      let start = clock.now
      let made = try body()
      let elapsed = clock.now - start
      precondition(made)
      let (seconds, attoseconds) = elapsed.components
      times.append(Double(seconds) + Double(attoseconds) / 1e18)
    }
    return times
  }
}
