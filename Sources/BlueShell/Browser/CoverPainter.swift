import AlbumModel
import BlueCovers
import BlueLibrary
import BlueSystem
import CoverArt

/// Turns an album's cover into what a box of cells shows: a picture for the terminal's
/// image protocol, or rows of half blocks. The cards and `cover` both paint through it.
///
/// It owns what drawing a cover needs: where the bytes come from (the cache, or a local
/// cover read on the spot), the drawn covers by URL and box, and the kitty image ids: each
/// picture gets one no other of this run has, and the cards' pictures are remembered so
/// they can be taken off the screen before the row is drawn again.
final class CoverPainter {
  private let library: Library
  /// Half-block covers by (URL, size, colour mode).
  private let cells = RenderCache<String>(capacity: 64)
  /// Pictures by (URL, size, protocol, cell size).
  private let pictures = RenderCache<PixelFrame>(capacity: 64)
  /// The last kitty image id given out.
  private var imageID: UInt32
  /// The ids of the cards' kitty pictures on the screen.
  private var cardImageIDs: [UInt32] = []
  /// Why the covers that failed to decode failed, by URL and size of their bytes: a card
  /// draws its placeholder at once instead of decoding the same bad file at every redraw
  /// (a crafted JPEG takes a second to be refused). New bytes are tried again.
  private var undecodable: [Undecodable: CoverArtError] = [:]

  private struct Undecodable: Hashable {
    var url: String
    var size: Int
  }

  /// A painter of `library`'s covers.
  init(library: Library) {
    self.library = library
    // Ids from a random start, so this run's covers do not replace the ones an earlier
    // run left on the screen (kitty keeps images by id across programs).
    imageID = UInt32.random(in: 1...0x00FF_FFFF) << 7
  }

  /// The bytes of `album`'s cover: downloaded into the cache, or a local one (a music
  /// folder's) read now, into the same cache; nil when there are none to draw. A cover the
  /// library does not know as cached is not looked for, so a row of cards probes no file.
  func bytes(of album: Album) -> [UInt8]? {
    guard !album.coverURL.isEmpty, library.fetchesCovers else { return nil }
    switch library.coverState(of: album) {
    case .local: return library.loadLocalCover(of: album).map { [UInt8]($0) }
    case .cached: return library.cachedCover(of: album).map { [UInt8]($0) }
    case .none, .queued, .downloading, .failed: return nil
    }
  }

  /// `album`'s cover as half blocks in `columns`×`rows` cells, one line per row; nil when
  /// there is nothing to draw.
  func cells(of album: Album, columns: Int, rows: Int, mode: ColorMode) throws(CoverArtError) -> String? {
    let key = RenderKey(source: album.coverURL, columns: columns, rows: rows, mode: mode)
    if let drawn = cells.frame(for: key) { return drawn }
    guard let bytes = bytes(of: album) else { return nil }
    let drawn = try remembering(album, bytes) { () throws(CoverArtError) in
      try HalfBlockRenderer.render(encoded: bytes, columns: columns, rows: rows, mode: mode)
    }
    cells.store(drawn, for: key)
    return drawn
  }

  /// `render`'s frame, or the error it threw for these bytes before (without rendering).
  private func remembering<Frame>(
    _ album: Album, _ bytes: [UInt8], _ render: () throws(CoverArtError) -> Frame
  ) throws(CoverArtError) -> Frame {
    let key = Undecodable(url: album.coverURL, size: bytes.count)
    if let failure = undecodable[key] { throw failure }
    do {
      return try render()
    } catch {
      if undecodable.count >= 256 { undecodable.removeAll() }
      undecodable[key] = error
      throw error
    }
  }

  /// `album`'s cover encoded for `graphics`' image protocol over `columns`×`rows` cells;
  /// nil when there is nothing to draw.
  func picture(
    of album: Album, columns: Int, rows: Int, mode: ColorMode, graphics: GraphicsCapabilities
  ) throws(CoverArtError) -> PixelFrame? {
    let cell = graphics.cellSize()
    let key = RenderKey(
      source: album.coverURL, columns: columns, rows: rows, mode: mode, graphics: graphics.graphics, cell: cell)
    if let frame = pictures.frame(for: key) { return frame }
    guard let bytes = bytes(of: album) else { return nil }
    let frame = try remembering(album, bytes) { () throws(CoverArtError) in
      try PixelRenderer.render(
        encoded: bytes, graphics: graphics.graphics, columns: columns, rows: rows, cell: cell,
        colors: graphics.colorRegisters)
    }
    pictures.store(frame, for: key)
    return frame
  }

  /// `frame` as a box of `rows` rows at the cursor, the cursor left below it (`cover`).
  func box(_ frame: PixelFrame, rows: Int) -> String {
    PixelDrawing.box(frame, rows: rows, imageID: nextImageID())
  }

  /// `frame` over a card's art area, `linesUp` lines above the cursor at `column`; a kitty
  /// picture is remembered, for ``removingCardPictures()``.
  func cardOverlay(_ frame: PixelFrame, linesUp: Int, column: Int) -> String {
    let id = nextImageID()
    if frame.graphics == .kitty { cardImageIDs.append(id) }
    return PixelDrawing.overlay(frame, linesUp: linesUp, column: column, imageID: id)
  }

  /// What deletes the cards' kitty pictures from the screen, and forgets them: before the
  /// row is drawn again (the old row's pictures would stay, over text that has moved) and
  /// when the window is resized. Sixel and iTerm2 pictures are cells, overwritten by what is
  /// drawn there next. Empty when there are none.
  func removingCardPictures() -> String {
    defer { cardImageIDs.removeAll() }
    return cardImageIDs.map { String(decoding: KittyGraphics.delete(imageID: $0), as: UTF8.self) }.joined()
  }

  /// A kitty image id no other cover of this run has.
  private func nextImageID() -> UInt32 {
    imageID = imageID == UInt32.max ? 1 : imageID + 1
    return imageID
  }
}

extension CoverState {
  /// How `list`, `show` and the cards' details name the state (`url` empty: no cover at all).
  func label(url: String) -> String {
    if url.isEmpty { return "no cover" }
    switch self {
    case .none: return "not downloaded"
    case .local: return "local"
    case .queued: return "queued"
    case .downloading: return "downloading"
    case .cached: return "cached"
    case .failed(let failure): return "failed: " + TextSanitizer.escaped(failure.description)
    }
  }

  /// The state under a card's title: the original app's spinner, stopped when the image
  /// arrives.
  var badge: String {
    switch self {
    case .none, .local: "· cover"
    case .queued: "… queued"
    case .downloading: "⟳ loading"
    case .cached: "✓ cover"
    case .failed: "✗ failed"
    }
  }

  /// What a card shows where its art would be, when it shows none: the spinner while the
  /// cover downloads, else why there is no art (for a card cut by the window's edge, which
  /// never draws art, that the cover is there).
  func placeholder(clipped: Bool) -> String {
    switch self {
    case .queued: "… queued"
    case .downloading: "⟳ downloading"
    case .failed: "✗ no cover"
    case .cached: clipped ? "✓ cover" : "✗ unreadable"
    case .none: "· download"
    case .local: "· local"
    }
  }
}
