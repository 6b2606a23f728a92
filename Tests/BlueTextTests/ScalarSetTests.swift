import Foundation
import Testing

@testable import BlueText

/// The character sets bluelib took from Foundation hold the same scalars (issue 47).
@Suite struct ScalarSetTests {
  @Test(arguments: [
    (ScalarSet.whitespaces, CharacterSet.whitespaces), (.whitespacesAndNewlines, .whitespacesAndNewlines),
    (.alphanumerics, .alphanumerics),
  ])
  func everyScalarIsInTheSetFoundationsHasItIn(set: ScalarSet, foundation: CharacterSet) {
    var differing: [String] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      if set.contains(scalar) != foundation.contains(scalar) { differing.append(String(value, radix: 16)) }
    }
    #expect(differing.isEmpty, "\(differing.prefix(20))")
  }

  @Test(arguments: [
    "", " ", "  a b  ", "\t x\u{3000}", "\u{200B}y\u{A0}", "\n z \r\n", "\u{2028}w\u{85}", "é\u{301} ", " \u{301}",
  ])
  func trimmingTakesWhatFoundationTook(text: String) {
    #expect(text.trimming(.whitespaces) == text.trimmingCharacters(in: .whitespaces))
    #expect(text.trimming(.whitespacesAndNewlines) == text.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(text.dropFirst(0).trimming(.whitespaces) == text.trimmingCharacters(in: .whitespaces))
  }

  @Test(arguments: ["", "abc", "a%20b", "%C3%A9t%C3%A9", "%c3%a9", "100%", "%zz", "%4", "%FF", "%00", "é%21", "a+b"])
  func percentDecodingAnswersAsFoundationDid(text: String) {
    #expect(text.percentDecoded == text.removingPercentEncoding)
  }
}
