import Testing

@testable import BlueShell

/// `help` fits the window: lines break at spaces, never inside a word.
struct HelpTextTests {
  @Test(arguments: [40, 60, 80, 132])
  func everyLineOfHelpFitsTheWidthAndKeepsEveryWord(width: Int) throws {
    for verb in [nil] + CommandRegistry.standard.commands.map({ Word($0.configuration.verb, column: 6) }) {
      let lines = try HelpCommand.lines(for: verb, in: .standard, style: .plain, width: width)
      // Usage lines and examples are what you type: they are never broken.
      let prose = lines.prefix { !$0.hasPrefix("example") }.filter { !$0.hasPrefix("usage: ") }
      let tooLong = prose.filter { DisplayWidth.width($0) > width && !Self.oneLongWord($0) }
      #expect(tooLong.isEmpty, "help \(verb?.text ?? ""): \(tooLong)")
      // The same words in the same order as the unwrapped text.
      let unwrapped = try HelpCommand.lines(for: verb, in: .standard, style: .plain, width: 10_000)
      #expect(Self.words(lines) == Self.words(unwrapped))
    }
  }

  @Test func aLongWordStandsAloneRatherThanBeingCut() {
    let lines = HelpCommand.wrap("a supercalifragilistic b", width: 8, first: "  ", rest: "  ")
    #expect(lines == ["  a", "  supercalifragilistic", "  b"])
  }

  static func words(_ lines: [String]) -> [Substring] {
    lines.flatMap { $0.split(separator: " ") }
  }

  /// A line over the width only because it is one word, or one usage, that is longer.
  static func oneLongWord(_ line: String) -> Bool {
    line.split(separator: " ").count <= 1
      || CommandRegistry.standard.commands.contains { "  " + $0.configuration.usage == line }
  }
}
