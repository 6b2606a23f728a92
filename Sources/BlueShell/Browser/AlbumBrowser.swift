import AlbumModel
import BlueCovers
import BlueLibrary
import BlueSystem
import CoverArt
import HorizontalScroller

/// The shell's album adapter: the scroller's delegate, answering from the library, and
/// the view that turns the row of cards and the current album's details into lines.
///
/// It never writes to the terminal: ``drawing(window:)`` returns what to draw for a window
/// size (lines, and pictures over the cards' art), and the interpreter (the terminal's
/// owner) writes it. The scroller asks only for
/// the visible cards, and each page of them is one indexed store query, so drawing costs
/// the same with 5 albums or 1,000,000.
final class AlbumBrowser: HorizontalScrollerDelegate {
  /// How the viewport is drawn.
  enum Layout: Sendable {
    /// A row of bordered cards as wide as the window, with cover art (a terminal).
    case cards
    /// One plain line of the visible cards in a fixed 80-column viewport (script mode),
    /// so output does not depend on a window.
    case plain
  }

  /// The library shown.
  let library: Library
  /// The virtual viewport.
  let scroller: HorizontalScroller
  let style: TextStyle
  /// How the viewport is drawn: a terminal's cards or a script's line.
  let layout: Layout
  /// How card art is coloured (set by the shell from the terminal's capabilities).
  var colorMode: ColorMode = .palette256
  /// How card art is drawn: half blocks, or pictures for an image protocol (set by the
  /// interpreter on a terminal).
  var graphics = GraphicsCapabilities.blocks
  /// The album that plays now, if any: its card says so (`▶ playing` in its top border).
  var playingAlbumID: () -> Int64? = { nil }
  /// Paints the cards' covers (shared with `cover`).
  let painter: CoverPainter
  /// Cover art rows inside a terminal card: 20×10 cells, a square of 20×20 pixels.
  static let artRows = 10
  /// The cards fetched for the current render (first index, albums); cleared after it.
  private var prefetched: (start: Int, albums: [Album])?
  /// Whether this render draws cover art, so the visible cards' local covers are read first.
  private var drawsArt = false
  /// The albums the last drawing showed, by id, in order (see ``showsOtherAlbums(window:)``).
  private var drawnIDs: [Int64?] = []
  /// The covers the cards of the last drawing asked the source for, on their way then
  /// (``cardCoversAreIn()``).
  private var awaitedCovers: [String] = []

  /// Card geometry on a terminal: a 20-column card inside a border, one column apart.
  static let terminalCard = (width: 22, padding: 1)
  /// In script mode a fixed 80-column viewport.
  static let scriptCard = (width: 14, padding: 1, viewport: 80)

  /// Creates the browser over `library`, drawn as `layout`, its covers painted by `painter`.
  init(library: Library, style: TextStyle, layout: Layout, painter: CoverPainter? = nil) {
    self.library = library
    self.painter = painter ?? CoverPainter(library: library)
    self.style = style
    self.layout = layout
    switch layout {
    case .cards:
      scroller = HorizontalScroller(
        width: WindowSize.standard.columns, cardWidth: Self.terminalCard.width,
        padding: Self.terminalCard.padding)
    case .plain:
      scroller = HorizontalScroller(
        width: Self.scriptCard.viewport, cardWidth: Self.scriptCard.width,
        padding: Self.scriptCard.padding)
    }
    scroller.delegate = self
    scroller.reload()
  }

  // MARK: - HorizontalScrollerDelegate

  func numberOfItems(in scroller: HorizontalScroller) -> Int {
    (try? library.count()) ?? 0
  }

