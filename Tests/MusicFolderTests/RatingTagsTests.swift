import Foundation
import MusicFolder
import TestSupport
import Testing

/// Ratings and favourite marks in the files (issue 38, item 2): TagLib writes them where other
/// players read them, mutagen reads them back, and what other players write is read.
@Suite struct RatingTagsTests {
  /// What TagLib writes for four stars and a favourite, as mutagen reads it, by format.
  static let written: [AudioFormat: String] = [
    .mp3: "POPM:Windows Media Player 9 Series=196 TXXX:FMPS_Rating=0.8 TXXX:LOVE RATING=L",
    .flac: "FMPS_RATING=0.8 LOVE RATING=L RATING=4",
    .ogg: "FMPS_RATING=0.8 LOVE RATING=L RATING=4",
    .opus: "FMPS_RATING=0.8 LOVE RATING=L RATING=4",
    .m4a: "----:com.apple.iTunes:FMPS_Rating=0.8 ----:com.apple.iTunes:LOVE RATING=L rate=80",
  ]

  @Test(arguments: AudioFormat.allCases)
  func aRatingAndAFavouriteAreWrittenWhereOtherPlayersReadThemAndReadBack(format: AudioFormat) throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.\(format)", TagEdit(title: "River", rating: 4, favourite: true))
    #expect(try Mutagen.ratingTags([path]) == [Self.written[format] ?? "?"])
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("\(format): no audio read")
      return
    }
    #expect(tags.rating == 4)
    #expect(tags.favourite)
    #expect(tags.title == "River")

    // Another rating replaces it; nil leaves each alone.
    try TagEdit(rating: 2).write(to: path)
    guard case .track(let two) = TrackTags.read(path) else { return }
    #expect(two.rating == 2 && two.favourite)

    // 0 and false take them away: nothing left for any player.
    try TagEdit(rating: 0, favourite: false).write(to: path)
    #expect(try Mutagen.ratingTags([path]) == ["-"])
    guard case .track(let none) = TrackTags.read(path) else { return }
    #expect(none.rating == nil && !none.favourite && none.title == "River")
  }

  /// One file tagged by mutagen as another player would, and the stars and mark expected.
  struct Foreign: Sendable, CustomStringConvertible {
    var format: AudioFormat
    var script: String
    var stars: Int?
    var favourite: Bool
    var description: String { "\(format): \(script)" }
  }

  static let foreign: [Foreign] = [
    // Picard writes 51 a star; Windows Media Player 1, 64, 128, 196, 255, and its frame wins.
    Foreign(format: .mp3, script: "t.add(POPM(email='users@musicbrainz.org', rating=153))", stars: 3, favourite: false),
    Foreign(
      format: .mp3,
      script: "t.add(POPM(email='users@musicbrainz.org', rating=255)); "
        + "t.add(POPM(email='Windows Media Player 9 Series', rating=64))", stars: 2, favourite: false),
    Foreign(format: .mp3, script: "t.add(POPM(email='MusicBee', rating=230))", stars: 5, favourite: false),
    Foreign(
      format: .mp3,
      script: "t.add(TXXX(desc='FMPS_Rating', text=['0.6'])); t.add(TXXX(desc='LOVE RATING', text=['L']))",
      stars: 3, favourite: true),
    Foreign(format: .mp3, script: "t.add(TXXX(desc='LOVE RATING', text=['B']))", stars: nil, favourite: false),
    // Vorbis comments: RATING on a 100, 10 or 5 scale; FMPS_RATING before it.
    Foreign(format: .flac, script: "t['RATING'] = '80'", stars: 4, favourite: false),
    Foreign(format: .ogg, script: "t['RATING'] = '5'; t['FMPS_RATING'] = '0.4'", stars: 2, favourite: false),
    Foreign(format: .opus, script: "t['RATING'] = '3'; t['LOVE RATING'] = 'L'", stars: 3, favourite: true),
    Foreign(format: .flac, script: "t['RATING'] = '10'", stars: 5, favourite: false),
    // MP4: `rate` on 100 (Mp3tag, MusicBee), or FMPS_Rating.
    Foreign(format: .m4a, script: "t['rate'] = ['60']", stars: 3, favourite: false),
    Foreign(
      format: .m4a, script: "t['----:com.apple.iTunes:FMPS_Rating'] = [b'1.0']", stars: 5, favourite: false),
  ]

  @Test(arguments: foreign)
  func ratingsOtherPlayersWroteAreRead(case foreign: Foreign) throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.\(foreign.format)", TagEdit(title: "River"))
    let script = """
      import sys, mutagen
      from mutagen.id3 import POPM, TXXX
      f = mutagen.File(sys.argv[1])
      if f.tags is None:
          f.add_tags()
      t = f.tags
      \(foreign.script)
      f.save()
      """
    _ = try Mutagen.run(script, [path])
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("no audio read")
      return
    }
    #expect(tags.rating == foreign.stars)
    #expect(tags.favourite == foreign.favourite)
  }

  /// A play counter kept in a POPM frame of another player stays when the rating is cleared,
  /// and that frame follows the new rating on its own scale.
  @Test func anotherPlayersPlayCountStays() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.mp3", TagEdit(title: "River"))
    let script = """
      import sys, mutagen
      from mutagen.id3 import POPM
      f = mutagen.File(sys.argv[1])
      f.tags.add(POPM(email='users@musicbrainz.org', rating=51, count=7))
      f.save()
      """
    _ = try Mutagen.run(script, [path])
    try TagEdit(rating: 5).write(to: path)
    #expect(
      try Mutagen.ratingTags([path]) == [
        "POPM:Windows Media Player 9 Series=255 POPM:users@musicbrainz.org=255 TXXX:FMPS_Rating=1.0"
      ])
    try TagEdit(rating: 0).write(to: path)
    #expect(try Mutagen.ratingTags([path]) == ["POPM:users@musicbrainz.org=0"])
    let count = try Mutagen.run(
      "import sys, mutagen\nprint(mutagen.File(sys.argv[1]).tags.getall('POPM')[0].count)", [path])
    #expect(count == "7\n")
  }
}
