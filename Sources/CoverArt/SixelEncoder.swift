internal import CSixel

/// Sixel graphics through libsixel: the palette (median cut over the picture), the
/// dithering and the bands of six pixel rows, in one DCS sequence (`ESC P … q … ESC \`).
public enum SixelEncoder {
  /// `image` as a sixel sequence of at most `colors` (2...256) palette entries: the number
  /// of colour registers the terminal has (a VT340 has 16; xterm answers how many).
  public static func encode(_ image: RGBImage, colors: Int = 256) -> [UInt8] {
    let colors = min(256, max(2, colors))
    var dither: OpaquePointer?
    guard sixel_dither_new(&dither, Int32(colors), nil) == SIXEL_OK, let dither else {
      preconditionFailure("libsixel cannot allocate a dither")
    }
    defer { sixel_dither_unref(dither) }
    let sink = SixelSink()
    let unmanaged = Unmanaged.passRetained(sink)
    defer { unmanaged.release() }
    var output: OpaquePointer?
    let created = sixel_output_new(
      &output,
      { data, size, context in
        guard let data, let context, size > 0 else { return 0 }
        let sink = Unmanaged<SixelSink>.fromOpaque(context).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { bytes in
          sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(size)))
        }
        return size
      }, unmanaged.toOpaque(), nil)
    guard created == SIXEL_OK, let output else { preconditionFailure("libsixel cannot allocate an output") }
    defer { sixel_output_unref(output) }
    var pixels = image.pixels
    let status = pixels.withUnsafeMutableBufferPointer { buffer -> SIXELSTATUS in
      let initialized = sixel_dither_initialize(
        dither, buffer.baseAddress, Int32(image.width), Int32(image.height), SIXEL_PIXELFORMAT_RGB888,
        SIXEL_LARGE_AUTO, SIXEL_REP_AVERAGE_PIXELS, SIXEL_QUALITY_HIGH)
      guard initialized == SIXEL_OK else { return initialized }
      return sixel_encode(buffer.baseAddress, Int32(image.width), Int32(image.height), 3, dither, output)
    }
    precondition(status == SIXEL_OK, "libsixel cannot encode a \(image.width)×\(image.height) image: \(status)")
    return sink.bytes
  }
}

/// What libsixel's write callback appends to; lives only for one `encode`, on one thread.
private final class SixelSink {
  var bytes: [UInt8] = []

  init() {
    bytes.reserveCapacity(64 * 1024)
  }
}
