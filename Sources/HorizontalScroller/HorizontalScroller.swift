/// One card the scroller currently shows, positioned in viewport columns.
public struct VisibleCard: Sendable, Equatable {
  /// The card's index in the delegate's list.
  public var index: Int
  /// The card's left edge relative to the viewport's left edge; negative when cut off on the left.
  public var x: Int
  /// The card's full width in columns (it may extend past the viewport's right edge).
  public var width: Int
  /// Whether this is the card nearest the centre (the scroller's ``HorizontalScroller/currentIndex``).
  public var isCurrent: Bool
  /// The content the delegate supplied for this card.
  public var card: ScrollerCard

  /// Creates a visible card.
  public init(index: Int, x: Int, width: Int, isCurrent: Bool, card: ScrollerCard) {
    self.index = index
    self.x = x
    self.width = width
    self.isCurrent = isCurrent
    self.card = card
  }
}

/// A horizontally scrolling strip of cards that always comes to rest with one card centred.
///
/// The terminal rebuild of the original BlueLibrary `HorizontalScroller`: it owns a
/// ``Viewport`` (the arithmetic), asks its ``delegate`` for the number of items and
/// for the content of the visible ones, and tells the delegate which card it
/// settled on after every scroll, as the original's `centerCurrentView` did.
///
/// - Important: Not thread-safe and not `Sendable`. Create it, call it and let it
///   call its delegate on one thread (or in one isolation domain); every delegate
///   call happens synchronously inside the scroller method that triggers it.
public final class HorizontalScroller {
  /// The data source and observer; held weakly, as in the original, to avoid a retain cycle with its owner.
  public weak var delegate: (any HorizontalScrollerDelegate)?

  /// The current geometry and scroll position.
  public private(set) var viewport: Viewport

  /// The index of the centred card, or `nil` when there are no cards.
  public var currentIndex: Int? { viewport.currentIndex }

  /// Creates an empty scroller; set ``delegate`` and call ``reload()`` to fill it.
  ///
  /// Arguments are clamped as by ``Viewport/init(width:cardWidth:padding:itemCount:contentOffset:)``.
  public init(width: Int, cardWidth: Int, padding: Int) {
    viewport = Viewport(width: width, cardWidth: cardWidth, padding: padding)
  }

  // MARK: - Loading

  /// Re-reads the item count and the initial index from the delegate and centres that card.
  ///
  /// Like the original's `reload`, this does not report a selection. Without a
  /// delegate the scroller becomes empty (the original returned early and kept
  /// stale views; with a weak delegate, an empty strip is the truthful state).
  public func reload() {
    guard let delegate else {
      viewport = viewport.withItemCount(0)
      return
    }
    let count = delegate.numberOfItems(in: self)
    let fresh = viewport.withItemCount(count)
    guard fresh.itemCount > 0 else {
      viewport = fresh
      return
    }
    // Asked only when there is something to centre, after the count, as the original did.
    viewport = fresh.centred(on: delegate.initialIndex(for: self))
  }

  /// Re-reads the item count after inserts or deletes, keeping the scroll position (or centring `index`).
  ///
  /// Without `index` the offset is kept, clamped to the new last card, so deleting
  /// the last card while it is current centres the new last one. Pass `index` when
  /// the caller knows which card should now be current (e.g. after deleting it).
  /// Does not report a selection: the caller made the change and already knows.
  public func itemCountDidChange(centringOn index: Int? = nil) {
    let count = delegate?.numberOfItems(in: self) ?? 0
    let resized = viewport.withItemCount(count)
    viewport = index.map { resized.centred(on: $0) } ?? resized
  }

  // MARK: - Scrolling

  /// Moves `cards` cards from the current one (clamped to the ends) and reports the card it lands on.
  public func scroll(by cards: Int) {
    viewport = viewport.scrolled(by: cards)
    notifySelection()
  }

  /// Drags the strip by `columns`, then snaps to the nearest card and reports it (`centerCurrentView`).
  public func scroll(byColumns columns: Int) {
    viewport = viewport.scrolledBy(columns: columns).snapped()
    notifySelection()
  }

  /// Scrolls to content offset `offset` (clamped), then snaps to the nearest card and reports it (`centerCurrentView`).
  public func scroll(toOffset offset: Int) {
    viewport = viewport.scrolled(toOffset: offset).snapped()
    notifySelection()
  }

  /// Centres card `index` and reports it, like tapping it in the original; returns `false` (and does nothing) if there is no such card.
  @discardableResult
  public func select(index: Int) -> Bool {
    guard index >= 0, index < viewport.itemCount else { return false }
    viewport = viewport.centred(on: index)
    notifySelection()
    return true
  }

  /// Hit-tests viewport column `column` and selects the card there; returns its index, or `nil` if no card is under it.
  @discardableResult
  public func tap(atColumn column: Int) -> Int? {
    guard let index = viewport.index(atColumn: column) else { return nil }
    select(index: index)
    return index
  }

  /// Changes the viewport's width (clamped), keeping the current card centred; does not report a selection.
  public func resize(width: Int) {
    viewport = viewport.resized(width: width)
  }

  // MARK: - Rendering

  /// The cards at least partly inside the viewport, left to right, with their content.
  ///
  /// The delegate is asked for exactly the indices in ``Viewport/visibleRange``
  /// and no others, so this stays cheap with any number of items. Empty without a delegate.
  public func visibleCards() -> [VisibleCard] {
    guard let delegate else { return [] }
    let viewport = self.viewport
    let current = viewport.currentIndex
    let range = viewport.visibleRange
    if !range.isEmpty { delegate.horizontalScroller(self, willShowItemsIn: range) }
    return range.compactMap { index in
      guard let frame = viewport.frame(of: index) else { return nil }
      return VisibleCard(
        index: index, x: frame.x, width: frame.width, isCurrent: index == current,
        card: delegate.horizontalScroller(self, cardAt: index)
      )
    }
  }

  // MARK: - Private

  /// Reports the snapped card, as the original's `centerCurrentView` ended with `clickedViewAtIndex:`.
  private func notifySelection() {
    guard let index = viewport.currentIndex else { return }
    delegate?.horizontalScroller(self, didSelectItemAt: index)
  }
}

@available(*, unavailable, message: "HorizontalScroller and its delegate must stay on the thread that owns them")
extension HorizontalScroller: Sendable {}
