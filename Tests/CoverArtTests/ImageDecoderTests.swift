import CoverArt
import Foundation
import Testing

@Suite struct ImageDecoderTests {
  // MARK: - PNG

  @Test func quadrantPNGDecodesToTheExactSourcePixels() throws {
    let source = TestImages.quadrants(size: 300)
    let image = try ImageDecoder.decode(ImageEncoder.png(source))
    #expect(image.width == 300 && image.height == 300)
    #expect(image[10, 10] == TestImages.red)
    #expect(image[290, 10] == TestImages.green)
    #expect(image[10, 290] == TestImages.blue)
    #expect(image[290, 290] == TestImages.white)
    #expect(image[149, 149] == TestImages.red)
    #expect(image[150, 150] == TestImages.white)
    #expect(image == source)
  }

  @Test func greyPNGExpandsToEqualChannels() throws {
    let samples = (0..<64).map { UInt8($0 * 4) }
    let png = ImageEncoder.png(width: 8, height: 8, layout: .grey, samples: samples)
    let image = try ImageDecoder.decode(png)
    for (index, value) in samples.enumerated() {
      #expect(image[index % 8, index / 8] == RGB(value, value, value))
    }
  }

  @Test func alphaIsCompositedOverTheBackground() throws {
    // Opaque red, transparent red, half-transparent red.
    let samples: [UInt8] = [255, 0, 0, 255, 255, 0, 0, 0, 255, 0, 0, 128]
    let png = ImageEncoder.png(width: 3, height: 1, layout: .rgba, samples: samples)
    let overBlack = try ImageDecoder.decode(png)
    #expect(overBlack[0, 0] == RGB(255, 0, 0))
    #expect(overBlack[1, 0] == RGB(0, 0, 0))
    #expect((100...220).contains(overBlack[2, 0].red) && overBlack[2, 0].green == 0 && overBlack[2, 0].blue == 0)
    let background = RGB(0, 0, 255)
    let overBlue = try ImageDecoder.decode(png, background: background)
    #expect(overBlue[0, 0] == RGB(255, 0, 0))
    #expect(overBlue[1, 0] == background)
    let mixed = overBlue[2, 0]
    #expect(mixed.red > 60 && mixed.red < 255 && mixed.blue > 60 && mixed.blue < 255 && mixed.green == 0)
  }

  @Test func greyAlphaPNGIsCompositedToo() throws {
    let png = ImageEncoder.png(width: 2, height: 1, layout: .greyAlpha, samples: [200, 255, 200, 0])
    let image = try ImageDecoder.decode(png, background: RGB(10, 20, 30))
    #expect(image[0, 0] == RGB(200, 200, 200))
    #expect(image[1, 0] == RGB(10, 20, 30))
  }

  @Test func palettePNGWithTransparencyMapsEveryIndex() throws {
    let palette: [(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)] = [
      (255, 0, 0, 255), (0, 128, 0, 255), (0, 0, 0, 0), (12, 34, 56, 255),
    ]
    let indices: [UInt8] = [0, 1, 2, 3, 3, 2, 1, 0]
    let png = ImageEncoder.png(width: 4, height: 2, layout: .palette(palette), samples: indices)
    #expect(png[25] == 3, "IHDR colour type 3 (palette)")
    let background = RGB(9, 9, 9)
    let image = try ImageDecoder.decode(png, background: background)
    let expected = [RGB(255, 0, 0), RGB(0, 128, 0), background, RGB(12, 34, 56)]
    for (position, index) in indices.enumerated() {
      #expect(image[position % 4, position / 4] == expected[Int(index)])
    }
  }

  @Test func sixteenBitPNGIsConvertedToEightBitSRGB() throws {
    // Linear white, black and 50% grey (premultiplied, opaque).
    let samples: [UInt16] = [65535, 65535, 65535, 65535, 0, 0, 0, 65535, 32768, 32768, 32768, 65535]
    let png = ImageEncoder.png16(width: 3, height: 1, samples: samples)
    #expect(png[24] == 16, "IHDR bit depth 16")
    let image = try ImageDecoder.decode(png)
    #expect(image[0, 0] == RGB(255, 255, 255))
    #expect(image[1, 0] == RGB(0, 0, 0))
    // Linear 0.5 is sRGB 188 (the file's gAMA 1.0 is honoured).
    #expect((186...190).contains(image[2, 0].red), "\(image[2, 0])")
  }

