/// Why an image could not be decoded.
package enum CoverArtError: Error, Equatable, CustomStringConvertible {
  /// The bytes start with neither the PNG nor the JPEG signature (an HTML error page, a
  /// GIF, an empty file).
  case notAnImage
  /// libpng stopped: the file ends early or a chunk is damaged. Carries libpng's message.
  case corruptPNG(String)
  /// libjpeg stopped: the file ends early or the data is damaged. Carries libjpeg's message.
  case corruptJPEG(String)
  /// A valid JPEG in a colour space other than grey, YCbCr, RGB, CMYK or YCCK.
  case unsupportedJPEG(String)
  /// Wider or taller than `ImageDecoder.maximumDimension`; refused before any pixel memory
  /// is allocated.
  case tooLarge(width: Int, height: Int)
  /// The cells asked for hold more pixels than `PixelRenderer.maximumSide` a side; refused
  /// before the picture is scaled.
  case pictureTooLarge(width: Int, height: Int)

  package var description: String {
    switch self {
    case .notAnImage: "not a PNG or JPEG image"
    case .corruptPNG(let message): "truncated or corrupt PNG (\(Self.lowercasingFirst(message)))"
    case .corruptJPEG(let message): "truncated or corrupt JPEG (\(Self.lowercasingFirst(message)))"
    case .unsupportedJPEG(let message): "unsupported JPEG (\(Self.lowercasingFirst(message)))"
    case .tooLarge(let width, let height):
      "image too large (\(width)×\(height), at most \(ImageDecoder.maximumDimension) a side)"
    case .pictureTooLarge(let width, let height):
      "picture too large (\(width)×\(height) pixels, at most \(PixelRenderer.maximumSide) a side; try a smaller --size)"
    }
  }

  /// The libraries' messages start with a capital ("Premature end of JPEG file"); ours
  /// are lowercase. Acronyms ("JPEG", "IDAT") keep their case.
  private static func lowercasingFirst(_ message: String) -> String {
    guard let first = message.first, first.isUppercase else { return message }
    let second = message.dropFirst().first
    if let second, second.isUppercase { return message }
    return first.lowercased() + message.dropFirst()
  }
}
