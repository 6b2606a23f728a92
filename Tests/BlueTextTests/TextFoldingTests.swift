import Foundation
import Testing

@testable import BlueText

/// BlueText answers as Foundation did (issue 47): these tests ask Foundation too, which the
/// test binary links and bluelib no longer does.
@Suite struct TextFoldingTests {
  private static func foundationFold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }

  /// The planes with assigned scalars (the others fold to themselves in both).
  private static let scalars: [Unicode.Scalar] = (Array(0...0x3FFFF) + Array(0xE0000...0xE0FFF)).compactMap {
    Unicode.Scalar(UInt32($0))
  }

  @Test func everyScalarAloneFoldsAsFoundationFoldsIt() {
    var differing: [String] = []
    for scalar in Self.scalars {
      let text = String(scalar)
      if !TextFolding.folded(text).unicodeScalars.elementsEqual(Self.foundationFold(text).unicodeScalars) {
        differing.append("U+" + String(scalar.value, radix: 16, uppercase: true))
      }
    }
    #expect(differing.isEmpty, "\(differing.prefix(20))")
  }

  @Test(arguments: [
    "Beyoncé", "BJÖRK", "Sigur Rós", "Motörhead", "ＡＢＣ ｶﾞｷﾞ", "Straße", "İstanbul", "ǅemal", "ﬁnal", "ΣΊΣΥΦΟΣ",
    "Ὀδυσσεύς", "e\u{301}te\u{301}", "\u{301}alone", "한국어", "ガ", "A\u{30A}", "ﾊﾟﾋﾟ", "Ⓐ① ² ½ ™ …", "Œuvre Ø łódź Đ ı",
    "ẞ", "ᾈ", "Хﾞ", "Ⳍﾞ", "x\u{0}\u{301}", "a\u{344}\u{F73}", "Ա\u{301}\u{3099}\u{344}", "ア\u{301}\u{3099}",
  ])
  func namesFoldAsFoundationFoldsThem(text: String) {
    #expect(Array(TextFolding.folded(text).unicodeScalars) == Array(Self.foundationFold(text).unicodeScalars))
  }

  /// Clusters of bases and extenders, drawn the same way every run (SplitMix64 from a fixed seed).
  @Test func randomClustersFoldAsFoundationFoldsThem() {
    var extenders: [UInt32] = []
    for index in stride(from: 0, to: TextFolding.extenders.count, by: 2) {
      extenders += Array(TextFolding.extenders[index]...TextFolding.extenders[index + 1])
    }
    let bases =
      TextFolding.foldedKeys + Array(0x20...0x7E) + Array(0x3040...0x30FF) + Array(0xFF00...0xFFEF)
      + Array(0x500...0x600) + Array(0x1100...0x1200) + [0x0, 0x130, 0x131, 0xDF, 0x345, 0x1E9E, 0xAC00]
    var state: UInt64 = 0x5EED
    func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
    var differing: [String] = []
    for _ in 0..<20_000 {
      var text = String.UnicodeScalarView()
      for _ in 0...next(8) {
        let pool = next(2) == 0 ? extenders : bases
        text.append(Unicode.Scalar(pool[next(pool.count)])!)
      }
      let string = String(text)
      if Array(TextFolding.folded(string).unicodeScalars) != Array(Self.foundationFold(string).unicodeScalars) {
        differing.append(string.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
      }
    }
    #expect(differing.isEmpty, "\(differing.prefix(10))")
  }

  /// CoreFoundation's cluster holds 64 scalars; the extenders past it start clusters of their own.
  @Test(arguments: [60, 62, 63, 64, 65, 100, 130])
  func longRunsOfMarksFoldAsFoundationFoldsThem(count: Int) {
    for base in ["\u{531}", "a", "\u{30A2}", "\u{AC00}"] {
      let text = base + String(repeating: "\u{301}\u{3099}\u{344}", count: count / 3 + 1)
      #expect(Array(TextFolding.folded(text).unicodeScalars) == Array(Self.foundationFold(text).unicodeScalars))
    }
  }
}
