import HorizontalScroller
import Testing

/// A delegate that records every call, including every card index it was asked for.
private final class RecordingDelegate: HorizontalScrollerDelegate {
  var count: Int
  var initial: Int
  private(set) var requestedCards: [Int] = []
  private(set) var announcedRanges: [Range<Int>] = []
  private(set) var selections: [Int] = []
  /// The scroller's current index as seen from inside each didSelect call.
  private(set) var currentIndexDuringSelection: [Int?] = []
  private(set) var countRequests = 0
  private(set) var initialRequests = 0

  init(count: Int, initial: Int = 0) {
    self.count = count
    self.initial = initial
  }

  func numberOfItems(in scroller: HorizontalScroller) -> Int {
    countRequests += 1
    return count
  }

  func horizontalScroller(_ scroller: HorizontalScroller, cardAt index: Int) -> ScrollerCard {
    requestedCards.append(index)
    return ScrollerCard(lines: ["card \(index)", "row 2"])
  }

  func horizontalScroller(_ scroller: HorizontalScroller, didSelectItemAt index: Int) {
    selections.append(index)
    currentIndexDuringSelection.append(scroller.currentIndex)
  }

  func initialIndex(for scroller: HorizontalScroller) -> Int {
    initialRequests += 1
    return initial
  }

  func horizontalScroller(_ scroller: HorizontalScroller, willShowItemsIn range: Range<Int>) {
    announcedRanges.append(range)
  }

  func forgetRequests() {
    requestedCards = []
  }
}

/// A delegate that implements only the required methods, like an ObjC delegate without the @optional one.
private final class MinimalDelegate: HorizontalScrollerDelegate {
  let count: Int
  private(set) var selections: [Int] = []

  init(count: Int) { self.count = count }

  func numberOfItems(in scroller: HorizontalScroller) -> Int { count }

  func horizontalScroller(_ scroller: HorizontalScroller, cardAt index: Int) -> ScrollerCard {
    ScrollerCard(lines: ["\(index)"])
  }

  func horizontalScroller(_ scroller: HorizontalScroller, didSelectItemAt index: Int) {
    selections.append(index)
  }
}

/// A scroller with the original's geometry (320 wide, 100-column cards, padding 10), reloaded from `delegate`.
private func makeScroller(_ delegate: any HorizontalScrollerDelegate, width: Int = 320) -> HorizontalScroller {
  let scroller = HorizontalScroller(width: width, cardWidth: 100, padding: 10)
  scroller.delegate = delegate
  scroller.reload()
  return scroller
}

@Suite("HorizontalScroller with a delegate")
struct HorizontalScrollerTests {
  // MARK: - Reload

  @Test func reloadCentresTheDelegatesInitialIndexWithoutSelecting() {
    let delegate = RecordingDelegate(count: 10, initial: 4)
    let scroller = makeScroller(delegate)
    #expect(scroller.viewport.itemCount == 10)
    #expect(scroller.currentIndex == 4)
    #expect(scroller.viewport.contentOffset == 480)
    #expect(delegate.countRequests == 1)
    #expect(delegate.initialRequests == 1)
    #expect(delegate.selections.isEmpty)
    #expect(delegate.requestedCards.isEmpty)  // cards are fetched lazily, not on reload
  }

  @Test func reloadDefaultsToIndexZeroWhenDelegateOmitsInitialIndex() {
    let delegate = MinimalDelegate(count: 5)
    let scroller = makeScroller(delegate)
    #expect(scroller.currentIndex == 0)
    scroller.scroll(by: 3)
    #expect(scroller.currentIndex == 3)
    scroller.reload()
    #expect(scroller.currentIndex == 0)
    #expect(scroller.viewport.contentOffset == 0)
    #expect(delegate.selections == [3])
  }

  @Test func defaultInitialIndexIsZero() {
    let delegate = MinimalDelegate(count: 5)
    let scroller = HorizontalScroller(width: 320, cardWidth: 100, padding: 10)
    #expect(delegate.initialIndex(for: scroller) == 0)
  }

  @Test(arguments: [(-3, 0), (Int.min, 0), (9, 9), (10, 9), (99, 9), (Int.max, 9)])
  func reloadClampsTheInitialIndex(initial: Int, centred: Int) {
    let delegate = RecordingDelegate(count: 10, initial: initial)
    let scroller = makeScroller(delegate)
    #expect(scroller.currentIndex == centred)
    #expect(scroller.viewport.contentOffset == centred * 120)
    #expect(delegate.selections.isEmpty)
  }

  @Test func reloadWithNoItemsIsEmptyAndReportsNothing() {
    let delegate = RecordingDelegate(count: 0, initial: 3)
    let scroller = makeScroller(delegate)
    #expect(scroller.currentIndex == nil)
    #expect(scroller.visibleCards().isEmpty)
    #expect(delegate.initialRequests == 0)
    scroller.scroll(by: 1)
    scroller.scroll(toOffset: 500)
    #expect(scroller.select(index: 0) == false)
    #expect(scroller.tap(atColumn: 160) == nil)
    #expect(delegate.selections.isEmpty)
    #expect(delegate.requestedCards.isEmpty)
  }

