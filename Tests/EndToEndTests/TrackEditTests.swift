import Foundation
import MusicFolder
import TestSupport
import Testing

/// One track edited (issue 38, item 6): `edit ALBUM track N FIELD=VALUE…` changes a track's
/// title, artist or number as an undoable step, `show` marks it with what the file says, an
/// import keeps it, and `write` puts it into the file (mutagen reads it back), keeping the
/// number's total.
@Suite(.serialized)
struct TrackEditTests {
  /// `title|artist|tracknumber` of each file as mutagen's easy interface reads them.
  static func tags(_ paths: [String]) throws -> [String] {
    let script = """
      import sys, mutagen
      for path in sys.argv[1:]:
          tags = mutagen.File(path, easy=True).tags or {}
          print("|".join(tags[k][0] if k in tags else "-" for k in ("title", "artist", "tracknumber")))
      """
    return try Mutagen.run(script, paths).split(separator: "\n").map(String.init)
  }

  /// "OK Computer" in three formats, the third title misspelt: the paths.
  static func album(in runner: BinaryRunner) throws -> (music: MusicFolderFixture, paths: [String]) {
    let music = try MusicFolderFixture(in: runner.home)
    let titles = ["Airbag", "Paranoid Android", "Subterranean Homesick Alein"]
    let paths = try ["01.mp3", "02.flac", "03.m4a"].enumerated().map { (number: Int, file: String) in
      try music.track(
        "Radiohead/OK Computer/\(file)",
        TagEdit(
          album: "OK Computer", artist: "Radiohead", title: titles[number], trackNumber: "\(number + 1)/12",
          date: "1997"))
    }
    return (music, paths)
  }

  @Test func aTrackIsEditedShownUndoneAndWrittenIntoItsFile() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.album(in: runner)
    let edited = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1 track 3 title=\"Subterranean Homesick Alien\"",
      "-c", "edit track 2 number=7 artist=\"Thom Yorke\"", "-c", "show 1",
    ])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(
      edited.stdout.contains(
        """
        edited "OK Computer" track 3: title
           3  0:01  Subterranean Homesick Alien (edited; the file says "Subterranean Homesick Alein")
        edited "OK Computer" track 2: number, artist
           7  0:01  Paranoid Android — Thom Yorke (edited; the file says artist Radiohead, number 2)

        """), "\(edited.stdout)")
    #expect(edited.stdout.contains("   3  0:01  Subterranean Homesick Alien (edited; the file says"))

    // Each is one step; undo takes them back, latest first; redo makes them again.
    let undone = try runner.run(["-c", "undo", "-c", "show 1", "-c", "redo"])
    #expect(undone.stdout.hasPrefix("undid edit \"OK Computer\" track 2\n"), "\(undone.stdout)")
    #expect(undone.stdout.contains("   2  0:01  Paranoid Android\n"))
    #expect(undone.stdout.contains("redid edit \"OK Computer\" track 2\n"))

    // An import keeps them, whatever else the files say now.
    try TagEdit(musicBrainzTrackID: "8b6c4a0e-3b55-4c4b-9b43-2f1e9c1ad7f5").write(to: paths[2])
    let reimported = try runner.run(["-c", "import '\(music.root)'", "-c", "show 1"])
    #expect(reimported.stdout.contains("Subterranean Homesick Alien (edited; the file says"), "\(reimported.stdout)")

    // write puts them into the files (and the album artist into each, which none had: the
    // tracks no longer share one artist); the number keeps its total.
    let written = try runner.run(["-c", "write 1", "-c", "show 1"])
    #expect(written.stdout.hasPrefix("wrote \"OK Computer\" to 3 files\n"), "\(written.stdout)\(written.stderr)")
    #expect(
      try Self.tags(paths) == [
        "Airbag|Radiohead|1/12", "Paranoid Android|Thom Yorke|7/12", "Subterranean Homesick Alien|Radiohead|3/12",
      ])
    #expect(!written.stdout.contains("(edited"), "\(written.stdout)")
    // The next import finds them as written, and orders the tracks by their new numbers.
    let again = try runner.run(["-c", "import '\(music.root)'", "-c", "show 1"])
    #expect(again.stdout.hasPrefix("imported 1 album (3 tracks) from \(music.root): 1 unchanged\n"), "\(again.stdout)")
    #expect(
      again.stdout.hasSuffix(
        """
           1  0:01  Airbag
           3  0:01  Subterranean Homesick Alien
           7  0:01  Paranoid Android — Thom Yorke

        """), "\(again.stdout)")

    // Undo of the write puts the files back, and the edits are shown as yours again.
    let back = try runner.run(["-c", "undo", "-c", "show 1"])
    #expect(back.stdout.hasPrefix("undid write \"OK Computer\" to 3 files\n"), "\(back.stdout)\(back.stderr)")
    #expect(
      try Self.tags(paths) == [
        "Airbag|Radiohead|1/12", "Paranoid Android|Radiohead|2/12", "Subterranean Homesick Alein|Radiohead|3/12",
      ])
    #expect(back.stdout.contains("Paranoid Android — Thom Yorke (edited; the file says artist Radiohead, number 2)"))
  }

  @Test func anEditTheFileSaysSinceFollowsTheFileAndAMoveKeepsTheOthers() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.album(in: runner)
    _ = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1 track 3 title=\"Subterranean Homesick Alien\"",
      "-c", "edit 1 track 1 title=\"Air Bag\"",
    ])
    // Another tagger fixes the third title: it is not an edit any more; the first stays one.
    try TagEdit(title: "Subterranean Homesick Alien").write(to: paths[2])
    try FileManager.default.moveItem(atPath: music.path("Radiohead"), toPath: music.path("Moved"))
    let moved = try runner.run(["-c", "import '\(music.root)'", "-c", "show 1"])
    #expect(moved.stdout.contains("moved: OK Computer — Radiohead"), "\(moved.stdout)")
    #expect(moved.stdout.contains("   1  0:01  Air Bag (edited; the file says \"Airbag\")\n"), "\(moved.stdout)")
    #expect(moved.stdout.contains("   3  0:01  Subterranean Homesick Alien\n"), "\(moved.stdout)")
    // Given the file's own value, an edit is gone.
    let same = try runner.run(["-c", "edit 1 track 1 title=Airbag", "-c", "show 1"])
    #expect(same.stdout.contains("   1  0:01  Airbag\n"), "\(same.stdout)")
    let again = try runner.run(["-c", "edit 1 track 1 title=Airbag"])
    #expect(again.stdout == "\"OK Computer\" track 1 already says that; nothing changed\n", "\(again.stdout)")
  }

  @Test func aBadTrackEditIsOneClearLine() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, _) = try Self.album(in: runner)
    let result = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1 track 9 title=X", "-c", "edit 1 track 1 genre=Rock",
      "-c", "edit 1 track 1 number=0", "-c", "edit 1 track 1 title=", "-c", "add Typed", "-c", "edit track 1 title=X",
    ])
    #expect(result.stderr.contains("edit: \"OK Computer\" has no track 9 (it has 3)"), "\(result.stderr)")
    #expect(result.stderr.contains("edit: unknown track field 'genre' (fields: title, artist, number, albumartist)"))
    #expect(result.stderr.contains("edit: a track's number is a whole number from 1 to 9999, got '0'"))
    #expect(result.stderr.contains("edit: a track's title must not be empty"))
    #expect(result.stderr.contains("edit: \"Typed\" has no tracks (it did not come from a music folder)"))
  }
}
