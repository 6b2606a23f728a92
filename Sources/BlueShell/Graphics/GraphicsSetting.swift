import BlueSystem
import CoverArt

/// What `--graphics` (or `BLUELIB_GRAPHICS`) asks for: find out, or one way of drawing covers.
package enum GraphicsSetting: String, Sendable, CaseIterable {
  /// Ask the terminal (once per run) and use the best protocol it answers for.
  case auto
  /// The kitty graphics protocol, whatever the terminal says.
  case kitty
  /// Sixel, whatever the terminal says.
  case sixel
  /// iTerm2 inline images, whatever the terminal says.
  case iterm
  /// Half blocks.
  case blocks
  /// No cover art.
  case none

  /// The choices, as help and errors list them: `auto, kitty, sixel, iterm, blocks, none`.
  static let choices = allCases.map(\.rawValue).joined(separator: ", ")

  /// The setting from `--graphics` when given, else `BLUELIB_GRAPHICS` when set and not
  /// empty, else `auto`; a message naming the bad value and the choices when it is none.
  static func resolve(flag: String?, environment: [String: String]) -> Result<GraphicsSetting, SettingError> {
    if let flag {
      guard let setting = GraphicsSetting(rawValue: flag) else {
        return .failure(SettingError("--graphics must be one of \(choices), got \(TextSanitizer.quotedWord(flag))"))
      }
      return .success(setting)
    }
    guard let variable = environment["BLUELIB_GRAPHICS"], !variable.isEmpty else { return .success(.auto) }
    guard let setting = GraphicsSetting(rawValue: variable) else {
      return .failure(
        SettingError("BLUELIB_GRAPHICS must be one of \(choices), got \(TextSanitizer.quotedWord(variable))"))
    }
    return .success(setting)
  }

  /// The drawing this setting fixes, or nil for `auto`.
  var fixed: TerminalGraphics? {
    switch self {
    case .auto: nil
    case .kitty: .kitty
    case .sixel: .sixel
    case .iterm: .iterm
    case .blocks: .blocks
    case .none: TerminalGraphics.none
    }
  }

  /// A setting that names no choice.
  struct SettingError: Error, CustomStringConvertible {
    /// What was wrong, with the choices.
    let description: String

    init(_ description: String) {
      self.description = description
    }
  }
}
