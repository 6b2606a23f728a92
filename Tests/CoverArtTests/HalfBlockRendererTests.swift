import CoverArt
import Testing

@Suite struct HalfBlockRendererTests {
  /// The colour of a half as the terminal shows it; the test fails on anything but 24-bit.
  func rgb(_ color: ScreenCell.Color) -> RGB? {
    if case .rgb(let value) = color { value } else { nil }
  }

  func expectShape(_ screen: Screen, columns: Int, rows: Int, resets: Bool = true) {
    #expect(screen.stray.isEmpty, "\(screen.stray.prefix(5))")
    #expect(screen.endsWithNewline)
    #expect(screen.lines.count == rows)
    for (row, line) in screen.lines.enumerated() {
      #expect(line.count == columns, "line \(row) has \(line.count) cells")
      if resets { #expect(screen.sequences[row].last == [0], "line \(row) does not end in a reset") }
    }
  }

  // MARK: - 24-bit colour

  @Test func pngQuadrantsRenderAt40By20WithExactColours() throws {
    let source = TestImages.quadrants(size: 300)
    let frame = try HalfBlockRenderer.render(encoded: ImageEncoder.png(source), columns: 40, rows: 20, mode: .trueColor)
    let screen = Screen(frame)
    expectShape(screen, columns: 40, rows: 20)
    // 300 px over 40 columns: 7.5 px a pixel, and the quadrant edge at 150 falls exactly
    // between pixels 19 and 20, so no output pixel is blended.
    for row in 0..<20 {
      for column in 0..<40 {
        let cell = screen.lines[row][column]
        let sourceX = column * 15 / 2
        let sourceTop = row * 15
        let sourceBottom = row * 15 + 8
        #expect(rgb(cell.top) == source[sourceX, sourceTop], "cell \(column),\(row) top")
        #expect(rgb(cell.bottom) == source[sourceX, sourceBottom], "cell \(column),\(row) bottom")
      }
    }
  }

  @Test func cellColoursAreTheAreaAverageOfTheSourceWithinRounding() throws {
    let source = TestImages.striped(width: 300, height: 300)
    let screen = Screen(
      try HalfBlockRenderer.render(encoded: ImageEncoder.png(source), columns: 40, rows: 20, mode: .trueColor))
    expectShape(screen, columns: 40, rows: 20)
    var worst = 0.0
    for row in 0..<20 {
      for column in 0..<40 {
        let cell = screen.lines[row][column]
        let top = try #require(rgb(cell.top))
        let bottom = try #require(rgb(cell.bottom))
        worst = max(
          worst, Reference.difference(top, Reference.areaAverage(source, width: 40, height: 40, x: column, y: 2 * row)))
        worst = max(
          worst,
          Reference.difference(bottom, Reference.areaAverage(source, width: 40, height: 40, x: column, y: 2 * row + 1)))
      }
    }
    #expect(worst <= 0.5 + 1e-9, "largest channel error \(worst)")
  }

  @Test func jpeg600RendersAt40By20WithinJPEGTolerance() throws {
    let source = SampleCover.sampleImage(width: 600, height: 600)
    let jpeg = ImageEncoder.jpeg(source, quality: 95)
    let screen = Screen(try HalfBlockRenderer.render(encoded: jpeg, columns: 40, rows: 20, mode: .trueColor))
    expectShape(screen, columns: 40, rows: 20)
    var worst = 0.0
    for row in 0..<20 {
      for column in 0..<40 {
        let cell = screen.lines[row][column]
        let top = try #require(rgb(cell.top))
        let bottom = try #require(rgb(cell.bottom))
        worst = max(
          worst, Reference.difference(top, Reference.areaAverage(source, width: 40, height: 40, x: column, y: 2 * row)))
        worst = max(
          worst,
          Reference.difference(bottom, Reference.areaAverage(source, width: 40, height: 40, x: column, y: 2 * row + 1)))
      }
    }
    #expect(worst <= 4, "largest channel error \(worst)")
  }

  // MARK: - 256 colours

  @Test func palette256EmitsOnlyIndexedColoursNearestTheTrueColours() throws {
    let source = TestImages.striped(width: 300, height: 300)
    let png = ImageEncoder.png(source)
    let exact = Screen(try HalfBlockRenderer.render(encoded: png, columns: 40, rows: 20, mode: .trueColor))
    let frame = try HalfBlockRenderer.render(encoded: png, columns: 40, rows: 20, mode: .palette256)
    #expect(!frame.contains("38;2;") && !frame.contains("48;2;"))
    let screen = Screen(frame)
    expectShape(screen, columns: 40, rows: 20)
    for sequence in screen.sequences.joined() where sequence != [0] {
      // Only `38;5;n` and `48;5;n`, alone or together.
      #expect(sequence.count == 3 || sequence.count == 6, "\(sequence)")
      for start in stride(from: 0, to: sequence.count, by: 3) {
        #expect(
          [38, 48].contains(sequence[start]) && sequence[start + 1] == 5 && (16...255).contains(sequence[start + 2]),
          "\(sequence)")
      }
    }
    for row in 0..<20 {
      for column in 0..<40 {
        let cell = screen.lines[row][column]
        let truth = exact.lines[row][column]
        for (shown, wanted) in [(cell.top, truth.top), (cell.bottom, truth.bottom)] {
          guard case .indexed(let index) = shown, let wanted = rgb(wanted) else {
            Issue.record("cell \(column),\(row): \(shown) for \(wanted)")
            continue
          }
          #expect(Reference.squaredDistance(Reference.paletteColor(index), wanted) == Reference.nearestDistance(wanted))
        }
      }
    }
  }

