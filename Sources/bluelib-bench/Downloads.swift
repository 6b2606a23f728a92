import Foundation
import LoopbackHTTPServer

/// The downloads scenario: N covers, each answered L seconds late by a local server,
/// fetched C at once by `bluelib --home H --downloads C -c 'download all; wait'`, and the
/// same N URLs fetched by `curl --parallel --parallel-max C` as the reference, run for run.
struct DownloadResult {
  /// N: covers (albums, URLs) per run.
  var covers: Int
  /// L: the server's delay before answering each cover, seconds.
  var latency: Double
  /// C: bluelib's `--downloads`.
  var concurrency: Int
  var measurement = Measurement()
  /// Requests the server received over the counted runs (each run must add exactly `covers`).
  var requests = 0
  /// curl over the same URLs; nil when not run (see ``curlMissing``).
  var curl: Measurement?
  /// Whether curl is not installed.
  var curlMissing = false

  /// The runs that counted.
  var runs: Int { measurement.times.count }

  /// ⌈N / C⌉ × L: the time the downloads take if C run at once and nothing else costs.
  var ideal: Double { Double((covers + concurrency - 1) / concurrency) * latency }

  /// The median over the ideal; nil when a run failed or the ideal is 0 (L = 0).
  var ratio: Double? {
    guard let median = measurement.median, ideal > 0 else { return nil }
    return median / ideal
  }

  /// The most CPU time (user + system) bluelib may spend on the whole run.
  static let cpuLimit = 0.25
  /// The most wall time, as a multiple of ``ideal``.
  static let wallLimit = 1.3
}

extension Bench {
  /// The shell commands the downloads scenario runs.
  static let downloadCommands = "download all; wait"

  /// Runs the downloads scenario into `results.downloads`: bluelib, then curl, in each run.
  ///
  /// Its setup happens here, not in `generate`: the library holds the server's URLs, and
  /// the server (with its threads and listening socket) lives only while this scenario runs.
  func runDownloads() {
    var result = DownloadResult(
      covers: options.downloadCovers, latency: options.downloadLatency, concurrency: options.downloadConcurrency)
    defer { results.downloads = result }
    let covers = result.covers
    let label = "downloads \(grouped(covers)) covers"

    let server: LoopbackHTTPServer
    do {
      server = try LoopbackHTTPServer()
    } catch {
      result.measurement.failure = "failed: setup: \(error)"
      log("\(label): \(error)")
      return
    }
    defer { server.stop() }
    markSocketsCloseOnExec()

    let width = DataSet.width(for: covers)
    let paths = (1...covers).map { number in
      "/covers/" + String(repeating: "0", count: max(0, width - String(number).count)) + "\(number).png"
    }
    let images = (1...covers).map { CoverPNG.make(number: $0) }
    for (path, image) in zip(paths, images) {
      server.route(path, .ok(image, delay: result.latency))
    }
    let csv = "\(work)/downloads-\(covers).csv"
    let library = "\(work)/library-downloads-\(covers)/library.sqlite"
    do {
      let start = monotonicSeconds()
      log("writing \(csv) and its library (\(grouped(covers)) albums with covers at \(server.url("/covers/")))…")
      try DataSet.writeCSV(count: covers, to: csv) { server.url(paths[$0 - 1]) }
      try makeLibrary(from: csv, at: library, expecting: covers)
      log("  done in \(formatSeconds(monotonicSeconds() - start))")
    } catch {
      result.measurement.failure = "failed: setup: \(error)"
      log("\(label): \(error)")
      return
    }

    let curl = findInPath("curl", environment: ProcessInfo.processInfo.environment)
    result.curlMissing = curl == nil
    var measurement = Measurement()
    var curlMeasurement = Measurement()
    var requests = 0
    let runs = options.runsPerScenario
    for run in 1...runs {
      record(&measurement, label: label, run: run, of: runs) { () throws(RunFailure) in
        let (child, received) = try downloadWithBluelib(run: run, library: library, server: server, paths: paths)
        requests += received
        return child
      }
      if measurement.failure != nil { break }
      guard let curl, curlMeasurement.failure == nil else { continue }
      record(&curlMeasurement, label: "\(label) curl", run: run, of: runs) { () throws(RunFailure) in
        try downloadWithCurl(curl, run: run, server: server, paths: paths, images: images)
      }
    }
    result.measurement = measurement
    result.requests = requests
    if curl != nil { result.curl = curlMeasurement }
  }

