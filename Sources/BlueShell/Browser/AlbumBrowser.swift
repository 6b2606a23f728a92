import BlueLibrary
import CEditLine
import CoverArt
import HorizontalScroller

#if canImport(Glibc)
  import Glibc
#endif

/// The shell's album adapter: the scroller's delegate, answering from the library, and
/// the view that draws the row of cards and the current album's details.
///
/// The scroller asks only for the visible cards, and each is one indexed store lookup, so
/// drawing costs the same with 5 albums or 1,000,000.
public final class AlbumBrowser: HorizontalScrollerDelegate {
  /// The library shown.
  public let library: Library
  /// The virtual viewport.
  public let scroller: HorizontalScroller
  private let output: OutputChannel
  private let style: TextStyle
  private let drawsCards: Bool
  /// How card art is coloured (set by the shell from the terminal's capabilities).
  public var colorMode: ColorMode = .palette256
  /// Drawn card art by (URL, size, colour mode).
  private let cardArt = RenderCache(capacity: 64)
  /// Cover art rows inside a terminal card: 20×10 cells, a square of 20×20 pixels.
  static let artRows = 10
  /// The cards fetched for the current render (first index, albums); cleared after it.
  private var prefetched: (start: Int, albums: [Album])?

  /// Card geometry on a terminal: a 20-column card inside a border, one column apart.
  static let terminalCard = (width: 22, padding: 1)
  /// In script mode a fixed 80-column viewport, so output does not depend on a window.
  static let scriptCard = (width: 14, padding: 1, viewport: 80)

  /// Creates the browser; `drawsCards` selects the terminal rendering (else plain text).
  public init(library: Library, output: OutputChannel, style: TextStyle, drawsCards: Bool) {
    self.library = library
    self.output = output
    self.style = style
    self.drawsCards = drawsCards
    if drawsCards {
      scroller = HorizontalScroller(
        width: Self.terminalWidth(), cardWidth: Self.terminalCard.width,
        padding: Self.terminalCard.padding)
    } else {
      scroller = HorizontalScroller(
        width: Self.scriptCard.viewport, cardWidth: Self.scriptCard.width,
        padding: Self.scriptCard.padding)
    }
    scroller.delegate = self
    scroller.reload()
  }

  // MARK: - HorizontalScrollerDelegate

  public func numberOfItems(in scroller: HorizontalScroller) -> Int {
    (try? library.count()) ?? 0
  }

  public func horizontalScroller(_ scroller: HorizontalScroller, willShowItemsIn range: Range<Int>) {
    // One query for the visible cards instead of one per card.
    prefetched = (try? library.store.albums(in: range)).map { (range.lowerBound, $0) }
  }

  public func horizontalScroller(_ scroller: HorizontalScroller, cardAt index: Int) -> ScrollerCard {
    guard let album = album(at: index) else {
      return ScrollerCard(lines: ["(unreadable)", "", ""])
    }
    let year = album.year.map(String.init) ?? ""
    return ScrollerCard(lines: [
      TextSanitizer.escaped(album.title), TextSanitizer.escaped(album.artist),
      year + String(repeating: " ", count: max(1, 6 - year.count)) + coverBadge(album),
    ])
  }

  public func horizontalScroller(_ scroller: HorizontalScroller, didSelectItemAt index: Int) {
    library.select(index)
  }

  public func initialIndex(for scroller: HorizontalScroller) -> Int {
    library.selection ?? 0
  }

  // MARK: - Keeping the viewport in step

  /// After a library change: re-count and centre the library's selection.
  public func libraryDidChange() {
    scroller.itemCountDidChange(centringOn: library.selection)
  }

  /// After the window was resized: re-lay out the row for the new width.
  public func windowDidResize() {
    guard drawsCards else { return }
    scroller.resize(width: Self.terminalWidth())
  }

  static func terminalWidth() -> Int {
    let columns = Int(CEditLine_terminalColumns(STDOUT_FILENO))
    return columns > 0 ? columns : 80
  }

  // MARK: - Drawing

