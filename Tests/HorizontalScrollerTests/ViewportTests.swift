import HorizontalScroller
import Testing

/// The original app's geometry: a 320 pt screen, 100 pt views, 10 pt padding.
private func original(itemCount: Int = 5, offset: Int = 0) -> Viewport {
  Viewport(width: 320, cardWidth: 100, padding: 10, itemCount: itemCount, contentOffset: offset)
}

/// Column-by-column oracle, independent of the closed-form arithmetic under test:
/// for every viewport column, which card (if any) covers it.
private func oracleCoverage(_ viewport: Viewport) -> [Int: Range<Int>] {
  var columnsByCard: [Int: [Int]] = [:]
  for column in 0..<viewport.width {
    let content = viewport.contentOffset + column
    for index in 0..<viewport.itemCount {
      let left = viewport.inset + viewport.padding + index * (viewport.cardWidth + 2 * viewport.padding)
      if content >= left, content < left + viewport.cardWidth {
        columnsByCard[index, default: []].append(column)
      }
    }
  }
  return columnsByCard.mapValues { $0.first!..<($0.last! + 1) }
}

@Suite("Viewport arithmetic")
struct ViewportTests {
  // MARK: - The original numbers

  @Test func originalGeometryReproducesObjCConstants() {
    let viewport = original()
    #expect(viewport.stride == 120)  // VIEW_DIMENSIONS + 2 * VIEW_PADDING
    #expect(viewport.inset == 100)  // VIEWS_OFFSET
    #expect(viewport.maxOffset == 480)
    #expect(viewport.contentOffset == 0)
    #expect(viewport.currentIndex == 0)
  }

  @Test(arguments: 0..<5)
  func offsetOfIndexTimesStrideCentresThatCard(index: Int) {
    let viewport = original().centred(on: index)
    #expect(viewport.contentOffset == index * 120)
    #expect(viewport.currentIndex == index)
    #expect(viewport.isSnapped)
    // The original laid view i out at x = 110 + 120·i.
    #expect(viewport.contentFrame(of: index)?.x == 110 + 120 * index)
    #expect(viewport.contentFrame(of: index)?.width == 100)
    // …so its centre lands on the screen centre, x = 160.
    let frame = viewport.frame(of: index)
    #expect(frame?.x == 110)
    #expect(frame.map { $0.x + $0.width / 2 } == 160)
  }

  @Test(arguments: [(0, 200), (1, 320), (5, 800), (10, 1400)])
  func contentWidthIsInsetPlusCardsPlusInset(itemCount: Int, expected: Int) {
    // contentSize.width = 100 + 120·n + 100
    #expect(original(itemCount: itemCount).contentWidth == expected)
  }

  @Test func contentFrameIsNilOutsideTheItems() {
    let viewport = original()
    #expect(viewport.contentFrame(of: -1) == nil)
    #expect(viewport.contentFrame(of: 5) == nil)
    #expect(viewport.contentFrame(of: 4)?.x == 590)
  }

  // MARK: - Snapping

  @Test(arguments: [
    (0, 0), (1, 0), (59, 0), (60, 1), (61, 1), (119, 1), (120, 1), (179, 1),
    (180, 2), (181, 2), (299, 2), (300, 3), (419, 3), (420, 4), (479, 4), (480, 4),
  ])
  func snapRoundsToNearestCardLikeCenterCurrentView(offset: Int, expectedIndex: Int) {
    let viewport = original(offset: offset)
    #expect(viewport.contentOffset == offset)
    #expect(viewport.currentIndex == expectedIndex)
    let snapped = viewport.snapped()
    #expect(snapped.contentOffset == expectedIndex * 120)
    #expect(snapped.currentIndex == expectedIndex)
    #expect(snapped.isSnapped)
    #expect(viewport.isSnapped == (offset == expectedIndex * 120))
  }

  @Test func currentIndexMatchesTheObjCIntegerFormulaAtEveryOffset() {
    // centerCurrentView: xFinal = offset.x + VIEW_DIMENSIONS/2 + VIEW_PADDING; idx = (int)(xFinal / 120)
    let base = original(itemCount: 5)
    for offset in 0...base.maxOffset {
      let viewport = base.scrolled(toOffset: offset)
      let objC = (offset + 100 / 2 + 10) / 120
      #expect(viewport.currentIndex == objC, "offset \(offset)")
      #expect(viewport.snapped().contentOffset == objC * 120, "offset \(offset)")
    }
  }

