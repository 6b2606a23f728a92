/// The pure scrolling arithmetic of a horizontal strip of equally sized cards, in terminal columns.
///
/// This is the geometry of the original BlueLibrary `HorizontalScroller`, with its
/// constants turned into parameters. The original used `VIEW_DIMENSIONS` 100,
/// `VIEW_PADDING` 10 and `VIEWS_OFFSET` 100 on a 320 pt wide screen; here those are
/// ``cardWidth``, ``padding`` and ``inset``, and ``inset`` is derived from ``width``
/// so that it keeps its original meaning: the offset `i · stride` puts card `i`'s
/// centre at the centre of the viewport.
///
/// Content coordinates (one `Int` per column):
///
/// ```
/// | inset | padding | card 0 | padding | padding | card 1 | padding | … | inset |
///                   ^ inset + padding + 0 · stride
///                                                ^ inset + padding + 1 · stride
/// ```
///
/// A `Viewport` is a value: every operation returns a new one, and every value it
/// can hold is valid (the initialiser clamps). It knows nothing about what the cards
/// show and never calls anyone.
public struct Viewport: Sendable, Equatable {
  /// The largest ``width``, ``cardWidth`` or ``padding`` accepted; larger inputs are clamped to it.
  ///
  /// A terminal is a few hundred columns wide at most. Capping the dimensions (and
  /// ``maxItemCount``) bounds every product and sum in this type well below
  /// `Int.max`, so no input, however large, can make the arithmetic overflow.
  public static let maxDimension = 1 << 20

  /// The largest ``itemCount`` accepted; larger inputs are clamped to it.
  ///
  /// With ``maxDimension`` this keeps `itemCount · stride` below `2^62`.
  public static let maxItemCount = 1 << 40

  /// The number of columns the viewport shows (at least 1).
  public private(set) var width: Int
  /// The width of one card in columns (at least 1); the original's `VIEW_DIMENSIONS`.
  public private(set) var cardWidth: Int
  /// The empty columns on each side of every card (at least 0); the original's `VIEW_PADDING`.
  public private(set) var padding: Int
  /// The number of cards in the strip (at least 0).
  public private(set) var itemCount: Int
  /// The content column shown at the viewport's left edge, always within `0...maxOffset`.
  public private(set) var contentOffset: Int

  /// Creates a viewport, clamping every argument into its valid range instead of trapping.
  ///
  /// - Parameters:
  ///   - width: Visible columns; clamped to `1...maxDimension`.
  ///   - cardWidth: Columns per card; clamped to `1...maxDimension`.
  ///   - padding: Columns on each side of a card; clamped to `0...maxDimension`.
  ///   - itemCount: Number of cards; clamped to `0...maxItemCount`.
  ///   - contentOffset: Scroll position; clamped to `0...maxOffset`. It is not snapped.
  public init(width: Int, cardWidth: Int, padding: Int, itemCount: Int = 0, contentOffset: Int = 0) {
    self.width = Self.clamp(width, 1, Self.maxDimension)
    self.cardWidth = Self.clamp(cardWidth, 1, Self.maxDimension)
    self.padding = Self.clamp(padding, 0, Self.maxDimension)
    self.itemCount = Self.clamp(itemCount, 0, Self.maxItemCount)
    self.contentOffset = 0
    self.contentOffset = Self.clamp(contentOffset, 0, maxOffset)
  }

  // MARK: - Derived geometry

  /// The distance between the left edges of two neighbouring cards: `cardWidth + 2 · padding`.
  ///
  /// The original's `VIEW_DIMENSIONS + 2 * VIEW_PADDING` (120).
  public var stride: Int { cardWidth + 2 * padding }

  /// The margin before the first card's padding and after the last one's: `width/2 − cardWidth/2 − padding`.
  ///
  /// Generalises the original's `VIEWS_OFFSET` (160 − 50 − 10 = 100 on a 320 pt
  /// screen). It is whatever makes offset `i · stride` centre card `i`, so it is
  /// negative when the viewport is narrower than one card plus its padding.
  public var inset: Int { width / 2 - cardWidth / 2 - padding }

