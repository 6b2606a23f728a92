/// ANSI styling that collapses to plain text when colour is off.
struct TextStyle: Sendable, Equatable {
  /// Whether escape sequences are emitted at all.
  var colors: Bool

  /// No escapes: script mode, `--no-color`, `NO_COLOR`, `TERM=dumb`.
  static let plain = TextStyle(colors: false)

  /// `text` in bold.
  func bold(_ text: String) -> String { wrap(text, "1") }
  /// `text` dimmed.
  func dim(_ text: String) -> String { wrap(text, "2") }
  /// `text` in reverse video (the selected card).
  func reverse(_ text: String) -> String { wrap(text, "7") }
  /// `text` in red (errors).
  func red(_ text: String) -> String { wrap(text, "31") }
  /// `text` in green.
  func green(_ text: String) -> String { wrap(text, "32") }
  /// `text` in yellow.
  func yellow(_ text: String) -> String { wrap(text, "33") }
  /// `text` in blue.
  func blue(_ text: String) -> String { wrap(text, "34") }

  /// Appends ``bold(_:)`` of `text` followed by `suffix` (`Artist:`) to `out`.
  func appendBold(_ text: String, _ suffix: StaticString, to out: inout [UInt8]) {
    if colors { out.append("\u{1B}[1m") }
    var text = text
    text.withUTF8 { out.append(contentsOf: $0) }
    out.append(suffix)
    if colors { out.append("\u{1B}[0m") }
  }

  private func wrap(_ text: String, _ code: String) -> String {
    colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