  // MARK: - JPEG

  @Test func gradientJPEGDecodesWithinJPEGTolerance() throws {
    let source = TestImages.gradient(width: 600, height: 600)
    let image = try ImageDecoder.decode(ImageEncoder.jpeg(source, quality: 95))
    #expect(image.width == 600 && image.height == 600)
    var worst = 0
    for y in stride(from: 0, to: 600, by: 37) {
      for x in stride(from: 0, to: 600, by: 41) {
        worst = max(worst, Reference.difference(image[x, y], source[x, y]))
      }
    }
    #expect(worst <= 4, "largest channel error \(worst)")
  }

  @Test func progressiveJPEGDecodesLikeBaseline() throws {
    let source = TestImages.gradient(width: 160, height: 120)
    let baseline = try ImageDecoder.decode(ImageEncoder.jpeg(source, quality: 90))
    let progressive = try ImageDecoder.decode(ImageEncoder.jpeg(source, quality: 90, progressive: true))
    #expect(progressive.width == 160 && progressive.height == 120)
    var worst = 0
    for y in 0..<120 {
      for x in 0..<160 { worst = max(worst, Reference.difference(progressive[x, y], baseline[x, y])) }
    }
    #expect(worst <= 2, "largest channel difference \(worst)")
  }

  /// A grey progressive JPEG of `size`×`size` pixels: one DC scan, then `scans` AC scans
  /// that carry nothing but end-of-band runs, so each walks every block (round 4, G10).
  static func progressiveBomb(size: Int, scans: Int) -> [UInt8] {
    func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
      [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }
    func stuffed(_ bits: [Bool]) -> [UInt8] {
      var bits = bits
      while bits.count % 8 != 0 { bits.append(true) }
      var bytes: [UInt8] = []
      for start in stride(from: 0, to: bits.count, by: 8) {
        let byte = bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        bytes.append(byte)
        if byte == 0xFF { bytes.append(0) }
      }
      return bytes
    }
    let blocks = ((size + 7) / 8) * ((size + 7) / 8)
    var jpeg: [UInt8] = [0xFF, 0xD8] + segment(0xDB, [0] + Array(repeating: 1, count: 64))
    jpeg += segment(
      0xC2, [8, UInt8(size >> 8), UInt8(size & 0xFF), UInt8(size >> 8), UInt8(size & 0xFF), 1, 1, 0x11, 0])
    // DC: one code of one bit for "no difference"; AC: one code of one bit for a run of
    // end-of-bands with 14 more bits (32,767 blocks with all of them set).
    jpeg += segment(0xC4, [0x00, 1] + Array(repeating: 0, count: 15) + [0x00])
    jpeg += segment(0xC4, [0x10, 1] + Array(repeating: 0, count: 15) + [0xE0])
    jpeg += segment(0xDA, [1, 1, 0, 0, 0, 0]) + stuffed(Array(repeating: false, count: blocks))
    let run = [false] + Array(repeating: true, count: 14)
    let acScan =
      segment(0xDA, [1, 1, 0, 1, 63, 0]) + stuffed(Array(repeating: run, count: blocks / 32_767 + 1).flatMap { $0 })
    for _ in 0..<scans { jpeg += acScan }
    return jpeg + [0xFF, 0xD9]
  }

  /// 999 scans over 65,536 blocks each are 65 million blocks walked (at 8192², a billion:
  /// 18 s of CPU, at every start, for a card's cover): refused past 50 million, while a
  /// picture of a few scans still decodes.
  @Test func aProgressiveJPEGWhoseScansWalkTooManyBlocksIsRefused() throws {
    let small = try ImageDecoder.decode(Self.progressiveBomb(size: 64, scans: 10))
    #expect(small.width == 64 && small.height == 64)
    let start = ContinuousClock.now
    #expect {
      try ImageDecoder.decode(
        Self.progressiveBomb(size: 2048, scans: 999), minimumSize: PixelSize(width: 16, height: 8))
    } throws: { error in
      "\(error)".contains("too much work: its progressive scans walk more than 50 million blocks")
    }
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  @Test func greyJPEGExpandsToEqualChannels() throws {
    let samples = (0..<(32 * 32)).map { UInt8(($0 % 32) * 8) }
    let jpeg = ImageEncoder.jpeg(width: 32, height: 32, layout: .grey, samples: samples, quality: 95)
    let image = try ImageDecoder.decode(jpeg)
    for (x, y) in [(0, 0), (5, 9), (16, 16), (31, 31)] {
      let pixel = image[x, y]
      #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
      #expect(abs(Int(pixel.red) - Int(samples[y * 32 + x])) <= 3)
    }
  }

