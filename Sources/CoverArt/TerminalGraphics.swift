/// How covers are drawn in a terminal: in real pixels through one of the three image
/// protocols terminals speak, with Unicode half blocks, or not at all.
package enum TerminalGraphics: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole): a PNG, placed by cells.
  case kitty
  /// DEC sixel graphics (xterm `-ti vt340`, foot, mlterm, WezTerm, Windows Terminal).
  case sixel
  /// iTerm2's inline images (`OSC 1337;File=`; iTerm2, WezTerm).
  case iterm
  /// Half blocks (`▀`/`▄`): two pixels a cell in every terminal, and in a pipe.
  case blocks
  /// No cover art at all.
  case none

  /// True for the three protocols that send an image rather than characters.
  package var drawsPixels: Bool {
    switch self {
    case .kitty, .sixel, .iterm: true
    case .blocks, .none: false
    }
  }

  /// The name `--graphics` takes.
  package var description: String { rawValue }
}
