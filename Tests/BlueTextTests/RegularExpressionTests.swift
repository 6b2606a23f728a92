import Foundation
import Testing

@testable import BlueText

/// ICU's regular expressions from the system's libicu answer as NSRegularExpression (ICU too,
/// linked into Foundation) did (issue 47).
@Suite struct RegularExpressionTests {
  private static let texts = [
    "", "The Dark Side of the Moon", "Björk", "Ann", "Annie", "ANNA", "abc123", "naïve café", "e\u{301}", "日本語のアルバム",
    "line\nbreak", "a.b*c", "🎸 rock", "Sigur Rós",
  ]

  @Test(arguments: [
    "Ann(a|ie)", "^The", "moon$", "(?i)björk", "\\d+", "\\w+ \\w+", "caf[eé]", "^.$", "\\p{Han}", "(?i)^the dark",
    "[[:alpha:]]{5,}", "a\\.b\\*c", "\\bRós\\b", ".", "^$", "(?s)line.break", "\\N{GUITAR}", "e\\x{301}", "\\X",
  ])
  func matchesAsNSRegularExpressionMatched(pattern: String) throws {
    let regex = try RegularExpression(pattern)
    let foundation = try NSRegularExpression(pattern: pattern)
    for text in Self.texts {
      let expected = foundation.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
      #expect(regex.matches(in: text) { true } == expected, "\(pattern) in \(text)")
    }
  }

  @Test(arguments: ["", "(", "[a-", "a{2,1}", "\\", "(?<name", "*a"])
  func aPatternNSRegularExpressionRefusedIsRefused(pattern: String) {
    #expect(throws: RegularExpression.Failure.invalid) { try RegularExpression(pattern) }
    #expect(throws: (any Error).self) { try NSRegularExpression(pattern: pattern) }
  }

  /// A pattern that backtracks without end stops when its progress says so: the callback
  /// comes while ICU works, not only after it.
  @Test func aSearchStopsWhenItsProgressSaysSo() throws {
    let regex = try RegularExpression("(a+)+$")
    var calls = 0
    let found = regex.matches(in: String(repeating: "a", count: 40) + "b") {
      calls += 1
      return calls < 100
    }
    #expect(found == nil)
    #expect(calls == 100)
    // The same object searches again (its text and callbacks were let go).
    #expect(regex.matches(in: "xaa") { true } == true)
  }

  @Test func manyThreadsSearchWithOnePattern() async throws {
    let regex = try RegularExpression("Ann(a|ie)")
    let found = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<64 { group.addTask { regex.matches(in: index % 2 == 0 ? "Annie" : "Anne") { true } == true } }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(found == 32)
  }
}
