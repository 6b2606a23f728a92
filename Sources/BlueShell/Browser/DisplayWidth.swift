internal import CEditLine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Terminal column arithmetic for text (CJK and emoji take two cells, combining marks none).
enum DisplayWidth {
  static func width(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    let cells = Int(wcwidth(wchar_t(bitPattern: scalar.value)))
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
