import CoverArt
import Foundation
import Testing

/// The image protocol writers, checked by decoding what they emit: kitty's chunks
/// reassemble into the PNG of the scaled cover, a sixel stream parses back to the palette
/// image, iTerm2's file is the PNG.
@Suite struct PixelRendererTests {
  /// Red and blue columns one pixel wide: half blocks average them to purple, real pixels
  /// keep them apart when the picture is not scaled down.
  static func stripes(width: Int, height: Int) -> RGBImage {
    RGBImage(width: width, height: height) { x, _ in x % 2 == 0 ? RGB(255, 0, 0) : RGB(0, 0, 255) }
  }

  // MARK: - Placement

  @Test func aSquareCoverFillsABoxOfTwoToOneCells() {
    let placement = PixelPlacement(
      fitting: PixelSize(width: 600, height: 600), columns: 40, rows: 20, cell: CellPixelSize(width: 10, height: 20))
    #expect(placement == PixelPlacement(fitting: PixelSize(width: 1, height: 1), columns: 40, rows: 20, cell: .assumed))
    #expect((placement.column, placement.row, placement.columns, placement.rows) == (0, 0, 40, 20))
    #expect(placement.pixels == PixelSize(width: 400, height: 400))
  }

  @Test func aCoverIsCentredInWholeCellsKeepingItsShape() {
    // xterm's default font: 6×13 cells, so 40×20 cells are 240×260 pixels.
    let square = PixelPlacement(
      fitting: PixelSize(width: 500, height: 500), columns: 40, rows: 20, cell: CellPixelSize(width: 6, height: 13))
    #expect((square.column, square.row, square.columns, square.rows) == (0, 1, 40, 18))
    #expect(square.pixels == PixelSize(width: 240, height: 234))
    let wide = PixelPlacement(
      fitting: PixelSize(width: 800, height: 400), columns: 40, rows: 20, cell: CellPixelSize(width: 10, height: 20))
    #expect((wide.column, wide.row, wide.columns, wide.rows) == (0, 5, 40, 10))
    let tall = PixelPlacement(
      fitting: PixelSize(width: 300, height: 600), columns: 40, rows: 20, cell: CellPixelSize(width: 10, height: 20))
    #expect((tall.column, tall.row, tall.columns, tall.rows) == (10, 0, 20, 20))
  }

