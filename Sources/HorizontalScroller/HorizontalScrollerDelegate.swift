/// Opaque content for one card, supplied by the delegate; the scroller never interprets it.
///
/// Typically one string per terminal row of the card. The scroller only hands it
/// back in ``VisibleCard/card``; clipping and drawing are the renderer's job.
public struct ScrollerCard: Sendable, Equatable {
  /// The card's rows, as the delegate wants them drawn.
  public var lines: [String]

  /// Creates a card from its rows.
  public init(lines: [String]) {
    self.lines = lines
  }
}

/// The data source and observer of a ``HorizontalScroller``: the original's `HorizontalScrollerDelegate`.
///
/// As in the original, the scroller asks for the number of items and for the
/// content of individual items, and reports the item the user landed on. Unlike
/// the original, which built every view up front in `reload`, the scroller asks
/// for a card only while it is visible, so the delegate may back millions of items.
///
/// - Important: The protocol is deliberately not actor-isolated. Every call is
///   made synchronously on the thread (or actor) that owns the scroller and is
///   calling its methods; the delegate must be used only from that same context.
///   Nothing here is `Sendable`.
public protocol HorizontalScrollerDelegate: AnyObject {
  /// The number of cards to show: the original's `numberOfViewsForHorizontalScroller:`.
  func numberOfItems(in scroller: HorizontalScroller) -> Int

  /// The content of card `index`, asked only while it is visible: the original's `horizontalScroller:viewAtIndex:`.
  func horizontalScroller(_ scroller: HorizontalScroller, cardAt index: Int) -> ScrollerCard

  /// Called with the card the scroller settled on after a scroll or a selection: the original's `horizontalScroller:clickedViewAtIndex:`.
  func horizontalScroller(_ scroller: HorizontalScroller, didSelectItemAt index: Int)

  /// The card to centre on ``HorizontalScroller/reload()``; optional, defaults to 0.
  ///
  /// The original's `@optional initialViewIndexForHorizontalScroller:`. Declared
  /// here as a requirement (with a default below) so that a conforming type's
  /// own implementation is dispatched dynamically.
  func initialIndex(for scroller: HorizontalScroller) -> Int

  /// Tells the delegate which cards the scroller is about to ask for, so it can fetch them
  /// in one go (a table view's prefetching); optional, the default does nothing.
  func horizontalScroller(_ scroller: HorizontalScroller, willShowItemsIn range: Range<Int>)
}

extension HorizontalScrollerDelegate {
  /// The default initial card, 0, for delegates that do not choose one (the ObjC method was optional).
  public func initialIndex(for scroller: HorizontalScroller) -> Int { 0 }

  /// No prefetching by default.
  public func horizontalScroller(_ scroller: HorizontalScroller, willShowItemsIn range: Range<Int>) {}
}
