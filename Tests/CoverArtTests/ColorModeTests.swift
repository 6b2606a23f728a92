import CoverArt
import Testing

@Suite struct ColorModeTests {
  @Test(
    arguments: [
      ([:], false, ColorMode.palette256),
      (["COLORTERM": "truecolor"], false, .trueColor),
      (["COLORTERM": "24bit"], false, .trueColor),
      (["COLORTERM": "TrueColor"], false, .trueColor),
      (["COLORTERM": "yes"], false, .palette256),
      (["TERM": "xterm-256color"], false, .palette256),
      (["COLORTERM": "truecolor"], true, .none),
      (["COLORTERM": "truecolor", "NO_COLOR": "1"], false, .none),
      (["NO_COLOR": ""], false, .palette256),
      (["TERM": "dumb", "COLORTERM": "24bit"], false, .none),
    ] as [([String: String], Bool, ColorMode)])
  func detectFollowsTheEnvironment(environment: [String: String], noColor: Bool, mode: ColorMode) {
    #expect(ColorMode.detect(environment: environment, noColor: noColor) == mode)
  }
}