  /// One bluelib run: every cover downloaded once, reported and cached.
  private func downloadWithBluelib(
    run: Int, library: String, server: LoopbackHTTPServer, paths: [String]
  ) throws(RunFailure) -> (ChildRun, requests: Int) {
    let covers = paths.count
    let directory = "\(work)/runs/downloads-\(covers)-\(run)"
    let home = directory + "/home"
    defer { if options.keep == nil || run < options.runsPerScenario { DataSet.remove(directory) } }
    try DataSet.freshRun(directory, making: home, library: library)
    markSocketsCloseOnExec()  // a connection of the last run may linger in a server thread
    let before = paths.map(server.requestCount)
    let total = server.totalRequests
    let child = try invoke(
      bluelib, ["--home", home, "--downloads", String(options.downloadConcurrency), "-c", Self.downloadCommands],
      input: .null, in: directory, keepOutput: true)
    let received = server.totalRequests - total

    let lines = DataSet.contents(ofFileAt: directory + "/stdout", limit: 64 << 20)
      .split(whereSeparator: \.isNewline)
    // A cover that failed says so; the closing count (`48 covers downloaded, 0 failed`) does too.
    if let failed = lines.first(where: { $0.contains("failed") && !$0.hasSuffix(", 0 failed") }) {
      throw RunFailure(message: "bluelib printed '\(failed)'")
    }
    let statusLines = lines.count { $0.hasPrefix("cover of") }
    guard statusLines == covers else {
      throw RunFailure(message: "bluelib printed \(statusLines) `cover of` lines, expected \(covers)")
    }
    try checkEachRequestedOnce(server: server, paths: paths, before: before, received: received, by: "bluelib")
    let cached = Self.cacheEntries(in: home + "/covers")
    guard cached == covers else {
      throw RunFailure(message: "the cover cache holds \(cached) covers after the run, expected \(covers)")
    }
    return (child, received)
  }

  /// One curl run over the same URLs, as many at once as bluelib: every file complete.
  private func downloadWithCurl(
    _ curl: String, run: Int, server: LoopbackHTTPServer, paths: [String], images: [Data]
  ) throws(RunFailure) -> ChildRun {
    let directory = "\(work)/runs/downloads-curl-\(paths.count)-\(run)"
    defer { if options.keep == nil || run < options.runsPerScenario { DataSet.remove(directory) } }
    DataSet.remove(directory)
    // Without --parallel-immediate curl holds new transfers back while it waits to see
    // whether the first connection multiplexes, which over HTTP/1.1 to one host makes the
    // run nearly one cover at a time (12 s instead of 2 s here).
    var arguments = [
      "--parallel", "--parallel-immediate", "--parallel-max", String(options.downloadConcurrency), "-s", "--fail",
    ]
    for (index, path) in paths.enumerated() {
      arguments += ["-o", "\(directory)/\(index + 1).png", server.url(path)]
    }
    markSocketsCloseOnExec()
    let before = paths.map(server.requestCount)
    let total = server.totalRequests
    let child = try invoke(curl, arguments, input: .null, in: directory, keepOutput: false)
    try checkEachRequestedOnce(
      server: server, paths: paths, before: before, received: server.totalRequests - total, by: "curl")
    for (index, image) in images.enumerated() {
      let file = "\(directory)/\(index + 1).png"
      guard FileManager.default.contents(atPath: file) == image else {
        throw RunFailure(message: "curl's \(file) is not the cover the server sent")
      }
    }
    return child
  }

