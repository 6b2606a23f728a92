import CoverArt
import TestSupport
import Testing

@Suite struct XtermPaletteTests {
  @Test func nearestIndexIsAsNearAsAnyEntry() {
    var colours: [RGB] = []
    for r in stride(from: 0, through: 255, by: 17) {
      for g in stride(from: 0, through: 255, by: 17) {
        for b in stride(from: 0, through: 255, by: 17) { colours.append(RGB(UInt8(r), UInt8(g), UInt8(b))) }
      }
    }
    var random = SeededGenerator(seed: 256)
    for _ in 0..<2000 {
      colours.append(
        RGB(
          .random(in: 0...255, using: &random), .random(in: 0...255, using: &random),
          .random(in: 0...255, using: &random)))
    }
    // Greys and near-greys, where the ramp and the cube compete.
    for level in 0...255 { colours.append(RGB(UInt8(level), UInt8(level), UInt8(min(255, level + 3)))) }
    for colour in colours {
      let index = Int(XtermPalette.nearestIndex(to: colour))
      #expect((16...255).contains(index))
      #expect(
        Reference.squaredDistance(Reference.paletteColor(index), colour) == Reference.nearestDistance(colour),
        "\(colour) → \(index)")
    }
  }

  @Test(arguments: [
    (RGB(0, 0, 0), 16), (RGB(255, 255, 255), 231), (RGB(255, 0, 0), 196), (RGB(0, 255, 0), 46),
    (RGB(0, 0, 255), 21), (RGB(128, 128, 128), 244), (RGB(8, 8, 8), 232), (RGB(238, 238, 238), 255),
  ])
  func wellKnownColoursMapToTheirEntries(colour: RGB, index: Int) {
    #expect(Int(XtermPalette.nearestIndex(to: colour)) == index)
  }

  @Test func colorAtMatchesTheXtermDefinition() {
    for index in 16...255 {
      #expect(XtermPalette.color(at: UInt8(index)) == Reference.paletteColor(index))
    }
  }
}
