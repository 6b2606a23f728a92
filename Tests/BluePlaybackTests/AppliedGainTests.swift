import BluePlayback
import Testing

/// The gain a file's ReplayGain tags get (issue 46, H8): never past what the tag's peak
/// allows, never past the ceiling, and `now` says when it was held.
@Suite struct AppliedGainTests {
  @Test func aGainPastTheCeilingIsHeldThereAndSaysSo() throws {
    // +60 dB with a peak of 0.001: the peak alone would allow all of it.
    let gain = try #require(
      AppliedGain(mode: .album, albumGain: 60, albumPeak: 0.001, trackGain: 60, trackPeak: 0.001, fallback: -6))
    #expect(gain.decibels == AppliedGain.ceiling)
    #expect(gain.heldBy == .ceiling)
    #expect(gain.description == "ReplayGain album +15.00 dB (the tags ask +60.00 dB: held at the ceiling)")
  }

  @Test func aGainPastItsPeakIsHeldAtFullScale() throws {
    // A peak of 0.5 (−6.02 dBFS) allows +6.02 dB.
    let gain = try #require(AppliedGain(mode: .track, albumGain: nil, trackGain: 9, trackPeak: 0.5, fallback: -6))
    #expect(abs(gain.decibels - 6.0206) < 0.001)
    #expect(gain.heldBy == .peak(0.5))
    #expect(gain.description == "ReplayGain track +6.02 dB (the tags ask +9.00 dB: held by the peak 0.5)")
  }

  @Test func aGainWithinItsPeakAndTheCeilingIsAppliedAsAsked() throws {
    let quiet = try #require(
      AppliedGain(mode: .album, albumGain: 8, albumPeak: 0.2, trackGain: 7, trackPeak: 0.1, fallback: -6))
    #expect(quiet.decibels == 8)
    #expect(quiet.heldBy == nil)
    #expect(quiet.description == "ReplayGain album +8.00 dB")
    let loud = try #require(AppliedGain(mode: .album, albumGain: -7.3, albumPeak: 1, trackGain: -5, fallback: -6))
    #expect(loud.description == "ReplayGain album −7.30 dB")
  }

  /// An album gain missing is the track's, with the track's peak.
  @Test func aMissingAlbumGainIsTheTracksWithItsPeak() throws {
    let gain = try #require(
      AppliedGain(mode: .album, albumGain: nil, albumPeak: 1, trackGain: 12, trackPeak: 0.5, fallback: -6))
    #expect(gain.heldBy == .peak(0.5))
  }

  /// Gains that are not numbers are no tags at all (the fallback); peaks that are not
  /// positive numbers hold nothing (the ceiling still does).
  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aGainThatIsNotANumberIsNoTags(_ value: Double) throws {
    let gain = try #require(AppliedGain(mode: .track, albumGain: nil, trackGain: value, trackPeak: 1, fallback: -6))
    #expect(gain.fromTags == false)
    #expect(gain.decibels == -6)
  }

  @Test(arguments: [Double.nan, 0, -1, .infinity])
  func aPeakThatIsNotAPositiveNumberHoldsNothing(_ peak: Double) throws {
    let gain = try #require(AppliedGain(mode: .track, albumGain: nil, trackGain: 40, trackPeak: peak, fallback: -6))
    #expect(gain.decibels == AppliedGain.ceiling)
    #expect(gain.heldBy == .ceiling)
  }

  @Test func offAppliesNothing() {
    #expect(AppliedGain(mode: .off, albumGain: 60, trackGain: 60, fallback: -6) == nil)
  }

  /// A music server applies its gain itself, and says only its mode (issue 47, item 3).
  @Test func aServersGainIsNamedByItsMode() {
    #expect(AppliedGain(serverMode: "album").description == "ReplayGain album (the server's)")
    #expect(AppliedGain(serverMode: "auto").description == "ReplayGain auto (the server's)")
  }
}
