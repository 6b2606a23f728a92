import CoverArt
import TestSupport
import Testing

/// Hostile and damaged input: whatever comes in, the decoder returns a well-formed image
/// or throws a `CoverArtError`; it never crashes, hangs or hands back grey fill for a
/// file that was cut short.
@Suite struct ImageDecoderFuzzTests {
  static let png = ImageEncoder.png(SampleCover.sampleImage(width: 48, height: 40))
  static let jpeg = ImageEncoder.jpeg(SampleCover.sampleImage(width: 48, height: 40), quality: 90)
  static let progressiveJPEG = ImageEncoder.jpeg(
    SampleCover.sampleImage(width: 48, height: 40), quality: 90, progressive: true)

  /// A decode that either fails cleanly or yields a consistent image.
  @discardableResult
  func decodeChecked(_ bytes: [UInt8]) -> Result<RGBImage, CoverArtError> {
    do throws(CoverArtError) {
      let image = try ImageDecoder.decode(bytes)
      #expect(image.width >= 1 && image.width <= ImageDecoder.maximumDimension)
      #expect(image.height >= 1 && image.height <= ImageDecoder.maximumDimension)
      #expect(image.pixels.count == image.width * image.height * 3)
      return .success(image)
    } catch {
      return .failure(error)
    }
  }

  @Test func randomBytesWithoutASignatureAreNotImages() {
    var random = SeededGenerator(seed: 0xC0FFEE)
    for _ in 0..<500 {
      var bytes = (0..<Int.random(in: 0...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      if bytes.count >= 2 && bytes[0] == 0x89 { bytes[0] = 0 }
      if bytes.count >= 2 && bytes[0] == 0xFF { bytes[0] = 0 }
      #expect(throws: CoverArtError.notAnImage) { try ImageDecoder.decode(bytes) }
    }
  }

  @Test(arguments: ["png", "jpeg"])
  func randomBytesAfterAValidSignatureFailCleanly(format: String) {
    var random = SeededGenerator(seed: format == "png" ? 1 : 2)
    let signature: [UInt8] = format == "png" ? Array(Self.png.prefix(8)) : [0xFF, 0xD8, 0xFF]
    for _ in 0..<500 {
      let tail = (0..<Int.random(in: 0...2000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      #expect(throws: CoverArtError.self) { try ImageDecoder.decode(signature + tail) }
    }
  }

  @Test(arguments: ["png", "jpeg", "progressive jpeg"])
  func everyTruncationIsReported(format: String) {
    let file = format == "png" ? Self.png : format == "jpeg" ? Self.jpeg : Self.progressiveJPEG
    // A PNG cut inside its final IEND chunk still holds every pixel; anything shorter must fail.
    let mustFail = format == "png" ? file.count - 12 : file.count
    var accepted: [Int] = []
    for length in 0..<file.count {
      if case .success = decodeChecked(Array(file.prefix(length))), length < mustFail { accepted.append(length) }
    }
    #expect(accepted.isEmpty, "truncations decoded as if whole: \(accepted.prefix(10))")
  }

  @Test(arguments: ["png", "jpeg", "progressive jpeg"])
  func bitFlipsNeverCrash(format: String) {
    let file = format == "png" ? Self.png : format == "jpeg" ? Self.jpeg : Self.progressiveJPEG
    var random = SeededGenerator(seed: UInt64(format.utf8.count) * 7919)
    var failures = 0
    for _ in 0..<1500 {
      var bytes = file
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
      }
      if case .failure = decodeChecked(bytes) { failures += 1 }
    }
    // Some flips land in harmless places, most do not; a decoder that accepted everything
    // would not be checking anything.
    #expect(failures > 100, "only \(failures) of 1500 damaged files were rejected")
  }

  @Test func everySingleBitFlipInsidePNGImageDataIsRejected() throws {
    let idat = try #require(chunkOffset(Self.png, type: "IDAT"))
    let length = Self.png[idat..<(idat + 4)].reduce(0) { $0 << 8 | Int($1) }
    var random = SeededGenerator(seed: 99)
    for _ in 0..<400 {
      var bytes = Self.png
      let offset = idat + 8 + Int.random(in: 0..<length, using: &random)
      bytes[offset] ^= 1 << UInt8.random(in: 0...7, using: &random)
      // The chunk CRC covers every data byte, so no flip can go unnoticed.
      guard case .failure(let error) = decodeChecked(bytes) else {
        Issue.record("flip at \(offset) accepted")
        continue
      }
      guard case .corruptPNG = error else {
        Issue.record("flip at \(offset) gave \(error)")
        continue
      }
    }
  }

  @Test func splicedFilesFailCleanly() {
    // The head of one format glued to the tail of the other, at many cut points.
    var random = SeededGenerator(seed: 4242)
    for _ in 0..<300 {
      let head = Int.random(in: 0..<Self.png.count, using: &random)
      let tail = Int.random(in: 0..<Self.jpeg.count, using: &random)
      decodeChecked(Array(Self.png.prefix(head)) + Array(Self.jpeg.suffix(tail)))
      decodeChecked(Array(Self.jpeg.prefix(tail)) + Array(Self.png.suffix(head)))
    }
  }
}