  func horizontalScroller(_ scroller: HorizontalScroller, willShowItemsIn range: Range<Int>) {
    // One query for the visible cards instead of one per card.
    prefetched = (try? library.albums(in: range)).map { (range.lowerBound, $0) }
    // Local covers (a music folder's) are read now, before the cards are made, so that a
    // card's badge says what its art shows: no 'download' for them.
    guard drawsArt, let albums = prefetched?.albums else {
      awaitedCovers = []
      return
    }
    for album in albums where library.coverState(of: album) == .local {
      _ = library.loadLocalCover(of: album)
    }
    // A server's covers (`--mpd`) are asked for in the background, the cards drawn again
    // once they are in (``cardCoversAreIn()``). Nothing more for a library of this machine's.
    awaitedCovers =
      library.source == nil || graphics.graphics == .none ? [] : library.requestCardCovers(of: albums)
  }

  /// Whether the covers the cards of the last drawing asked the source for are all in (or
  /// failed), so the cards are to be drawn again to show them; false when they asked for none.
  func cardCoversAreIn() -> Bool {
    !awaitedCovers.isEmpty && !awaitedCovers.contains(where: library.coverIsPending)
  }

  func horizontalScroller(_ scroller: HorizontalScroller, cardAt index: Int) -> ScrollerCard {
    guard let album = album(at: index) else {
      return ScrollerCard(lines: ["(unreadable)", "", ""])
    }
    // A script's row names each card by its title alone: no artist, year or cover state.
    if layout == .plain { return ScrollerCard(lines: [TextSanitizer.escaped(album.title)]) }
    let year = album.year.map(String.init) ?? ""
    return ScrollerCard(lines: [
      TextSanitizer.escaped(album.title), TextSanitizer.escaped(album.artist),
      year + String(repeating: " ", count: max(1, 6 - year.count)) + coverBadge(album),
    ])
  }

  /// A card picked in the view (the original's "clicked view at index") selects its album:
  /// `tap` and `scroll` come this way (``select(_:)``).
  func horizontalScroller(_ scroller: HorizontalScroller, didSelectItemAt index: Int) {
    library.select(index)
  }

  /// Picks card `index` in the scroller, as a tap on it: the scroller, brought in step with
  /// the library first, centres it and tells its delegate (this browser), which selects the
  /// album. An index past the cards selects nothing.
  func select(_ index: Int) {
    scroller.itemCountDidChange(centringOn: library.selection)
    scroller.select(index: index)
  }

  func initialIndex(for scroller: HorizontalScroller) -> Int {
    library.selection ?? 0
  }

  // MARK: - Drawing

  /// What a draw of the viewport puts on the screen: lines of text, and the pictures that
  /// go over the blank art areas of some cards once the lines are printed.
  struct Drawing {
    /// The lines, top to bottom.
    var lines: [String]
    /// Card pictures (image protocols only), each over a box of blank cells in `lines`.
    var pictures: [CardPicture]
  }

  /// A card's cover in pixels, to draw over its art area.
  struct CardPicture {
    /// The line of ``Drawing/lines`` the art area starts on.
    var line: Int
    /// The cell column the art area starts at.
    var column: Int
    /// The encoded picture and where it lands in the art area.
    var frame: PixelFrame
  }

