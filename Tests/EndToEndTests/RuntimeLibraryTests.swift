import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// The libraries loaded at run time (issue 46, H10, H13, H17): a file that is not a whole
/// library — a truncated copy, a FIFO — is refused with one line before `dlopen` maps it
/// (a truncated one died with SIGBUS, a FIFO blocked the import for ever), and a library
/// named by its soname comes from the system's folders, not from the program's own.
struct RuntimeLibraryTests {
  /// A copy of the built program in a folder of its own, with `plugIn` (what stands for
  /// TagLib's plug-in beside it) made by `placing`.
  final class CopiedProgram {
    let folder: TemporaryDirectory
    let program: String

    init() throws {
      folder = try TemporaryDirectory()
      program = folder.file("bluelib")
      try FileManager.default.copyItem(atPath: BinaryRunner.executable.path, toPath: program)
    }

    var plugIn: String { folder.file("libbluelib-taglib.so") }

    /// Runs the copy with `arguments` in `runner`'s home; ends it after `timeout` seconds.
    func run(
      _ arguments: [String], in runner: BinaryRunner, environment: [String: String] = [:], timeout: Double = 20
    ) throws -> BinaryRunner.Result {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = ["--home", runner.home.path] + arguments
      process.environment = runner.environment(environment)
      let (output, errors) = (Pipe(), Pipe())
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
      let stdout = output.fileHandleForReading.readDataToEndOfFile()
      let stderr = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      timer.cancel()
      return BinaryRunner.Result(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self), stdoutBytes: stdout)
    }
  }

  /// The first `count` bytes of `source` at `target`.
  static func truncated(_ source: String, to count: Int, at target: String) throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: source)).prefix(count)
    #expect(FileManager.default.createFile(atPath: target, contents: bytes))
  }

  /// The TagLib plug-in the tests' build made (beside the built program).
  static var builtPlugIn: String {
    BinaryRunner.executable.deletingLastPathComponent().appendingPathComponent("libbluelib-taglib.so").path
  }

  @Test(.timeLimit(.minutes(1)), arguments: [5000, 30000])
  func aTruncatedPlugInIsRefusedWithALineNotABusError(keeping bytes: Int) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try AudioLibraryLoadingTests.innuendo(in: runner)
    let copy = try CopiedProgram()
    try Self.truncated(Self.builtPlugIn, to: bytes, at: copy.plugIn)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: Self.builtPlugIn)[.size] as? Int)
    let result = try copy.run(["-c", "import '\(music.root)'", "-c", "list -f '$title'"], in: runner)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.contains("Best of Bowie"), "\(result.stdout)")
    #expect(result.stderr.hasPrefix("bluelib: -c:1: import: cannot scan '\(music.root)': cannot read tags: "))
    #expect(
      result.stderr.contains(
        "cannot load TagLib's plug-in: \(copy.plugIn) is damaged (truncated at \(bytes) bytes; its ELF headers need "),
      "\(result.stderr)")
    #expect(result.stderr.hasSuffix("); reinstall bluelib\n"), "\(result.stderr)")
    #expect(size > bytes)
  }

  @Test(.timeLimit(.minutes(1)))
  func aFIFOForThePlugInIsRefusedAtOnce() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try AudioLibraryLoadingTests.innuendo(in: runner)
    let copy = try CopiedProgram()
    #expect(mkfifo(copy.plugIn, 0o644) == 0)
    let result = try copy.run(["-c", "import '\(music.root)'"], in: runner, timeout: 15)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr
        == "bluelib: -c:1: import: cannot scan '\(music.root)': cannot read tags: cannot load TagLib's plug-in: "
        + "\(copy.plugIn) is a FIFO, not a library; reinstall bluelib\n")
  }

  /// The file of the system's library `soname`, as the dynamic loader's cache finds it.
  static func systemLibrary(_ soname: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/sbin/ldconfig")
    process.arguments = ["-p"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // `	libcurl.so.4 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcurl.so.4`, a link to the file.
    let line = try #require(listing.split(separator: "\n").first { $0.hasPrefix("\t\(soname) ") })
    let path = try #require(line.components(separatedBy: " => ").last)
    return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// A libcurl.so.4 beside the program (`~/.local/bin` is written by other tools too) is not
  /// the one a download loads: the executable's `$ORIGIN` runpath made `dlopen` take it first.
  @Test(.timeLimit(.minutes(1)))
  func aLibraryBesideTheProgramIsNotLoaded() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    server.route("/a.png", .ok(CoverFixture.png()))
    try RunsAlone.DownloadTests.prepare(runner, [("A", server.url("/a.png"))])
    let copy = try CopiedProgram()
    let beside = copy.folder.file("libcurl.so.4")
    try FileManager.default.copyItem(atPath: try Self.systemLibrary("libcurl.so.4"), toPath: beside)
    let log = try TemporaryDirectory()
    let result = try copy.run(
      ["-c", "download 1", "-c", "wait"], in: runner,
      environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log.file("ld")])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("cover of \"A\": 70 bytes"), "\(result.stdout)")
    var opened: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: log.path) {
      let text = try String(contentsOfFile: log.file(name), encoding: .utf8)
      for line in text.split(separator: "\n") where line.contains("trying file=") || line.contains("file=") {
        if line.contains("libcurl") { opened.append(String(line)) }
      }
    }
    #expect(!opened.isEmpty, "the loader's log names no libcurl")
    #expect(!opened.contains { $0.contains(beside) }, "\(opened)")
  }

  /// A truncated libcurl found through `LD_LIBRARY_PATH` is said at the first download (it
  /// died with SIGBUS), and the rest works. (Where only one of the names is damaged, the
  /// other is loaded.)
  @Test(.timeLimit(.minutes(1)))
  func aTruncatedLibcurlIsSaidAndTheRestWorks() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    server.route("/a.png", .ok(CoverFixture.png()))
    try RunsAlone.DownloadTests.prepare(runner, [("A", server.url("/a.png"))])
    let libraries = try TemporaryDirectory()
    // Both names bluelib tries (libcurl.so, the development link, would do otherwise).
    let damaged = libraries.file("libcurl.so.4")
    try Self.truncated(try Self.systemLibrary("libcurl.so.4"), to: 30000, at: damaged)
    try Self.truncated(try Self.systemLibrary("libcurl.so.4"), to: 30000, at: libraries.file("libcurl.so"))
    let result = try runner.run(
      ["-c", "download 1", "-c", "wait", "-c", "list -f '$title'"], environment: ["LD_LIBRARY_PATH": libraries.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "cover of \"A\" failed: cannot load libcurl (\(damaged) is damaged (truncated at 30000 bytes; its ELF headers "),
      "\(result.stdout)")
    #expect(result.stdout.hasSuffix("\nA\n"), "\(result.stdout)")
    #expect(server.requestCount("/a.png") == 0)
  }

  // MARK: - The handshake (issue 47, item 4)

  /// Compiles the C `source` into the shared library `path` with the system's compiler.
  static func compileLibrary(_ source: String, to path: String) throws {
    let folder = try TemporaryDirectory()
    let file = folder.file("library.c")
    try source.write(toFile: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
    process.arguments = ["-shared", "-fPIC", "-o", path, file]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "cc: \(said)")
  }

  /// Stubs of `names`: functions that do nothing, for a library that has them all.
  static func stubs(_ names: [String]) -> String {
    names.map { "void \($0)(void) {}\n" }.joined()
  }

  /// A TagLib plug-in of another bluelib — one of an older interface, or one from before the
  /// interface was numbered — is refused with one line, not called with structs it misreads.
  @Test(.timeLimit(.minutes(1)), arguments: [(Optional(1), 1), (nil, 1), (Optional(99), 99)])
  func aPlugInOfAnotherInterfaceIsRefused(answer: Int?, said: Int) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try AudioLibraryLoadingTests.innuendo(in: runner)
    let copy = try CopiedProgram()
    let functions = [
      "ctlp_read_descriptor", "ctlp_extensions", "ctlp_track_free", "ctlp_write", "ctlp_read_lyrics",
      "ctlp_lyrics_free", "ctlp_copy_attributes", "ctlp_read_rating_tags", "ctlp_bytes_free",
    ]
    try Self.compileLibrary(
      Self.stubs(functions) + (answer.map { "int ctlp_abi(void) { return \($0); }\n" } ?? ""), to: copy.plugIn)
    let result = try copy.run(["-c", "import '\(music.root)'"], in: runner)
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "bluelib: -c:1: import: cannot scan '\(music.root)': cannot read tags: cannot load TagLib's plug-in: "
        + "\(copy.plugIn) is of another bluelib (interface \(said); this one needs 3); reinstall bluelib\n")
  }

  /// The functions bluelib calls in libmpv.
  static let mpvFunctions = [
    "mpv_create", "mpv_initialize", "mpv_terminate_destroy", "mpv_set_option_string", "mpv_command",
    "mpv_set_property", "mpv_get_property", "mpv_wait_event", "mpv_error_string", "mpv_free", "mpv_observe_property",
    "mpv_hook_add", "mpv_hook_continue", "mpv_set_property_string",
  ]

  /// A libmpv of another client API, or one without a function bluelib calls, is said at the
  /// first `play`, with what to install; nothing of it is called.
  @Test(.timeLimit(.minutes(1)))
  func aLibmpvOfAnotherAPIOrWithoutAFunctionIsRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try AudioLibraryLoadingTests.innuendo(in: runner)
    #expect(try runner.run(["-c", "import '\(music.root)'"]).status == 0)
    let cases = [
      (
        Self.stubs(Self.mpvFunctions) + "unsigned long mpv_client_api_version(void) { return 1UL << 16 | 109; }\n",
        "speaks client API 1.109; bluelib needs 2.x"
      ),
      (
        Self.stubs(Self.mpvFunctions.filter { $0 != "mpv_hook_add" })
          + "unsigned long mpv_client_api_version(void) { return 2UL << 16 | 1; }\n",
        "has no mpv_hook_add (too old?)"
      ),
    ]
    for (source, reason) in cases {
      let libraries = try TemporaryDirectory()
      try Self.compileLibrary(source, to: libraries.file("libmpv.so.2"))
      try Self.compileLibrary(source, to: libraries.file("libmpv.so"))
      let result = try runner.run(
        ["-c", "play 1"], environment: ["LD_LIBRARY_PATH": libraries.path, "BLUELIB_AUDIO_OUTPUT": "null"])
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "bluelib: -c:1: play: cannot load libmpv (the libmpv at \(libraries.file("libmpv.so.2")) \(reason)); "
          + "to play music, install libmpv "
          + "(Debian: apt install libmpv2)\n", "\(result.stderr)")
    }
  }

  /// A libcurl older than the options bluelib sets is refused at the first download.
  @Test(.timeLimit(.minutes(1)))
  func aLibcurlTooOldIsRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    try RunsAlone.DownloadTests.prepare(runner, [("A", "http://127.0.0.1:9/a.png")])
    let functions = [
      "curl_global_init", "curl_easy_init", "curl_easy_cleanup", "curl_easy_strerror", "curl_easy_setopt",
      "curl_easy_getinfo", "curl_slist_append", "curl_slist_free_all", "curl_multi_init", "curl_multi_cleanup",
      "curl_multi_setopt", "curl_multi_add_handle", "curl_multi_remove_handle", "curl_multi_perform",
      "curl_multi_poll", "curl_multi_wakeup", "curl_multi_info_read",
    ]
    let libraries = try TemporaryDirectory()
    for name in ["libcurl.so.4", "libcurl.so"] {
      try Self.compileLibrary(
        Self.stubs(functions) + """
          /* The head of curl_version_info_data: age, version text, version number. */
          struct head { int age; const char *version; unsigned int number; };
          static struct head old = {0, "7.64.0", 0x074000};
          void *curl_version_info(int age) { (void)age; return &old; }

          """, to: libraries.file(name))
    }
    let result = try runner.run(
      ["-c", "download 1", "-c", "wait"], environment: ["LD_LIBRARY_PATH": libraries.path])
    #expect(
      result.stdout.contains(
        "cover of \"A\" failed: cannot load libcurl (the libcurl at \(libraries.file("libcurl.so.4")) (7.64.0) is "
          + "too old: 7.85.0 or later is needed); to download covers, install libcurl"), "\(result.stdout)")
  }
}