  @Test func snapWithOddStrideRoundsHalfUp() {
    // stride 7 (card 3, padding 2): offsets 0...3 → 0, 4...10 → 1 ((o + 3) / 7).
    let base = Viewport(width: 9, cardWidth: 3, padding: 2, itemCount: 3)
    let indices = (0...14).map { base.scrolled(toOffset: $0).currentIndex }
    #expect(indices == [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2])
  }

  // MARK: - Clamping

  @Test(arguments: [(-1, 0), (-500, 0), (Int.min, 0), (0, 0), (480, 480), (481, 480), (10_000, 480), (Int.max, 480)])
  func offsetIsClampedToBothEnds(requested: Int, stored: Int) {
    #expect(original(offset: requested).contentOffset == stored)
    #expect(original().scrolled(toOffset: requested).contentOffset == stored)
  }

  @Test(arguments: [(-3, 0), (Int.min, 0), (4, 4), (5, 4), (99, 4), (Int.max, 4)])
  func centringClampsTheIndex(requested: Int, centred: Int) {
    let viewport = original().centred(on: requested)
    #expect(viewport.currentIndex == centred)
    #expect(viewport.contentOffset == centred * 120)
  }

  @Test func badInitArgumentsAreClampedNotTrapped() {
    let viewport = Viewport(width: -5, cardWidth: 0, padding: -1, itemCount: -3, contentOffset: -7)
    #expect(viewport.width == 1)
    #expect(viewport.cardWidth == 1)
    #expect(viewport.padding == 0)
    #expect(viewport.itemCount == 0)
    #expect(viewport.contentOffset == 0)
    #expect(viewport.stride == 1)
  }

  // MARK: - Moving by cards and columns

  @Test(arguments: [(0, 1), (1, 2), (-1, 0), (3, 4), (10, 4), (-10, 0), (Int.max, 4), (Int.min, 0)])
  func scrolledByCardsMovesFromTheCurrentCardAndClamps(cards: Int, landing: Int) {
    let viewport = original().centred(on: 1).scrolled(by: cards)
    #expect(viewport.currentIndex == landing)
    #expect(viewport.contentOffset == landing * 120)
  }

  @Test func scrolledByCardsFromAnUnsnappedOffsetStartsAtTheNearestCard() {
    let dragged = original(offset: 70)  // nearest card is 1
    #expect(dragged.scrolled(by: 1).contentOffset == 240)
    #expect(dragged.scrolled(by: 0).contentOffset == 120)
    #expect(dragged.scrolled(by: -1).contentOffset == 0)
  }

  @Test func scrolledByColumnsIsARawDragThatDoesNotSnap() {
    let viewport = original().scrolledBy(columns: 70)
    #expect(viewport.contentOffset == 70)
    #expect(!viewport.isSnapped)
    #expect(viewport.scrolledBy(columns: -100).contentOffset == 0)
    #expect(viewport.scrolledBy(columns: 1_000).contentOffset == 480)
    #expect(viewport.scrolledBy(columns: 50).snapped().contentOffset == 120)
  }

  // MARK: - Empty library

  @Test func emptyLibraryHasNoCurrentCardAndNothingVisible() {
    let viewport = Viewport(width: 320, cardWidth: 100, padding: 10, contentOffset: 100)
    #expect(viewport.itemCount == 0)
    #expect(viewport.currentIndex == nil)
    #expect(viewport.visibleRange.isEmpty)
    #expect(viewport.maxOffset == 0)
    #expect(viewport.contentOffset == 0)
    #expect(viewport.contentWidth == 200)
    #expect(viewport.frame(of: 0) == nil)
    #expect(viewport.visibleColumns(of: 0) == nil)
    #expect(viewport.index(atColumn: 160) == nil)
    #expect(viewport.isSnapped)
    #expect(viewport.snapped() == viewport)
    #expect(viewport.scrolled(by: 3) == viewport)
    #expect(viewport.scrolledBy(columns: 50) == viewport)
    #expect(viewport.centred(on: 2) == viewport)
  }

  // MARK: - Visible range

  @Test(arguments: [
    (0, 0..<2),  // card 0 centred, card 1 cut off on the right
    (30, 0..<2),  // card 2's left edge (350) is exactly the window's right edge: not visible
    (31, 0..<3),  // …one column further and its first column shows
    (209, 0..<4),  // card 0's last column (209) still shows
    (210, 1..<4),  // …and now it is gone
    (240, 1..<4),  // card 2 centred, cards 1 and 3 cut off on each side
    (480, 3..<5),  // last card centred
  ])
  func visibleRangeIncludesPartiallyVisibleCards(offset: Int, expected: Range<Int>) {
    #expect(original(offset: offset).visibleRange == expected)
  }

