import Foundation
import TestSupport
import Testing

/// `cover`: an album's cover drawn with half blocks, from the built binary (issue: covers
/// you can see).
@Suite(.serialized)
struct CoverCommandTests {
  @Test func scriptModeDrawsOnlyWithForce() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "download 3\nwait\ncover 3\n")
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "bluelib: stdin:3: cover: output is not a terminal; add --force to draw the cover anyway\n")
  }

  @Test func forcedCoverIsTheRequestedNumberOfCellsIn256Colours() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "download 3\nwait\ncover 3 --force --size 20x10\n")
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").drop { !$0.contains("\u{1B}[") }
    #expect(lines.count == 10)
    for line in lines {
      #expect(line.hasSuffix("\u{1B}[0m"))
      #expect(!line.contains("38;2;"), "24-bit colour without COLORTERM")
      // Cells: every character outside escape sequences, ESC[0m excluded.
      let visible = line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
      #expect(visible.count == 20)
    }
  }

  @Test func trueColourWhenTheTerminalSaysSoAndARampWithoutColour() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let script = Data("download 3\nwait\ncover 3 --force --size 16x8\n".utf8)
    let truecolor = try runner.run(input: script, environment: ["COLORTERM": "truecolor"])
    #expect(truecolor.stdout.contains("38;2;") || truecolor.stdout.contains("48;2;"))
    let plain = try runner.run(["--no-color"], input: script)
    #expect(!plain.stdoutBytes.contains(0x1B))
    let art = plain.stdout.split(separator: "\n").suffix(8)
    #expect(art.count == 8)
    #expect(art.allSatisfy { $0.count == 16 && $0.allSatisfy { " .:-=+*#%@".contains($0) } })
  }

  @Test func aTruncatedImageIsReportedAsSuchAndTheShellGoesOn() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/BlueCovers/Bundled/covers/its-my-life.png")
    let png = try Data(contentsOf: source)
    let truncated = runner.home.appendingPathComponent("truncated.png")
    try png.prefix(png.count / 2).write(to: truncated)
    let result = try runner.run(
      script: "edit 2 cover=file://\(truncated.path)\ndownload 2\nwait\ncover 2 --force\nshow 2\n")
    // Decoded before it is cached (issue 11): the download fails, and says why. A file: URL
    // is a local cover, which `cover` reads rather than downloads (issue 14).
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix(
        "bluelib: stdin:4: cover: cannot read the cover of \"It's My Life\": not a readable image: "
          + "truncated or corrupt PNG"))
    #expect(result.stdout.contains("cover of \"It's My Life\" failed: not a readable image: truncated or corrupt PNG"))
    #expect(
      result.stdout.hasSuffix("(failed: not a readable image: truncated or corrupt PNG (read beyond end of data))\n"))
  }

  @Test(arguments: [
    ("cover --size 0x5", "cover: --size must be COLSxROWS with 1-400 columns and 1-200 rows, got '0x5'"),
    ("cover --size big", "cover: --size must be COLSxROWS with 1-400 columns and 1-200 rows, got 'big'"),
    ("cover --zoom", "cover: unknown option '--zoom' (options: --size, --force)"),
    ("cover 1 --force", "cover: the cover of \"Best of Bowie\" is not downloaded ('download 1' fetches it)"),
  ])
  func badArgumentsNameTheProblem(line: String, message: String) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: line + "\n")
    #expect(result.stderr == "bluelib: stdin:1: \(message)\n")
  }
}
