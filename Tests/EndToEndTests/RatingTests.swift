import Foundation
import MusicFolder
import TestSupport
import Testing

/// Ratings and favourites from the built binary (issue 38, item 2): `rate`, `fav` and `unfav`
/// as undoable steps, fields of queries and sort keys, kept through a re-import and a move,
/// and written to the files where other players read them (mutagen reads them back), from
/// where `import` reads them again.
@Suite(.serialized)
struct RatingTests {
  @Test func rateFavAndUnfavAreUndoableFieldsOfQueriesAndSortKeys() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let rated = try runner.run([
      "-c", "rate 4", "-c", "rate 2-3 5", "-c", "fav 3", "-c", "fav 3", "-c", "fav 5",
      "-c", "list -f '$rating|$fav|$title'",
    ])
    #expect(rated.status == 0, "\(rated.stderr)")
    #expect(rated.stdout.contains("rated \"Best of Bowie\" ★★★★☆\n"), "\(rated.stdout)")
    #expect(rated.stdout.contains("rated 2 albums ★★★★★ (\"It's My Life\", \"Nothing Like The Sun\")\n"))
    #expect(rated.stdout.contains("\"Nothing Like The Sun\" is a favourite ♥\n"))
    #expect(rated.stdout.contains("\"Nothing Like The Sun\" is already a favourite; nothing changed\n"))
    #expect(
      rated.stdout.hasSuffix(
        """
        4|false|Best of Bowie
        5|false|It's My Life
        5|true|Nothing Like The Sun
        |false|Staring at the Sun
        |true|American Pie

        """), "\(rated.stdout)")

    let found = try runner.run([
      "-c", "find rating:5", "-c", "list -f '$title'", "-c", "find fav:true year-", "-c", "list -f '$year $title'",
      "-c", "find ^rating:1.. rating-", "-c", "list -f '$title'", "-c", "find", "-c", "list -f '$title' rating-",
      "-c", "show 1",
    ])
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("It's My Life\nNothing Like The Sun\n"), "\(found.stdout)")
    #expect(found.stdout.contains("2000 American Pie\n1999 Nothing Like The Sun\n"))
    #expect(found.stdout.contains("Staring at the Sun\nAmerican Pie\n"))
    #expect(
      found.stdout.contains("It's My Life\nNothing Like The Sun\nBest of Bowie\nStaring at the Sun\nAmerican Pie\n"))
    #expect(found.stdout.contains("Rating: ★★★★☆\n"))

    // Each was one step: undo takes them back, the latest first, and redo gives them again.
    let undone = try runner.run([
      "-c", "undo", "-c", "undo", "-c", "list -f '$rating|$fav|$title' rating:1.., fav:true", "-c", "redo",
    ])
    #expect(undone.stdout.hasPrefix("undid fav \"American Pie\"\n"), "\(undone.stdout)")
    #expect(undone.stdout.contains("undid fav \"Nothing Like The Sun\"\n"))
    #expect(undone.stdout.contains("4|false|Best of Bowie\n5|false|It's My Life\n5|false|Nothing Like The Sun\n"))
    #expect(undone.stdout.contains("redid fav \"Nothing Like The Sun\"\n"))

    let cleared = try runner.run(["-c", "rate 1 0", "-c", "unfav 3", "-c", "undo 2"])
    #expect(cleared.stdout.contains("cleared the rating of \"Best of Bowie\"\n"), "\(cleared.stdout)")
    #expect(cleared.stdout.contains("\"Nothing Like The Sun\" is no longer a favourite\n"))
    #expect(
      cleared.stdout.contains("undid unfav \"Nothing Like The Sun\"\nundid clear the rating of \"Best of Bowie\"\n"))

    let refused = try runner.run(["-c", "rate 9 4", "-c", "rate 1 6", "-c", "rate", "-c", "edit 1 rating=3"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("rate: no album 9 (the library has 5)"), "\(refused.stderr)")
    #expect(refused.stderr.contains("rate: a rating is 0 to 5 stars (0 clears it), got '6'"))
    #expect(refused.stderr.contains("rate: missing N (usage: rate [ALBUM…|all] N)"))
    #expect(refused.stderr.contains("edit: the rating is set with 'rate [ALBUM…] N' (0 to 5 stars), not rating="))
  }

  /// An album of four files in four formats, as another player left them (no ratings).
  static func album(in runner: BinaryRunner) throws -> (music: MusicFolderFixture, paths: [String]) {
    let music = try MusicFolderFixture(in: runner.home)
    let files = ["01.mp3", "02.flac", "03.ogg", "04.m4a"]
    let paths = try files.enumerated().map { number, file in
      try music.track(
        "Radiohead/OK Computer/\(file)",
        TagEdit(album: "OK Computer", artist: "Radiohead", trackNumber: "\(number + 1)", date: "1997"))
    }
    return (music, paths)
  }

  @Test func writePutsThemWhereOtherPlayersReadThemAndImportReadsThemBack() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.album(in: runner)
    let written = try runner.run(["-c", "import '\(music.root)'", "-c", "rate 1 4", "-c", "fav 1", "-c", "write 1"])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.hasSuffix("wrote \"OK Computer\" to 4 files\n"), "\(written.stdout)")
    #expect(
      try Mutagen.ratingTags(paths) == [
        "POPM:Windows Media Player 9 Series=196 TXXX:FMPS_Rating=0.8 TXXX:LOVE RATING=L",
        "FMPS_RATING=0.8 LOVE RATING=L RATING=4",
        "FMPS_RATING=0.8 LOVE RATING=L RATING=4",
        "----:com.apple.iTunes:FMPS_Rating=0.8 ----:com.apple.iTunes:LOVE RATING=L rate=80",
      ])
    // The files say what the album says: nothing edited, nothing to import.
    let again = try runner.run(["-c", "import '\(music.root)'", "-c", "show 1"])
    #expect(again.stdout.hasPrefix("imported 1 album (4 tracks) from \(music.root): 1 unchanged\n"), "\(again.stdout)")
    #expect(again.stdout.contains("Rating: ★★★★☆\nFavourite: ♥ yes\n"))
    #expect(!again.stdout.contains("edited"))

    // Another library reads them from the files.
    let other = BinaryRunner()
    defer { other.cleanUp() }
    let imported = try other.run(["-c", "import '\(music.root)'", "-c", "list -f '$rating $fav $title'"])
    #expect(imported.stdout.hasSuffix("4 true OK Computer\n"), "\(imported.stdout)\(imported.stderr)")

    // Undo writes the files back as they were; the rating stays yours, marked.
    let undone = try runner.run(["-c", "undo", "-c", "show 1"])
    #expect(undone.stdout.hasPrefix("undid write \"OK Computer\" to 4 files\n"), "\(undone.stdout)")
    #expect(try Mutagen.ratingTags(paths) == ["-", "-", "-", "-"])
    #expect(undone.stdout.contains("Rating: ★★★★☆ (edited; the files say none)\n"))
    #expect(undone.stdout.contains("Favourite: ♥ yes (edited; the files say no)\n"))

    // Cleared and written: the tags go.
    let cleared = try runner.run(["-c", "redo", "-c", "rate 1 0", "-c", "unfav 1", "-c", "write 1"])
    #expect(cleared.stdout.hasSuffix("wrote \"OK Computer\" to 4 files\n"), "\(cleared.stdout)\(cleared.stderr)")
    #expect(try Mutagen.ratingTags(paths) == ["-", "-", "-", "-"])
  }

  @Test func aRatingStaysThroughAReimportAndAMoveAndFollowsTheFilesWhenNotYours() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.album(in: runner)
    // Another player rated every track 3: the album is rated 3.
    for path in paths { try TagEdit(rating: 3).write(to: path) }
    let first = try runner.run(["-c", "import '\(music.root)'", "-c", "list -f '$rating $fav $title'"])
    #expect(first.stdout.hasSuffix("3 false OK Computer\n"), "\(first.stdout)\(first.stderr)")

    // Yours now: a re-import after the other player changes its mind keeps it.
    _ = try runner.run(["-c", "rate 1 5", "-c", "fav 1"])
    for path in paths { try TagEdit(rating: 2).write(to: path) }
    let kept = try runner.run(["-c", "import '\(music.root)'", "-c", "list -f '$rating $fav $title'", "-c", "show 1"])
    #expect(kept.stdout.contains("5 true OK Computer\n"), "\(kept.stdout)")
    #expect(kept.stdout.contains("Rating: ★★★★★ (edited; the files say ★★☆☆☆)\n"))

    // The folder moves: the same album, its rating and mark with it.
    try FileManager.default.moveItem(atPath: music.path("Radiohead"), toPath: music.path("Moved"))
    let moved = try runner.run(["-c", "import '\(music.root)'", "-c", "list -f '$rating $fav $folder'"])
    #expect(moved.stdout.contains("moved: OK Computer — Radiohead"), "\(moved.stdout)")
    #expect(moved.stdout.hasSuffix("5 true \(music.path("Moved/OK Computer"))\n"), "\(moved.stdout)")

    // Given back to the files (unedit), it follows them: one track rated apart, no album rating.
    let movedPaths = paths.map { $0.replacingOccurrences(of: "/Radiohead/", with: "/Moved/") }
    try TagEdit(rating: 4).write(to: movedPaths[0])
    let followed = try runner.run([
      "-c", "unedit 1 rating", "-c", "import '\(music.root)'", "-c", "list -f '[$rating] $fav $title'",
    ])
    #expect(followed.stdout.contains("\"OK Computer\" follows its files again: rating\n"), "\(followed.stdout)")
    #expect(followed.stdout.hasSuffix("[] true OK Computer\n"), "\(followed.stdout)")
    for path in movedPaths { try TagEdit(rating: 4).write(to: path) }
    let agreed = try runner.run(["-c", "import '\(music.root)'", "-c", "list -f '[$rating] $title'"])
    #expect(agreed.stdout.hasSuffix("[4] OK Computer\n"), "\(agreed.stdout)")
  }

  /// Files as other players and hostile taggers left them, one album each: a MusicBee frame
  /// with a play count and a ban, Clementine's FMPS_Rating alone, MediaMonkey's percentage,
  /// Quod Libet's frame, an anonymous frame without a count, values bluelib cannot read, an
  /// MP4 `rate` of 999, and play counts of 2³² and more.
  static let hostileRatings = """
    import sys, os, shutil
    from mutagen.id3 import ID3, TXXX, POPM, TALB, TPE1
    from mutagen.flac import FLAC
    from mutagen.oggvorbis import OggVorbis
    from mutagen.mp4 import MP4, MP4FreeForm
    fixtures, music = sys.argv[1], sys.argv[2]
    def copy(name, ext):
        os.makedirs(os.path.join(music, name))
        path = os.path.join(music, name, "01." + ext)
        shutil.copy(os.path.join(fixtures, "silence." + ext), path)
        return path
    def mp3(name, frames):
        path = copy(name, "mp3")
        tags = ID3()
        tags.add(TALB(encoding=3, text=[name]))
        tags.add(TPE1(encoding=3, text=["R"]))
        for frame in frames: tags.add(frame)
        tags.save(path)
    def vorbis(name, ext, kind, fields):
        f = kind(copy(name, ext))
        if f.tags is None: f.add_tags()
        f["ALBUM"] = name
        f["ARTIST"] = "R"
        for key, value in fields: f[key] = value
        f.save()
    def mp4(name, items):
        f = MP4(copy(name, "m4a"))
        if f.tags is None: f.add_tags()
        f["\\xa9alb"] = [name]
        f["\\xa9ART"] = ["R"]
        for key, value in items: f[key] = value
        f.save()
    mp3("MusicBee", [POPM(email="MusicBee", rating=196, count=12), TXXX(encoding=3, desc="LOVE RATING", text=["B"])])
    mp3("Clementine", [TXXX(encoding=3, desc="FMPS_Rating", text=["0.6"])])
    vorbis("MediaMonkey", "flac", FLAC, [("RATING", "60")])
    mp3("Quod Libet", [POPM(email="rating@quodlibet", rating=255)])
    mp3("Anonymous", [POPM(email="", rating=128)])
    vorbis("Negative", "flac", FLAC, [("RATING", "-1")])
    vorbis("Words", "ogg", OggVorbis, [("RATING", "five stars")])
    vorbis("Huge", "flac", FLAC, [("RATING", "1e308")])
    vorbis("Minus Infinity", "ogg", OggVorbis, [("FMPS_RATING", "-inf")])
    mp3("NaN", [TXXX(encoding=3, desc="FMPS_Rating", text=["NaN"])])
    mp4("Rate", [("rate", ["999"])])
    mp4("Overflow", [("----:com.apple.iTunes:FMPS_Rating", [MP4FreeForm(b"1e309")])])
    mp3("Overflow MP3", [TXXX(encoding=3, desc="FMPS_Rating", text=["1e309"])])
    mp3("Counted", [POPM(email="Windows Media Player 9 Series", rating=64, count=2**32 + 5),
        POPM(email="other@example.org", rating=10, count=3),
        TXXX(encoding=1, desc="fmps_rating", text=["0.2"]), TXXX(encoding=3, desc="FMPS_Rating", text=["0.9"])])
    """

  /// Every tag of every file under the folder named first, as mutagen reads them, one line
  /// each (`FOLDER/FILE TAG`, the file's tags in order): ID3 frames with their fields as mutagen
  /// writes them, Vorbis comments and MP4 items with their values and types. For MP3s, the
  /// POPM and TXXX frames' bytes as the file holds them, too.
  static let everyTag = """
    import sys, os, mutagen
    def synchsafe(b): return (b[0] << 21) | (b[1] << 14) | (b[2] << 7) | b[3]
    music = sys.argv[1]
    for folder in sorted(os.listdir(music)):
        for name in sorted(os.listdir(os.path.join(music, folder))):
            path = os.path.join(music, folder, name)
            tags = mutagen.File(path).tags
            out = []
            if hasattr(tags, "getall"):
                for frame in tags.values():
                    out.append("%s %r %s" % (frame.HashKey, frame, frame._writeData().hex()))
                data = open(path, "rb").read()
                size, position = synchsafe(data[6:10]), 10
                while position < 10 + size and data[position] != 0:
                    frame = data[position:position + 4]
                    length = synchsafe(data[position + 4:position + 8])
                    if frame in (b"POPM", b"TXXX"):
                        out.append("bytes %s %s" % (frame.decode(), data[position + 10:position + 10 + length].hex()))
                    position += 10 + length
            elif hasattr(tags, "vendor"):
                out += ["%s=%r" % (key.upper(), value) for key, value in tags]
            else:
                out += ["%s=%r" % (key, tags[key]) for key in tags.keys()]
            for line in sorted(out): print(folder + "/" + name, line)
    """

  /// `undo` of a written rating gives every file its rating tags back as they were, byte for
  /// byte (round 5, H6: it wrote bluelib's reading of the old rating, in bluelib's formats —
  /// MusicBee's ban gone, Windows Media Player frames added, a percentage turned into stars,
  /// values it could not read deleted, 16 of 20 files changed), and the write keeps play
  /// counts of 2³² and more (H14).
  @Test func undoOfAWrittenRatingGivesEveryFileItsRatingTagsBack() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    _ = try Mutagen.run(Self.hostileRatings, [AudioFormat.fixtures, music.root])
    let before = try Mutagen.run(Self.everyTag, [music.root])
    #expect(before.contains("bytes POPM 57696e646f7773204d6564696120506c6179657220392053657269657300400100000005"))

    let imported = try runner.run(["-c", "import '\(music.root)'"])
    #expect(imported.status == 0, "\(imported.stderr)")
    let written = try runner.run(["-c", "rate all 5; fav all; write all"])
    #expect(written.stdout.hasSuffix("wrote 14 albums to 14 files\n"), "\(written.stdout)\(written.stderr)")
    let rated = try Mutagen.run(Self.everyTag, [music.root])
    // Every player's frame says five stars, its play count as it was.
    #expect(rated.contains("bytes POPM 57696e646f7773204d6564696120506c6179657220392053657269657300ff0100000005"))
    #expect(rated.contains("bytes POPM 6f74686572406578616d706c652e6f726700ff00000003"), "\(rated)")
    #expect(
      rated.contains(
        "MusicBee/01.mp3 TXXX:LOVE RATING TXXX(encoding=<Encoding.UTF8: 3>, desc='LOVE RATING', text=['L'])"))

    for step in ["write 14 albums to 14 files", "fav 14 albums", "rate 13 albums 5 stars"] {
      let undone = try runner.run(["-c", "undo"])
      #expect(undone.stdout.hasPrefix("undid \(step)\n"), "\(undone.stdout)\(undone.stderr)")
    }
    let after = try Mutagen.run(Self.everyTag, [music.root])
    #expect(after == before)
    // Lines that differ, for the failure's message.
    let lines = Set(before.split(separator: "\n"))
    #expect(after.split(separator: "\n").filter { !lines.contains($0) } == [])

    // Redo writes them again, and undo puts them back again.
    let again = try runner.run(["-c", "redo 3", "-c", "undo"])
    #expect(again.stdout.contains("redid write 14 albums to 14 files\n"), "\(again.stdout)\(again.stderr)")
    #expect(try Mutagen.run(Self.everyTag, [music.root]) == before)
  }
}