  /// Throws unless the run asked for every path exactly once.
  private func checkEachRequestedOnce(
    server: LoopbackHTTPServer, paths: [String], before: [Int], received: Int, by tool: String
  ) throws(RunFailure) {
    guard received == paths.count else {
      throw RunFailure(message: "the server received \(received) requests from \(tool), expected \(paths.count)")
    }
    for (path, count) in zip(paths, before) where server.requestCount(path) != count + 1 {
      throw RunFailure(
        message: "the server received \(server.requestCount(path) - count) requests for \(path) from \(tool)")
    }
  }

  /// The cover files in a cache directory (named by a SHA-256: 64 hex digits).
  static func cacheEntries(in directory: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.count { name in name.utf8.count == 64 && name.allSatisfy(\.isHexDigit) }
  }
}

extension Report {
  /// bluelib beside curl on the same URLs: wall and CPU time, and their ratios.
  func downloadComparisonLines(_ downloads: DownloadResult) -> [String] {
    let concurrency = downloads.concurrency
    var lines = [
      "The same \(plural(downloads.covers, "URL")), in each run right after bluelib's, through `curl --parallel --parallel-immediate --parallel-max \(concurrency) -s --fail -o FILE URL …` (one process for all of them) as the reference:",
      "",
      "| tool | median | min | CPU (user + sys) | peak RSS |",
      "| --- | ---: | ---: | ---: | ---: |",
      "| bluelib | \(comparisonCells(downloads.measurement)) |",
    ]
    if downloads.curlMissing {
      lines.append("| curl | not installed | – | – | – |")
    } else if let curl = downloads.curl {
      lines.append("| curl | \(comparisonCells(curl)) |")
    }
    lines.append("")
    if let ours = downloads.measurement.median, let theirs = downloads.curl?.median,
      let ourCPU = downloads.measurement.medianCPU, let theirCPU = downloads.curl?.medianCPU
    {
      let cpuRatio =
        theirCPU.user + theirCPU.system > 0
        ? formatRatio((ourCPU.user + ourCPU.system) / (theirCPU.user + theirCPU.system)) : "–"
      lines.append("ratio bluelib / curl: \(formatRatio(ours / theirs)) wall (medians), \(cpuRatio) CPU")
    } else {
      lines.append("ratio bluelib / curl: – (not both measured)")
    }
    lines.append("")
    return lines
  }

  private func comparisonCells(_ measurement: Measurement) -> String {
    if let failure = measurement.failure { return "\(cell(failure)) | – | – | –" }
    let cpu =
      measurement.medianCPU.map { cpu in
        "\(formatSeconds(cpu.user + cpu.system)) (\(formatSeconds(cpu.user)) + \(formatSeconds(cpu.system)))"
      } ?? "–"
    return
      "\(timeCell(measurement.median, perCommand: false)) | \(timeCell(measurement.minimum, perCommand: false)) | \(cpu) | \(formatKiB(measurement.maxRSSKiB))"
  }