  @Test func reloadPicksUpANewCountAndInitialIndex() {
    let delegate = RecordingDelegate(count: 3, initial: 1)
    let scroller = makeScroller(delegate)
    delegate.count = 8
    delegate.initial = 6
    scroller.reload()
    #expect(scroller.viewport.itemCount == 8)
    #expect(scroller.currentIndex == 6)
    #expect(delegate.countRequests == 2)
  }

  @Test func reloadWithoutADelegateEmptiesTheScroller() {
    let delegate = RecordingDelegate(count: 5, initial: 2)
    let scroller = makeScroller(delegate)
    #expect(scroller.viewport.itemCount == 5)
    scroller.delegate = nil
    scroller.reload()
    #expect(scroller.viewport.itemCount == 0)
    #expect(scroller.currentIndex == nil)
    #expect(scroller.visibleCards().isEmpty)
    #expect(delegate.requestedCards.isEmpty)
  }

  @Test func delegateIsHeldWeakly() {
    let scroller = HorizontalScroller(width: 320, cardWidth: 100, padding: 10)
    weak var observed: RecordingDelegate?
    do {
      let delegate = RecordingDelegate(count: 5)
      observed = delegate
      scroller.delegate = delegate
      #expect(scroller.delegate === delegate)
    }
    #expect(observed == nil)
    #expect(scroller.delegate == nil)
  }

  // MARK: - Scrolling reports the snapped card

  @Test func scrollByCardsReportsEachSnappedIndex() {
    let delegate = RecordingDelegate(count: 10)
    let scroller = makeScroller(delegate)
    scroller.scroll(by: 2)
    #expect(scroller.viewport.contentOffset == 240)
    scroller.scroll(by: -1)
    scroller.scroll(by: 100)
    scroller.scroll(by: 1)  // already at the end: reported again, as centerCurrentView always did
    scroller.scroll(by: .min)
    #expect(delegate.selections == [2, 1, 9, 9, 0])
    #expect(scroller.currentIndex == 0)
  }

  @Test func selectionIsReportedAfterTheViewportMoves() {
    let delegate = RecordingDelegate(count: 10)
    let scroller = makeScroller(delegate)
    scroller.scroll(by: 3)
    scroller.select(index: 7)
    scroller.scroll(toOffset: 130)
    #expect(delegate.selections == [3, 7, 1])
    #expect(delegate.currentIndexDuringSelection == [3, 7, 1])
  }

  @Test(arguments: [(59, 0), (60, 1), (179, 1), (180, 2), (-40, 0), (100_000, 9), (Int.max, 9), (Int.min, 0)])
  func scrollToOffsetSnapsLikeCenterCurrentView(offset: Int, landing: Int) {
    let delegate = RecordingDelegate(count: 10)
    let scroller = makeScroller(delegate)
    scroller.scroll(toOffset: offset)
    #expect(scroller.viewport.contentOffset == landing * 120)
    #expect(scroller.viewport.isSnapped)
    #expect(delegate.selections == [landing])
  }

  @Test func scrollByColumnsDragsThenSnaps() {
    let delegate = RecordingDelegate(count: 10, initial: 3)
    let scroller = makeScroller(delegate)
    scroller.scroll(byColumns: 59)  // 419 → back to card 3
    #expect(scroller.viewport.contentOffset == 360)
    scroller.scroll(byColumns: 60)  // 420 → card 4
    #expect(scroller.viewport.contentOffset == 480)
    scroller.scroll(byColumns: -61)  // 419 → card 3
    scroller.scroll(byColumns: .max)
    scroller.scroll(byColumns: .min)
    #expect(delegate.selections == [3, 4, 3, 9, 0])
  }

  // MARK: - Selecting (the tap)

  @Test func selectCentresTheTappedCardAndReportsIt() {
    let delegate = RecordingDelegate(count: 10)
    let scroller = makeScroller(delegate)
    #expect(scroller.select(index: 7))
    #expect(scroller.currentIndex == 7)
    #expect(scroller.viewport.contentOffset == 840)
    #expect(scroller.select(index: 10) == false)
    #expect(scroller.select(index: -1) == false)
    #expect(scroller.select(index: .max) == false)
    #expect(scroller.currentIndex == 7)
    #expect(delegate.selections == [7])
  }

  @Test func tapHitTestsTheColumnAndSelectsThatCard() {
    let delegate = RecordingDelegate(count: 10)
    let scroller = makeScroller(delegate)
    #expect(scroller.tap(atColumn: 250) == 1)  // card 1 is cut off at 230..<320
    #expect(scroller.viewport.contentOffset == 120)
    #expect(scroller.tap(atColumn: 105) == nil)  // padding before the centred card
    #expect(scroller.tap(atColumn: 400) == nil)  // outside the viewport
    #expect(scroller.tap(atColumn: 160) == 1)  // the centred card itself
    #expect(scroller.tap(atColumn: 5) == 0)  // card 0 is cut off at -10..<90
    #expect(delegate.selections == [1, 1, 0])
  }