  /// Draws the row of visible cards and the current album's details.
  public func render() {
    defer { prefetched = nil }
    let cards = scroller.visibleCards()
    let count = (try? library.count()) ?? 0
    guard count > 0, let current = scroller.currentIndex else {
      output.line("(the library is empty: 'add TITLE' adds an album, 'reset' brings back the defaults)")
      return
    }
    if drawsCards {
      renderCards(cards, current: current, count: count)
    } else {
      let row = cards.map { card in
        let label = "\(card.index + 1) \(card.card.lines.first ?? "")"
        return card.isCurrent ? ">" + label + "<" : label
      }
      output.line("[\(current + 1)/\(count)] " + row.joined(separator: " | "))
    }
    renderDetails(index: current)
  }

  /// The cover's state for a card: the observer side of the downloads (the original app's
  /// spinner, stopped when the image arrives).
  private func coverBadge(_ album: Album) -> String {
    guard !album.coverURL.isEmpty, let covers = library.covers else { return "" }
    switch covers.currentState(of: album.coverURL) {
    case .none: return "· cover"
    case .queued: return "… queued"
    case .downloading: return "⟳ loading"
    case .cached: return "✓ cover"
    case .failed: return "✗ failed"
    }
  }

  /// The cover state as `show` and `list` print it.
  func coverLabel(_ album: Album) -> String {
    (library.covers?.currentState(of: album.coverURL) ?? .none).label(url: album.coverURL)
  }

  /// The album at `index`, from the render's prefetched cards when they hold it.
  private func album(at index: Int) -> Album? {
    if let prefetched, index >= prefetched.start, index < prefetched.start + prefetched.albums.count {
      return prefetched.albums[index - prefetched.start]
    }
    return try? library.album(at: index)
  }

  /// Prints the `Field: value` rows of the album at `index` (the decorator).
  public func renderDetails(index: Int) {
    guard let album = album(at: index) else { return }
    for row in album.tableRepresentation {
      var value = TextSanitizer.escaped(row.value)
      if row.title == "Cover" && !album.coverURL.isEmpty { value += " (" + coverLabel(album) + ")" }
      output.line(style.bold(row.title + ":") + " " + value)
    }
  }

  private func renderCards(_ cards: [VisibleCard], current: Int, count: Int) {
    let inner = Self.terminalCard.width - 2
    let width = scroller.viewport.width
    // Art for the cards that are wholly visible (a clipped card shows its placeholder:
    // cutting escape sequences mid-cell is not worth it for a sliver at the edge).
    var art: [Int: [String]] = [:]
    var placeholders: [Int: String] = [:]
    for card in cards {
      guard let album = album(at: card.index) else { continue }
      if card.x >= 0, card.x + card.width <= width, let lines = artLines(album, columns: inner, rows: Self.artRows) {
        art[card.index] = lines
      } else {
        placeholders[card.index] = placeholder(album)
      }
    }
    // The art area only when there is something to show in it (a cover, or one on its way)
    // and the window is tall enough; otherwise the compact five-row cards.
    let tallEnough = Int(CEditLine_terminalRows(STDOUT_FILENO)) >= 24
    let artRows = tallEnough && (!art.isEmpty || placeholders.values.contains { $0.hasPrefix("⟳") || $0.hasPrefix("…") }) ? Self.artRows : 0
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
          text = cardRow(row <= artRows ? row : row - artRows, card: card, inner: inner)
        }
        line += styled(DisplayWidth.slice(text, from: clipStart, to: clipEnd))
      }
      output.line(line)
    }
    let label = "\(current + 1) of \(count)"
    let centre = max(0, width / 2 - label.count / 2)
    output.line(String(repeating: " ", count: centre) + style.dim(label))
  }

  /// The album's cover drawn in `columns`×`rows` cells, one string per row, when it is cached.
  private func artLines(_ album: Album, columns: Int, rows: Int) -> [String]? {
    guard !album.coverURL.isEmpty, let covers = library.covers else { return nil }
    let key = RenderCache.Key(source: album.coverURL, columns: columns, rows: rows, mode: colorMode)
    let frame: String
    if let cached = cardArt.frame(for: key) {
      frame = cached
    } else {
      guard covers.currentState(of: album.coverURL) == .cached,
        let bytes = covers.cache.cachedData(for: album.coverURL),
        let drawn = try? HalfBlockRenderer.render(encoded: [UInt8](bytes), columns: columns, rows: rows, mode: colorMode)
      else { return nil }
      cardArt.store(drawn, for: key)
      frame = drawn
    }
    let lines = frame.split(separator: "\n").map(String.init)
    return lines.count == rows ? lines : nil
  }

  /// What a card shows where its art would be: the spinner while the cover downloads (the
  /// original app's activity indicator), else why there is no art.
  private func placeholder(_ album: Album) -> String {
    guard !album.coverURL.isEmpty, let covers = library.covers else { return "no cover" }
    switch covers.currentState(of: album.coverURL) {
    case .queued: return "… queued"
    case .downloading: return "⟳ downloading"
    case .failed: return "✗ no cover"
    case .cached: return "✗ unreadable"
    case .none: return "· download"
    }
  }

  /// Row `row` of a card: border, three text lines, border; heavy lines for the current card.
  private func cardRow(_ row: Int, card: VisibleCard, inner: Int) -> String {
    let heavy = card.isCurrent
    switch row {
    case 0:
      return (heavy ? "┏" : "┌") + String(repeating: heavy ? "━" : "─", count: inner) + (heavy ? "┓" : "┐")
    case 4:
      // The bottom border (rows 1-3 are the text lines under the art).
      return (heavy ? "┗" : "└") + String(repeating: heavy ? "━" : "─", count: inner) + (heavy ? "┛" : "┘")
    default:
      let side = heavy ? "┃" : "│"
      let text = row - 1 < card.card.lines.count ? card.card.lines[row - 1] : ""
      return side + DisplayWidth.fit(text, width: inner) + side
    }
  }
}

