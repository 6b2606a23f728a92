import CoverArt

/// Puts a ``PixelFrame`` on the screen at a place given in cells, relative to the cursor:
/// the cursor moves there, the picture is sent, and the cursor is put back (`ESC 7` …
/// `ESC 8`), because sixel and iTerm2 move it and kitty does not.
enum PixelDrawing {
  /// `frame` in a box of `rows` lines starting at the cursor's line: the lines are
  /// reserved first (scrolling the window if need be), the picture goes at its place in
  /// the box, and the cursor ends at the start of the line below the box, as after text.
  static func box(_ frame: PixelFrame, rows: Int, imageID: UInt32) -> String {
    var text = "\r" + String(repeating: "\n", count: rows) + cursorUp(rows)
    text += overlay(frame, linesUp: 0, column: 0, imageID: imageID)
    return text + cursorDown(rows)
  }

  /// `frame` drawn in the box whose top-left cell is `linesUp` lines above the cursor's line
  /// and at `column` (0-based); the cursor ends where it was.
  static func overlay(_ frame: PixelFrame, linesUp: Int, column: Int, imageID: UInt32) -> String {
    let placement = frame.placement
    var text = "\u{1B}7" + cursorUp(linesUp - placement.row) + cursorDown(placement.row - linesUp)
    text += "\u{1B}[\(column + placement.column + 1)G"
    text += String(decoding: frame.sequence(imageID: imageID), as: UTF8.self)
    return text + "\u{1B}8"
  }

  /// `ESC [ n A`, or nothing for n ≤ 0 (the terminal reads 0 as 1).
  private static func cursorUp(_ lines: Int) -> String { lines > 0 ? "\u{1B}[\(lines)A" : "" }

  /// `ESC [ n B`, or nothing for n ≤ 0.
  private static func cursorDown(_ lines: Int) -> String { lines > 0 ? "\u{1B}[\(lines)B" : "" }
}
