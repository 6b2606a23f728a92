/// How many colours the terminal is trusted with.
package enum ColorMode: Sendable, Hashable, CaseIterable {
  /// 24-bit SGR (`38;2;r;g;b`).
  case trueColor
  /// The xterm 256-colour palette (`38;5;n`).
  case palette256
  /// No escape sequences at all: a brightness ramp of ASCII characters.
  case none

  /// The mode the environment asks for, following viu and chafa: no colour under
  /// `--no-color`, a non-empty `NO_COLOR` (no-color.org) or `TERM=dumb`; 24-bit when
  /// `COLORTERM` says `truecolor` or `24bit`; else 256 colours (every current terminal).
  package static func detect(environment: [String: String], noColor: Bool) -> ColorMode {
    if noColor || !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb" {
      return .none
    }
    let colorTerm = Array((environment["COLORTERM"] ?? "").lowercased().utf8)
    if contains(colorTerm, "truecolor") || contains(colorTerm, "24bit") { return .trueColor }
    return .palette256
  }

  /// Whether `bytes` hold `word`'s. Not `String.contains`, whose generic searcher costs a
  /// scan of every protocol conformance in the program the first time, at every start.
  private static func contains(_ bytes: [UInt8], _ word: StaticString) -> Bool {
    let word = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard bytes.count >= word.count else { return false }
    return (0...(bytes.count - word.count)).contains { start in
      (0..<word.count).allSatisfy { bytes[start + $0] == word[$0] }
    }
  }
}
