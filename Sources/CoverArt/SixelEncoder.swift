internal import CSixel

/// Sixel graphics through libsixel: the palette, the dithering and the bands of six pixel
/// rows, in one DCS sequence (`ESC P … q … ESC \`).
///
/// A picture of no more colours than the terminal has registers (flat artwork, a
/// drawing) gets exactly its colours as the palette and no dithering. Any other gets
/// libsixel's median cut, which builds its histogram from a sample of the pixels (every
/// third on a cover-sized picture): fine for a photo, but a fine regular pattern can fall
/// between the samples and lose a colour, which the exact palette avoids.
package enum SixelEncoder {
  /// `image` as a sixel sequence of at most `colors` (2...256) palette entries: the number
  /// of colour registers the terminal has (a VT340 has 16; xterm answers how many).
  package static func encode(_ image: RGBImage, colors: Int = 256) -> [UInt8] {
    let colors = min(256, max(2, colors))
    let exact = distinctColors(of: image, atMost: colors)
    var dither: OpaquePointer?
    guard sixel_dither_new(&dither, Int32(exact.map { max(2, $0.count / 3) } ?? colors), nil) == SIXEL_OK, let dither
    else {
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
      if var palette = exact {
        // One colour still needs two entries (libsixel's minimum): the second repeats it.
        if palette.count == 3 { palette += palette }
        palette.withUnsafeMutableBufferPointer { sixel_dither_set_palette(dither, $0.baseAddress) }
        sixel_dither_set_pixelformat(dither, SIXEL_PIXELFORMAT_RGB888)
        sixel_dither_set_diffusion_type(dither, SIXEL_DIFFUSE_NONE)
      } else {
        let initialized = sixel_dither_initialize(
          dither, buffer.baseAddress, Int32(image.width), Int32(image.height), SIXEL_PIXELFORMAT_RGB888,
          SIXEL_LARGE_AUTO, SIXEL_REP_AVERAGE_PIXELS, SIXEL_QUALITY_HIGH)
        guard initialized == SIXEL_OK else { return initialized }
      }
      return sixel_encode(buffer.baseAddress, Int32(image.width), Int32(image.height), 3, dither, output)
    }
    precondition(status == SIXEL_OK, "libsixel cannot encode a \(image.width)×\(image.height) image: \(status)")
    return sink.bytes
  }
}

extension SixelEncoder {
  /// The colours of `image` as R, G, B bytes in order of first appearance, or nil when it
  /// has more than `limit`.
  static func distinctColors(of image: RGBImage, atMost limit: Int) -> [UInt8]? {
    var seen = Set<UInt32>(minimumCapacity: limit + 1)
    var palette: [UInt8] = []
    palette.reserveCapacity(3 * limit)
    var previous = UInt32.max
    let fits = image.pixels.withUnsafeBufferPointer { bytes -> Bool in
      var index = 0
      while index < bytes.count {
        let key = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
        // Runs of one colour are the common case in flat art: skip the set for them.
        if key != previous, seen.insert(key).inserted {
          guard seen.count <= limit else { return false }
          palette += [bytes[index], bytes[index + 1], bytes[index + 2]]
        }
        previous = key
        index += 3
      }
      return true
    }
    return fits ? palette : nil
  }
}

/// What libsixel's write callback appends to; lives only for one `encode`, on one thread.
private final class SixelSink {
  var bytes: [UInt8] = []

  init() {
    bytes.reserveCapacity(64 * 1024)
  }
}
