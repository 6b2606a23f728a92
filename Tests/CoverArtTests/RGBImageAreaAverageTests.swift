import CoverArt
import TestSupport
import Testing

@Suite struct RGBImageAreaAverageTests {
  @Test func matchesAFloatingPointAreaAverageForManySizes() {
    var random = SeededGenerator(seed: 7)
    for _ in 0..<60 {
      let width = Int.random(in: 1...97, using: &random)
      let height = Int.random(in: 1...97, using: &random)
      let pixels = (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &random) }
      let source = RGBImage(width: width, height: height, pixels: pixels)
      // Down, up and sideways.
      let targetWidth = Int.random(in: 1...50, using: &random)
      let targetHeight = Int.random(in: 1...50, using: &random)
      let scaled = source.areaAveraged(width: targetWidth, height: targetHeight)
      #expect(scaled.width == targetWidth && scaled.height == targetHeight)
      var worst = 0.0
      for y in 0..<targetHeight {
        for x in 0..<targetWidth {
          worst = max(
            worst,
            Reference.difference(
              scaled[x, y], Reference.areaAverage(source, width: targetWidth, height: targetHeight, x: x, y: y)))
        }
      }
      #expect(worst <= 0.5 + 1e-6, "\(width)×\(height) → \(targetWidth)×\(targetHeight): error \(worst)")
    }
  }

  @Test func halvingAveragesEachBlockAndRoundsToNearest() {
    let source = RGBImage(width: 2, height: 2, pixels: [0, 0, 10, 255, 1, 10, 0, 0, 11, 255, 0, 10])
    #expect(source.areaAveraged(width: 1, height: 1) == RGBImage(width: 1, height: 1, pixels: [128, 0, 10]))
  }

  @Test func theSameSizeIsTheSameImage() {
    let image = TestImages.striped(width: 30, height: 20)
    #expect(image.areaAveraged(width: 30, height: 20) == image)
  }
}
