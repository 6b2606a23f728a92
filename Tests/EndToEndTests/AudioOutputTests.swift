import Foundation
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// `audio` checked on what comes out (issue 49, item 3): the built binary plays a
  /// one-kilohertz tone through real libmpv into its `pcm` output (a WAV file), and ffmpeg's
  /// `volumedetect` measures that file — not the values asked for. The settings are kept in
  /// the library file: they are set by one run and heard in the next.
  @Suite(.serialized)
  struct AudioOutputTests {
    /// A library with one album, "Tone": two seconds of a 1 kHz sine at half of full scale
    /// (a FLAC written by ffmpeg). The runner starts in a folder of its own, where libmpv's
    /// `pcm` output writes `audiodump.wav`.
    private static func toneLibrary() throws -> (BinaryRunner, URL) {
      var runner = BinaryRunner()
      let music = try MusicFolderFixture(in: runner.home)
      let path = music.path("Tester/Tone/1.flac")
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Self.ffmpeg([
        "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*1000*t):s=44100:d=2", "-y", path,
      ])
      try TagEdit(album: "Tone", artist: "Tester", title: "Sine", trackNumber: "1").write(to: path)
      // ReplayGain off: the untagged file is not made 6 dB quieter.
      let imported = try runner.run(["-c", "import '\(music.root)'", "-c", "replaygain off"])
      #expect(imported.status == 0, "\(imported.stderr)")
      let output = runner.home.appendingPathComponent("output")
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      runner.workingDirectory = output.path
      return (runner, output.appendingPathComponent("audiodump.wav"))
    }

    /// Plays "Tone" to its end into the `pcm` output (after `commands`, in the same run) and
    /// returns the output's mean and peak level, in dBFS.
    private static func played(
      _ runner: BinaryRunner, _ dump: URL, after commands: [String] = []
    ) throws -> (mean: Double, peak: Double) {
      try? FileManager.default.removeItem(at: dump)
      let result = try runner.run(
        commands.flatMap { ["-c", $0] } + ["-c", "play Tone"], environment: ["BLUELIB_AUDIO_OUTPUT": "pcm"])
      #expect(result.status == 0, "\(result.stderr)")
      let measured = try Self.ffmpeg(["-i", dump.path, "-af", "volumedetect", "-f", "null", "-"])
      func level(_ name: String) throws -> Double {
        let line = try #require(measured.split(separator: "\n").first { $0.contains(name + ":") }, "\(measured)")
        let value = line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces).replacingOccurrences(
          of: " dB", with: "")
        return try #require(Double(value), "\(line)")
      }
      return (try level("mean_volume"), try level("max_volume"))
    }

    @discardableResult
    private static func ffmpeg(_ arguments: [String]) throws -> String {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
      process.arguments = ["-nostdin", "-hide_banner"] + arguments
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
      try process.run()
      let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw FixtureError("ffmpeg failed: \(text)") }
      return text
    }

    @Test(.timeLimit(.minutes(2)))
    func theEqualizerIsHeardOnTheOutputAndKeptForTheNextRun() throws {
      let (runner, dump) = try Self.toneLibrary()
      defer { runner.cleanUp() }
      let flat = try Self.played(runner, dump)
      // The tone at half of full scale: a peak near −6 dBFS, a mean near −9.
      #expect(abs(flat.peak - -6) < 1 && abs(flat.mean - -9) < 1, "\(flat)")

      // The 1 kHz band cut by 12 dB, set in one run, heard in the next.
      let set = try runner.run(["-c", "audio eq 0 0 0 0 0 -12 0 0 0 0"])
      #expect(set.status == 0 && set.stdout.contains("1 kHz -12"), "\(set.stdout)\(set.stderr)")
      let cut = try Self.played(runner, dump)
      #expect((10...14).contains(flat.mean - cut.mean), "flat \(flat), cut \(cut)")

      // The 8 kHz band raised 6 dB: the pre-amp takes 6 dB from everything, so the tone,
      // far from that band, comes out 6 dB quieter and nothing nears full scale.
      let boosted = try Self.played(runner, dump, after: ["audio eq 0 0 0 0 0 0 0 0 6 0"])
      #expect((5...7).contains(flat.mean - boosted.mean), "flat \(flat), boosted \(boosted)")
      #expect(boosted.peak < -10)

      // Off: as it was.
      let off = try Self.played(runner, dump, after: ["audio eq off"])
      #expect(abs(off.mean - flat.mean) < 0.5, "flat \(flat), off \(off)")
    }

    @Test(.timeLimit(.minutes(1)))
    func theDevicesAreLibmpvsAndAChoiceIsKept() throws {
      let (runner, _) = try Self.toneLibrary()
      defer { runner.cleanUp() }
      let listed = try runner.run(["-c", "audio device"], environment: ["BLUELIB_AUDIO_OUTPUT": "null"])
      #expect(listed.status == 0, "\(listed.stderr)")
      // Nothing the sound libraries say while asked for their devices reaches the screen.
      #expect(listed.stderr == "")
      let lines = listed.stdout.split(separator: "\n")
      #expect(lines.first == "* auto — Autoselect device", "\(listed.stdout)")
      // libmpv lists each output it was built with (Debian's: ALSA, PulseAudio, JACK, SDL…).
      let other = try #require(lines.dropFirst().first, "\(listed.stdout)")
      let name = String(other.dropFirst(2).split(separator: " — ").first ?? "")
      let chosen = try runner.run(
        ["-c", "audio device \(name)", "-c", "audio exclusive on"], environment: ["BLUELIB_AUDIO_OUTPUT": "null"])
      #expect(chosen.stdout == "audio device \(name)\naudio exclusive on\n", "\(chosen.stderr)")
      let next = try runner.run(["-c", "audio"])
      #expect(next.stdout.hasPrefix("audio device \(name)\naudio exclusive on\n"), "\(next.stdout)")
      let wrong = try runner.run(["-c", "audio device nowhere"], environment: ["BLUELIB_AUDIO_OUTPUT": "null"])
      #expect(wrong.status != 0)
      #expect(wrong.stderr.contains("audio: no audio device 'nowhere' (libmpv lists auto, "), "\(wrong.stderr)")
    }
  }
}