  /// PASS when bluelib's downloads cost little CPU and take little more than the ideal time.
  func downloadChecks(_ downloads: DownloadResult?) -> [Check] {
    let cpuText = "downloads: bluelib's CPU time (user + sys) ≤ \(formatSeconds(DownloadResult.cpuLimit))"
    let wallText = "downloads: wall time ≤ \(DownloadResult.wallLimit)× the ideal ⌈N/C⌉ × L"
    guard let downloads, let median = downloads.measurement.median, let cpu = downloads.measurement.medianCPU else {
      return [missing(cpuText, downloads?.measurement), missing(wallText, downloads?.measurement)]
    }
    #if DEBUG
      let buildNote = " (debug build: the limits are for release)"
    #else
      let buildNote = ""
    #endif
    let curlCPU = downloads.curl?.medianCPU.map { " (curl \(formatSeconds($0.user + $0.system)))" } ?? ""
    let curlWall = downloads.curl?.median.map { " (curl \(formatSeconds($0)))" } ?? ""
    let total = cpu.user + cpu.system
    var checks = [
      Check(
        status: total <= DownloadResult.cpuLimit ? .pass : .fail,
        text:
          "\(cpuText): \(formatSeconds(total)) (\(formatSeconds(cpu.user)) + \(formatSeconds(cpu.system)), median run)\(curlCPU), ratio \(formatRatio(total / DownloadResult.cpuLimit)) of the limit\(buildNote)"
      )
    ]
    let ideal = downloads.ideal
    if ideal > 0 {
      let limit = DownloadResult.wallLimit * ideal
      checks.append(
        Check(
          status: median <= limit ? .pass : .fail,
          text:
            "\(wallText): \(formatSeconds(median)) vs ideal \(formatSeconds(ideal)) (limit \(formatSeconds(limit)))\(curlWall), ratio \(formatRatio(median / ideal))\(buildNote)"
        ))
    } else {
      checks.append(Check(status: .skip, text: "\(wallText): no ideal with a latency of 0"))
    }
    return checks
  }
}

/// Marks every open socket of this process close-on-exec, so that the children we spawn
/// do not inherit the download server's listening socket or its connections (`LoopbackHTTPServer`
/// opens them without `SOCK_CLOEXEC`).
func markSocketsCloseOnExec() {
  guard
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))
      ?? (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd"))
  else { return }
  for name in names {
    guard let fd = Int32(name), fd > 2 else { continue }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFSOCK) else { continue }
    let flags = fcntl(fd, F_GETFD)
    if flags >= 0 && flags & FD_CLOEXEC == 0 {
      _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
    }
  }
}

/// Small valid PNG covers, a different image for every number.
enum CoverPNG {
  /// Pixels per side.
  static let side = 32

  /// A `side` × `side` 8-bit RGB PNG (about 3 KiB, like the bundled covers): a gradient
  /// tinted by `number`, whose first pixel spells `number` (so no two covers are alike).
  /// The image data is zlib with stored (uncompressed) deflate blocks.
  static func make(number: Int) -> Data {
    var raw: [UInt8] = []
    raw.reserveCapacity(side * (1 + 3 * side))
    let tint = (UInt8(truncatingIfNeeded: number &* 37), UInt8(truncatingIfNeeded: number &* 101))
    for y in 0..<side {
      raw.append(0)  // filter: none
      for x in 0..<side {
        if x == 0 && y == 0 {
          raw += [
            UInt8(truncatingIfNeeded: number >> 16), UInt8(truncatingIfNeeded: number >> 8),
            UInt8(truncatingIfNeeded: number),
          ]
        } else {
          raw += [
            tint.0 &+ UInt8(truncatingIfNeeded: x * 8), tint.1 &+ UInt8(truncatingIfNeeded: y * 8),
            UInt8(truncatingIfNeeded: (x + y) * 4),
          ]
        }
      }
    }

    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var header: [UInt8] = []
    header += bigEndian(UInt32(side)) + bigEndian(UInt32(side))
    header += [8, 2, 0, 0, 0]  // bit depth 8, RGB, deflate, adaptive filtering, no interlace
    appendChunk("IHDR", header, to: &png)
    appendChunk("IDAT", zlibStored(raw), to: &png)
    appendChunk("IEND", [], to: &png)
    return Data(png)
  }

  /// `bytes` as a zlib stream of stored deflate blocks.
  static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
      let end = min(start + 65_535, bytes.count)
      let length = UInt16(end - start)
      out.append(end == bytes.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
      out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
      out += bytes[start..<end]
      start = end
    } while start < bytes.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return out + bigEndian(b << 16 | a)
  }

  static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
    let typed = Array(type.utf8) + data
    png += bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  static let crcTable: [UInt32] = (0..<256).map { index in
    var c = UInt32(index)
    for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
