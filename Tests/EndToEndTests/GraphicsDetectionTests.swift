import CoverArt
import Foundation
import TestSupport
import Testing

/// Detection by asking the terminal, in a real pseudo-terminal where the test plays the
/// terminal: it sees the query, answers it (or not), and checks what the shell then draws
/// and that the answer never reaches the line being typed.
@Suite(.serialized)
struct GraphicsDetectionTests {
  static let kittyQuery = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
  static let deviceAttributesQuery = "\u{1B}[c"

  /// A home whose album 2 has a downloaded cover; `extra` goes into the environment.
  private func start(
    _ runner: BinaryRunner, arguments: [String] = [], extra: [String: String] = [:], columns: UInt16 = 100,
    rows: UInt16 = 30
  ) throws -> PseudoTerminal {
    let prepared = try runner.run(script: "download 2\nwait\n")
    #expect(prepared.status == 0, "\(prepared.stderr)")
    return try PseudoTerminal(
      arguments: ["--home", runner.home.path] + arguments,
      environment: runner.environment(["COLORTERM": "truecolor"].merging(extra) { $1 }), columns: columns, rows: rows)
  }

  /// Waits for the whole query, then answers with `reply` as the terminal would.
  private func answer(_ terminal: PseudoTerminal, with reply: String) {
    #expect(terminal.waitFor(Self.kittyQuery))
    #expect(terminal.waitFor(Self.deviceAttributesQuery))
    terminal.type(reply)
  }