  @Test func visibleRangeAtTheStartShowsTheNextCardCutOff() {
    let viewport = original()
    #expect(viewport.visibleRange == 0..<2)
    #expect(viewport.frame(of: 0)?.x == 110)
    #expect(viewport.frame(of: 1)?.x == 230)
    #expect(viewport.visibleColumns(of: 0) == 110..<210)
    #expect(viewport.visibleColumns(of: 1) == 230..<320)
    #expect(viewport.frame(of: 2) == nil)
  }

  @Test func visibleRangeInTheMiddleCutsCardsOffOnBothSides() {
    let viewport = original().centred(on: 2)
    #expect(viewport.visibleRange == 1..<4)
    #expect(viewport.frame(of: 1)?.x == -10)
    #expect(viewport.frame(of: 1)?.width == 100)
    #expect(viewport.visibleColumns(of: 1) == 0..<90)
    #expect(viewport.frame(of: 2)?.x == 110)
    #expect(viewport.frame(of: 3)?.x == 230)
    #expect(viewport.visibleColumns(of: 3) == 230..<320)
    #expect(viewport.frame(of: 0) == nil)
    #expect(viewport.frame(of: 4) == nil)
  }

  @Test func visibleRangeAtTheEndShowsThePreviousCardCutOff() {
    let viewport = original().centred(on: 4)
    #expect(viewport.visibleRange == 3..<5)
    #expect(viewport.frame(of: 3)?.x == -10)
    #expect(viewport.frame(of: 4)?.x == 110)
    #expect(viewport.visibleColumns(of: 4) == 110..<210)
  }

  @Test(arguments: [
    (320, 100, 10, 5),  // the original
    (80, 100, 10, 5),  // narrower than a card: negative inset
    (1, 3, 2, 4),  // one column, which often falls in a gap
    (7, 3, 0, 6),  // no padding: cards touch
    (10, 1, 4, 3),  // wide padding
    (11, 4, 1, 1),  // a single card
    (9, 2, 1, 0),  // empty
  ])
  func visibleRangeFramesAndHitTestAgreeWithAColumnByColumnOracle(
    width: Int, cardWidth: Int, padding: Int, itemCount: Int
  ) {
    let base = Viewport(width: width, cardWidth: cardWidth, padding: padding, itemCount: itemCount)
    for offset in 0...base.maxOffset {
      let viewport = base.scrolled(toOffset: offset)
      let coverage = oracleCoverage(viewport)
      let expected = Set(coverage.keys)
      #expect(Set(viewport.visibleRange) == expected, "offset \(offset)")
      for index in -1...itemCount {
        #expect(viewport.visibleColumns(of: index) == coverage[index], "offset \(offset) card \(index)")
      }
      for column in -1...width {
        let oracle = coverage.first { $0.value.contains(column) }?.key
        #expect(viewport.index(atColumn: column) == oracle, "offset \(offset) column \(column)")
      }
    }
  }

  @Test(
    arguments: [
      (-1, nil), (0, nil), (109, nil), (110, 0), (160, 0), (209, 0), (210, nil), (229, nil),
      (230, 1), (319, 1), (320, nil), (Int.min, nil), (Int.max, nil),
    ] as [(Int, Int?)])
  func hitTestFindsTheCardUnderAColumn(column: Int, expected: Int?) {
    #expect(original().index(atColumn: column) == expected)
  }

  // MARK: - Resizing

  @Test func resizeKeepsTheCurrentCardCentredAndChangesTheVisibleRange() {
    let wide = original().centred(on: 2)
    #expect(wide.visibleRange == 1..<4)

    let narrow = wide.resized(width: 80)
    #expect(narrow.width == 80)
    #expect(narrow.currentIndex == 2)
    #expect(narrow.contentOffset == 240)
    #expect(narrow.inset == -20)
    #expect(narrow.visibleRange == 2..<3)
    #expect(narrow.frame(of: 2)?.x == -10)
    #expect(narrow.visibleColumns(of: 2) == 0..<80)

    let wider = wide.resized(width: 560)
    #expect(wider.currentIndex == 2)
    #expect(wider.visibleRange == 0..<5)
    #expect(wider.frame(of: 0)?.x == -10)
    #expect(wider.frame(of: 2)?.x == 230)
    #expect(wider.visibleColumns(of: 4) == 470..<560)
  }

  @Test(arguments: [1, 2, 79, 80, 81, 320, 1000])
  func resizedCardStaysCentredAtAnyWidth(width: Int) {
    let viewport = original().centred(on: 3).resized(width: width)
    #expect(viewport.currentIndex == 3)
    #expect(viewport.frame(of: 3)?.x == width / 2 - 50)
  }

