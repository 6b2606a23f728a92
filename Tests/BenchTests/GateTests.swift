import Foundation
import Testing

@testable import bluelib_bench

/// The cost gate's arithmetic (issue 36): the bars file, each ratio against its bar, and
/// the count read from callgrind's log. The gate itself runs in CI (`bash .ci/run`).
struct GateTests {
  /// The bars of the repository, which CI reads.
  static let barsPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".ci/gate-bars").path

  static func bars(_ pairs: [(String, Double)]) throws -> Gate.Bars {
    try Gate.Bars(parsing: pairs.map { "\($0.0) \($0.1)" }.joined(separator: "\n"), source: "bars")
  }

  static func count(_ name: String, ours: UInt64, theirs: UInt64) throws -> Gate.Count {
    let figure = try #require(Gate.figures.first { $0.name == name })
    return Gate.Count(figure: figure, ours: ours, theirs: theirs)
  }

  @Test func theRepositoryHasABarForEveryFigure() throws {
    let text = try String(contentsOfFile: Self.barsPath, encoding: .utf8)
    let bars = try Gate.Bars(parsing: text, source: ".ci/gate-bars")
    #expect(Set(bars.ratios.keys) == Set(Gate.figures.map(\.name)))
    #expect(bars.ratios.values.allSatisfy { $0 > 0 })
  }

  @Test func aRatioOverItsBarFailsAndNamesTheFigure() throws {
    let bars = try Self.bars(Gate.figures.map { ($0.name, 1.5) })
    let verdicts = Gate.verdicts(
      [
        try Self.count("startup", ours: 1_500, theirs: 1_000),  // at the bar
        try Self.count("import", ours: 1_501, theirs: 1_000),  // just over
        try Self.count("list", ours: 900, theirs: 1_000),
      ], bars: bars)
    #expect(verdicts.map(\.passed) == [true, false, true])
    #expect(verdicts[0].line == "PASS — startup (start-up): 1.50× the reference's instructions, bar 1.50×")
    #expect(
      verdicts[1].line
        == "FAIL — import (import of a 100,000-row CSV): 1.50× the reference's instructions, over its bar of 1.50×")
    #expect(verdicts[2].count.ratio == 0.9)
  }

  @Test func aSlowerBuildFailsTheGateThatTheFasterOnePasses() throws {
    let bars = try Self.bars(Gate.figures.map { ($0.name, 30) })
    let before = try Self.count("startup", ours: 25_000_000, theirs: 1_000_000)
    let after = try Self.count("startup", ours: 31_000_000, theirs: 1_000_000)
    #expect(Gate.verdicts([before], bars: bars).map(\.passed) == [true])
    let failed = Gate.verdicts([after], bars: bars).filter { !$0.passed }
    #expect(failed.map(\.count.figure.name) == ["startup"])
    #expect(failed.first?.line.contains("31.0× the reference's instructions, over its bar of 30.0×") == true)
  }

  @Test(arguments: [
    ("startup 2\nimport x", "bars:2: the bar of import must be a positive number, got 'x'"),
    ("startup 2\nstartup 3", "bars:2: startup has a bar already"),
    (
      "# comment\nstart-up 2",
      "bars:2: unknown figure 'start-up' (figures: startup, import, scroll, list, query, folder, mpd)"
    ),
    ("startup 2 3", "bars:1: expected a figure and its bar, got 'startup 2 3'"),
    ("startup 0", "bars:1: the bar of startup must be a positive number, got '0'"),
    ("startup 2  # measured 1.7", "bars: no bar for import, scroll, list, query, folder, mpd"),
  ])
  func aBadBarsFileIsRefusedWithItsLine(text: String, message: String) {
    let error = #expect(throws: GateError.self) { _ = try Gate.Bars(parsing: text, source: "bars") }
    #expect(error?.description == message)
  }

  @Test func theCountIsReadFromCallgrindsLog() {
    let log = """
      ==4242== Callgrind, a call-graph generating cache profiler
      ==4242== Events    : Ir
      ==4242== Collected : 12345678
      ==4242==
      ==4242== I   refs:      12,345,678
      """
    #expect(Gate.collected(fromLog: log) == 12_345_678)
    #expect(Gate.collected(fromLog: "==1== Events    : Ir\n") == nil)
  }
}
