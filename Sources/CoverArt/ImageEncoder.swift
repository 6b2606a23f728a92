internal import CImageCodecs
internal import CImageDecoding

/// Encodes PNG and JPEG with the same system libraries: PNG for the kitty and iTerm2 image
/// protocols, both for tests and the benchmark.
package enum ImageEncoder {
  /// The sample layouts libpng's simplified writer accepts.
  package enum PNGLayout: Sendable {
    /// 8-bit grey, one byte a pixel.
    case grey
    /// 8-bit grey and alpha.
    case greyAlpha
    /// 8-bit RGB.
    case rgb
    /// 8-bit RGB and straight (not premultiplied) alpha.
    case rgba
    /// 16-bit linear-light RGBA with premultiplied alpha (libpng's 16-bit convention),
    /// given as big samples in `png16(width:height:samples:)`. Written with gAMA 1.0.
    case rgba16Linear
    /// A palette of RGBA entries; the samples are one index byte a pixel (tRNS holds the
    /// entries' alpha).
    case palette([(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)])

    var channels: Int {
      switch self {
      case .grey, .palette: 1
      case .greyAlpha: 2
      case .rgb: 3
      case .rgba, .rgba16Linear: 4
      }
    }

    var format: UInt32 {
      switch self {
      case .grey: 0
      case .greyAlpha: UInt32(PNG_FORMAT_FLAG_ALPHA)
      case .rgb: UInt32(PNG_FORMAT_FLAG_COLOR)
      case .rgba: UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
      case .rgba16Linear: UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_LINEAR)
      case .palette: UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_COLORMAP)
      }
    }
  }

  /// An 8-bit RGB PNG of `image`; `fast` trades a larger file for quicker compression
  /// (libpng's `PNG_IMAGE_FLAG_FAST`), for a picture sent to a terminal at once.
  package static func png(_ image: RGBImage, fast: Bool = false) -> [UInt8] {
    image.pixels.withUnsafeBytes { raw in
      writePNG(
        width: image.width, height: image.height, format: PNGLayout.rgb.format, colormapEntries: 0,
        rowStride: image.width * 3, buffer: raw.baseAddress!, colormap: nil, fast: fast)
    }
  }

  /// A PNG of 8-bit `samples` in `layout` (not `.rgba16Linear`).
  package static func png(width: Int, height: Int, layout: PNGLayout, samples: [UInt8]) -> [UInt8] {
    precondition(samples.count == width * height * layout.channels, "sample count does not match the layout")
    var colormap: [UInt8] = []
    if case .palette(let entries) = layout {
      precondition((1...256).contains(entries.count), "a palette has 1...256 entries")
      colormap = entries.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
    }
    return colormap.withUnsafeBytes { colormapBytes in
      samples.withUnsafeBytes { raw in
        writePNG(
          width: width, height: height, format: layout.format, colormapEntries: colormap.count / 4,
          rowStride: width * layout.channels, buffer: raw.baseAddress!,
          colormap: colormap.isEmpty ? nil : colormapBytes.baseAddress)
      }
    }
  }

  /// A 16-bit PNG of linear-light, premultiplied RGBA `samples` (libpng's 16-bit form).
  package static func png16(width: Int, height: Int, samples: [UInt16]) -> [UInt8] {
    precondition(samples.count == width * height * 4, "sample count does not match RGBA")
    return samples.withUnsafeBytes { raw in
      writePNG(
        width: width, height: height, format: PNGLayout.rgba16Linear.format, colormapEntries: 0,
        rowStride: width * 4, buffer: raw.baseAddress!, colormap: nil)
    }
  }

  private static func writePNG(
    width: Int, height: Int, format: UInt32, colormapEntries: Int, rowStride: Int,
    buffer: UnsafeRawPointer, colormap: UnsafeRawPointer?, fast: Bool = false
  ) -> [UInt8] {
    func header() -> png_image {
      var image = png_image()
      image.version = UInt32(PNG_IMAGE_VERSION)
      image.width = UInt32(width)
      image.height = UInt32(height)
      image.format = format
      image.colormap_entries = UInt32(colormapEntries)
      if fast { image.flags = UInt32(PNG_IMAGE_FLAG_FAST) }
      return image
    }
    var image = header()
    // One pass into a buffer that holds the image even uncompressed (raw rows and their
    // filter bytes, zlib's and PNG's framing, the colormap): asking libpng for the exact
    // size first would compress the image twice.
    let colormapped = format & UInt32(PNG_FORMAT_FLAG_COLORMAP) != 0
    let samples =
      (format & UInt32(PNG_FORMAT_FLAG_COLOR) != 0 ? 3 : 1) + (format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0 ? 1 : 0)
    let channels = colormapped ? 1 : samples * (format & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0 ? 2 : 1)
    let raw = height * (1 + width * channels)
    var size = raw + raw / 1000 * 12 + colormapEntries * 4 + 4096
    let once = [UInt8](unsafeUninitializedCapacity: size) { output, initialized in
      var written = size
      let ok = png_image_write_to_memory(&image, output.baseAddress, &written, 0, buffer, Int32(rowStride), colormap)
      initialized = ok != 0 && written <= size ? written : 0
    }
    if !once.isEmpty { return once }
    image = header()
    size = 0
    // The estimate was short (it never should be): measure, then write.
    guard png_image_write_to_memory(&image, nil, &size, 0, buffer, Int32(rowStride), colormap) != 0 else {
      preconditionFailure("libpng cannot write the image: \(message(of: image))")
    }
    image = header()
    return [UInt8](unsafeUninitializedCapacity: size) { output, initialized in
      var written = size
      guard png_image_write_to_memory(&image, output.baseAddress, &written, 0, buffer, Int32(rowStride), colormap) != 0
      else { preconditionFailure("libpng cannot write the image: \(message(of: image))") }
      initialized = written
    }
  }

  private static func message(of image: png_image) -> String {
    withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }

  /// The JPEG colour layouts libjpeg writes here.
  package enum JPEGLayout: Int, Sendable {
    /// One byte a pixel.
    case grey = 1
    /// Three bytes a pixel, stored as YCbCr with 2×2 chroma subsampling (libjpeg's default).
    case rgb = 3
    /// Four bytes a pixel, inverted the way Adobe writes CMYK (255 = no ink), with an
    /// Adobe marker.
    case invertedCMYK = 4
  }

  /// A JPEG of `image` at `quality` (1...100).
  package static func jpeg(_ image: RGBImage, quality: Int = 95, progressive: Bool = false) -> [UInt8] {
    jpeg(
      width: image.width, height: image.height, layout: .rgb, samples: image.pixels, quality: quality,
      progressive: progressive)
  }

  /// A JPEG of `samples` in `layout` at `quality` (1...100).
  package static func jpeg(
    width: Int, height: Int, layout: JPEGLayout, samples: [UInt8], quality: Int = 95, progressive: Bool = false
  ) -> [UInt8] {
    precondition(samples.count == width * height * layout.rawValue, "sample count does not match the layout")
    precondition((1...100).contains(quality), "JPEG quality is 1...100")
    var output: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: Int(CID_MESSAGE_LENGTH))
    let status = samples.withUnsafeBufferPointer { pixels in
      cid_jpeg_encode(
        pixels.baseAddress, Int32(width), Int32(height), Int32(layout.rawValue), Int32(quality),
        progressive ? 1 : 0, &output, &size, &message)
    }
    guard status == Int32(CID_OK), let output else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      preconditionFailure("libjpeg cannot write the image: \(reason)")
    }
    defer { cid_free(output) }
    return Array(UnsafeBufferPointer(start: output, count: size))
  }
}
