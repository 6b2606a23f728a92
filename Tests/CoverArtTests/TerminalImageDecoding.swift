import CoverArt
import Foundation

/// Reads back what the image protocol writers emit, the way a terminal would, written
/// here from the protocols' documents rather than with the libraries that encode.
enum TerminalImageDecoding {
  /// One kitty APC command: its keys and its payload.
  struct KittyCommand {
    var keys: [String: String]
    var payload: String
  }

  /// The `ESC _G keys;payload ESC \` commands of `bytes`, in order; nil when anything else
  /// is between or around them.
  static func kittyCommands(_ bytes: [UInt8]) -> [KittyCommand]? {
    var text = Substring(String(decoding: bytes, as: UTF8.self))
    var commands: [KittyCommand] = []
    while !text.isEmpty {
      guard text.hasPrefix("\u{1B}_G"), let end = text.range(of: "\u{1B}\\") else { return nil }
      let body = text[text.index(text.startIndex, offsetBy: 3)..<end.lowerBound]
      let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
      var keys: [String: String] = [:]
      for pair in parts[0].split(separator: ",") {
        let keyValue = pair.split(separator: "=", maxSplits: 1)
        guard keyValue.count == 2 else { return nil }
        keys[String(keyValue[0])] = String(keyValue[1])
      }
      commands.append(KittyCommand(keys: keys, payload: parts.count > 1 ? String(parts[1]) : ""))
      text = text[end.upperBound...]
    }
    return commands
  }

  /// A base64 payload's bytes, or nil when it is not valid base64.
  static func base64(_ text: String) -> [UInt8]? {
    Data(base64Encoded: text).map { [UInt8]($0) }
  }

  /// iTerm2's `ESC ] 1337 ; File = key=value;… : base64 BEL`: the arguments and the file.
  static func itermFile(_ bytes: [UInt8]) -> (arguments: [String: String], file: [UInt8])? {
    let text = String(decoding: bytes, as: UTF8.self)
    let prefix = "\u{1B}]1337;File="
    guard text.hasPrefix(prefix), text.hasSuffix("\u{7}"), let colon = text.firstIndex(of: ":") else { return nil }
    var arguments: [String: String] = [:]
    for pair in text[text.index(text.startIndex, offsetBy: prefix.count)..<colon].split(separator: ";") {
      let keyValue = pair.split(separator: "=", maxSplits: 1)
      guard keyValue.count == 2 else { return nil }
      arguments[String(keyValue[0])] = String(keyValue[1])
    }
    guard let file = base64(String(text[text.index(after: colon)..<text.index(before: text.endIndex)])) else {
      return nil
    }
    return (arguments, file)
  }

  /// A sixel image decoded: the palette as defined (percent scaled back to 0...255), and
  /// each pixel's colour. Pixels no sixel set stay nil.
  struct SixelImage {
    var width: Int
    var height: Int
    var palette: [Int: RGB]
    var pixels: [RGB?]
    /// The size the raster attributes (`"1;1;W;H`) declare.
    var declaredSize: PixelSize?

    subscript(x: Int, y: Int) -> RGB? { pixels[y * width + x] }
  }

  enum SixelError: Error, CustomStringConvertible {
    case notADeviceControlString
    case unexpected(Character)
    case undefinedColor(Int)

    var description: String {
      switch self {
      case .notADeviceControlString: "not ESC P … q … ESC \\"
      case .unexpected(let character): "unexpected \(character.debugDescription) in the sixel data"
      case .undefinedColor(let index): "colour #\(index) used before it was defined"
      }
    }
  }

  /// Decodes `ESC P params q <sixel data> ESC \` (DEC STD 070): `#n;2;r;g;b` defines
  /// colour n in percent, `#n` selects it, `?`…`~` are six pixels a column (bit 0 on top),
  /// `!count` repeats the next one, `$` goes back to the band's start, `-` to the next band.
  static func sixel(_ bytes: [UInt8]) throws -> SixelImage {
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.hasPrefix("\u{1B}P"), text.hasSuffix("\u{1B}\\"), let q = text.firstIndex(of: "q") else {
      throw SixelError.notADeviceControlString
    }
    let data = Array(text[text.index(after: q)..<text.index(text.endIndex, offsetBy: -2)].utf8)
    var palette: [Int: RGB] = [:]
    var set: [Int: Int] = [:]  // pixel index (y * 10_000 + x) → colour
    var declared: PixelSize?
    var color = 0
    var x = 0
    var band = 0
    var width = 0
    var height = 0
    var index = 0
    func number() -> Int? {
      var value: Int?
      while index < data.count, (0x30...0x39).contains(data[index]) {
        value = (value ?? 0) * 10 + Int(data[index] - 0x30)
        index += 1
      }
      return value
    }
    func numbers() -> [Int] {
      var values = [number() ?? 0]
      while index < data.count, data[index] == UInt8(ascii: ";") {
        index += 1
        values.append(number() ?? 0)
      }
      return values
    }
    while index < data.count {
      let byte = data[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        let values = numbers()
        if values.count == 4 { declared = PixelSize(width: values[2], height: values[3]) }
      case UInt8(ascii: "#"):
        index += 1
        let values = numbers()
        color = values[0]
        if values.count == 5, values[1] == 2 {
          func channel(_ percent: Int) -> UInt8 { UInt8((percent * 255 + 50) / 100) }
          palette[color] = RGB(channel(values[2]), channel(values[3]), channel(values[4]))
        }
      case UInt8(ascii: "$"):
        index += 1
        x = 0
      case UInt8(ascii: "-"):
        index += 1
        x = 0
        band += 1
      case UInt8(ascii: "!"), 0x3F...0x7E:
        var count = 1
        if byte == UInt8(ascii: "!") {
          index += 1
          count = number() ?? 1
        }
        guard index < data.count, (0x3F...0x7E).contains(data[index]) else {
          throw SixelError.unexpected(index < data.count ? Character(Unicode.Scalar(data[index])) : "∅")
        }
        let bits = Int(data[index] - 0x3F)
        index += 1
        guard palette[color] != nil else { throw SixelError.undefinedColor(color) }
        for _ in 0..<count {
          for bit in 0..<6 where bits & (1 << bit) != 0 {
            let y = band * 6 + bit
            set[y * 10_000 + x] = color
            height = max(height, y + 1)
          }
          x += 1
          width = max(width, x)
        }
      case 0x0A, 0x0D:
        index += 1
      default:
        throw SixelError.unexpected(Character(Unicode.Scalar(byte)))
      }
    }
    var pixels = [RGB?](repeating: nil, count: width * height)
    for (position, colorIndex) in set {
      pixels[(position / 10_000) * width + position % 10_000] = palette[colorIndex]
    }
    return SixelImage(width: width, height: height, palette: palette, pixels: pixels, declaredSize: declared)
  }
}