  @Test func cellSizeComesFromTheWindowsPixelsWhenItHasThem() {
    #expect(
      CellPixelSize.of(columns: 80, rows: 24, pixelWidth: 800, pixelHeight: 480) == CellPixelSize(width: 10, height: 20)
    )
    #expect(CellPixelSize.of(columns: 80, rows: 24, pixelWidth: 0, pixelHeight: 0) == nil)
  }

  // MARK: - Kitty

  @Test(arguments: [
    (TestImages.quadrants(size: 300), 20, 10), (TestImages.gradient(width: 640, height: 480), 40, 20),
    (TestImages.striped(width: 300, height: 300), 30, 15),
  ])
  func kittyChunksReassembleIntoTheScaledImage(image: RGBImage, columns: Int, rows: Int) throws {
    let cell = CellPixelSize(width: 9, height: 18)
    let frame = PixelRenderer.render(image, graphics: .kitty, columns: columns, rows: rows, cell: cell)
    let commands = try #require(TerminalImageDecoding.kittyCommands(frame.sequence(imageID: 4242)))
    let first = try #require(commands.first)
    #expect(first.keys["a"] == "T")
    #expect(first.keys["f"] == "100")
    #expect(first.keys["i"] == "4242")
    #expect(first.keys["q"] == "2", "replies would reach the prompt as typed keys")
    #expect(first.keys["C"] == "1")
    #expect(first.keys["c"] == String(frame.placement.columns))
    #expect(first.keys["r"] == String(frame.placement.rows))
    for (position, command) in commands.enumerated() {
      #expect(command.payload.utf8.count <= 4096)
      #expect(command.keys["m"] == (position == commands.count - 1 ? "0" : "1"))
      if position > 0 { #expect(command.keys.keys.sorted() == ["m"]) }
      if position < commands.count - 1 { #expect(command.payload.utf8.count % 4 == 0) }
    }
    let png = try #require(TerminalImageDecoding.base64(commands.map(\.payload).joined()))
    let decoded = try ImageDecoder.decode(png)
    let expected = image.areaAveraged(width: frame.placement.pixels.width, height: frame.placement.pixels.height)
    #expect(decoded == expected)
  }

  @Test func aLargeKittyImageTakesManyChunks() throws {
    let noise = RGBImage(width: 400, height: 400) { x, y in
      let hash = UInt32(truncatingIfNeeded: (x &* 73_856_093) ^ (y &* 19_349_663)) &* 0x5BD1_E995
      return RGB(
        UInt8(truncatingIfNeeded: hash), UInt8(truncatingIfNeeded: hash >> 8), UInt8(truncatingIfNeeded: hash >> 16))
    }
    let frame = PixelRenderer.render(
      noise, graphics: .kitty, columns: 40, rows: 20, cell: CellPixelSize(width: 10, height: 20))
    let commands = try #require(TerminalImageDecoding.kittyCommands(frame.sequence(imageID: 1)))
    #expect(commands.count > 50)
    let png = try #require(TerminalImageDecoding.base64(commands.map(\.payload).joined()))
    #expect(try ImageDecoder.decode(png) == noise)
  }

  @Test func kittyDeleteRemovesTheImageAndItsData() throws {
    let commands = try #require(TerminalImageDecoding.kittyCommands(KittyGraphics.delete(imageID: 77)))
    #expect(commands.count == 1)
    #expect(commands[0].keys == ["a": "d", "d": "I", "i": "77", "q": "2"])
  }

  // MARK: - Sixel

  @Test func sixelStreamDecodesBackToTheScaledImage() throws {
    let cell = CellPixelSize(width: 8, height: 16)
    let image = TestImages.quadrants(size: 320)
    let frame = PixelRenderer.render(image, graphics: .sixel, columns: 20, rows: 10, cell: cell)
    #expect(frame.placement.pixels == PixelSize(width: 160, height: 160))
    let sixel = try TerminalImageDecoding.sixel(frame.sequence())
    #expect(sixel.width == 160)
    #expect(sixel.height == 160)
    let scaled = image.areaAveraged(width: 160, height: 160)
    // Each quadrant, away from the blended middle, comes back in its colour: within the
    // precision of libsixel's palette (a histogram of 5 bits a channel, then percent).
    for (x, y) in [(10, 10), (150, 10), (10, 150), (150, 150), (70, 70), (90, 90)] {
      let decoded = try #require(sixel[x, y])
      let source = scaled[x, y]
      for (a, b) in [(decoded.red, source.red), (decoded.green, source.green), (decoded.blue, source.blue)] {
        #expect(abs(Int(a) - Int(b)) <= 8, "pixel (\(x), \(y)): \(decoded) for \(source)")
      }
    }
    #expect(sixel.pixels.allSatisfy { $0 != nil }, "every pixel of the picture is drawn")
  }

  @Test func sixelKeepsOnePixelStripesApartAtFullSize() throws {
    let frame = PixelRenderer.render(
      Self.stripes(width: 160, height: 160), graphics: .sixel, columns: 20, rows: 10,
      cell: CellPixelSize(width: 8, height: 16))
    let sixel = try TerminalImageDecoding.sixel(frame.sequence())
    // Red and blue, not their purple average (libsixel's palette is 5 bits a channel:
    // 255 comes back as 247).
    for x in 0..<sixel.width {
      let pixel = try #require(sixel[x, 80])
      let (bright, dark) = x % 2 == 0 ? (pixel.red, pixel.blue) : (pixel.blue, pixel.red)
      #expect(bright >= 240 && dark == 0 && pixel.green == 0, "pixel \(x): \(pixel)")
    }
  }

  @Test func sixelUsesNoMoreColoursThanTheTerminalHasRegisters() throws {
    let frame = PixelRenderer.render(
      TestImages.gradient(width: 200, height: 200), graphics: .sixel, columns: 20, rows: 10,
      cell: CellPixelSize(width: 10, height: 20), colors: 16)
    let sixel = try TerminalImageDecoding.sixel(frame.sequence())
    #expect(sixel.palette.count <= 16)
    #expect(sixel.palette.keys.allSatisfy { (0..<16).contains($0) })
  }

  // MARK: - iTerm2

  @Test func itermFileIsThePNGOfTheScaledImage() throws {
    let image = TestImages.quadrants(size: 300)
    let frame = PixelRenderer.render(
      image, graphics: .iterm, columns: 30, rows: 15, cell: CellPixelSize(width: 7, height: 14))
    let (arguments, file) = try #require(TerminalImageDecoding.itermFile(frame.sequence()))
    #expect(arguments["inline"] == "1")
    #expect(arguments["width"] == String(frame.placement.columns))
    #expect(arguments["height"] == String(frame.placement.rows))
    #expect(arguments["size"] == String(file.count))
    #expect(arguments["preserveAspectRatio"] == "1")
    let expected = image.areaAveraged(width: frame.placement.pixels.width, height: frame.placement.pixels.height)
    #expect(try ImageDecoder.decode(file) == expected)
  }

  @Test func aJPEGIsDecodedForThePixelsTheCellsHold() throws {
    let jpeg = SampleCover.sampleJPEG(width: 600, height: 600)
    let frame = try PixelRenderer.render(
      encoded: jpeg, graphics: .kitty, columns: 40, rows: 20, cell: CellPixelSize(width: 10, height: 20))
    #expect(frame.placement.pixels == PixelSize(width: 400, height: 400))
    let commands = try #require(TerminalImageDecoding.kittyCommands(frame.sequence(imageID: 1)))
    let png = try #require(TerminalImageDecoding.base64(commands.map(\.payload).joined()))
    let decoded = try ImageDecoder.decode(png)
    #expect(decoded.width == 400 && decoded.height == 400)
  }
}

extension PixelRendererTests {
  /// Stripes in a period of three pixels, at a size where libsixel's histogram samples
  /// every third pixel: a sampled palette would see red only.
  @Test func sixelKeepsEveryColourOfAPictureWithFewColours() throws {
    let image = RGBImage(width: 240, height: 234) { x, _ in x % 3 == 2 ? RGB(0, 0, 255) : RGB(255, 0, 0) }
    let sixel = try TerminalImageDecoding.sixel(SixelEncoder.encode(image))
    #expect(sixel.palette.count == 2)
    for x in 0..<6 {
      #expect(sixel[x, 100] == (x % 3 == 2 ? RGB(0, 0, 255) : RGB(255, 0, 0)))
    }
  }
}
