import CoverArt
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// Covers in real terminals on a virtual X display: xterm as a VT340 (sixel) and kitty
  /// (its graphics protocol, on software OpenGL) run `bluelib -c 'cover N --size 40x20'` on
  /// a cover of one-pixel red and blue stripes, and a screenshot of the screen must hold
  /// both pure colours — where half blocks would show their purple average (checked too,
  /// in the same xterm).
  ///
  /// Needs Xvfb, xwd and ImageMagick's convert, plus the terminal; each test is skipped,
  /// saying what is missing, without them (`.ci/run` installs them all). With
  /// `BLUELIB_SAVE_SCREENSHOTS=DIR` each test also saves its screenshot there, as the
  /// screenshots in docs/ (docs/covers.md shows them) were made.
  @Suite(.serialized)
  struct RealTerminalTests {
    /// Album 5's cover: 160×160 pixels in columns of red and blue one pixel wide.
    static let stripes = RGBImage(width: 160, height: 160) { x, _ in x % 2 == 0 ? RGB(255, 0, 0) : RGB(0, 0, 255) }
    static let screen = (width: 1000, height: 800)

    @Test(.enabled(if: X11.missing(["xterm"]).isEmpty, X11.reason(["xterm"])))
    func xtermAsAVT340ShowsTheStripesInSixelAndBlocksAsTheirAverage() throws {
      let runner = try Self.prepare()
      defer { runner.cleanUp() }
      let display = try X11.Display(size: Self.screen)
      defer { display.stop() }
      // xterm logs what bluelib wrote to it (-l -lf), so that a screen without the stripes
      // says whether a sixel image, half blocks or an error was written.
      let log = runner.home.appendingPathComponent("xterm-sixel.log")
      func xterm(_ graphics: [String], log: URL? = nil) throws -> Process {
        try display.launch(
          "xterm",
          ["-ti", "vt340", "-hold", "-geometry", "100x42+0+0"] + (log.map { ["-l", "-lf", $0.path] } ?? [])
            + ["-e", BinaryRunner.executable.path] + Self.arguments(runner, graphics), environment: runner.environment()
        )
      }
      try display.warmUp("xterm")
      let sixel = try xterm([], log: log)
      let shot = display.waitForScreenshot(timeout: 60, while: sixel) {
        $0.count(of: .pureRed) > 5000 && $0.count(of: .pureBlue) > 5000
      }
      let state = "\(X11.state(of: sixel, "xterm")); \(X11.written(in: log))"
      X11.end(sixel)
      let pixels = try #require(shot, "no screenshot; \(state)")
      #expect(
        pixels.count(of: .pureRed) > 5000 && pixels.count(of: .pureBlue) > 5000, "\(pixels.summary); \(state)")
      try display.save(as: "graphics-xterm-sixel.png", crop: (610, 556))

      // The same cover in half blocks: purple, never a pure red or blue pixel.
      let blocks = try xterm(["--graphics", "blocks"])
      let average = display.waitForScreenshot { $0.count(of: .purple) > 5000 }
      X11.end(blocks)
      let blended = try #require(average, "no screenshot")
      #expect(blended.count(of: .purple) > 5000)
      #expect(blended.count(of: .pureRed) == 0 && blended.count(of: .pureBlue) == 0)
    }

    @Test(.enabled(if: X11.missing(["kitty"]).isEmpty, X11.reason(["kitty"])))
    func kittyShowsTheStripesThroughItsGraphicsProtocol() throws {
      let runner = try Self.prepare()
      defer { runner.cleanUp() }
      let display = try X11.Display(size: Self.screen)
      defer { display.stop() }
      let kitty = try Self.kitty(on: display, runner, width: "900", height: "780")
      let shot = display.waitForScreenshot(timeout: 90, while: kitty) {
        $0.count(of: .pureRed) > 5000 && $0.count(of: .pureBlue) > 5000
      }
      let state = X11.state(of: kitty, "kitty")
      X11.end(kitty)
      let pixels = try #require(shot, "no screenshot; \(state)")
      #expect(pixels.count(of: .pureRed) > 5000 && pixels.count(of: .pureBlue) > 5000, "\(state); \(pixels.summary)")
      try display.save(as: "graphics-kitty.png", crop: (900, 780))
    }

    /// In a small window (71×20 cells) `cover 5 --size 40x20` asks for a box taller than the
    /// window: it is fitted to the window and sent at the fitted box's pixel size, so both
    /// terminals still show pure red and pure blue (before, half blocks: their average).
    @Test(.enabled(if: X11.missing(["xterm", "kitty"]).isEmpty, X11.reason(["xterm", "kitty"])))
    func inASmallWindowTheStripesStayPureInXtermAndKitty() throws {
      let runner = try Self.prepare()
      defer { runner.cleanUp() }
      let display = try X11.Display(size: Self.screen)
      defer { display.stop() }
      let log = runner.home.appendingPathComponent("xterm-small.log")
      try display.warmUp("xterm")
      let xterm = try display.launch(
        "xterm",
        ["-ti", "vt340", "-hold", "-geometry", "71x20+0+0", "-l", "-lf", log.path, "-e", BinaryRunner.executable.path]
          + Self.arguments(runner, []), environment: runner.environment())
      let sixel = display.waitForScreenshot(timeout: 60, while: xterm) {
        $0.count(of: .pureRed) > 5000 && $0.count(of: .pureBlue) > 5000
      }
      let xtermState = "\(X11.state(of: xterm, "xterm")); \(X11.written(in: log))"
      X11.end(xterm)
      let inXterm = try #require(sixel, "no screenshot; \(xtermState)")
      #expect(
        inXterm.count(of: .pureRed) > 5000 && inXterm.count(of: .pureBlue) > 5000, "\(inXterm.summary); \(xtermState)")

      let kitty = try Self.kitty(on: display, runner, width: "71c", height: "20c")
      let shot = display.waitForScreenshot(timeout: 90, while: kitty) {
        $0.count(of: .pureRed) > 5000 && $0.count(of: .pureBlue) > 5000
      }
      let state = X11.state(of: kitty, "kitty")
      X11.end(kitty)
      let inKitty = try #require(shot, "no screenshot; \(state)")
      #expect(inKitty.count(of: .pureRed) > 5000 && inKitty.count(of: .pureBlue) > 5000, "\(state); \(inKitty.summary)")
    }

    @Test func throughAPipeForcedCoversAreHalfBlocks() throws {
      let runner = try Self.prepare()
      defer { runner.cleanUp() }
      let result = try runner.run(["-c", "cover 5 --size 40x20 --force"], environment: ["COLORTERM": "truecolor"])
      #expect(result.status == 0)
      // Twenty lines of cells in the stripes' average, and no picture.
      let lines = result.stdout.split(separator: "\n")
      #expect(lines.count == 20)
      #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[48;2;128;0;128m") })
      let pictures = result.stdout.contains("\u{1B}_G") || result.stdout.contains("\u{1B}P")
      #expect(!pictures)
    }

    /// A home where album 1 has its bundled cover and album 5 the stripes, both downloaded.
    static func prepare() throws -> BinaryRunner {
      let runner = BinaryRunner()
      let file = runner.home.appendingPathComponent("stripes.png")
      try Data(ImageEncoder.png(stripes)).write(to: file)
      let result = try runner.run(script: "edit 5 cover=file://\(file.path)\ndownload 1\ndownload 5\nwait\n")
      #expect(result.status == 0, "\(result.stderr)")
      return runner
    }

    /// kitty (software OpenGL, no configuration of its own) running `arguments(runner, [])`
    /// in a window of `width`×`height` (pixels, or cells with a `c`).
    static func kitty(on display: X11.Display, _ runner: BinaryRunner, width: String, height: String) throws -> Process
    {
      var environment = runner.environment(["LIBGL_ALWAYS_SOFTWARE": "1"])
      environment["XDG_CONFIG_HOME"] = runner.home.appendingPathComponent("config").path
      environment["XDG_CACHE_HOME"] = runner.home.appendingPathComponent("cache").path
      return try display.launch(
        "kitty",
        [
          "--config", "NONE", "-o", "initial_window_width=\(width)", "-o", "initial_window_height=\(height)", "-o",
          "remember_window_size=no", "--hold", BinaryRunner.executable.path,
        ] + arguments(runner, []), environment: environment)
    }

    /// `--home H -c 'cover 1 --size 32x16' -c 'cover 5 --size 40x20'`, with `graphics` first.
    static func arguments(_ runner: BinaryRunner, _ graphics: [String]) -> [String] {
      graphics + ["--home", runner.home.path, "-c", "cover 1 --size 32x16", "-c", "cover 5 --size 40x20"]
    }
  }
}

