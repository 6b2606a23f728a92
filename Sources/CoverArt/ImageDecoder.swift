#if canImport(FoundationEssentials)
  import struct FoundationEssentials.Data
#else
  import struct Foundation.Data
#endif

/// Decodes PNG and JPEG covers to RGB with the system's libpng and libjpeg-turbo.
///
/// The format is recognised by its signature, never by a file name or a Content-Type.
/// Anything else, and any damage the libraries detect, is a `CoverArtError`: no input
/// crashes, prints to stderr or allocates more than the size cap allows.
///
/// - Important: Safe to call from any thread; each call has its own decoder state.
package enum ImageDecoder {
  /// The widest or tallest image decoded (a cover is at most a few thousand pixels;
  /// the cap bounds the pixel memory of a hostile header at 8192² × 3 bytes).
  package static let maximumDimension = 8192

  /// Decodes a PNG or JPEG.
  /// - Parameters:
  ///   - background: what transparent PNG pixels are composited over.
  ///   - minimumSize: when set, a JPEG may be decoded at 1/2, 1/4 or 1/8 scale (libjpeg's
  ///     DCT scaling, far faster than decoding everything and throwing it away) as long
  ///     as the result stays at least this large. At 1/8 each output pixel is its 8×8
  ///     block's mean (the DC coefficient), so area-averaging it further gives nearly the
  ///     same cells as averaging the full image. PNGs are always decoded at full size.
  package static func decode(
    _ bytes: [UInt8], background: RGB = .black, minimumSize: PixelSize? = nil
  ) throws(CoverArtError) -> RGBImage {
    try bytes.withUnsafeBufferPointer { buffer throws(CoverArtError) in
      try decode(buffer, background: background, minimumSize: minimumSize)
    }
  }

  /// Decodes a PNG or JPEG held in `Data` (see `decode(_:background:minimumSize:)`).
  package static func decode(
    _ data: Data, background: RGB = .black, minimumSize: PixelSize? = nil
  ) throws(CoverArtError) -> RGBImage {
    let result = data.withUnsafeBytes { raw in
      Result { () throws(CoverArtError) in
        try decode(raw.bindMemory(to: UInt8.self), background: background, minimumSize: minimumSize)
      }
    }
    return try result.get()
  }

  /// The format whose signature starts `bytes`.
  static func format(of bytes: UnsafeBufferPointer<UInt8>) -> ImageFormat? {
    if bytes.starts(with: pngSignature) { return .png }
    if bytes.starts(with: jpegSignature) { return .jpeg }
    return nil
  }

  /// The formats this decoder reads.
  enum ImageFormat {
    case png, jpeg
  }

  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  /// SOI followed by the first byte of the next marker.
  static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, background: RGB, minimumSize: PixelSize?
  ) throws(CoverArtError) -> RGBImage {
    switch format(of: bytes) {
    case .png: try decodePNG(bytes, background: background)
    case .jpeg: try decodeJPEG(bytes, minimumSize: minimumSize)
    case nil: throw .notAnImage
    }
  }

  static func checkSize(width: Int, height: Int) throws(CoverArtError) {
    guard width <= maximumDimension, height <= maximumDimension else {
      throw .tooLarge(width: width, height: height)
    }
  }
}
