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
}
