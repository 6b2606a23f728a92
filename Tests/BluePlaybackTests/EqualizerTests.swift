import BluePlayback
import Testing

/// The equalizer's values (issue 49, item 3): the headroom its pre-amp leaves, the filters
/// libmpv is given, and the text the library file keeps.
@Suite struct EqualizerTests {
  @Test func withoutAPreampTheLargestBoostIsTakenAway() throws {
    let boosted = try #require(Equalizer(gains: [6, 3, 0, 0, 0, 0, 0, 0, -4, 0]))
    #expect(boosted.preamp == -6)
    let cut = try #require(Equalizer(gains: [0, 0, 0, 0, 0, -12, 0, 0, 0, 0]))
    #expect(cut.preamp == 0)
    let given = try #require(Equalizer(gains: [6, 0, 0, 0, 0, 0, 0, 0, 0, 0], preamp: -2))
    #expect(given.preamp == -2)
  }

  @Test func aCountOrAValueOutOfRangeIsNone() {
    #expect(Equalizer(gains: [1, 2, 3]) == nil)
    #expect(Equalizer(gains: [13, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
    #expect(Equalizer(gains: [Double.nan, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
    #expect(Equalizer(gains: Array(repeating: 0, count: 10), preamp: -30) == nil)
  }

  @Test func theFiltersAreAPreampThenTheBandsThatAreNotFlat() throws {
    let equalizer = try #require(Equalizer(gains: [0, 0, 0, 0, 0, -12, 0, 0, 2.5, 0]))
    #expect(
      equalizer.filters == [
        "volume=volume=-2.5dB", "equalizer=f=1000:t=o:w=1:g=-12", "equalizer=f=8000:t=o:w=1:g=2.5",
      ])
    #expect(try #require(Equalizer(gains: Array(repeating: 0, count: 10))).filters.isEmpty)
  }

  @Test func theKeptTextReadsBackAsTheSameEqualizer() throws {
    let equalizer = try #require(Equalizer(gains: [4, 3, 0, 0, 0, 0, 0, 1, 2, -2.5], preamp: -5))
    #expect(equalizer.text == "+4 +3 0 0 0 0 0 +1 +2 -2.5 preamp -5")
    #expect(Equalizer(text: equalizer.text) == equalizer)
    for damaged in ["", "off", "1 2 3 preamp 0", "a 0 0 0 0 0 0 0 0 0 preamp 0", "0 0 0 0 0 0 0 0 0 0 pre 0"] {
      #expect(Equalizer(text: damaged) == nil, "\(damaged)")
    }
  }
}