/// Xvfb, xwd and ImageMagick, for the real-terminal tests.
enum X11 {
  static let tools = ["Xvfb", "xwd", "convert"]

  /// The tools of `extra` and the X ones that are not on PATH.
  static func missing(_ extra: [String]) -> [String] {
    (tools + extra).filter { path(of: $0) == nil }
  }

  static func reason(_ extra: [String]) -> Comment {
    Comment(
      rawValue:
        "not installed: \(missing(extra).joined(separator: ", ")) (apt-get install xvfb x11-apps imagemagick \(extra.joined(separator: " ")))"
    )
  }

  static func path(of tool: String) -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Whether `process` (named `name`) still runs, or how it ended: a terminal that closed
  /// its window before the picture came (kitty's `--hold` does on any ESC it reads) leaves a
  /// black screen, which says nothing by itself.
  static func state(of process: Process, _ name: String) -> String {
    guard !process.isRunning else { return "\(name) still ran" }
    return "\(name) had ended (status \(process.terminationStatus)) before the picture came"
  }

  /// What a terminal's log (xterm's `-l -lf FILE`) shows bluelib wrote: a sixel image, half
  /// blocks, or the start of what it was, escaped.
  static func written(in log: URL) -> String {
    guard let data = try? Data(contentsOf: log) else { return "the terminal kept no log" }
    let text = String(decoding: data, as: UTF8.self)
    if text.contains("\u{1B}P") && text.contains("#") { return "bluelib wrote a sixel image (\(data.count) bytes)" }
    if text.contains("▀") || text.contains("▄") { return "bluelib wrote half blocks (\(data.count) bytes)" }
    let start = text.prefix(300).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "^" : String($0) }
    return "bluelib wrote \(data.count) bytes: \(start.joined())"
  }

  /// Ends a process this test started. SIGKILL: Foundation starts children with almost
  /// every signal blocked (its spawning thread's mask), so they never see a SIGTERM.
  static func end(_ process: Process) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The screen as RGB bytes.
  struct Screenshot {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    enum Kind {
      case pureRed, pureBlue, purple
    }

    func count(of kind: Kind) -> Int {
      var count = 0
      var index = 0
      while index + 2 < pixels.count {
        let (red, green, blue) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
        let matches =
          switch kind {
          case .pureRed: red >= 240 && green <= 8 && blue <= 8
          case .pureBlue: blue >= 240 && green <= 8 && red <= 8
          case .purple: (110...145).contains(red) && (110...145).contains(blue) && green <= 8
          }
        if matches { count += 1 }
        index += 3
      }
      return count
    }

    /// What the screen holds, in one line: pixels not black, pure red, pure blue, purple.
    var summary: String {
      var lit = 0
      var index = 0
      while index + 2 < pixels.count {
        if pixels[index] | pixels[index + 1] | pixels[index + 2] != 0 { lit += 1 }
        index += 3
      }
      return
        "the screen: \(lit) pixels not black, \(count(of: .pureRed)) pure red, \(count(of: .pureBlue)) pure blue, \(count(of: .purple)) purple (half blocks)"
    }
  }

  /// A virtual X screen of its own (Xvfb picks a free display number).
  final class Display {
    let name: String
    private let server = Process()
    private let size: (width: Int, height: Int)
    private let scratch: URL

    init(size: (width: Int, height: Int)) throws {
      self.size = size
      scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bluelib-x11-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
      let pipe = Pipe()
      server.executableURL = URL(fileURLWithPath: X11.path(of: "Xvfb") ?? "/usr/bin/Xvfb")
      server.arguments = [
        "-displayfd", "1", "-screen", "0", "\(size.width)x\(size.height)x24", "-nolisten", "tcp", "+extension",
        "GLX",
      ]
      server.standardOutput = pipe
      server.standardError = FileHandle(forWritingAtPath: "/dev/null")
      try server.run()
      // Xvfb writes its display number once it accepts clients.
      var number = Data()
      while !number.contains(0x0A) {
        let chunk = pipe.fileHandleForReading.availableData
        guard !chunk.isEmpty else { throw Failure(description: "Xvfb ended before it printed its display") }
        number.append(chunk)
      }
      name = ":" + String(decoding: number, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `tool arguments…` on this display.
    func launch(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> Process {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: X11.path(of: tool) ?? tool)
      process.arguments = arguments
      var environment = environment
      environment["DISPLAY"] = name
      process.environment = environment
      process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
      process.standardError = FileHandle(forWritingAtPath: "/dev/null")
      try process.run()
      return process
    }

    /// Runs `terminal -e true` on this display to its end (at most 30 s): the first terminal
    /// a fresh machine starts reads its program, libraries and fonts from a cold disk, which
    /// the measured one, whose answers to bluelib's questions are timed, then does not.
    func warmUp(_ terminal: String) throws {
      let process = try launch(terminal, ["-e", "true"], environment: ProcessInfo.processInfo.environment)
      let deadline = Date().addingTimeInterval(30)
      while process.isRunning && Date() < deadline { usleep(50_000) }
      X11.end(process)
    }

    /// The screen now, through `xwd -root` and ImageMagick; also kept as the last shot.
    func screenshot() -> Screenshot? {
      let dump = scratch.appendingPathComponent("screen.xwd")
      guard run("xwd", ["-root", "-silent", "-display", name, "-out", dump.path]) else { return nil }
      let raw = scratch.appendingPathComponent("screen.rgb")
      guard run("convert", ["xwd:" + dump.path, "-depth", "8", "rgb:" + raw.path]),
        let bytes = try? Data(contentsOf: raw), bytes.count == size.width * size.height * 3
      else { return nil }
      return Screenshot(width: size.width, height: size.height, pixels: [UInt8](bytes))
    }

    /// Screenshots every 0.3 s until one satisfies `done`, `timeout` seconds passed or
    /// `drawer` (the program that should draw it) ended; the last one taken.
    func waitForScreenshot(timeout: Double = 20, while drawer: Process? = nil, until done: (Screenshot) -> Bool)
      -> Screenshot?
    {
      let deadline = Date().addingTimeInterval(timeout)
      var last: Screenshot?
      while Date() < deadline {
        // One more look after it ended: what it left on the screen.
        let ended = drawer.map { !$0.isRunning } ?? false
        if let shot = screenshot() {
          last = shot
          if done(shot) { return shot }
        }
        if ended { break }
        usleep(300_000)
      }
      return last
    }

    /// With `BLUELIB_SAVE_SCREENSHOTS=DIR`, the last screenshot's top-left `crop` as DIR/`file`.
    func save(as file: String, crop: (width: Int, height: Int)) throws {
      guard let directory = ProcessInfo.processInfo.environment["BLUELIB_SAVE_SCREENSHOTS"], !directory.isEmpty
      else { return }
      let dump = scratch.appendingPathComponent("screen.xwd")
      let target = URL(fileURLWithPath: directory).appendingPathComponent(file).path
      guard run("convert", ["xwd:" + dump.path, "-crop", "\(crop.width)x\(crop.height)+0+0", "+repage", target])
      else { throw Failure(description: "cannot write \(target)") }
    }

    func stop() {
      X11.end(server)
      // What a server that could not clean up after itself leaves behind.
      let number = name.dropFirst()
      try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
      try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
      try? FileManager.default.removeItem(at: scratch)
    }

    private func run(_ tool: String, _ arguments: [String]) -> Bool {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: X11.path(of: tool) ?? tool)
      process.arguments = arguments
      process.standardError = FileHandle(forWritingAtPath: "/dev/null")
      guard (try? process.run()) != nil else { return false }
      process.waitUntilExit()
      return process.terminationStatus == 0
    }
  }
}