  /// The row of visible cards and the current album's details, for a window of `window`,
  /// with the pictures of the cards that show their cover in pixels.
  ///
  /// The library is the truth: the scroller is first brought in step with its count and
  /// selection (whoever changed them), then asked for the visible cards.
  func drawing(window: WindowSize) -> Drawing {
    defer { prefetched = nil }
    // The window's rows less the command line above and the prompt below: the drawing fits
    // in them, so a scroll leaves the whole row of cards and the prompt on screen.
    let budget = window.rows - 2
    drawsArt = layout == .cards && budget >= Self.minimumArtRows + 7
    let cards = visibleCards(window: window)
    drawnIDs = cards.map { self.album(at: $0.index)?.id }
    let count = (try? library.count()) ?? 0
    guard count > 0, let current = scroller.currentIndex else {
      let empty =
        library.view == nil
        ? "(the library is empty: 'add TITLE' adds an album, 'reset' brings back the defaults)"
        : "(no album in this view: 'find' alone shows the whole library)"
      return Drawing(lines: [empty], pictures: [])
    }
    // The current album's number (`3 of 54`) is one a verb may take as it is now.
    library.noteCardsShown(current...current)
    var lines: [String]
    var pictures: [CardPicture] = []
    let playing = playingAlbumID().flatMap { id in cards.first { self.album(at: $0.index)?.id == id }?.index }
    let plainRow = { () -> String in
      // `[4/9] 3 Title | >4 ▶ Title< | 5 Title`, appended piece by piece (a line per scroll).
      var row = "[" + String(current + 1) + "/" + String(count) + "] "
      for (offset, card) in cards.enumerated() {
        if offset > 0 { row += " | " }
        if card.isCurrent { row += ">" }
        row += String(card.index + 1) + (card.index == playing ? " ▶ " : " ") + (card.card.lines.first ?? "")
        if card.isCurrent { row += "<" }
      }
      return row
    }
    let album = album(at: current)
    switch layout {
    case .cards:
      // Too low for a card: the row on one line.
      guard budget >= 7 else {
        let line = DisplayWidth.fit(plainRow(), width: max(1, window.columns))
        return Drawing(lines: [String(line.reversed().drop { $0 == " " }.reversed())], pictures: [])
      }
      // Cards (5 rows and the `N of M` line), the details, then art in the rows left over;
      // details too many for the window become one line.
      var details = album.map { detailLines(for: $0) } ?? []
      if 6 + details.count > budget, let album { details = [summaryLine(album)] }
      let room = budget - 6 - details.count
      let artRows = room >= Self.minimumArtRows ? min(Self.artRows, room) : 0
      (lines, pictures) = cardLines(cards, current: current, count: count, artRows: artRows, playing: playing)
      lines += details
    case .plain:
      lines = [plainRow()]
      if let album { lines += detailLines(for: album) }
    }
    return Drawing(lines: lines, pictures: pictures)
  }

  /// A script's drawing (the plain layout) appended to `out`, each line ended by a newline:
  /// the bytes of ``drawing(window:)``'s lines, made without a `String` per piece. A script
  /// that scrolls draws once per command, and joining those strings was a quarter of a
  /// piped `scroll right`. (A script's drawing does not depend on the window.)
  func appendPlainDrawing(to out: inout [UInt8]) {
    defer { prefetched = nil }
    drawsArt = false
    // The cards ``HorizontalScroller/visibleCards()`` would make, without making them: the
    // row names each by its title alone.
    scroller.itemCountDidChange(centringOn: library.selection)
    let viewport = scroller.viewport
    let range = viewport.visibleRange
    if !range.isEmpty { horizontalScroller(scroller, willShowItemsIn: range) }
    let count = (try? library.count()) ?? 0
    guard count > 0, let current = viewport.currentIndex else {
      out.append(
        contentsOf: (library.view == nil
          ? "(the library is empty: 'add TITLE' adds an album, 'reset' brings back the defaults)"
          : "(no album in this view: 'find' alone shows the whole library)").utf8)
      out.append(UInt8(ascii: "\n"))
      return
    }
    let playing = playingAlbumID().flatMap { id in range.first { albumID(at: $0) == id } }
    // The current album's number (`[3/54]`, `>3 …<`) is one a verb may take as it is now.
    library.noteCardsShown(current...current)
    // `[4/9] 3 Title | >4 ▶ Title< | 5 Title`
    out.append("[")
    out.appendDecimal(current + 1)
    out.append("/")
    out.appendDecimal(count)
    out.append("] ")
    for index in range {
      if index > range.lowerBound { out.append(" | ") }
      if index == current { out.append(">") }
      out.appendDecimal(index + 1)
      out.append(index == playing ? " ▶ " : " ")
      if !appendTitle(at: index, to: &out) { out.append("(unreadable)") }
      if index == current { out.append("<") }
    }
    out.append(UInt8(ascii: "\n"))
    if let album = album(at: current) { appendDetailLines(for: album, to: &out) }
  }

