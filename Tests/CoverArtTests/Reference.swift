import CoverArt

/// Reference computations, independent of the code under test.
enum Reference {
  /// The exact area-weighted mean of the source pixels under output pixel (x, y), in
  /// floating point.
  static func areaAverage(_ image: RGBImage, width: Int, height: Int, x: Int, y: Int) -> (Double, Double, Double) {
    let scaleX = Double(image.width) / Double(width)
    let scaleY = Double(image.height) / Double(height)
    let left = Double(x) * scaleX
    let right = Double(x + 1) * scaleX
    let top = Double(y) * scaleY
    let bottom = Double(y + 1) * scaleY
    var sum = (0.0, 0.0, 0.0)
    var area = 0.0
    for sy in Int(top)..<min(image.height, Int(bottom.rounded(.up))) {
      let coverY = min(bottom, Double(sy + 1)) - max(top, Double(sy))
      guard coverY > 0 else { continue }
      for sx in Int(left)..<min(image.width, Int(right.rounded(.up))) {
        let coverX = min(right, Double(sx + 1)) - max(left, Double(sx))
        guard coverX > 0 else { continue }
        let weight = coverX * coverY
        let pixel = image[sx, sy]
        sum.0 += weight * Double(pixel.red)
        sum.1 += weight * Double(pixel.green)
        sum.2 += weight * Double(pixel.blue)
        area += weight
      }
    }
    return (sum.0 / area, sum.1 / area, sum.2 / area)
  }

  /// The largest channel difference between two colours.
  static func difference(_ a: RGB, _ b: (Double, Double, Double)) -> Double {
    max(abs(Double(a.red) - b.0), abs(Double(a.green) - b.1), abs(Double(a.blue) - b.2))
  }

  static func difference(_ a: RGB, _ b: RGB) -> Int {
    max(abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
  }

  /// Palette entries 16...255 computed from the xterm definition.
  static let palette: [(index: Int, color: RGB)] = {
    let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
    var entries: [(Int, RGB)] = []
    for r in 0..<6 {
      for g in 0..<6 {
        for b in 0..<6 { entries.append((16 + 36 * r + 6 * g + b, RGB(levels[r], levels[g], levels[b]))) }
      }
    }
    for step in 0..<24 {
      let level = UInt8(8 + 10 * step)
      entries.append((232 + step, RGB(level, level, level)))
    }
    return entries
  }()

  static func squaredDistance(_ a: RGB, _ b: RGB) -> Int {
    let dr = Int(a.red) - Int(b.red)
    let dg = Int(a.green) - Int(b.green)
    let db = Int(a.blue) - Int(b.blue)
    return dr * dr + dg * dg + db * db
  }

  static func paletteColor(_ index: Int) -> RGB {
    palette.first { $0.index == index }!.color
  }

  /// The smallest squared distance from `color` to any entry 16...255.
  static func nearestDistance(_ color: RGB) -> Int {
    palette.map { squaredDistance($0.color, color) }.min()!
  }
}
