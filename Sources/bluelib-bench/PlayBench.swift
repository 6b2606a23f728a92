import BlueLibrary
import BluePlayback
import Foundation
import MPVAudio
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The playback benchmark (issue "Play it", its cost), apart from the scenarios of `Options`:
///
///     bluelib-bench play [--runs N] [--seconds S] [--bluelib PATH]
///
/// 1. **Play to the first sample**: in this process, the library's `Player` on libmpv with
///    the null audio output plays a one-second FLAC (the test fixture) N times (default 20);
///    each run is timed from `play` to mpv's audio clock running (`time-pos` > 0, polled
///    every 0.2 ms: an upper bound of the first sample handed to the output). The first
///    run, which starts libmpv, is reported apart. Goal: the median < 100 ms.
/// 2. **The shell's CPU while playing**: the real binary, `bluelib --home H -c 'play …'`
///    on an album of two WAV files of S/2 seconds each (default S = 20), null output in real
///    time; its threads' CPU time read from /proc at the end of playing. The shell's own
///    threads (the main thread and "mpv events") against the rest (mpv's decoder and output
///    threads). Goal: the shell's own < 2% of a core.
/// 3. **Memory over a 2-hour queue**: in this process, 720 ten-second WAV files queued
///    (two hours of audio) and played untimed (`ao-null-untimed`): the resident size after
///    the 60th track (ten minutes in) and at the end. Goal: it grows < 4 MiB.
///
/// Exit status 0 when the goals hold, 3 when one does not, 1 when a run fails, 2 on a usage
/// or setup error.
enum PlayBench {
  /// Runs the three measures and prints their table; the exit status.
  static func run(runs: Int, seconds: Int, bluelib: String) -> Int32 {
    do {
      let directory = NSTemporaryDirectory() + "bluelib-play-bench-\(getpid())"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: directory) }
      var passed = true
      print("| Measure | Result | Goal |")
      print("|---|---|---|")
      let first = try firstSample(runs: runs, directory: directory)
      let median = first.warm.sorted()[first.warm.count / 2]
      passed = passed && median < 0.1
      print(
        "| play → first sample (mpv's audio clock running), median of \(first.warm.count) | "
          + "\(milliseconds(median)) (min \(milliseconds(first.warm.min()!)), max \(milliseconds(first.warm.max()!))); "
          + "the first play, starting libmpv: \(milliseconds(first.cold)) | < 100 ms |")
      let cpu = try shellCPU(seconds: seconds, directory: directory, bluelib: bluelib)
      let played = 2 * (seconds / 2)
      let shellShare = cpu.shell / cpu.wall
      passed = passed && shellShare < 0.02
      print(
        "| CPU while playing \(played) s (the real binary, null output) | the shell's threads "
          + String(
            format: "%.2f%% of a core (%.2f s); mpv's and the rest %.2f%% (%.2f s) over %.1f s", shellShare * 100,
            cpu.shell, cpu.rest / cpu.wall * 100, cpu.rest, cpu.wall)
          + " | shell < 2% |")
      let memory = try memoryOverAQueue(directory: directory)
      let growth = memory.end - memory.early
      passed = passed && growth < 4 * 1024
      print(
        "| resident size over a 2-hour queue (720 × 10 s, untimed; the library's Player and libmpv in this process) | after 10 min \(formatKiB(memory.early)), "
          + "at the end \(formatKiB(memory.end)), peak \(formatKiB(memory.peak)); played in "
          + String(format: "%.1f s", memory.seconds) + " | grows < 4 MiB |")
      return passed ? 0 : 3
    } catch {
      standardError("bluelib-bench: \(error)")
      return 1
    }
  }

  private static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

  // MARK: - Play to the first sample

  static func firstSample(runs: Int, directory: String) throws -> (cold: Double, warm: [Double]) {
    let path = directory + "/first.flac"
    try FileManager.default.copyItem(atPath: MusicFolderMaker.fixtures + "/silence.flac", toPath: path)
    let track = Player.Track(
      albumID: 1, album: "Bench", artist: "bluelib-bench", number: 1, title: "Silence", duration: 1, path: path)
    let player = Player { () throws(PlaybackError) -> any AudioEngine in try MPVEngine(audioOutput: "null") }
    // The clock of the file played before stays readable until the new one starts: each
    // run waits for its own start event first, then for the clock to run.
    let starts = Mutex(0)
    player.observe { event in
      if case .started = event { starts.withLock { $0 += 1 } }
    }
    var times: [Double] = []
    for run in 0..<runs {
      let start = monotonicSeconds()
      try player.play([track])
      while starts.withLock({ $0 }) <= run || (player.status()?.time ?? 0) <= 0 {
        guard monotonicSeconds() - start < 10 else { throw PlaybackError("mpv did not start playing in 10 s") }
        usleep(200)
      }
      times.append(monotonicSeconds() - start)
      player.stop()
    }
    return (times[0], Array(times.dropFirst()))
  }

  // MARK: - CPU while playing

  /// One thread's CPU seconds, by its name.
  private struct ThreadTime {
    var name: String
    var seconds: Double
  }

  /// The CPU seconds of each thread of `pid` (from /proc/PID/task/*/stat).
  private static func threadTimes(of pid: pid_t) -> [pid_t: ThreadTime] {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    var times: [pid_t: ThreadTime] = [:]
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return times }
    for task in tasks {
      guard let tid = pid_t(task),
        let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
        let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
      else { continue }
      let name = String(stat[stat.index(after: open)..<close])
      // After "(comm)": state is field 3, utime 14 and stime 15.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
      times[tid] = ThreadTime(name: name, seconds: (user + system) / ticks)
    }
    return times
  }

  static func shellCPU(seconds: Int, directory: String, bluelib: String) throws -> (
    shell: Double, rest: Double, wall: Double
  ) {
    let home = directory + "/home"
    let album = directory + "/Music/Bench Artist/Bench Album"
    try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
    // Two files of half the time each (an odd number of seconds plays one second less).
    let seconds = 2 * (seconds / 2)
    for number in 1...2 { try writeSilence(seconds: seconds / 2, to: album + "/0\(number).wav") }
    var environment = ProcessInfo.processInfo.environment
    environment["BLUELIB_AUDIO_OUTPUT"] = "null"
    func start(_ arguments: [String]) throws -> Process {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: bluelib)
      process.arguments = ["--home", home] + arguments
      process.environment = environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }
    let importing = try start(["-c", "import '\(directory)/Music'"])
    importing.waitUntilExit()
    guard importing.terminationStatus == 0 else { throw PlaybackError("bluelib could not import the bench album") }
    let begin = monotonicSeconds()
    let playing = try start(["-c", "play 'Bench Album'"])
    var last: [pid_t: ThreadTime] = [:]
    while playing.isRunning {
      // Keep each thread's latest figure: threads end with the process.
      for (tid, time) in threadTimes(of: playing.processIdentifier) { last[tid] = time }
      usleep(100_000)
    }
    let wall = monotonicSeconds() - begin
    guard playing.terminationStatus == 0 else {
      throw PlaybackError("bluelib play exited \(playing.terminationStatus)")
    }
    guard wall >= Double(seconds) * 0.9 else {
      throw PlaybackError("bluelib played \(seconds) s of audio in \(wall) s: it did not play in real time")
    }
    let pid = playing.processIdentifier
    let shell = last.filter { $0.key == pid || $0.value.name == "mpv events" }.values.reduce(0) { $0 + $1.seconds }
    let all = last.values.reduce(0) { $0 + $1.seconds }
    return (shell, all - shell, wall)
  }

  // MARK: - Memory over a long queue

  static func memoryOverAQueue(directory: String) throws -> (early: Int, end: Int, peak: Int, seconds: Double) {
    let path = directory + "/ten.wav"
    try writeSilence(seconds: 10, to: path, rate: 44_100, channels: 2)
    let tracks = (1...720).map { (number: Int) -> Player.Track in
      Player.Track(
        albumID: 1, album: "Two Hours", artist: "bluelib-bench", number: number, title: "Track \(number)", duration: 10,
        path: path)
    }
    let player = Player { () throws(PlaybackError) -> any AudioEngine in
      try MPVEngine(audioOutput: "null", options: [("ao-null-untimed", "yes")])
    }
    let sizes = Mutex<[Int]>([])
    player.observe { event in
      if case .started = event { sizes.withLock { $0.append(residentKiB()) } }
    }
    let start = monotonicSeconds()
    try player.play(tracks)
    player.waitUntilIdle(timeout: 600 - (monotonicSeconds() - start), isCancelled: { false }, every: {})
    let seen = sizes.withLock { $0 }
    guard seen.count == tracks.count else {
      throw PlaybackError("\(seen.count) of \(tracks.count) tracks started in \(Int(monotonicSeconds() - start)) s")
    }
    return (seen[59], residentKiB(), max(seen.max() ?? 0, residentKiB()), monotonicSeconds() - start)
  }

  /// This process's resident size (VmRSS), in KiB.
  private static func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ")[1]) ?? 0
  }

  /// A WAV file of `seconds` of silence (16-bit PCM).
  static func writeSilence(seconds: Int, to path: String, rate: Int = 8000, channels: Int = 1) throws {
    let size = rate * 2 * channels * seconds
    var bytes: [UInt8] = []
    func word(_ value: Int, _ count: Int) {
      for shift in 0..<count { bytes.append(UInt8((value >> (8 * shift)) & 0xFF)) }
    }
    bytes += Array("RIFF".utf8)
    word(36 + size, 4)
    bytes += Array("WAVEfmt ".utf8)
    for (value, count) in [
      (16, 4), (1, 2), (channels, 2), (rate, 4), (rate * 2 * channels, 4), (2 * channels, 2), (16, 2),
    ] {
      word(value, count)
    }
    bytes += Array("data".utf8)
    word(size, 4)
    bytes += [UInt8](repeating: 0, count: size)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }
}