  /// ``detailLines(for:filesSay:)`` of `album` (without what its files say), appended to
  /// `out`, each line ended by a newline.
  private func appendDetailLines(for album: Album, to out: inout [UInt8]) {
    album.forEachTableRow(showing: []) { title, value in
      style.appendBold(title, ":", to: &out)
      out.append(" ")
      var value = value
      value.withUTF8 { TextSanitizer.appendEscaped($0, to: &out) }
      if title == "Cover" && !album.coverURL.isEmpty {
        out.append(" (")
        var label = coverLabel(album)
        label.withUTF8 { out.append(contentsOf: $0) }
        out.append(")")
      }
      out.append(UInt8(ascii: "\n"))
    }
  }

  /// Appends the escaped title of the album at `index` (from the render's prefetched cards
  /// when they hold it); false when it cannot be read.
  private func appendTitle(at index: Int, to out: inout [UInt8]) -> Bool {
    var title: String
    if let prefetched, index >= prefetched.start, index < prefetched.start + prefetched.albums.count {
      title = prefetched.albums[index - prefetched.start].title
    } else if let album = try? library.album(at: index) {
      title = album.title
    } else {
      return false
    }
    title.withUTF8 { TextSanitizer.appendEscaped($0, to: &out) }
    return true
  }

  /// The id of the album at `index`, as ``album(at:)`` finds it.
  private func albumID(at index: Int) -> Int64? {
    if let prefetched, index >= prefetched.start, index < prefetched.start + prefetched.albums.count {
      return prefetched.albums[index - prefetched.start].id
    }
    return try? library.album(at: index).id
  }

  /// Whether a drawing now would show other albums than the last one did (an import that
  /// reached the visible cards, a match that joined the view).
  func showsOtherAlbums(window: WindowSize) -> Bool {
    visibleCards(window: window).map { try? library.album(at: $0.index).id } != drawnIDs
  }

  /// The cards a drawing for `window` shows, the scroller first brought in step with the
  /// window's width and the library's count and selection (whoever changed them).
  private func visibleCards(window: WindowSize) -> [VisibleCard] {
    if layout == .cards { scroller.resize(width: max(1, window.columns)) }
    scroller.itemCountDidChange(centringOn: library.selection)
    return scroller.visibleCards()
  }

  /// The fewest art rows worth drawing; a lower window shows cards without art.
  static let minimumArtRows = 4

  /// `Artist — Album (Year, Genre)`: the details in one line, for a low window.
  func summaryLine(_ album: Album) -> String {
    var line = style.bold(TextSanitizer.escaped(album.title))
    if !album.artist.isEmpty { line += " — " + TextSanitizer.escaped(album.artist) }
    let extra = [album.year.map(String.init), album.genre.isEmpty ? nil : TextSanitizer.escaped(album.genre)]
      .compactMap { $0 }
    if !extra.isEmpty { line += " (" + extra.joined(separator: ", ") + ")" }
    return line
  }

  /// The `Field: value` rows of `album` (the decorator), with the cover's state; with what
  /// its files said at the last import (`filesSay`), a field edited since is marked with it.
  func detailLines(for album: Album, filesSay: Album? = nil) -> [String] {
    let edited = filesSay.map { album.editedFields(comparedWith: $0) } ?? []
    return album.tableRepresentation(showing: Set(edited)).map { row in
      var value = TextSanitizer.escaped(row.value)
      if row.title == "Cover" && !album.coverURL.isEmpty { value += " (" + coverLabel(album) + ")" }
      if !edited.isEmpty, let field = Album.field(ofRow: row.title), edited.contains(field), let filesSay {
        let said = field == .rating || field == .fav ? Album.shown(field, of: filesSay) : field.value(in: filesSay)
        value += " (edited; the files say " + (said.isEmpty ? "nothing" : TextSanitizer.escaped(said)) + ")"
      }
      return style.bold(row.title + ":") + " " + value
    }
  }