  @Test func resizeFromAnUnsnappedOffsetSnapsToTheCurrentCard() {
    let viewport = original(offset: 250).resized(width: 200)
    #expect(viewport.contentOffset == 240)
    #expect(viewport.currentIndex == 2)
  }

  // MARK: - Item count changes

  @Test func shrinkingItemCountClampsTheOffsetToTheNewLastCard() {
    let atEnd = original().centred(on: 4)
    let shrunk = atEnd.withItemCount(3)
    #expect(shrunk.itemCount == 3)
    #expect(shrunk.contentOffset == 240)
    #expect(shrunk.currentIndex == 2)
    #expect(shrunk.isSnapped)

    let emptied = atEnd.withItemCount(0)
    #expect(emptied.contentOffset == 0)
    #expect(emptied.currentIndex == nil)
  }

  @Test func growingItemCountKeepsTheOffset() {
    let grown = original(itemCount: 3).centred(on: 2).withItemCount(10)
    #expect(grown.contentOffset == 240)
    #expect(grown.currentIndex == 2)
    #expect(grown.visibleRange == 1..<4)
  }

  // MARK: - Extremes

  @Test func hugeInputsAreClampedWithoutOverflow() {
    let huge = Viewport(width: .max, cardWidth: .max, padding: .max, itemCount: .max, contentOffset: .max)
    let d = Viewport.maxDimension
    let last = Viewport.maxItemCount - 1
    #expect(huge.width == d)
    #expect(huge.cardWidth == d)
    #expect(huge.padding == d)
    #expect(huge.itemCount == Viewport.maxItemCount)
    #expect(huge.stride == 3 * d)
    #expect(huge.maxOffset == last * 3 * d)
    #expect(huge.contentOffset == huge.maxOffset)
    #expect(huge.currentIndex == last)
    #expect(huge.visibleRange == last..<(last + 1))
    #expect(huge.frame(of: last)?.x == 0)
    #expect(huge.contentWidth == 2 * huge.inset + Viewport.maxItemCount * 3 * d)

    #expect(huge.scrolled(by: .max).currentIndex == last)
    #expect(huge.scrolled(by: .min).contentOffset == 0)
    #expect(huge.scrolledBy(columns: .max).contentOffset == huge.maxOffset)
    #expect(huge.scrolledBy(columns: .min).contentOffset == 0)
    #expect(huge.centred(on: .max).currentIndex == last)
    #expect(huge.centred(on: .min).currentIndex == 0)
    #expect(huge.frame(of: .max) == nil)
    #expect(huge.frame(of: .min) == nil)
    #expect(huge.contentFrame(of: .max) == nil)
    #expect(huge.index(atColumn: .max) == nil)
    #expect(huge.index(atColumn: .min) == nil)
    #expect(huge.resized(width: .max).width == d)
    #expect(huge.resized(width: .min).width == 1)
    #expect(huge.withItemCount(.min).itemCount == 0)
    #expect(huge.withItemCount(.max).itemCount == Viewport.maxItemCount)
  }

  @Test func dragPastIntMaxSaturatesInsteadOfOverflowing() {
    let atEnd = original().centred(on: 4)
    #expect(atEnd.scrolledBy(columns: .max).contentOffset == 480)
    #expect(atEnd.scrolledBy(columns: .min).contentOffset == 0)
    #expect(atEnd.scrolled(by: .max).currentIndex == 4)
  }

  @Test func millionItemsVisibleRangeIsSmallAndCorrect() {
    let library = original(itemCount: 1_000_000)
    #expect(library.maxOffset == 999_999 * 120)

    let middle = library.centred(on: 500_000)
    #expect(middle.contentOffset == 60_000_000)
    #expect(middle.visibleRange == 499_999..<500_002)
    #expect(middle.frame(of: 499_999)?.x == -10)
    #expect(middle.frame(of: 500_001)?.x == 230)

    let end = library.centred(on: 999_999)
    #expect(end.contentOffset == 119_999_880)
    #expect(end.visibleRange == 999_998..<1_000_000)

    // Dragged 1,000 columns right of card 500,000: window [60_001_000, 60_001_320).
    // Card i spans [110 + 120i, 210 + 120i): 500_007 ends at 60_001_050, 500_010 starts at 60_001_310.
    let dragged = middle.scrolledBy(columns: 1_000)
    #expect(dragged.visibleRange == 500_007..<500_011)
    #expect(dragged.currentIndex == 500_008)
    #expect(dragged.visibleColumns(of: 500_007) == 0..<50)
    #expect(dragged.visibleColumns(of: 500_008) == 70..<170)
    #expect(dragged.visibleColumns(of: 500_010) == 310..<320)
  }
}
