internal import CEditLine
internal import CWindowSize
import CoverArt

/// A window's size in character cells.
struct WindowSize: Equatable, Sendable {
  /// Columns.
  var columns: Int
  /// Rows.
  var rows: Int

  /// 80×24, for a terminal that does not say.
  static let standard = WindowSize(columns: 80, rows: 24)

  /// The largest window bluelib lays out (1024×512): a larger one, such as a bogus
  /// `stty cols 65535 rows 65535`, is used as this large — by libedit too, which otherwise
  /// spends seconds and gigabytes on a display buffer of rows × columns (see CWindowSize).
  static let maximum = WindowSize(
    columns: Int(CWindowSize_maximumColumns), rows: Int(CWindowSize_maximumRows))
}

extension WindowSize {
  /// The size of the terminal behind `fileDescriptor` (1, standard output, by default); 80×24
  /// for what it does not say.
  static func ofTerminal(_ fileDescriptor: Int32 = 1) -> WindowSize {
    // The ioctl asked is the clamping one (CWindowSize), in this process.
    precondition(CWindowSize_isInstalled() == 1)
    let window = CEditLine_windowSize(fileDescriptor)
    let (columns, rows) = (Int(window.ws_col), Int(window.ws_row))
    return WindowSize(
      columns: columns > 0 ? columns : standard.columns, rows: rows > 0 ? rows : standard.rows)
  }
}

extension CellPixelSize {
  /// The cell size the terminal behind `fileDescriptor` reports with its window size
  /// (`TIOCGWINSZ`'s pixels), or nil when it leaves them at 0 (many do, and pseudo-terminals).
  static func ofTerminal(_ fileDescriptor: Int32 = 1) -> CellPixelSize? {
    let window = CEditLine_windowSize(fileDescriptor)
    return of(
      columns: Int(window.ws_col), rows: Int(window.ws_row), pixelWidth: Int(window.ws_xpixel),
      pixelHeight: Int(window.ws_ypixel))
  }
}
