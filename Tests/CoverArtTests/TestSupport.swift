import CoverArt
import TestSupport

// MARK: - Test images

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

// MARK: - Reference computations, independent of the code under test

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


// MARK: - A terminal model for reading frames back

/// What one cell shows after the terminal has interpreted a frame.
struct ScreenCell: Equatable {
  enum Color: Equatable {
    case terminalDefault
    case rgb(RGB)
    case indexed(Int)
  }

  var character: Character
  var foreground: Color
  var background: Color

  /// The colour the top half shows.
  var top: Color {
    switch character {
    case "▀": foreground
    case "▄", " ": background
    default: .terminalDefault
    }
  }

  /// The colour the bottom half shows.
  var bottom: Color {
    switch character {
    case "▄": foreground
    case "▀", " ": background
    default: .terminalDefault
    }
  }
}

/// A frame interpreted the way a terminal does: SGR state carried from cell to cell.
struct Screen {
  /// `lines[row][column]`.
  var lines: [[ScreenCell]] = []
  /// Every SGR's parameter list, per line, in order (the line-end reset included).
  var sequences: [[[Int]]] = []
  /// Bytes that are neither SGR nor printable nor newline (must stay empty).
  var stray: [String] = []
  /// Whether the frame ends with a newline.
  var endsWithNewline = false

  init(_ frame: String) {
    var foreground = ScreenCell.Color.terminalDefault
    var background = ScreenCell.Color.terminalDefault
    var line: [ScreenCell] = []
    var lineSequences: [[Int]] = []
    var characters = frame.unicodeScalars.makeIterator()
    while let scalar = characters.next() {
      switch scalar {
      case "\u{1B}":
        guard characters.next() == "[" else {
          stray.append("ESC without [")
          continue
        }
        var body = ""
        var final: Unicode.Scalar?
        while let next = characters.next() {
          if (0x40...0x7E).contains(next.value) {
            final = next
            break
          }
          body.unicodeScalars.append(next)
        }
        guard final == "m" else {
          stray.append("CSI \(body)\(final.map(String.init) ?? "")")
          continue
        }
        let parameters = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? -1 }
        lineSequences.append(parameters)
        var index = 0
        while index < parameters.count {
          switch parameters[index] {
          case 0:
            foreground = .terminalDefault
            background = .terminalDefault
          case 39: foreground = .terminalDefault
          case 49: background = .terminalDefault
          case 38, 48:
            let selector = parameters[index]
            let color: ScreenCell.Color
            if parameters[index + 1] == 2 {
              color = .rgb(
                RGB(UInt8(parameters[index + 2]), UInt8(parameters[index + 3]), UInt8(parameters[index + 4])))
              index += 4
            } else {
              color = .indexed(parameters[index + 2])
              index += 2
            }
            if selector == 38 { foreground = color } else { background = color }
          default: stray.append("SGR parameter \(parameters[index])")
          }
          index += 1
        }
      case "\n":
        lines.append(line)
        sequences.append(lineSequences)
        line = []
        lineSequences = []
      default:
        line.append(ScreenCell(character: Character(scalar), foreground: foreground, background: background))
      }
    }
    endsWithNewline = line.isEmpty && lineSequences.isEmpty
  }
}
