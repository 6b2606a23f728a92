/// A cover drawn for one of the image protocols, ready to send: the encoded picture and
/// where it lands in the box of cells it was drawn for.
///
/// The picture is encoded once (the expensive part: scaling, PNG or sixel); the escape
/// sequence around it is made per draw, because a kitty image carries the id the drawing
/// side picked for it.
package struct PixelFrame: Sendable, Hashable {
  /// The protocol the picture is encoded for (`.kitty`, `.sixel` or `.iterm`).
  package let graphics: TerminalGraphics
  /// Where the picture lands in its box.
  package let placement: PixelPlacement
  /// Kitty and iTerm2: the PNG in base64. Sixel: the whole DCS sequence.
  package let payload: [UInt8]
  /// The PNG's size in bytes (iTerm2 announces it).
  package let byteCount: Int

  /// The escape sequence that shows the picture with its top-left corner at the cursor.
  /// Kitty leaves the cursor where it was; sixel and iTerm2 move it, so a caller that
  /// draws more saves and restores it (`ESC 7` … `ESC 8`).
  package func sequence(imageID: UInt32 = 1) -> [UInt8] {
    switch graphics {
    case .kitty:
      KittyGraphics.transmitAndPlace(
        base64: payload, imageID: imageID, columns: placement.columns, rows: placement.rows)
    case .iterm:
      ITermInlineImage.sequence(
        base64: payload, byteCount: byteCount, columns: placement.columns, rows: placement.rows)
    case .sixel, .blocks, .none:
      payload
    }
  }
}

/// Draws covers in real pixels for the kitty, sixel and iTerm2 protocols.
///
/// - Important: Stateless; safe from any thread.
package enum PixelRenderer {
  /// The most pixels a picture has a side (a 400-column cover of 10-pixel cells is 4,000):
  /// a larger box is refused before anything is decoded or scaled.
  package static let maximumSide = 4096

  /// Decodes a PNG or JPEG and encodes it for `graphics` over `columns` × `rows` cells of
  /// `cell`. A JPEG is decoded only as finely as the pixels need.
  package static func render(
    encoded bytes: [UInt8], graphics: TerminalGraphics, columns: Int, rows: Int, cell: CellPixelSize,
    colors: Int = 256, background: RGB = .black
  ) throws(CoverArtError) -> PixelFrame {
    let box = PixelSize(width: columns * cell.width, height: rows * cell.height)
    guard box.width <= maximumSide, box.height <= maximumSide else {
      throw .pictureTooLarge(width: box.width, height: box.height)
    }
    let image = try ImageDecoder.decode(bytes, background: background, minimumSize: box)
    return render(image, graphics: graphics, columns: columns, rows: rows, cell: cell, colors: colors)
  }

  /// `image` encoded for `graphics` (`.kitty`, `.sixel` or `.iterm`) over `columns` × `rows`
  /// cells of `cell`, area-averaged to the pixels the cells hold.
  package static func render(
    _ image: RGBImage, graphics: TerminalGraphics, columns: Int, rows: Int, cell: CellPixelSize, colors: Int = 256
  ) -> PixelFrame {
    precondition(graphics.drawsPixels, "\(graphics) is not an image protocol")
    let placement = PixelPlacement(
      fitting: PixelSize(width: image.width, height: image.height), columns: columns, rows: rows, cell: cell)
    let scaled = image.areaAveraged(width: placement.pixels.width, height: placement.pixels.height)
    switch graphics {
    case .sixel:
      let sixel = SixelEncoder.encode(scaled, colors: colors)
      return PixelFrame(graphics: graphics, placement: placement, payload: sixel, byteCount: sixel.count)
    default:
      let png = ImageEncoder.png(scaled, fast: true)
      return PixelFrame(graphics: graphics, placement: placement, payload: Base64.encode(png), byteCount: png.count)
    }
  }
}