  // MARK: - Visible cards

  @Test func visibleCardsAsksOnlyForVisibleIndicesAmongAMillion() {
    let delegate = RecordingDelegate(count: 1_000_000, initial: 500_000)
    let scroller = makeScroller(delegate)
    let cards = scroller.visibleCards()
    #expect(cards.map(\.index) == [499_999, 500_000, 500_001])
    #expect(cards.map(\.x) == [-10, 110, 230])
    #expect(cards.map(\.width) == [100, 100, 100])
    #expect(cards.map(\.isCurrent) == [false, true, false])
    #expect(cards[1].card == ScrollerCard(lines: ["card 500000", "row 2"]))
    #expect(Set(delegate.requestedCards) == Set(scroller.viewport.visibleRange))
    #expect(delegate.requestedCards.count == 3)
    // The delegate hears the visible range first, so it can fetch the cards in one query.
    #expect(delegate.announcedRanges == [499_999..<500_002])
  }

  @Test func visibleCardsAtTheEndAsksOnlyForTheLastTwo() {
    let delegate = RecordingDelegate(count: 1_000_000, initial: 999_999)
    let scroller = makeScroller(delegate)
    let cards = scroller.visibleCards()
    #expect(
      cards == [
        VisibleCard(
          index: 999_998, x: -10, width: 100, isCurrent: false, card: ScrollerCard(lines: ["card 999998", "row 2"])),
        VisibleCard(
          index: 999_999, x: 110, width: 100, isCurrent: true, card: ScrollerCard(lines: ["card 999999", "row 2"])),
      ])
    #expect(delegate.requestedCards == [999_998, 999_999])
  }

  @Test func visibleCardsFollowAScroll() {
    let delegate = RecordingDelegate(count: 20)
    let scroller = makeScroller(delegate)
    #expect(scroller.visibleCards().map(\.index) == [0, 1])
    delegate.forgetRequests()
    scroller.scroll(by: 10)
    #expect(scroller.visibleCards().map(\.index) == [9, 10, 11])
    #expect(delegate.requestedCards == [9, 10, 11])
  }

  @Test func visibleCardsWithoutADelegateIsEmpty() {
    let scroller = HorizontalScroller(width: 320, cardWidth: 100, padding: 10)
    #expect(scroller.visibleCards().isEmpty)
    #expect(scroller.currentIndex == nil)
  }

  // MARK: - Resize

  @Test func resizeRelaysOutAroundTheCurrentCard() {
    let delegate = RecordingDelegate(count: 5, initial: 2)
    let scroller = makeScroller(delegate)
    #expect(scroller.visibleCards().map(\.index) == [1, 2, 3])

    delegate.forgetRequests()
    scroller.resize(width: 80)
    let narrow = scroller.visibleCards()
    #expect(scroller.viewport.width == 80)
    #expect(narrow.map(\.index) == [2])
    #expect(narrow.map(\.x) == [-10])
    #expect(delegate.requestedCards == [2])

    scroller.resize(width: 560)
    let wide = scroller.visibleCards()
    #expect(wide.map(\.index) == [0, 1, 2, 3, 4])
    #expect(wide.map(\.x) == [-10, 110, 230, 350, 470])
    #expect(scroller.currentIndex == 2)
    #expect(delegate.selections.isEmpty)
  }

  // MARK: - Inserts and deletes

  @Test func itemCountDidChangeClampsToTheNewLastCard() {
    let delegate = RecordingDelegate(count: 10, initial: 9)
    let scroller = makeScroller(delegate)
    delegate.count = 5
    scroller.itemCountDidChange()
    #expect(scroller.viewport.itemCount == 5)
    #expect(scroller.currentIndex == 4)
    #expect(scroller.viewport.contentOffset == 480)
    delegate.count = 0
    scroller.itemCountDidChange()
    #expect(scroller.currentIndex == nil)
    #expect(delegate.selections.isEmpty)
  }

  @Test func itemCountDidChangeKeepsTheCurrentCardWhenItStillExists() {
    let delegate = RecordingDelegate(count: 10, initial: 3)
    let scroller = makeScroller(delegate)
    delegate.count = 20
    scroller.itemCountDidChange()
    #expect(scroller.currentIndex == 3)
    delegate.count = 4
    scroller.itemCountDidChange()
    #expect(scroller.currentIndex == 3)
    #expect(delegate.initialRequests == 1)  // not a reload
  }

  @Test func itemCountDidChangeCanCentreAChosenCard() {
    let delegate = RecordingDelegate(count: 10, initial: 2)
    let scroller = makeScroller(delegate)
    delegate.count = 8
    scroller.itemCountDidChange(centringOn: 6)
    #expect(scroller.currentIndex == 6)
    scroller.itemCountDidChange(centringOn: 50)
    #expect(scroller.currentIndex == 7)
    #expect(delegate.selections.isEmpty)
  }
}