  // MARK: - No colour

  @Test func noColorDrawsARampWithoutEscapes() throws {
    let frame = HalfBlockRenderer.renderBytes(
      TestImages.gradient(width: 300, height: 300), columns: 40, rows: 20, mode: .none)
    #expect(!frame.contains(0x1B))
    let lines = frame.split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(lines.count == 21 && lines.last?.isEmpty == true)
    let ramp = HalfBlockRenderer.ramp
    for line in lines.dropLast() {
      #expect(line.count == 40)
      #expect(line.allSatisfy(ramp.contains))
    }
    // Brighter to the right and downwards (red and green grow), so the ramp position
    // never falls along a row or a column, and it rises from corner to corner.
    let levels = lines.dropLast().map { $0.map { ramp.firstIndex(of: $0)! } }
    for row in levels { #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }) }
    for column in 0..<40 { #expect((1..<20).allSatisfy { levels[$0 - 1][column] <= levels[$0][column] }) }
    #expect(levels[0][0] < levels[19][39])
  }

  @Test func noColorPutsDarkRegionsLowOnTheRamp() {
    let image = RGBImage(width: 100, height: 100) { x, _ in x < 50 ? RGB(10, 10, 10) : RGB(240, 240, 240) }
    let frame = HalfBlockRenderer.render(image, columns: 10, rows: 5, mode: .none)
    #expect(frame == String(repeating: "     @@@@@\n", count: 5))
  }

  // MARK: - Colour changes

  @Test(arguments: [ColorMode.trueColor, .palette256])
  func aFlatImageSetsItsColourOncePerLine(mode: ColorMode) {
    let frame = HalfBlockRenderer.render(
      RGBImage(width: 64, height: 64, filledWith: RGB(200, 100, 50)), columns: 40, rows: 20, mode: mode)
    let screen = Screen(frame)
    expectShape(screen, columns: 40, rows: 20)
    for (row, sequences) in screen.sequences.enumerated() {
      #expect(sequences.count == 2, "line \(row): \(sequences)")
      #expect(sequences.first?.first == 48, "a flat cell is a space on the background colour")
      #expect(screen.lines[row].allSatisfy { $0.character == " " })
    }
    // 200, 100, 50 → cube levels 215, 95, 95: entry 16 + 36·4 + 6·1 + 1.
    let colour = mode == .trueColor ? "48;2;200;100;50m" : "48;5;167m"
    #expect(frame.components(separatedBy: colour).count - 1 == 20)
  }

  @Test func repeatedCellsReuseTheCurrentColoursEvenWhenTheHalvesSwap() {
    // Pixel rows alternate red and blue, and every other column swaps them: cells are
    // red-over-blue then blue-over-red, which ▀ and ▄ draw with the same two colours.
    let red = RGB(255, 0, 0)
    let blue = RGB(0, 0, 255)
    let image = RGBImage(width: 40, height: 40) { x, y in (y + x) % 2 == 0 ? red : blue }
    let screen = Screen(HalfBlockRenderer.render(image, columns: 40, rows: 20, mode: .trueColor))
    expectShape(screen, columns: 40, rows: 20)
    for (row, line) in screen.lines.enumerated() {
      #expect(screen.sequences[row].count == 2, "line \(row): \(screen.sequences[row])")
      for (column, cell) in line.enumerated() {
        let (top, bottom) = column % 2 == 0 ? (red, blue) : (blue, red)
        #expect(rgb(cell.top) == top && rgb(cell.bottom) == bottom)
      }
      #expect(line.map(\.character).contains("▀") && line.map(\.character).contains("▄"))
    }
  }

  @Test func onlyChangedColoursAreEmitted() throws {
    let source = TestImages.quadrants(size: 300)
    let screen = Screen(
      try HalfBlockRenderer.render(encoded: ImageEncoder.png(source), columns: 40, rows: 20, mode: .trueColor))
    // Each line: one colour for the left half, one for the right, then the reset.
    for (row, sequences) in screen.sequences.enumerated() {
      #expect(sequences.count == 3, "line \(row): \(sequences)")
    }
  }

  // MARK: - Sizing

  @Test func aWideImageIsLetterboxedTopAndBottom() {
    let image = RGBImage(width: 600, height: 300, filledWith: RGB(1, 2, 3))
    let screen = Screen(HalfBlockRenderer.render(image, columns: 40, rows: 20, mode: .trueColor))
    expectShape(screen, columns: 40, rows: 20)
    // 40×20 pixels centred in 40×40: cell rows 5..<15.
    for (row, line) in screen.lines.enumerated() {
      let inside = (5..<15).contains(row)
      #expect(line.allSatisfy { $0.character == " " })
      #expect(line.allSatisfy { $0.background == (inside ? .rgb(RGB(1, 2, 3)) : .terminalDefault) }, "line \(row)")
      #expect(screen.sequences[row].count == (inside ? 2 : 1), "line \(row)")
    }
  }

  @Test func aTallImageIsPillarboxedAndAnOddMarginSplitsACell() {
    let tall = RGBImage(width: 300, height: 600, filledWith: RGB(9, 9, 9))
    let screen = Screen(HalfBlockRenderer.render(tall, columns: 40, rows: 20, mode: .trueColor))
    for line in screen.lines {
      #expect(
        line.enumerated().allSatisfy { column, cell in
          cell.background == ((10..<30).contains(column) ? .rgb(RGB(9, 9, 9)) : .terminalDefault)
        })
    }
    // 40×38 in a 40×40 box: one margin pixel above, so the first cell row is ▄ over the
    // terminal's own background, and the last one ▀.
    let short = RGBImage(width: 40, height: 38, filledWith: RGB(7, 8, 9))
    let cut = Screen(HalfBlockRenderer.render(short, columns: 40, rows: 20, mode: .trueColor))
    let colour = ScreenCell.Color.rgb(RGB(7, 8, 9))
    #expect(cut.lines[0].allSatisfy { $0.character == "▄" && $0.top == .terminalDefault && $0.bottom == colour })
    #expect(cut.lines[19].allSatisfy { $0.character == "▀" && $0.top == colour && $0.bottom == .terminalDefault })
    #expect(
      HalfBlockRenderer.placement(of: PixelSize(width: 40, height: 38), columns: 40, rows: 20).origin
        == PixelSize(width: 0, height: 1))
  }