  /// The cover's state for a card: the observer side of the downloads.
  private func coverBadge(_ album: Album) -> String {
    guard !album.coverURL.isEmpty, library.fetchesCovers else { return "" }
    return library.coverState(of: album).badge
  }

  /// The cover state as `show` and `list` print it.
  func coverLabel(_ album: Album) -> String {
    library.coverState(of: album).label(url: album.coverURL)
  }

  /// The album at `index`, from the render's prefetched cards when they hold it.
  private func album(at index: Int) -> Album? {
    if let prefetched, index >= prefetched.start, index < prefetched.start + prefetched.albums.count {
      return prefetched.albums[index - prefetched.start]
    }
    return try? library.album(at: index)
  }

  private func cardLines(
    _ cards: [VisibleCard], current: Int, count: Int, artRows maximumArtRows: Int, playing: Int?
  ) -> (lines: [String], pictures: [CardPicture]) {
    var lines: [String] = []
    let inner = Self.terminalCard.width - 2
    let width = scroller.viewport.width
    // Art for the cards that are wholly visible (a clipped card shows its placeholder:
    // cutting escape sequences mid-cell is not worth it for a sliver at the edge, and a
    // picture cannot be cut at a cell at all).
    var art: [Int: [String]] = [:]
    var placeholders: [Int: String] = [:]
    var pending = false
    var pictures: [CardPicture] = []
    let drawnRows = max(1, maximumArtRows)
    let blank = [String](repeating: String(repeating: " ", count: inner), count: drawnRows)
    for card in cards {
      guard let album = album(at: card.index) else { continue }
      let whole = card.x >= 0 && card.x + card.width <= width
      if maximumArtRows > 0, whole, graphics.graphics.drawsPixels,
        let frame = picture(album, columns: inner, rows: drawnRows)
      {
        art[card.index] = blank
        pictures.append(CardPicture(line: 1, column: card.x + 1, frame: frame))
      } else if maximumArtRows > 0, whole, graphics.graphics != .none,
        let lines = artLines(album, columns: inner, rows: drawnRows)
      {
        art[card.index] = lines
      } else {
        placeholders[card.index] = placeholder(album, clipped: !whole)
        pending = pending || (library.fetchesCovers && library.coverState(of: album).isPending)
      }
    }
    // The art area only when there is something to show in it (a cover, or one on its way)
    // and the window is tall enough; otherwise the compact five-row cards.
    // `--graphics none`: never.
    let artRows =
      maximumArtRows > 0 && graphics.graphics != .none
        && (!art.isEmpty || pending)
      ? maximumArtRows : 0
    for row in 0..<(artRows + 5) {
      var line = ""
      var column = 0
      for card in cards {
        let clipStart = max(0, -card.x)
        let clipEnd = min(card.width, width - card.x)
        guard clipEnd > clipStart else { continue }
        let start = max(card.x, 0)
        if start > column { line += String(repeating: " ", count: start - column) }
        column = start + (clipEnd - clipStart)
        let side = card.isCurrent ? "┃" : "│"
        let styled = { (text: String) in card.isCurrent ? self.style.bold(self.style.blue(text)) : text }
        if row >= 1 && row <= artRows, let lines = art[card.index], row - 1 < lines.count {
          line += styled(side) + lines[row - 1] + styled(side)
          continue
        }
        let text: String
        if row >= 1 && row <= artRows {
          let label = row == (artRows + 1) / 2 ? placeholders[card.index] ?? "" : ""
          text = side + DisplayWidth.fit(DisplayWidth.centred(label, width: inner), width: inner) + side
        } else {
          text = cardRow(
            row <= artRows ? row : row - artRows, card: card, inner: inner, playing: card.index == playing,
            mark: album(at: card.index).map(cardMark) ?? "")
        }
        line += styled(DisplayWidth.slice(text, from: clipStart, to: clipEnd))
      }
      lines.append(line)
    }
    let label = "\(current + 1) of \(count)"
    let centre = max(0, width / 2 - label.count / 2)
    lines.append(String(repeating: " ", count: centre) + style.dim(label))
    return (lines, artRows > 0 ? pictures : [])
  }

