/// The xterm 256-colour palette's colour cube (16...231) and grey ramp (232...255), the
/// part every 256-colour terminal agrees on (0...15 are themable and never chosen).
package enum XtermPalette {
  /// The cube's six channel levels.
  static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The palette entry nearest to `color` in RGB distance.
  ///
  /// The nearest cube colour is found channel by channel and the nearest grey from the
  /// channel mean (both exact for squared distance); the grey wins only when strictly
  /// nearer.
  package static func nearestIndex(to color: RGB) -> UInt8 {
    let red = Int(color.red)
    let green = Int(color.green)
    let blue = Int(color.blue)
    let r = cubeStep(red)
    let g = cubeStep(green)
    let b = cubeStep(blue)
    let cubeDistance = square(red - cubeLevels[r]) + square(green - cubeLevels[g]) + square(blue - cubeLevels[b])
    let grey = greyStep(sum: red + green + blue)
    let level = 8 + 10 * grey
    let greyDistance = square(red - level) + square(green - level) + square(blue - level)
    return greyDistance < cubeDistance ? UInt8(232 + grey) : UInt8(16 + 36 * r + 6 * g + b)
  }

  /// The colour of palette entry `index` (16...255).
  package static func color(at index: UInt8) -> RGB {
    precondition(index >= 16, "entries 0...15 depend on the terminal's theme")
    if index >= 232 {
      let level = UInt8(8 + 10 * (Int(index) - 232))
      return RGB(level, level, level)
    }
    let cube = Int(index) - 16
    return RGB(UInt8(cubeLevels[cube / 36]), UInt8(cubeLevels[cube / 6 % 6]), UInt8(cubeLevels[cube % 6]))
  }

  /// The nearest cube level's position for one channel; a tie goes to the lower level.
  static func cubeStep(_ value: Int) -> Int {
    switch value {
    case ..<48: 0
    case ...115: 1
    case ...155: 2
    case ...195: 3
    case ...235: 4
    default: 5
    }
  }

  /// The grey ramp step (level 8 + 10·step) nearest the mean `sum / 3`; ties go lower.
  static func greyStep(sum: Int) -> Int {
    // level·3 nearest sum: step = round((sum − 24) / 30), rounding half down.
    let step = (sum - 24 + 14) / 30
    return sum < 24 ? 0 : min(step, 23)
  }

  private static func square(_ value: Int) -> Int { value * value }
}
