/// ANSI styling that collapses to plain text when colour is off.
public struct TextStyle: Sendable, Equatable {
  /// Whether escape sequences are emitted at all.
  public var colors: Bool

  /// No escapes: script mode, `--no-color`, `NO_COLOR`, `TERM=dumb`.
  public static let plain = TextStyle(colors: false)

  /// Creates a style.
  public init(colors: Bool) { self.colors = colors }

  /// `text` in bold.
  public func bold(_ text: String) -> String { wrap(text, "1") }
  /// `text` dimmed.
  public func dim(_ text: String) -> String { wrap(text, "2") }
  /// `text` in reverse video (the selected card).
  public func reverse(_ text: String) -> String { wrap(text, "7") }
  /// `text` in red (errors).
  public func red(_ text: String) -> String { wrap(text, "31") }
  /// `text` in green.
  public func green(_ text: String) -> String { wrap(text, "32") }
  /// `text` in yellow.
  public func yellow(_ text: String) -> String { wrap(text, "33") }
  /// `text` in blue.
  public func blue(_ text: String) -> String { wrap(text, "34") }

  private func wrap(_ text: String, _ code: String) -> String {
    colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