  @Test func aSquareCoverFillsTheBoxAtAnySize() {
    for (columns, rows) in [(40, 20), (20, 10), (8, 4), (2, 1)] {
      let placement = HalfBlockRenderer.placement(of: PixelSize(width: 600, height: 600), columns: columns, rows: rows)
      #expect(placement.origin == PixelSize(width: 0, height: 0))
      #expect(placement.size == PixelSize(width: columns, height: 2 * rows))
    }
  }

  @Test func anEmptyBoxDrawsNothing() {
    #expect(HalfBlockRenderer.render(TestImages.quadrants(size: 10), columns: 0, rows: 5, mode: .trueColor).isEmpty)
    #expect(HalfBlockRenderer.render(TestImages.quadrants(size: 10), columns: 5, rows: 0, mode: .none).isEmpty)
  }

  @Test func aDamagedCoverIsAnErrorNotAFrame() {
    let jpeg = ImageEncoder.jpeg(TestImages.gradient(width: 64, height: 64))
    #expect(throws: CoverArtError.corruptJPEG("Premature end of JPEG file")) {
      try HalfBlockRenderer.render(encoded: Array(jpeg.prefix(500)), columns: 40, rows: 20, mode: .trueColor)
    }
    #expect(throws: CoverArtError.notAnImage) {
      try HalfBlockRenderer.render(encoded: Array("<!doctype html>".utf8), columns: 40, rows: 20, mode: .none)
    }
  }
}