  /// The album's cover encoded for the terminal's image protocol, when there is one to draw.
  private func picture(_ album: Album, columns: Int, rows: Int) -> PixelFrame? {
    try? painter.picture(of: album, columns: columns, rows: rows, mode: colorMode, graphics: graphics)
  }

  /// The album's cover drawn in `columns`×`rows` cells, one string per row, when there is
  /// one to draw. A local cover (a music folder's) is read when its card first shows (see
  /// `willShowItemsIn`): no 'download'.
  private func artLines(_ album: Album, columns: Int, rows: Int) -> [String]? {
    guard let frame = try? painter.cells(of: album, columns: columns, rows: rows, mode: colorMode) else { return nil }
    let lines = frame.split(separator: "\n").map(String.init)
    return lines.count == rows ? lines : nil
  }

  /// What a card's bottom border says: the album's stars and ♥, and, when another album has
  /// its artist and title, which one this is (`FLAC`, or `MP3 in Jazz/Kind of Blue (2)`). Only
  /// an album from a source can have one: the others ask nothing.
  private func cardMark(_ album: Album) -> String {
    let twin = album.sourceKey == nil ? nil : (try? library.twinLabel(of: album))?.text
    return [album.cardMark, twin.map(TextSanitizer.escaped) ?? ""].filter { !$0.isEmpty }.joined(separator: " · ")
  }

  /// What a card shows where its art would be (see ``CoverState/placeholder(clipped:)``).
  private func placeholder(_ album: Album, clipped: Bool) -> String {
    guard !album.coverURL.isEmpty, library.fetchesCovers else { return "no cover" }
    return library.coverState(of: album).placeholder(clipped: clipped)
  }

  /// Row `row` of a card: border, three text lines, border; heavy lines for the current card.
  /// The bottom border carries `mark` (the album's stars and ♥), when there is one.
  private func cardRow(_ row: Int, card: VisibleCard, inner: Int, playing: Bool, mark: String) -> String {
    let heavy = card.isCurrent
    let line = heavy ? "━" : "─"
    switch row {
    case 0:
      // The top border; the album that plays says so in it.
      let mark = playing ? line + " ▶ playing " : ""
      return (heavy ? "┏" : "┌") + mark + String(repeating: line, count: max(0, inner - mark.count))
        + (heavy ? "┓" : "┐")
    case 4:
      // The bottom border (rows 1-3 are the text lines under the art), with the album's mark.
      var label = mark.isEmpty ? "" : line + " " + mark + " "
      // Too long (a twin's folder): its end, which tells it apart, after an ellipsis.
      if DisplayWidth.width(label) > inner, inner > 4 {
        var tail = ""
        for character in mark.reversed() {
          if DisplayWidth.width(tail) + DisplayWidth.width(String(character)) > inner - 4 { break }
          tail.insert(character, at: tail.startIndex)
        }
        label = line + " …" + tail + " "
      }
      let fitted = DisplayWidth.width(label) > inner ? "" : label
      return (heavy ? "┗" : "└") + fitted + String(repeating: line, count: inner - DisplayWidth.width(fitted))
        + (heavy ? "┛" : "┘")
    default:
      let side = heavy ? "┃" : "│"
      let text = row - 1 < card.card.lines.count ? card.card.lines[row - 1] : ""
      return side + DisplayWidth.fit(text, width: inner) + side
    }
  }
}

@available(*, unavailable, message: "the browser stays on the thread that owns the terminal")
extension AlbumBrowser: Sendable {}
