/// A decoded image: 8-bit RGB pixels, row-major, three bytes a pixel, no padding.
package struct RGBImage: Sendable, Equatable {
  /// Columns of pixels.
  package let width: Int
  /// Rows of pixels.
  package let height: Int
  /// `width * height * 3` bytes: R, G, B of the top-left pixel first.
  package let pixels: [UInt8]

  /// An image of `width` x `height` pixels; `pixels` must hold exactly `width * height * 3` bytes.
  package init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width > 0 && height > 0, "an image has at least one pixel")
    precondition(pixels.count == width * height * 3, "\(pixels.count) bytes for \(width)×\(height) RGB")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// An image of one colour.
  package init(width: Int, height: Int, filledWith color: RGB) {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for index in stride(from: 0, to: pixels.count, by: 3) {
      pixels[index] = color.red
      pixels[index + 1] = color.green
      pixels[index + 2] = color.blue
    }
    self.init(width: width, height: height, pixels: pixels)
  }

  /// An image whose pixel at (x, y) is `color(x, y)`.
  package init(width: Int, height: Int, color: (_ x: Int, _ y: Int) -> RGB) {
    var pixels = [UInt8]()
    pixels.reserveCapacity(width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let pixel = color(x, y)
        pixels.append(pixel.red)
        pixels.append(pixel.green)
        pixels.append(pixel.blue)
      }
    }
    self.init(width: width, height: height, pixels: pixels)
  }

  /// The pixel at column `x`, row `y`.
  package subscript(x: Int, y: Int) -> RGB {
    precondition((0..<width).contains(x) && (0..<height).contains(y), "pixel (\(x), \(y)) outside \(width)×\(height)")
    let index = (y * width + x) * 3
    return RGB(pixels[index], pixels[index + 1], pixels[index + 2])
  }
}

/// One 8-bit sRGB colour.
package struct RGB: Sendable, Hashable, CustomStringConvertible {
  package var red: UInt8
  package var green: UInt8
  package var blue: UInt8

  /// A colour from its three channels.
  package init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Black, the default background alpha is composited over.
  package static let black = RGB(0, 0, 0)
  /// White.
  package static let white = RGB(255, 255, 255)

  /// `#rrggbb`.
  package var description: String {
    func hex(_ value: UInt8) -> String {
      let digits = String(value, radix: 16)
      return value < 16 ? "0" + digits : digits
    }
    return "#" + hex(red) + hex(green) + hex(blue)
  }
}
