internal import CImageCodecs

extension ImageDecoder {
  /// Decodes with libpng's simplified API, which converts every PNG flavour (palette,
  /// grey, 16-bit, tRNS, alpha) to 8-bit RGB itself and catches libpng's errors
  /// internally, so no setjmp is needed on this side.
  static func decodePNG(_ bytes: UnsafeBufferPointer<UInt8>, background: RGB) throws(CoverArtError) -> RGBImage {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
      throw .corruptPNG(message(of: image))
    }
    let width = Int(image.width)
    let height = Int(image.height)
    do {
      try checkSize(width: width, height: height)
    } catch {
      png_image_free(&image)
      throw error
    }
    image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
    // A 16-bit PNG without gAMA or sRGB is almost always sRGB (what editors write),
    // not the linear data libpng would otherwise assume.
    image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
    var backdrop = png_color(red: background.red, green: background.green, blue: background.blue)
    let count = width * height * 3
    var failure: String?
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      if png_image_finish_read(&image, &backdrop, buffer.baseAddress, Int32(width * 3), nil) != 0 {
        initialized = count
      } else {
        failure = message(of: image)
        initialized = 0
      }
    }
    if let failure { throw .corruptPNG(failure) }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  /// libpng's message for the last failure (it frees the image itself on failure, but
  /// keeps the message in the struct).
  private static func message(of image: png_image) -> String {
    let text = withUnsafeBytes(of: image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return text.isEmpty ? "libpng gave no reason" : text
  }
}
