import Foundation
import MusicFolder
import TestSupport
import Testing

/// Cost follows use (issue 36): the built binary maps libmpv — and the FFmpeg, X11 and
/// PulseAudio it brings — only when something plays, and where libmpv cannot be loaded,
/// `play` says what to install while everything else works. The dynamic loader says what it
/// maps (`LD_DEBUG=files`, written to files of its own), `dlopen` included.
struct AudioLibraryLoadingTests {
  /// The files the dynamic loader mapped while `bluelib arguments…` ran, one per line of
  /// its log, and the run's result.
  static func mapped(
    _ arguments: [String], in runner: BinaryRunner, useHome: Bool = true, environment: [String: String] = [:]
  ) throws -> (files: [String], result: BinaryRunner.Result) {
    let log = try TemporaryDirectory()
    let result = try runner.run(
      arguments, useHome: useHome,
      environment: environment.merging(["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log.file("ld")]) { $1 })
    var files: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: log.path) {
      let text = try String(contentsOfFile: log.file(name), encoding: .utf8)
      // `     12345:	file=libsqlite3.so.0 [0];  needed by …` / `…;  dynamically loaded by …`
      for line in text.split(separator: "\n") {
        guard let start = line.range(of: "file=") else { continue }
        files.append(String(line[start.upperBound...].prefix { $0 != " " && $0 != ";" }))
      }
    }
    return (files, result)
  }

  /// A music folder in the runner's home with one album of one track, Queen's "Innuendo".
  static func innuendo(in runner: BinaryRunner) throws -> MusicFolderFixture {
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("Queen/Innuendo/1.ogg", TagEdit(album: "Innuendo", artist: "Queen", title: "Innuendo"))
    return music
  }

  @Test(arguments: [["-c", "quit"], ["-c", "list"], ["--version"], ["-c", "help play; show 2"]])
  func aRunThatPlaysNothingNeverMapsLibmpv(arguments: [String]) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (files, result) = try Self.mapped(arguments, in: runner)
    #expect(result.status == 0, "\(result.stderr)")
    // The log is read: the libraries every start needs are in it.
    #expect(files.contains { $0.hasPrefix("libsqlite3.so") }, "\(files)")
    #expect(!files.contains { $0.contains("libmpv") }, "\(files)")
    #expect(!files.contains { $0.contains("libavcodec") || $0.contains("libpulse") }, "\(files)")
  }

  @Test(.timeLimit(.minutes(1)))
  func playMapsLibmpv() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.innuendo(in: runner)
    #expect(try runner.run(["-c", "import '\(music.root)'"]).status == 0)
    let (files, result) = try Self.mapped(["-c", "play 1"], in: runner, environment: ["BLUELIB_AUDIO_OUTPUT": "null"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("▶ Queen — Innuendo — Innuendo (0:01)"), "\(result.stdout)")
    // By a path in the system's library folders (CRuntimeLibrary), not by its soname.
    #expect(
      files.contains {
        $0.hasPrefix("/") && ["libmpv.so.2", "libmpv.so"].contains(($0 as NSString).lastPathComponent)
      }, "\(files)")
  }

  /// Files named as libmpv's that are not libraries (the dynamic loader finds them first,
  /// through `LD_LIBRARY_PATH`) stand for a machine where it cannot be loaded.
  @Test(.timeLimit(.minutes(1)))
  func withoutLibmpvPlaySaysWhatToInstallAndTheRestWorks() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.innuendo(in: runner)
    let libraries = try TemporaryDirectory()
    for name in ["libmpv.so.2", "libmpv.so"] {
      #expect(FileManager.default.createFile(atPath: libraries.file(name), contents: Data()))
    }
    let broken = ["LD_LIBRARY_PATH": libraries.path, "BLUELIB_AUDIO_OUTPUT": "null"]
    let imported = try runner.run(["-c", "import '\(music.root)'"], environment: broken)
    #expect(imported.status == 0, "\(imported.stderr)")
    for verb in ["play 1", "queue 1", "volume 50"] {
      let result = try runner.run(["-c", verb, "-c", "list -f '$title'"], environment: broken)
      #expect(result.status == 1)
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(result.stderr)")
      #expect(
        result.stderr.hasPrefix("bluelib: -c:1: \(verb.prefix { $0 != " " }): cannot load libmpv ("), "\(result.stderr)"
      )
      #expect(
        result.stderr.hasSuffix("); to play music, install libmpv (Debian: apt install libmpv2)\n"), "\(result.stderr)")
      #expect(result.stdout.hasSuffix("Innuendo\n"), "\(result.stdout)")
    }
  }

  /// TagLib (and the libstdc++ it needs) live in a plug-in, libbluelib-taglib.so, loaded at
  /// the first tag read or written: a run that reads none maps neither.
  @Test(arguments: [["-c", "quit"], ["-c", "list"], ["--version"]])
  func aRunThatReadsNoTagsNeverMapsTagLib(arguments: [String]) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (files, result) = try Self.mapped(arguments, in: runner)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(files.contains { $0.hasPrefix("libsqlite3.so") }, "\(files)")
    #expect(!files.contains { $0.contains("libtag") || $0.contains("bluelib-taglib") }, "\(files)")
  }

  @Test(.timeLimit(.minutes(1)))
  func importMapsTagLibThroughItsPlugIn() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.innuendo(in: runner)
    let (files, result) = try Self.mapped(["-c", "import '\(music.root)'", "-c", "list -f '$title'"], in: runner)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("Innuendo\n"), "\(result.stdout)")
    #expect(files.contains { $0.hasSuffix("libbluelib-taglib.so") }, "\(files)")
    #expect(files.contains { $0.hasPrefix("libtag.so") }, "\(files)")
  }

  /// A copy of the program without the plug-in beside it (an installation that lost it):
  /// `import` and `write` say where it was looked for; the rest works.
  @Test(.timeLimit(.minutes(1)))
  func withoutTheTagLibPlugInImportSaysWhereItLookedAndTheRestWorks() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try Self.innuendo(in: runner)
    let alone = try TemporaryDirectory()
    let program = alone.file("bluelib")
    try FileManager.default.copyItem(atPath: BinaryRunner.executable.path, toPath: program)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = ["--home", runner.home.path, "-c", "list -f '$title'", "-c", "import '\(music.root)'"]
    process.environment = runner.environment()
    let (output, errors) = (Pipe(), Pipe())
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(stdout.contains("Best of Bowie"), "\(stdout)")
    #expect(
      stderr
        == "bluelib: -c:2: import: cannot scan '\(music.root)': cannot read tags: TagLib's plug-in "
        + "libbluelib-taglib.so is neither in \(alone.path) nor in \(alone.path)/../lib/bluelib\n",
      "\(stderr)")
  }
}