  /// The width of the whole strip: `inset + itemCount · stride + inset`, never negative.
  ///
  /// The original's `contentSize.width` (`100 + 120·n + 100`).
  public var contentWidth: Int { Swift.max(0, 2 * inset + itemCount * stride) }

  /// The largest allowed ``contentOffset``: the one that centres the last card (0 when empty).
  public var maxOffset: Int { Swift.max(0, (itemCount - 1) * stride) }

  /// The index of the card nearest the centre, or `nil` when there are no cards.
  ///
  /// This is the original `centerCurrentView` formula
  /// `(int)((offset.x + VIEW_DIMENSIONS/2 + VIEW_PADDING) / 120)`, i.e.
  /// `(contentOffset + stride/2) / stride` in integer arithmetic (round half up),
  /// clamped to `0..<itemCount`.
  public var currentIndex: Int? {
    guard itemCount > 0 else { return nil }
    // q + (r + stride/2 >= stride) is (offset + stride/2) / stride without forming
    // the sum, so it cannot overflow even for offsets near Int.max.
    let quotient = contentOffset / stride
    let remainder = contentOffset % stride
    let rounded = quotient + (remainder + stride / 2 >= stride ? 1 : 0)
    return Swift.min(rounded, itemCount - 1)
  }

  /// Whether ``contentOffset`` centres a card exactly (always true when empty).
  public var isSnapped: Bool {
    contentOffset == (currentIndex ?? 0) * stride
  }

  // MARK: - Moving

  /// The viewport scrolled to centre ``currentIndex`` exactly: the original's `centerCurrentView`.
  public func snapped() -> Viewport {
    centred(on: currentIndex ?? 0)
  }

  /// The viewport scrolled to centre card `index` (clamped to `0..<itemCount`).
  ///
  /// Offset `index · stride`, as the original's initial-view and snap code set it.
  public func centred(on index: Int) -> Viewport {
    var copy = self
    copy.contentOffset = itemCount == 0 ? 0 : Self.clamp(index, 0, itemCount - 1) * stride
    return copy
  }

  /// The viewport moved `cards` cards from the current one, clamped to the ends, and snapped.
  public func scrolled(by cards: Int) -> Viewport {
    guard let current = currentIndex else { return self }
    // Clamp the step first: the current index is at most maxItemCount, so the sum
    // of two values in ±maxItemCount cannot overflow (scrolled(by: .max) is legal).
    let step = Self.clamp(cards, -Self.maxItemCount, Self.maxItemCount)
    return centred(on: current + step)
  }

  /// The viewport with ``contentOffset`` moved by `columns` (clamped, not snapped), like a drag.
  public func scrolledBy(columns: Int) -> Viewport {
    let (sum, overflow) = contentOffset.addingReportingOverflow(columns)
    var copy = self
    if overflow {
      copy.contentOffset = columns > 0 ? maxOffset : 0
    } else {
      copy.contentOffset = Self.clamp(sum, 0, maxOffset)
    }
    return copy
  }

  /// The viewport with ``contentOffset`` set to `offset` (clamped, not snapped).
  public func scrolled(toOffset offset: Int) -> Viewport {
    var copy = self
    copy.contentOffset = Self.clamp(offset, 0, maxOffset)
    return copy
  }

  /// The viewport with a new ``width`` (clamped), still centring the current card.
  ///
  /// Offset `i · stride` centres card `i` at any width (``inset`` absorbs the
  /// change), so this snaps to the current card and only the visible range changes.
  public func resized(width newWidth: Int) -> Viewport {
    Viewport(
      width: newWidth, cardWidth: cardWidth, padding: padding,
      itemCount: itemCount, contentOffset: contentOffset
    ).centred(on: currentIndex ?? 0)
  }

