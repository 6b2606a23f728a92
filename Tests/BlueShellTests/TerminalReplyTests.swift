import CoverArt
import Testing

@testable import BlueShell

struct TerminalReplyTests {
  private func decide(_ answer: String) -> GraphicsCapabilities {
    GraphicsCapabilities.decide(
      setting: .auto, environment: ["TERM": "xterm-256color"], terminal: true, colorMode: .trueColor
    ) { TerminalReply.parse(Array(answer.utf8)).reply }
  }

  @Test func aRealCellIsBelieved() {
    let capabilities = decide("\u{1B}[6;16;8t\u{1B}[?62;4c")
    #expect(capabilities.graphics == .sixel)
    #expect(capabilities.answeredCellSize == CellPixelSize(width: 8, height: 16))
  }

  /// A terminal that names itself answers for sure: the probe waits 5 s for it (kitty
  /// starting on a busy machine took a second); a bare one, or plain xterm-256color, 400 ms.
  @Test(arguments: [
    (["KITTY_WINDOW_ID": "3"], 5000), (["TERM": "xterm-kitty"], 5000), (["TERM_PROGRAM": "WezTerm"], 5000),
    (["VTE_VERSION": "7600"], 5000), (["XTERM_VERSION": "XTerm(379)"], 5000), (["TERM": "xterm-256color"], 400),
    (["TERM_PROGRAM": ""], 400), ([:], 400),
  ])
  func theProbeWaitsLongerForATerminalThatNamesItself(environment: [String: String], milliseconds: Int) {
    #expect(Int(GraphicsProbe.timeoutMilliseconds(for: environment)) == milliseconds)
  }

  /// Reliability round 3, F5: cells of 65535 pixels made covers of a terabyte.
  @Test(arguments: ["\u{1B}[6;65535;65535t", "\u{1B}[6;2000;1000t", "\u{1B}[6;600;10t", "\u{1B}[6;20;300t"])
  func anAbsurdCellFallsBackToHalfBlocks(cell: String) {
    #expect(decide(cell + "\u{1B}[?62;4c") == .blocks)
    #expect(decide("\u{1B}_Gi=31;OK\u{1B}\\" + cell + "\u{1B}[?62;4c") == .blocks)
  }

  @Test func theWindowsPixelsAreNotBelievedForAnAbsurdCell() {
    #expect(CellPixelSize.of(columns: 120, rows: 40, pixelWidth: 65535, pixelHeight: 65535) == nil)
    #expect(
      CellPixelSize.of(columns: 10, rows: 10, pixelWidth: 2560, pixelHeight: 5120)
        == CellPixelSize(width: 256, height: 512))
  }

  @Test func aPictureOfTooManyPixelsIsRefusedBeforeDecoding() {
    #expect(throws: CoverArtError.pictureTooLarge(width: 102_400, height: 102_400)) {
      try PixelRenderer.render(
        encoded: [0x89, 0x50], graphics: .sixel, columns: 400, rows: 200, cell: CellPixelSize(width: 256, height: 512))
    }
  }
}
