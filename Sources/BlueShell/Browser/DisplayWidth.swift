internal import CEditLine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Terminal column arithmetic for text (CJK and emoji take two cells, combining marks none).
enum DisplayWidth {
  /// The cells a terminal gives one grapheme cluster: a flag (two regional indicators), a
  /// ZWJ sequence or a character in emoji presentation (VS16) takes two, whatever its first
  /// scalar alone would take; otherwise the first scalar's width (combining marks add none).
  static func width(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.count > 1 {
      let regionalIndicators: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF
      if regionalIndicators.contains(first.value)
        || scalars.contains(where: { $0.value == 0x200D || $0.value == 0xFE0F })
      {
        return 2
      }
    }
    if first.properties.isEmojiPresentation { return 2 }
    // East Asian width from the C library, which needs the UTF-8 locale the shell sets.
    let cells = Int(wcwidth(wchar_t(bitPattern: first.value)))
    return cells < 0 ? 1 : cells
  }

  /// `text` with spaces before it so that it sits in the middle of `width` cells.
  static func centred(_ text: String, width: Int) -> String {
    String(repeating: " ", count: max(0, (width - self.width(text)) / 2)) + text
  }

  /// The cells `text` takes.
  static func width(_ text: String) -> Int {
    text.reduce(0) { $0 + width(of: $1) }
  }

  /// `text` padded or cut (with `…`) to exactly `width` cells.
  static func fit(_ text: String, width: Int) -> String {
    var result = ""
    var used = 0
    let total = text.reduce(0) { $0 + self.width(of: $1) }
    let limit = total > width ? width - 1 : width
    for character in text {
      let cells = self.width(of: character)
      if used + cells > limit { break }
      result.append(character)
      used += cells
    }
    if total > width {
      result += "…"
      used += 1
    }
    return result + String(repeating: " ", count: max(0, width - used))
  }

  /// The cells `from..<to` of `text` (a wide character cut in half becomes a space).
  static func slice(_ text: String, from: Int, to: Int) -> String {
    guard from > 0 || to < text.reduce(0, { $0 + width(of: $1) }) else { return text }
    var result = ""
    var column = 0
    for character in text {
      let cells = width(of: character)
      defer { column += cells }
      if column + cells <= from || column >= to { continue }
      if column < from || column + cells > to {
        result += String(repeating: " ", count: min(column + cells, to) - max(column, from))
      } else {
        result.append(character)
      }
    }
    return result
  }
}