  @Test func adobeCMYKJPEGIsConvertedToRGB() throws {
    // Left half red, right half navy, as inverted CMYK (255 = no ink).
    func inverted(c: UInt8, m: UInt8, y: UInt8, k: UInt8) -> [UInt8] { [255 - c, 255 - m, 255 - y, 255 - k] }
    let red = inverted(c: 0, m: 255, y: 255, k: 0)
    let navy = inverted(c: 255, m: 255, y: 0, k: 128)
    var samples: [UInt8] = []
    for _ in 0..<32 {
      for x in 0..<32 { samples += x < 16 ? red : navy }
    }
    let jpeg = ImageEncoder.jpeg(width: 32, height: 32, layout: .invertedCMYK, samples: samples, quality: 95)
    let image = try ImageDecoder.decode(jpeg)
    #expect(Reference.difference(image[4, 4], RGB(255, 0, 0)) <= 3, "\(image[4, 4])")
    #expect(Reference.difference(image[28, 28], RGB(0, 0, 127)) <= 3, "\(image[28, 28])")
  }

  @Test func minimumSizeDecodesAJPEGAtReducedScale() throws {
    let source = TestImages.gradient(width: 600, height: 600)
    let jpeg = ImageEncoder.jpeg(source, quality: 95)
    let eighth = try ImageDecoder.decode(jpeg, minimumSize: PixelSize(width: 40, height: 40))
    #expect(eighth.width == 75 && eighth.height == 75)
    #expect(try ImageDecoder.decode(jpeg, minimumSize: PixelSize(width: 80, height: 40)).width == 150)
    #expect(try ImageDecoder.decode(jpeg, minimumSize: PixelSize(width: 40, height: 200)).height == 300)
    #expect(try ImageDecoder.decode(jpeg, minimumSize: PixelSize(width: 301, height: 1)).width == 600)
    // At 1/8 each pixel is its 8×8 block's mean.
    var worst = 0.0
    for y in stride(from: 0, to: 75, by: 7) {
      for x in stride(from: 0, to: 75, by: 5) {
        worst = max(
          worst, Reference.difference(eighth[x, y], Reference.areaAverage(source, width: 75, height: 75, x: x, y: y)))
      }
    }
    #expect(worst <= 4, "largest channel error \(worst)")
  }

  @Test func dataAndByteArrayDecodeAlike() throws {
    let png = ImageEncoder.png(TestImages.quadrants(size: 20))
    #expect(try ImageDecoder.decode(Data(png)) == ImageDecoder.decode(png))
  }

  // MARK: - Failures

