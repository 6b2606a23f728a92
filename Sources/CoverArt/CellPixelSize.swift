/// The size of one character cell in screen pixels, which decides how many pixels a cover
/// of so many cells gets.
package struct CellPixelSize: Sendable, Hashable, CustomStringConvertible {
  /// Pixels across one cell.
  package var width: Int
  /// Pixels down one cell.
  package var height: Int

  /// A cell of `width` × `height` pixels (each at least 1).
  package init(width: Int, height: Int) {
    self.width = max(1, width)
    self.height = max(1, height)
  }

  /// What is assumed when the terminal does not say: a common 10×20 cell. Kitty and
  /// iTerm2 scale the picture to the cells they are given, so only sixel's size depends
  /// on it.
  package static let assumed = CellPixelSize(width: 10, height: 20)

  /// The widths a real cell can have: a terminal that says more (`ESC [ 6 ; 65535 ; 65535 t`,
  /// a bogus `TIOCGWINSZ`) is not believed, since its covers would need gigabytes.
  package static let plausibleWidths = 1...256
  /// The heights a real cell can have (see ``plausibleWidths``).
  package static let plausibleHeights = 1...512

  /// True when `width` × `height` pixels can be a real cell.
  package static func isPlausible(width: Int, height: Int) -> Bool {
    plausibleWidths.contains(width) && plausibleHeights.contains(height)
  }

  /// The cell of a window of `columns` × `rows` cells that is `pixelWidth` × `pixelHeight`
  /// pixels (`TIOCGWINSZ`), or nil when the terminal leaves the pixels at 0 or gives a cell
  /// that cannot be real (see ``isPlausible(width:height:)``).
  package static func of(columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int) -> CellPixelSize? {
    guard columns > 0, rows > 0, pixelWidth >= columns, pixelHeight >= rows else { return nil }
    let width = pixelWidth / columns
    let height = pixelHeight / rows
    guard isPlausible(width: width, height: height) else { return nil }
    return CellPixelSize(width: width, height: height)
  }

  /// `W×H px`.
  package var description: String { "\(width)×\(height) px" }
}

/// Where a cover lands in a box of cells when it is drawn in real pixels.
package struct PixelPlacement: Sendable, Hashable {
  /// Cells from the box's left edge to the image's first column.
  package var column: Int
  /// Cells from the box's top edge to the image's first row.
  package var row: Int
  /// Cells the image spans across.
  package var columns: Int
  /// Cells the image spans down.
  package var rows: Int
  /// The image's size in pixels.
  package var pixels: PixelSize

  /// The picture of `size` fitted, keeping its aspect ratio, into `columns` × `rows` cells of
  /// `cell`: scaled to the largest size that fits, rounded to whole cells (at most half a
  /// cell of stretch on one axis), and centred in whole cells. The pixel size fills the
  /// cells it spans exactly, so a terminal that scales to cells shows it pixel for pixel.
  package init(fitting size: PixelSize, columns: Int, rows: Int, cell: CellPixelSize) {
    precondition(columns > 0 && rows > 0, "the box has at least one cell")
    let boxWidth = columns * cell.width
    let boxHeight = rows * cell.height
    // The fitted size in pixels, then in cells rounded to nearest.
    let fittedWidth: Int
    let fittedHeight: Int
    if size.width * boxHeight >= size.height * boxWidth {
      fittedWidth = boxWidth
      fittedHeight = max(1, (2 * size.height * boxWidth + size.width) / (2 * size.width))
    } else {
      fittedHeight = boxHeight
      fittedWidth = max(1, (2 * size.width * boxHeight + size.height) / (2 * size.height))
    }
    let spanColumns = min(columns, max(1, (2 * fittedWidth + cell.width) / (2 * cell.width)))
    let spanRows = min(rows, max(1, (2 * fittedHeight + cell.height) / (2 * cell.height)))
    self.column = (columns - spanColumns) / 2
    self.row = (rows - spanRows) / 2
    self.columns = spanColumns
    self.rows = spanRows
    self.pixels = PixelSize(width: spanColumns * cell.width, height: spanRows * cell.height)
  }
}