  /// The viewport with a new ``itemCount`` (clamped); the offset is kept, clamped to the new ``maxOffset``.
  ///
  /// A snapped offset stays snapped: if the current card disappeared, the new last card is centred.
  public func withItemCount(_ count: Int) -> Viewport {
    Viewport(
      width: width, cardWidth: cardWidth, padding: padding,
      itemCount: count, contentOffset: contentOffset
    )
  }

  // MARK: - Visibility

  /// The indices of the cards at least one column of which is inside the viewport.
  ///
  /// Card `i` occupies content columns `[L, L + cardWidth)` with
  /// `L = inset + padding + i · stride`; it is visible when that intersects
  /// `[contentOffset, contentOffset + width)`. Solving both inequalities for `i`
  /// gives the bounds directly, so this is O(1) whatever ``itemCount`` is. The
  /// range is empty when there are no cards (or the viewport is narrower than the
  /// gap between two cards and sits inside it).
  public var visibleRange: Range<Int> {
    let firstLeft = inset + padding
    // Right edge after the window's left:  L + cardWidth > offset  ⇔  i·stride > a.
    let a = contentOffset - firstLeft - cardWidth
    // Left edge before the window's right: L < offset + width     ⇔  i·stride < b.
    let b = contentOffset + width - firstLeft
    let lower = Self.clamp(Self.floorDivide(a, stride) + 1, 0, itemCount)
    let upper = Self.clamp(Self.ceilDivide(b, stride), lower, itemCount)
    return lower..<upper
  }

  /// Card `index`'s left edge and width in content coordinates, or `nil` if there is no such card.
  ///
  /// The original laid view `i` out at `x = VIEWS_OFFSET + VIEW_PADDING + i · 120` (110 + 120·i).
  public func contentFrame(of index: Int) -> (x: Int, width: Int)? {
    guard index >= 0, index < itemCount else { return nil }
    return (x: inset + padding + index * stride, width: cardWidth)
  }

  /// Card `index`'s left edge relative to the viewport's left edge and its width, or `nil` if it is not visible.
  ///
  /// `x` is negative for a card cut off on the left, and `x + width` may exceed
  /// ``width`` for one cut off on the right; see ``visibleColumns(of:)`` for the clipped part.
  public func frame(of index: Int) -> (x: Int, width: Int)? {
    guard visibleRange.contains(index), let frame = contentFrame(of: index) else { return nil }
    return (x: frame.x - contentOffset, width: frame.width)
  }

  /// The viewport columns card `index` actually covers (its frame clipped to `0..<width`), or `nil` if not visible.
  public func visibleColumns(of index: Int) -> Range<Int>? {
    guard let frame = frame(of: index) else { return nil }
    return Swift.max(0, frame.x)..<Swift.min(width, frame.x + frame.width)
  }

  /// The card under viewport column `column`, or `nil` for padding, margins or columns outside the viewport.
  ///
  /// The terminal counterpart of the original's tap hit-test.
  public func index(atColumn column: Int) -> Int? {
    guard column >= 0, column < width else { return nil }
    let fromFirstCard = contentOffset + column - (inset + padding)
    guard fromFirstCard >= 0 else { return nil }
    let index = fromFirstCard / stride
    guard index < itemCount, fromFirstCard % stride < cardWidth else { return nil }
    return index
  }

  // MARK: - Helpers

  private static func clamp(_ value: Int, _ low: Int, _ high: Int) -> Int {
    Swift.min(Swift.max(value, low), high)
  }

  /// ⌊n / d⌋ for d > 0 (Swift's `/` truncates toward zero, which is wrong for negative n).
  private static func floorDivide(_ n: Int, _ d: Int) -> Int {
    let q = n / d
    return (n % d != 0 && n < 0) ? q - 1 : q
  }

  /// ⌈n / d⌉ for d > 0.
  private static func ceilDivide(_ n: Int, _ d: Int) -> Int {
    let q = n / d
    return (n % d != 0 && n > 0) ? q + 1 : q
  }
}