extension Album {
  /// The album as `Field: value` rows, in the original app's order plus the cover: the
  /// decorator (`Album+TableRepresentation`), kept out of the model type.
  public var tableRepresentation: [(title: String, value: String)] {
    [
      ("Artist", artist), ("Album", title), ("Genre", genre),
      ("Year", year.map(String.init) ?? ""), ("Cover", coverURL.isEmpty ? "(none)" : coverURL),
    ]
  }
}

/// Terminal column arithmetic for text (CJK and emoji take two cells, combining marks none).
enum DisplayWidth {
  static func width(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    let cells = Int(wcwidth(wchar_t(bitPattern: scalar.value)))
    return cells < 0 ? 1 : cells
  }

  /// `text` with spaces before it so that it sits in the middle of `width` cells.
  static func centred(_ text: String, width: Int) -> String {
    String(repeating: " ", count: max(0, (width - self.width(text)) / 2)) + text
  }

  /// The cells `text` takes.
  static func width(_ text: String) -> Int {
    text.reduce(0) { $0 + width(of: $1) }
  }

  /// `text` padded or cut (with `…`) to exactly `width` cells.
  static func fit(_ text: String, width: Int) -> String {
    var result = ""
    var used = 0
    let total = text.reduce(0) { $0 + self.width(of: $1) }
    let limit = total > width ? width - 1 : width
    for character in text {
      let cells = self.width(of: character)
      if used + cells > limit { break }
      result.append(character)
      used += cells
    }
    if total > width {
      result += "…"
      used += 1
    }
    return result + String(repeating: " ", count: max(0, width - used))
  }

  /// The cells `from..<to` of `text` (a wide character cut in half becomes a space).
  static func slice(_ text: String, from: Int, to: Int) -> String {
    guard from > 0 || to < text.reduce(0, { $0 + width(of: $1) }) else { return text }
    var result = ""
    var column = 0
    for character in text {
      let cells = width(of: character)
      defer { column += cells }
      if column + cells <= from || column >= to { continue }
      if column < from || column + cells > to {
        result += String(repeating: " ", count: min(column + cells, to) - max(column, from))
      } else {
        result.append(character)
      }
    }
    return result
  }
}