  @Test func aKittyAnswerGetsKittyImagesInTheCardsAndTheCover() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner)
    answer(terminal, with: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c")
    #expect(terminal.waitFor("bluelib>"))
    // The cards drew album 2's cover as a kitty image (a PNG placed over 20×10 cells).
    let cards = terminal.transcript.contains("a=T,f=100")
    #expect(cards)
    terminal.settle()
    let mark = terminal.mark
    terminal.type("cover 2 --size 30x14\r")
    #expect(terminal.waitFor("bluelib>", after: mark))
    let drawn = terminal.transcript[mark...]
    let image = try #require(drawn.range(of: "\u{1B}_Ga=T,f=100,t=d,i="))
    // A square in 30×14 cells of the assumed 10×20 pixels: 28×14 cells.
    let keys = drawn[image.upperBound...].prefix(60)
    #expect(keys.contains(",c=28,r=14,C=1,q=2,"), "\(keys)")
    // Drawing the row again deletes the kitty images of the row before.
    terminal.settle()
    let redraw = terminal.mark
    terminal.type("view\r")
    #expect(terminal.waitFor("bluelib>", after: redraw))
    let deleted = terminal.transcript[redraw...].contains("\u{1B}_Ga=d,d=I,i=")
    #expect(deleted)
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  /// A box taller than the window (40×20 cells in a window of 71×20) is fitted to the
  /// window first and sent in pixels at the fitted box's exact size (issue "Covers for
  /// every album", item 5): before, it fell back to half blocks.
  @Test func aBoxTallerThanTheWindowIsFittedAndSentAtItsExactPixelSize() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner, columns: 71, rows: 20)
    answer(terminal, with: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c")
    #expect(terminal.waitFor("bluelib>"))
    terminal.settle()
    let mark = terminal.mark
    terminal.type("cover 2 --size 40x20\r")
    #expect(terminal.waitFor("bluelib>", after: mark))
    let drawn = terminal.transcript[mark...]
    let image = try #require(drawn.range(of: "\u{1B}_Ga=T,f=100,t=d,i="), "no kitty picture: \(drawn.prefix(200))")
    // 19 rows (the prompt keeps the last line) of the assumed 10×20-pixel cells: a square
    // of 380×380 pixels in 38×19 cells, the PNG made at exactly that size.
    let keys = drawn[image.upperBound...].prefix(80)
    #expect(keys.contains(",c=38,r=19,"), "\(keys)")
    let payload = try #require(drawn[image.upperBound...].split(separator: ";", maxSplits: 1).last)
    let header = try #require(Data(base64Encoded: String(payload.prefix(44))))
    let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
    let height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
    #expect(width == 380 && height == 380, "the PNG is \(width)×\(height)")
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func sixelInTheDeviceAttributesGetsSixelSizedByTheAnsweredCell() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner)
    // A VT340-like terminal: sixel (4), 8×16 cells, 16 colour registers.
    answer(terminal, with: "\u{1B}[6;16;8t\u{1B}[?1;0;16S\u{1B}[?63;1;2;4;6;9;15;22c")
    #expect(terminal.waitFor("bluelib>"))
    terminal.settle()
    let mark = terminal.mark
    terminal.type("cover 2 --size 20x10\r")
    #expect(terminal.waitFor("bluelib>", after: mark))
    let drawn = String(terminal.transcript[mark...])
    let start = try #require(drawn.range(of: "\u{1B}Pq"))
    let end = try #require(drawn.range(of: "\u{1B}\\", range: start.upperBound..<drawn.endIndex))
    let sixel = try SixelReader.decode(Array(drawn[start.lowerBound..<end.upperBound].utf8))
    // 20×10 cells of 8×16 pixels hold a square of 160×160.
    #expect(sixel.width == 160 && sixel.height == 160)
    #expect(sixel.colors <= 16)
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  /// kitty starting on a busy machine answers late: its first frame (software OpenGL
  /// compiling its shaders) held the answer 0.76–0.98 s at a load of 14 on two cores. A
  /// terminal that names itself in the environment answers for sure, so the shell waits
  /// for it longer: here 1.5 s, and the cards still get kitty images (before, half blocks
  /// after 400 ms, the answer dropped as it came).
  @Test func aSlowTerminalThatNamesItselfStillGetsItsPictures() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner, extra: ["KITTY_WINDOW_ID": "1"])
    #expect(terminal.waitFor(Self.deviceAttributesQuery))
    usleep(1_500_000)
    terminal.type("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c")
    #expect(terminal.waitFor("bluelib>"))
    let cards = terminal.transcript.contains("a=T,f=100")
    #expect(cards)
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  /// One that names itself and never answers still ends the wait, after 5 s.
  @Test func aTerminalThatNamesItselfAndNeverAnswersGetsHalfBlocksAfterFiveSeconds() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner, extra: ["KITTY_WINDOW_ID": "1"])
    #expect(terminal.waitFor(Self.deviceAttributesQuery))
    let asked = Date()
    #expect(terminal.waitFor("bluelib>", timeout: 30))
    // Well under the 5 s: a loaded machine only makes the wait longer.
    let waited = Date().timeIntervalSince(asked)
    #expect(waited > 2.5, "the prompt came after \(waited) s")
    terminal.settle()
    let mark = terminal.mark
    terminal.type("cover 2 --size 20x10\r")
    #expect(terminal.waitFor("bluelib>", after: mark))
    let drawn = terminal.transcript[mark...]
    let blocks = drawn.contains("▀") || drawn.contains("▄")
    let pictures = drawn.contains("\u{1B}_G") || drawn.contains("\u{1B}P")
    #expect(blocks && !pictures)
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func noAnswerFallsBackToHalfBlocksAfterAShortWait() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner)
    #expect(terminal.waitFor(Self.deviceAttributesQuery))
    // Nothing answered: the shell goes on by itself.
    #expect(terminal.waitFor("bluelib>"))
    terminal.settle()
    let mark = terminal.mark
    terminal.type("cover 2 --size 20x10\r")
    #expect(terminal.waitFor("bluelib>", after: mark))
    let drawn = terminal.transcript[mark...]
    let blocks = drawn.contains("▀") || drawn.contains("▄")
    let pictures = drawn.contains("\u{1B}_G") || drawn.contains("\u{1B}P")
    #expect(blocks && !pictures)
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  /// A slow link: the answers arrive after the shell stopped waiting (half blocks were
  /// chosen) and land in the line being typed. They are not keys: dropped, and the keys
  /// around them stay.
  @Test func answersArrivingAfterTheWaitNeverReachTheLine() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner)
    #expect(terminal.waitFor(Self.deviceAttributesQuery))
    // No answer in time: the prompt comes.
    #expect(terminal.waitFor("bluelib>"))
    terminal.settle()
    let mark = terminal.mark
    terminal.type("hi\u{1B}_Gi=31;OK\u{1B}\\st\u{1B}[6;20;10t\u{1B}[?1;0;256S\u{1B}[?62;4;22cory")
    terminal.settle()
    // Keys still work as keys: Left and Right arrows move over the line.
    terminal.type("\u{1B}[D\u{1B}[C\r")
    #expect(terminal.waitFor("1  history", after: mark))
    let echoed = terminal.transcript[mark...]
    #expect(!echoed.contains("unknown command"))
    #expect(!echoed.contains("62;4;22c") && !echoed.contains("20;10t") && !echoed.contains("OK"))
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func keysTypedWhileTheTerminalAnswersStayAndTheAnswerDoesNot() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner)
    #expect(terminal.waitFor(Self.deviceAttributesQuery))
    // Typed before the answer came, and the answer in the same read.
    terminal.type("hist\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22c")
    #expect(terminal.waitFor("bluelib>"))
    terminal.settle()
    let mark = terminal.mark
    terminal.type("ory\r")
    #expect(terminal.waitFor("1  history", after: mark))
    let listed = terminal.transcript[mark...]
    let unknown = listed.contains("unknown command")
    let leaked = terminal.transcript.contains("62;4;22c")
    #expect(!unknown)
    #expect(!leaked, "the device attributes reached the line editor")
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test(arguments: [
    (["TMUX": "/tmp/tmux-0/default,1,0"], [String]()), (["TERM": "screen-256color"], []),
    ([:], ["--graphics", "blocks"]), (["BLUELIB_GRAPHICS": "blocks"], []),
  ])
  func noQueryInsideAMultiplexerOrWhenBlocksAreAskedFor(extra: [String: String], arguments: [String]) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner, arguments: arguments, extra: extra)
    #expect(terminal.waitFor("bluelib>"))
    terminal.settle()
    let asked = terminal.transcript.contains(Self.deviceAttributesQuery)
    let kitty = terminal.transcript.contains("\u{1B}_G")
    #expect(!asked && !kitty)
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func aForcedProtocolIsUsedWithoutAsking() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let terminal = try start(runner, arguments: ["--graphics", "iterm"])
    #expect(terminal.waitFor("bluelib>"))
    terminal.settle()
    let asked = terminal.transcript.contains(Self.deviceAttributesQuery)
    let iterm = terminal.transcript.contains("\u{1B}]1337;File=inline=1;")
    #expect(!asked && iterm)
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }
}

