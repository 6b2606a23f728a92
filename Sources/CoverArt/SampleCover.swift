/// A photo-like test cover, the same every run: what the cover-art benchmark draws and the
/// decoder and renderer tests read.
package enum SampleCover {
  /// A photo-like test cover: a diagonal colour gradient with a soft disc and
  /// deterministic grain, so the JPEG carries real detail (a flat gradient would make
  /// decoding unrealistically cheap).
  package static func sampleImage(width: Int = 600, height: Int = 600) -> RGBImage {
    RGBImage(width: width, height: height) { x, y in
      let u = Double(x) / Double(max(width - 1, 1))
      let v = Double(y) / Double(max(height - 1, 1))
      let dx = u - 0.5
      let dy = v - 0.5
      let disc = max(0, 1 - (dx * dx + dy * dy) * 8)
      // A hash of the position, ±12 grey levels.
      var hash = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
      hash = (hash ^ (hash >> 13)) &* 0x5BD1_E995
      let grain = Double(Int(hash >> 27) - 16) * 0.75
      func channel(_ value: Double) -> UInt8 { UInt8(max(0, min(255, (value + grain).rounded()))) }
      return RGB(
        channel(255 * u * (1 - disc) + 250 * disc),
        channel(255 * v * (1 - disc) + 200 * disc),
        channel(255 * (1 - u) * (1 - v) + 40 * disc))
    }
  }

  /// `sampleImage` as a quality-95 JPEG (libjpeg's default 2×2 chroma subsampling).
  package static func sampleJPEG(width: Int = 600, height: Int = 600) -> [UInt8] {
    ImageEncoder.jpeg(sampleImage(width: width, height: height), quality: 95)
  }
}
