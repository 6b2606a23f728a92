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

  /// The POPM frames of the file named first, as mutagen reads them: `EMAIL RATING COUNT`
  /// (`-` for a frame without a count), by email, the last first.
  static let popularimeters = """
    import sys, mutagen
    tags = mutagen.File(sys.argv[1]).tags
    for frame in sorted(tags.getall("POPM"), key=lambda frame: frame.email, reverse=True):
        print(frame.email, frame.rating, getattr(frame, "count", "-"))
    """

  /// A POPM play count longer than TagLib's 4 bytes (mutagen writes 2³² + 5 in 5 bytes) and a
  /// frame without a count stay as they are through a write of another tag, and keep their
  /// counts when the rating is written (round 5, H14: any write gave the first one the count
  /// 16,777,216, and the second one a count of 0). In MP3, WAV and AIFF files alike.
  @Test(arguments: ["mp3", "wav", "aiff"])
  func aPlayCountTagLibCannotHoldStaysThroughAnyWrite(format: String) throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.\(format)", TagEdit(title: "River"))
    let script = """
      import sys, mutagen
      from mutagen.id3 import POPM
      f = mutagen.File(sys.argv[1])
      if f.tags is None:
          f.add_tags()
      f.tags.add(POPM(email='Windows Media Player 9 Series', rating=64, count=2**32 + 5))
      f.tags.add(POPM(email='', rating=128))
      f.save()
      """
    _ = try Mutagen.run(script, [path])
    let before = try Mutagen.run(Self.popularimeters, [path])
    #expect(before == "Windows Media Player 9 Series 64 4294967301\n 128 -\n")
    try TagEdit(genre: "Jazz").write(to: path)
    #expect(try Mutagen.run(Self.popularimeters, [path]) == before)
    try TagEdit(rating: 3).write(to: path)
    #expect(try Mutagen.run(Self.popularimeters, [path]) == "Windows Media Player 9 Series 128 4294967301\n 128 -\n")
    try TagEdit(rating: 0).write(to: path)
    #expect(try Mutagen.run(Self.popularimeters, [path]) == "Windows Media Player 9 Series 0 4294967301\n")
  }

  /// Where the play count cannot be read as the file holds it (junk before its ID3v2 tag,
  /// which TagLib reads past), the file is not written at all, and the error says why.
  @Test func aPlayCountThatCannotBeKeptRefusesTheWrite() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.mp3", TagEdit(title: "River"))
    let script = """
      import sys
      from mutagen.id3 import ID3, POPM
      tags = ID3(sys.argv[1])
      tags.add(POPM(email='Windows Media Player 9 Series', rating=64, count=2**32 + 5))
      tags.save(sys.argv[1])
      data = open(sys.argv[1], "rb").read()
      open(sys.argv[1], "wb").write(bytes(16) + data)
      """
    _ = try Mutagen.run(script, [path])
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(throws: TagWriteError.cutsAPlayCount(path)) { try TagEdit(genre: "Jazz").writeSafely(to: path) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(
      TagWriteError.cutsAPlayCount(path).description
        == "cannot write '\(path)': it has a POPM play count longer than TagLib writes back (4 bytes), which could "
        + "not be kept as it is")
  }

  /// Every tag of the file named first, as mutagen reads it, one line each, sorted (ID3
  /// frames with their fields as mutagen writes them).
  static let everyTag = """
    import sys, mutagen
    tags = mutagen.File(sys.argv[1]).tags
    if hasattr(tags, "getall"):
        out = ["%r %s" % (frame, frame._writeData().hex()) for frame in tags.values()]
    elif hasattr(tags, "vendor"):
        out = ["%s=%r" % (key.upper(), value) for key, value in tags]
    else:
        out = ["%s=%r" % (key, tags[key]) for key in tags.keys()]
    print("\\n".join(sorted(out)))
    """

  /// A file's rating tags as another player left them, and as mutagen writes them.
  struct Kept: Sendable, CustomStringConvertible {
    var format: String
    var script: String
    var description: String { "\(format): \(script)" }
  }

  static let kept: [Kept] = [
    Kept(
      format: "mp3",
      script: "t.add(POPM(email='MusicBee', rating=196, count=12)); t.add(POPM(email='', rating=128)); "
        + "t.add(TXXX(encoding=3, desc='LOVE RATING', text=['B'])); "
        + "t.add(TXXX(encoding=1, desc='fmps_rating', text=['NaN']))"),
    Kept(format: "mp3", script: ""),
    Kept(format: "wav", script: "t.add(POPM(email='rating@quodlibet', rating=255, count=2**40))"),
    Kept(format: "aiff", script: "t.add(TXXX(encoding=3, desc='FMPS_Rating', text=['1e309']))"),
    Kept(format: "flac", script: "t['RATING'] = ['60', 'five stars']; t['FMPS_RATING'] = '-inf'"),
    Kept(format: "ogg", script: "t['LOVE RATING'] = 'B'; t['RATING'] = '-1'"),
    Kept(format: "opus", script: ""),
    Kept(format: "m4a", script: "t['rate'] = ['999']; t['----:com.apple.iTunes:LOVE RATING'] = [b'B']"),
    Kept(format: "m4a", script: "t['----:com.apple.iTunes:FMPS_Rating'] = [MP4FreeForm(b'\\x01\\x02', 0)]"),
    Kept(format: "ape", script: "t['RATING'] = '1e308'"),
  ]

  /// The rating tags `ratingTags(of:)` reads are put back exactly by a write of them, over
  /// what a rating and favourite write made of them (round 5, H6), in every format.
  @Test(arguments: kept)
  func keptRatingTagsArePutBackExactly(case kept: Kept) throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.\(kept.format)", TagEdit(title: "River"))
    let script = """
      import sys, mutagen
      from mutagen.id3 import POPM, TXXX
      from mutagen.mp4 import MP4FreeForm
      f = mutagen.File(sys.argv[1])
      if f.tags is None:
          f.add_tags()
      t = f.tags
      \(kept.script)
      f.save()
      """
    _ = try Mutagen.run(script, [path])
    let before = try Mutagen.run(Self.everyTag, [path])
    let ratingTags = try TagEdit.ratingTags(of: path)
    try TagEdit(rating: 4, favourite: true).write(to: path)
    #expect(try Mutagen.run(Self.everyTag, [path]) != before)
    var restore = TagEdit(rating: 1, favourite: false)
    restore.ratingTags = ratingTags
    try restore.write(to: path)
    #expect(try Mutagen.run(Self.everyTag, [path]) == before)
  }

  /// Kept rating tags that are not what `ratingTags(of:)` reads, are another format's, or name
  /// a tag that is no rating tag, are refused: nothing is written.
  @Test func keptRatingTagsOfAnotherKindAreRefused() throws {
    let music = try MusicFolderFixture()
    let mp3 = try music.track("track.mp3", TagEdit(title: "River"))
    let flac = try music.track("track.flac", TagEdit(title: "River"))
    let before = try Data(contentsOf: URL(fileURLWithPath: flac))
    // A Vorbis comment that is no rating tag: TITLE=x.
    let title = Array("CTLR\u{1}XV\u{0}\u{0}\u{0}\u{5}TITLE\u{0}\u{0}\u{0}\u{1}x\u{0}\u{0}\u{0}\u{0}".utf8)
    for bytes in [try TagEdit.ratingTags(of: mp3), Array("CTLR".utf8), Array("CTLR\u{1}X\u{0}\u{0}".utf8), title] {
      var edit = TagEdit(genre: "Jazz")
      edit.ratingTags = bytes
      #expect(throws: TagEdit.Failure.self) { try edit.write(to: flac) }
      #expect(try Data(contentsOf: URL(fileURLWithPath: flac)) == before)
    }
  }

  /// Plays another player counted after the write (its POPM count grew) stay when the kept
  /// rating tags are put back: only the rest of its frame goes back.
  @Test func aPlayCountCountedSinceTheWriteStaysWhenTheRatingTagsArePutBack() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.mp3", TagEdit(title: "River"))
    let count = """
      import sys
      from mutagen.id3 import ID3, POPM
      tags = ID3(sys.argv[1])
      rating = tags.getall("POPM")[0].rating if tags.getall("POPM") else 196
      tags.delall("POPM")
      tags.add(POPM(email='MusicBee', rating=rating, count=int(sys.argv[2])))
      tags.save(sys.argv[1])
      """
    _ = try Mutagen.run(count, [path, "12"])
    let ratingTags = try TagEdit.ratingTags(of: path)
    try TagEdit(rating: 5).write(to: path)
    _ = try Mutagen.run(count, [path, "4294967301"])
    var restore = TagEdit()
    restore.ratingTags = ratingTags
    try restore.write(to: path)
    #expect(try Mutagen.run(Self.popularimeters, [path]) == "MusicBee 196 4294967301\n")
  }
}
