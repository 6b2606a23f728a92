/// A width and height in pixels.
package struct PixelSize: Sendable, Hashable, CustomStringConvertible {
  package var width: Int
  package var height: Int

  /// A size of `width` x `height` pixels.
  package init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// `W×H`.
  package var description: String { "\(width)×\(height)" }
}
