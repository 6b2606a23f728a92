/// A width and height in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  /// A size of `width` x `height` pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// `W×H`.
  public var description: String { "\(width)×\(height)" }
}
