import BlueSystem
import Testing

@Suite("TextSanitizer")
struct TextSanitizerTests {
  // MARK: - Escaping

  @Test(arguments: [
    ("\u{1B}[31mred\u{1B}[0m", #"\e[31mred\e[0m"#),
    ("\u{1B}]0;pwned\u{07}", #"\e]0;pwned\x07"#),
    ("two\nlines", #"two\nlines"#),
    ("carriage\rreturn", #"carriage\rreturn"#),
    ("tab\there", #"tab\there"#),
    ("bell\u{07}", #"bell\x07"#),
    ("nul\u{00}", #"nul\x00"#),
    ("back\u{08}space", #"back\x08space"#),
    ("unit\u{1F}sep", #"unit\x1fsep"#),
    ("del\u{7F}", #"del\x7f"#),
    ("csi\u{9B}2J", #"csi\u{9b}2J"#),
    ("c1 first\u{80}", #"c1 first\u{80}"#),
    ("next line\u{85}", #"next line\u{85}"#),
    ("c1 last\u{9F}", #"c1 last\u{9f}"#),
  ])
  func controlCharactersAreEscaped(text: String, expected: String) {
    #expect(TextSanitizer.escaped(text) == expected)
  }

  @Test func everyControlCharacterIsEscapedAndNothingElseIs() {
    let controls = Array(0x00..<0x20) + [0x7F] + Array(0x80..<0xA0)
    for value in controls {
      let scalar = Unicode.Scalar(UInt32(value))!
      let escaped = TextSanitizer.escaped("<" + String(scalar) + ">")
      #expect(
        !escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
        "U+\(String(value, radix: 16)) came through as \(escaped.debugDescription)")
      #expect(escaped.hasPrefix("<\\") && escaped.hasSuffix(">"))
    }
  }

  @Test(arguments: [
    "American Pie",
    "It's My Life",
    "Café del Mar",
    "Björk — Homogenic",
    "東京事変",
    "🎸 Rock 🥁",
    "Sigur Rós: ( )",
    "non\u{A0}breaking",
    "e\u{301}",
    "\\e is already a backslash and an e",
    "",
  ])
  func ordinaryTextIsUntouched(text: String) {
    #expect(TextSanitizer.escaped(text) == text)
  }

  @Test func escapingKeepsTheTextAroundEachControl() {
    #expect(TextSanitizer.escaped("Café\u{1B}東京\n🎸") == #"Café\e東京\n🎸"#)
  }

  // MARK: - Quoted words

  @Test(arguments: [
    ("scrol", "'scrol'"),
    ("", "''"),
    ("\u{1B}[2J", #"'\e[2J'"#),
    ("東京", "'東京'"),
  ])
  func quotedWordQuotesTheEscapedText(text: String, expected: String) {
    #expect(TextSanitizer.quotedWord(text) == expected)
  }

  @Test func quotedWordKeepsFortyCharacters() {
    let forty = String(repeating: "a", count: 40)
    #expect(TextSanitizer.quotedWord(forty) == "'\(forty)'")
  }

  @Test func quotedWordCutsLongerTextWithAnEllipsis() {
    let word = String(repeating: "b", count: 41)
    let quoted = TextSanitizer.quotedWord(word)
    #expect(quoted == "'" + String(repeating: "b", count: 39) + "…'")
    #expect(quoted.count == 42)
  }

  @Test(arguments: [
    ("abcdefg", 5, "'abcd…'"),
    ("abcde", 5, "'abcde'"),
    ("東京事変バンド", 4, "'東京事…'"),
    ("🎸🎸🎸🎸🎸🎸", 3, "'🎸🎸…'"),
  ])
  func quotedWordCountsCharactersNotBytes(text: String, limit: Int, expected: String) {
    #expect(TextSanitizer.quotedWord(text, limit: limit) == expected)
  }

  @Test func quotedWordTruncatesAfterEscaping() {
    // Forty escape characters become eighty characters of `\e`: the cut is on the escaped text.
    let quoted = TextSanitizer.quotedWord(String(repeating: "\u{1B}", count: 40))
    #expect(quoted.hasPrefix(#"'\e\e"#))
    #expect(quoted.hasSuffix("…'"))
    #expect(quoted.count == 42)
    #expect(!quoted.unicodeScalars.contains("\u{1B}"))
  }
}