  @Test(
    arguments: [
      ("empty", []),
      ("HTML", Array("<html><body>404</body></html>".utf8)),
      ("GIF", Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8)),
      ("short PNG signature", [0x89, 0x50, 0x4E, 0x47]),
      ("lone JPEG marker", [0xFF, 0xD8]),
    ] as [(String, [UInt8])])
  func nonImagesAreRejected(name: String, bytes: [UInt8]) {
    #expect(throws: CoverArtError.notAnImage, "\(name)") { try ImageDecoder.decode(bytes) }
  }

  @Test func truncatedPNGReportsLibpngsReason() throws {
    let png = ImageEncoder.png(TestImages.quadrants(size: 64))
    let error = try #require(throws: CoverArtError.self) { try ImageDecoder.decode(Array(png.prefix(png.count / 2))) }
    guard case .corruptPNG(let message) = error else {
      Issue.record("got \(error)")
      return
    }
    #expect(!message.isEmpty)
    #expect(error.description.hasPrefix("truncated or corrupt PNG ("))
    #expect(throws: CoverArtError.self) { try ImageDecoder.decode(Array(png.prefix(8))) }
  }

  @Test func truncatedJPEGIsAnErrorNotGreyFill() throws {
    let jpeg = ImageEncoder.jpeg(TestImages.gradient(width: 64, height: 64), quality: 90)
    let error = try #require(throws: CoverArtError.self) { try ImageDecoder.decode(Array(jpeg.prefix(jpeg.count / 2))) }
    #expect(error == .corruptJPEG("Premature end of JPEG file"))
    #expect(error.description == "truncated or corrupt JPEG (premature end of JPEG file)")
  }

  @Test func pngWithADamagedIDATIsAnError() throws {
    var png = ImageEncoder.png(TestImages.quadrants(size: 64))
    let idat = try #require(chunkOffset(png, type: "IDAT"))
    png[idat + 8 + 10] ^= 0x20
    let error = try #require(throws: CoverArtError.self) { try ImageDecoder.decode(png) }
    // zlib notices the damage before libpng reaches the chunk's CRC.
    guard case .corruptPNG(let message) = error else {
      Issue.record("got \(error)")
      return
    }
    #expect(message.hasPrefix("IDAT: "), "\(message)")
  }

  @Test func jpegWithAnEndMarkerInsideTheScanIsAnError() throws {
    var jpeg = ImageEncoder.jpeg(TestImages.gradient(width: 64, height: 64), quality: 90)
    let middle = jpeg.count * 2 / 3
    jpeg[middle] = 0xFF
    jpeg[middle + 1] = 0xD9
    let error = try #require(throws: CoverArtError.self) { try ImageDecoder.decode(jpeg) }
    guard case .corruptJPEG(let message) = error else {
      Issue.record("got \(error)")
      return
    }
    #expect(message.lowercased().contains("corrupt") || message.lowercased().contains("premature"), "\(message)")
  }

  @Test func pngLargerThanTheCapIsRefusedFromItsHeader() throws {
    var png = ImageEncoder.png(TestImages.quadrants(size: 4))
    // IHDR data starts at 16: width, height (big-endian), then the chunk CRC at 29.
    png.replaceSubrange(16..<24, with: bigEndian(9000) + bigEndian(9000))
    png.replaceSubrange(29..<33, with: bigEndian(crc32(png[12..<29])))
    #expect(throws: CoverArtError.tooLarge(width: 9000, height: 9000)) { try ImageDecoder.decode(png) }
  }

  @Test func jpegLargerThanTheCapIsRefusedFromItsHeader() throws {
    var jpeg = ImageEncoder.jpeg(TestImages.gradient(width: 16, height: 16), quality: 90)
    // SOF0: FF C0, length (2), precision (1), height (2), width (2).
    let sof = try #require(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
    jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0x30, 0x00, 0x20, 0x00])
    #expect(throws: CoverArtError.tooLarge(width: 8192, height: 12288)) { try ImageDecoder.decode(jpeg) }
  }

  @Test(arguments: [
    (CoverArtError.notAnImage, "not a PNG or JPEG image"),
    (.corruptPNG("IDAT: CRC error"), "truncated or corrupt PNG (IDAT: CRC error)"),
    (.corruptPNG("Read beyond end of data"), "truncated or corrupt PNG (read beyond end of data)"),
    (.corruptJPEG("Premature end of JPEG file"), "truncated or corrupt JPEG (premature end of JPEG file)"),
    (
      .unsupportedJPEG("unsupported colour space with 2 components"),
      "unsupported JPEG (unsupported colour space with 2 components)"
    ),
    (.tooLarge(width: 9000, height: 10), "image too large (9000×10, at most 8192 a side)"),
  ])
  func errorsDescribeThemselvesInLowercase(error: CoverArtError, text: String) {
    #expect(error.description == text)
  }
}

// MARK: - PNG surgery

/// The offset of the first chunk of `type` (its length field).
func chunkOffset(_ png: [UInt8], type: String) -> Int? {
  var offset = 8
  while offset + 8 <= png.count {
    let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    if String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self) == type { return offset }
    offset += 12 + length
  }
  return nil
}

func bigEndian(_ value: UInt32) -> [UInt8] {
  [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

/// CRC-32 (ISO-HDLC), as PNG chunks use.
func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
