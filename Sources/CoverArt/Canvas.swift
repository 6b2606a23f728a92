/// The box of `columns` × `2·rows` pixels, each reduced to what the mode compares and
/// prints: `0xRRGGBB`, a palette index or a luma, and `unset` in the margins.
struct Canvas {
  /// A margin pixel: the terminal's default colour.
  static let unset = UInt32.max

  var keys: [UInt32]

  init(_ image: RGBImage, columns: Int, rows: Int, mode: ColorMode) {
    let boxWidth = columns
    keys = [UInt32](repeating: Self.unset, count: boxWidth * 2 * rows)
    let (origin, size) = HalfBlockRenderer.placement(
      of: PixelSize(width: image.width, height: image.height), columns: columns, rows: rows)
    let scaled = image.areaAveraged(width: size.width, height: size.height)
    scaled.pixels.withUnsafeBufferPointer { pixels in
      keys.withUnsafeMutableBufferPointer { keys in
        for y in 0..<size.height {
          var source = pixels.baseAddress! + y * size.width * 3
          let row = (origin.height + y) * boxWidth + origin.width
          for x in 0..<size.width {
            let red = UInt32(source[0])
            let green = UInt32(source[1])
            let blue = UInt32(source[2])
            keys[row + x] =
              switch mode {
              case .trueColor: red << 16 | green << 8 | blue
              case .palette256: UInt32(XtermPalette.nearestIndex(to: RGB(source[0], source[1], source[2])))
              // Rec. 709 luma in integers (54 + 183 + 19 = 256).
              case .none: (54 * red + 183 * green + 19 * blue) >> 8
              }
            source += 3
          }
        }
      }
    }
  }
}
