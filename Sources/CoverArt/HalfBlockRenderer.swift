/// Draws an image in a terminal with Unicode half blocks: each character cell shows two
/// pixels stacked, the top one as `▀`'s foreground and the bottom one as its background
/// (or the other way round with `▄`, whichever needs fewer colour changes).
///
/// Sizing: the image is fitted inside `columns` × `2·rows` pixels keeping its aspect ratio
/// (a cell is taken to be twice as tall as wide, so a pixel is square), area-averaged
/// down to that size and centred. A square cover fills the box exactly; any other shape is
/// letterboxed, and the margins are left in the terminal's own background (plain spaces,
/// or a half block over the default background where the image edge falls mid-cell).
/// The output always has `rows` lines of `columns` cells, so covers line up side by side.
///
/// Colour: 24-bit or 256-colour SGR, emitted only when the foreground or background
/// differs from the previous cell's (timg's trick), both in one sequence when both change;
/// every line ends in `ESC[0m` and a newline, so nothing bleeds into the next line or
/// the prompt. In `.none` each cell is a character of `ramp` by brightness, no escapes.
///
/// A frame is built in one byte buffer sized for the worst case up front, so it can be
/// written with a single `write(2)`.
///
/// - Important: Stateless; safe from any thread.
package enum HalfBlockRenderer {
  /// The brightness ramp of `.none`, darkest first.
  package static let ramp: [UInt8] = Array(" .:-=+*#%@".utf8)

  /// `image` drawn in `columns` × `rows` cells, as a string.
  package static func render(_ image: RGBImage, columns: Int, rows: Int, mode: ColorMode) -> String {
    String(decoding: renderBytes(image, columns: columns, rows: rows, mode: mode), as: UTF8.self)
  }

  /// Decodes a PNG or JPEG and draws it in `columns` × `rows` cells, as a string.
  package static func render(
    encoded bytes: [UInt8], columns: Int, rows: Int, mode: ColorMode, background: RGB = .black
  ) throws(CoverArtError) -> String {
    String(
      decoding: try renderBytes(encoded: bytes, columns: columns, rows: rows, mode: mode, background: background),
      as: UTF8.self)
  }

  /// Decodes a PNG or JPEG and draws it in `columns` × `rows` cells, as UTF-8 bytes.
  /// A JPEG is decoded only as finely as the cells need (see `ImageDecoder.decode`).
  package static func renderBytes(
    encoded bytes: [UInt8], columns: Int, rows: Int, mode: ColorMode, background: RGB = .black
  ) throws(CoverArtError) -> [UInt8] {
    let minimum = PixelSize(width: max(columns, 1), height: max(2 * rows, 1))
    let image = try ImageDecoder.decode(bytes, background: background, minimumSize: minimum)
    return renderBytes(image, columns: columns, rows: rows, mode: mode)
  }

  /// Where the image lands in the box of `columns` × `2·rows` pixels: its fitted size and
  /// the offset of its top-left pixel.
  package static func placement(of size: PixelSize, columns: Int, rows: Int) -> (origin: PixelSize, size: PixelSize) {
    let boxWidth = columns
    let boxHeight = 2 * rows
    var fitted: PixelSize
    if size.width * boxHeight >= size.height * boxWidth {
      // As wide as the box or wider: full width, height rounded to nearest.
      fitted = PixelSize(width: boxWidth, height: (2 * size.height * boxWidth + size.width) / (2 * size.width))
    } else {
      fitted = PixelSize(width: (2 * size.width * boxHeight + size.height) / (2 * size.height), height: boxHeight)
    }
    fitted.width = min(max(fitted.width, 1), boxWidth)
    fitted.height = min(max(fitted.height, 1), boxHeight)
    let origin = PixelSize(width: (boxWidth - fitted.width) / 2, height: (boxHeight - fitted.height) / 2)
    return (origin, fitted)
  }

  /// `image` drawn in `columns` × `rows` cells, as UTF-8 bytes.
  package static func renderBytes(_ image: RGBImage, columns: Int, rows: Int, mode: ColorMode) -> [UInt8] {
    guard columns > 0, rows > 0 else { return [] }
    let canvas = Canvas(image, columns: columns, rows: rows, mode: mode)
    switch mode {
    case .trueColor, .palette256: return drawColor(canvas, columns: columns, rows: rows, mode: mode)
    case .none: return drawRamp(canvas, columns: columns, rows: rows)
    }
  }

  // MARK: - Colour

  /// The longest a cell can get: `ESC[38;2;255;255;255;48;2;255;255;255m` and a 3-byte glyph.
  private static let worstCell = 2 + 19 + 1 + 19 + 1 + 3
  /// `ESC[0m\n`.
  private static let lineEnd: [UInt8] = [0x1B, 0x5B, 0x30, 0x6D, 0x0A]

  private static func drawColor(_ canvas: Canvas, columns: Int, rows: Int, mode: ColorMode) -> [UInt8] {
    let capacity = rows * (columns * worstCell + lineEnd.count) + 2
    let trueColor = mode == .trueColor
    return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      var out = ByteWriter(buffer)
      DecimalTable.entries.withUnsafeBufferPointer { table in
        let digits = table.baseAddress!
        canvas.keys.withUnsafeBufferPointer { keys in
          for row in 0..<rows {
            let top = keys.baseAddress! + 2 * row * columns
            let bottom = top + columns
            // After the previous line's reset the terminal is back to its defaults.
            var foreground = Canvas.unset
            var background = Canvas.unset
            for column in 0..<columns {
              let upper = top[column]
              let lower = bottom[column]
              var wantForeground = foreground
              var wantBackground: UInt32
              var glyph: Glyph
              if upper == lower {
                // Both halves alike (or both margin): a space in the background colour.
                wantBackground = upper
                glyph = .space
              } else if lower == Canvas.unset {
                (wantForeground, wantBackground, glyph) = (upper, Canvas.unset, .upperHalf)
              } else if upper == Canvas.unset {
                (wantForeground, wantBackground, glyph) = (lower, Canvas.unset, .lowerHalf)
              } else {
                // ▀ (fg top, bg bottom) or ▄ (fg bottom, bg top): whichever keeps more.
                let upperCost = (foreground == upper ? 0 : 1) + (background == lower ? 0 : 1)
                let lowerCost = (foreground == lower ? 0 : 1) + (background == upper ? 0 : 1)
                if lowerCost < upperCost {
                  (wantForeground, wantBackground, glyph) = (lower, upper, .lowerHalf)
                } else {
                  (wantForeground, wantBackground, glyph) = (upper, lower, .upperHalf)
                }
              }
              let changeForeground = wantForeground != foreground
              let changeBackground = wantBackground != background
              if changeForeground || changeBackground {
                out.append(0x1B)
                out.append(0x5B)
                if changeForeground {
                  appendColor(&out, wantForeground, isForeground: true, trueColor: trueColor, digits)
                  foreground = wantForeground
                }
                if changeBackground {
                  if changeForeground { out.append(0x3B) }
                  appendColor(&out, wantBackground, isForeground: false, trueColor: trueColor, digits)
                  background = wantBackground
                }
                out.append(0x6D)
              }
              switch glyph {
              case .space: out.append(0x20)
              case .upperHalf: out.append(0xE2, 0x96, 0x80)
              case .lowerHalf: out.append(0xE2, 0x96, 0x84)
              }
            }
            for byte in lineEnd { out.append(byte) }
          }
        }
      }
      initialized = out.count
    }
  }

  private enum Glyph {
    case space, upperHalf, lowerHalf
  }

  /// `38;2;r;g;b`, `38;5;n` or `39` (and the `48`/`49` forms).
  private static func appendColor(
    _ out: inout ByteWriter, _ key: UInt32, isForeground: Bool, trueColor: Bool, _ digits: UnsafePointer<UInt32>
  ) {
    out.append(isForeground ? 0x33 : 0x34)
    if key == Canvas.unset {
      out.append(0x39)
      return
    }
    out.append(0x38)
    out.append(0x3B)
    if trueColor {
      out.append(0x32)
      out.append(0x3B)
      out.appendDecimal(key >> 16, digits)
      out.append(0x3B)
      out.appendDecimal((key >> 8) & 0xFF, digits)
      out.append(0x3B)
      out.appendDecimal(key & 0xFF, digits)
    } else {
      out.append(0x35)
      out.append(0x3B)
      out.appendDecimal(key, digits)
    }
  }

  // MARK: - No colour

  private static func drawRamp(_ canvas: Canvas, columns: Int, rows: Int) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(rows * (columns + 1))
    let steps = UInt32(ramp.count)
    for row in 0..<rows {
      let top = 2 * row * columns
      for column in 0..<columns {
        let upper = canvas.keys[top + column]
        let lower = canvas.keys[top + columns + column]
        let luma: UInt32? =
          switch (upper == Canvas.unset, lower == Canvas.unset) {
          case (true, true): nil
          case (false, true): upper
          case (true, false): lower
          case (false, false): (upper + lower + 1) / 2
          }
        out.append(luma.map { ramp[Int($0 * steps / 256)] } ?? 0x20)
      }
      out.append(0x0A)
    }
    return out
  }
}
