import CoverArt

/// Images with known content, drawn in code.
enum TestImages {
  static let red = RGB(220, 30, 40)
  static let green = RGB(20, 200, 60)
  static let blue = RGB(30, 60, 230)
  static let white = RGB(250, 250, 250)

  /// Four quadrants: red top-left, green top-right, blue bottom-left, white bottom-right.
  static func quadrants(size: Int = 300) -> RGBImage {
    RGBImage(width: size, height: size) { x, y in
      switch (x < size / 2, y < size / 2) {
      case (true, true): red
      case (false, true): green
      case (true, false): blue
      case (false, false): white
      }
    }
  }

  /// A smooth gradient: red grows left to right, green top to bottom, blue is constant.
  static func gradient(width: Int = 600, height: Int = 600) -> RGBImage {
    RGBImage(width: width, height: height) { x, y in
      RGB(UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), 128)
    }
  }

  /// Fine detail that area averaging must blend: a gradient crossed by 3-pixel stripes.
  static func striped(width: Int = 300, height: Int = 300) -> RGBImage {
    RGBImage(width: width, height: height) { x, y in
      let stripe: UInt8 = (x / 3 + y / 5) % 2 == 0 ? 0 : 90
      return RGB(UInt8(x * 165 / (width - 1)) + stripe, UInt8(y * 255 / (height - 1)), 255 - stripe)
    }
  }
}