/// Just enough of a sixel reader for these tests: the raster size and the colours defined.
enum SixelReader {
  struct Result {
    var width: Int
    var height: Int
    var colors: Int
  }

  struct Failure: Error {}

  static func decode(_ bytes: [UInt8]) throws -> Result {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let raster = text.range(of: "\"1;1;") else { throw Failure() }
    let size = text[raster.upperBound...].prefix { $0.isNumber || $0 == ";" }.split(separator: ";")
    guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]) else { throw Failure() }
    let definitions = Set(
      text.matches(of: /#(\d+);2;/).map { String($0.output.1) })
    return Result(width: width, height: height, colors: definitions.count)
  }
}

/// A terminal that claims absurd cells (reliability round 3, F5): the covers would need
/// gigabytes, so the shell draws half blocks instead of crashing or hanging.
@Suite(.serialized)
struct AbsurdCellSizeTests {
  @Test(arguments: ["\u{1B}[6;65535;65535t", "\u{1B}[6;2000;1000t"])
  func anAbsurdAnsweredCellFallsBackToHalfBlocks(cell: String) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let prepared = try runner.run(script: "download 2\nwait\n")
    #expect(prepared.status == 0, "\(prepared.stderr)")
    let terminal = try PseudoTerminal(
      arguments: ["--home", runner.home.path], environment: runner.environment(["COLORTERM": "truecolor"]),
      columns: 100, rows: 30)
    #expect(terminal.waitFor(GraphicsDetectionTests.deviceAttributesQuery))
    // Sixel in the device attributes, and cells of 65535×65535 pixels.
    terminal.type(cell + "\u{1B}[?62;4;22c")
    #expect(terminal.waitFor("bluelib>", timeout: 10))
    terminal.settle()
    let mark = terminal.mark
    terminal.type("cover 2 --size 20x10\r")
    #expect(terminal.waitFor("bluelib>", after: mark, timeout: 10))
    let drawn = terminal.transcript[mark...]
    let blocks = drawn.contains("▀") || drawn.contains("▄")
    let sixel = drawn.contains("\u{1B}Pq")
    #expect(blocks && !sixel)
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }
}
