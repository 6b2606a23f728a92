import Foundation

/// Tones written and loudness measured with ffmpeg (Debian's): what playback tests play, and
/// how they check what came out (mpv's `pcm` output) rather than what was asked for.
package enum Loudness {
  /// The mean and the highest level of a file's samples, in dBFS (ffmpeg's `volumedetect`).
  package struct Levels: Sendable, CustomStringConvertible {
    package var mean: Double
    package var max: Double

    package var description: String { "mean \(mean) dB, max \(max) dB" }
  }

  /// Writes `seconds` of a 440 Hz sine whose peaks are at `peak` dBFS, mono, at `path` (the
  /// format from its extension).
  package static func tone(at path: String, seconds: Int, peak: Double) throws {
    // ffmpeg's `sine` source peaks at 1/8 (−18.06 dBFS).
    let gain = pow(10, (peak + 18.0618) / 20)
    _ = try ffmpeg([
      "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds),volume=\(gain)", "-ac", "1", "-y", path,
    ])
  }

  /// The levels of the audio file at `path`.
  package static func levels(of path: String) throws -> Levels {
    let report = try ffmpeg(["-i", path, "-af", "volumedetect", "-f", "null", "-"], loglevel: "info")
    func value(_ name: String) throws -> Double {
      guard let line = report.split(separator: "\n").first(where: { $0.contains(name + ":") }),
        let number = line.split(separator: ":").last?.split(separator: " ").first.flatMap({ Double($0) })
      else { throw FixtureError("ffmpeg's volumedetect said no \(name) of \(path): \(report.suffix(400))") }
      return number
    }
    return Levels(mean: try value("mean_volume"), max: try value("max_volume"))
  }

  /// Runs ffmpeg with `arguments`; what it wrote on standard error.
  private static func ffmpeg(_ arguments: [String], loglevel: String = "error") throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments = ["-nostdin", "-hide_banner", "-loglevel", loglevel] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw FixtureError("ffmpeg \(arguments) failed: \(said)") }
    return said
  }
}
