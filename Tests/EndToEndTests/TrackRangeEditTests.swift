import Foundation
import MusicFolder
import TestSupport
import Testing

/// Tracks edited by range (issue 50, item 5): `edit ALBUM track 1-10 FIELD=VALUE…` is one
/// step that one `undo` takes back, `write` puts it into every file (mutagen reads it back),
/// and the write's undo gives the files their tags back. Numbers the album does not have
/// are refused in one line, nothing changed.
@Suite(.serialized)
struct TrackRangeEditTests {
  /// Each file's `artist|albumartist` as mutagen's easy interface reads them (`-` for none).
  static func artists(_ paths: [String]) throws -> [String] {
    let script = """
      import sys, mutagen
      for path in sys.argv[1:]:
          tags = mutagen.File(path, easy=True).tags or {}
          print("|".join(tags[k][0] if k in tags else "-" for k in ("artist", "albumartist")))
      """
    return try Mutagen.run(script, paths).split(separator: "\n").map(String.init)
  }

  /// "Kid A", ten tracks in four formats, the album-artist tag right and every track's
  /// artist misspelt: the paths.
  static func kidA(in music: MusicFolderFixture) throws -> [String] {
    let formats = ["mp3", "flac", "ogg", "m4a"]
    return try (1...10).map { (number: Int) in
      try music.track(
        "Radiohead/Kid A/\(number < 10 ? "0" : "")\(number).\(formats[number % formats.count])",
        TagEdit(
          album: "Kid A", artist: "Radiohed", albumArtist: "Radiohead", title: "Song \(number)",
          trackNumber: "\(number)", date: "2000"))
    }
  }

  /// The issue's sequence: one album's artist fixed across its 10 tracks in one command,
  /// undone in one `undo`, written with `write`, the files read back; the write undone.
  @Test func tenTracksAreFixedInOneStepUndoneInOneAndWritten() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let paths = try Self.kidA(in: music)
    let edited = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1 track 1-10 artist=Radiohead", "-c", "show 1",
    ])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("edited \"Kid A\" tracks 1-10: artist\n"), "\(edited.stdout)")
    #expect(edited.stdout.contains("   1  0:01  Song 1 (edited; the file says artist Radiohed)\n"), "\(edited.stdout)")
    #expect(edited.stdout.contains("  10  0:01  Song 10 (edited; the file says artist Radiohed)\n"))

    // One undo takes the ten back; one redo makes them again.
    let undone = try runner.run(["-c", "undo", "-c", "show 1"])
    #expect(undone.stdout.hasPrefix("undid edit \"Kid A\" tracks 1-10\n"), "\(undone.stdout)")
    #expect(!undone.stdout.contains("(edited"), "\(undone.stdout)")
    #expect(undone.stdout.contains("   1  0:01  Song 1 — Radiohed\n"), "\(undone.stdout)")
    let redone = try runner.run(["-c", "redo"])
    #expect(redone.stdout.hasPrefix("redid edit \"Kid A\" tracks 1-10\n"), "\(redone.stdout)")

    let written = try runner.run(["-c", "write 1", "-c", "show 1"])
    #expect(written.stdout.hasPrefix("wrote \"Kid A\" to 10 files\n"), "\(written.stdout)\(written.stderr)")
    #expect(try Self.artists(paths) == Array(repeating: "Radiohead|Radiohead", count: 10))
    #expect(!written.stdout.contains("(edited"), "\(written.stdout)")

    // The write's undo gives every file its tags back, and the edits are yours again.
    let back = try runner.run(["-c", "undo", "-c", "show 1"])
    #expect(back.stdout.hasPrefix("undid write \"Kid A\" to 10 files\n"), "\(back.stdout)\(back.stderr)")
    #expect(try Self.artists(paths) == Array(repeating: "Radiohed|Radiohead", count: 10))
    #expect(back.stdout.contains("   1  0:01  Song 1 (edited; the file says artist Radiohed)\n"), "\(back.stdout)")
  }

  /// `all`, lists and several words name tracks; a number the album lacks is one line
  /// naming every such number, and nothing changes.
  @Test func rangesListsAndAllNameTracksAndMissingOnesAreRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    _ = try Self.kidA(in: music)
    let refused = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1 track 1,9-12,14 artist=X", "-c", "edit 1 track 2-1 artist=X",
      "-c", "edit 1 track 1-3 number=4", "-c", "show 1",
    ])
    #expect(refused.stderr.contains("edit: \"Kid A\" has no tracks 11, 12, 14 (it has 10)\n"), "\(refused.stderr)")
    #expect(refused.stderr.contains("edit: a range of tracks goes up: 1-2, not 2-1\n"), "\(refused.stderr)")
    #expect(
      refused.stderr.contains("edit: number= gives one track its number: edit [ALBUM] track N number=M\n"),
      "\(refused.stderr)")
    #expect(!refused.stdout.contains("(edited"), "\(refused.stdout)")

    let listed = try runner.run([
      "-c", "edit 1 track 1,4 7-9 title=Untitled", "-c", "undo", "-c", "edit track all artist=Radiohead",
    ])
    #expect(listed.stdout.contains("edited \"Kid A\" tracks 1, 4, 7-9: title\n"), "\(listed.stdout)\(listed.stderr)")
    #expect(listed.stdout.contains("undid edit \"Kid A\" tracks 1, 4, 7-9\n"), "\(listed.stdout)")
    #expect(listed.stdout.contains("edited \"Kid A\" every track: artist\n"), "\(listed.stdout)\(listed.stderr)")
    let again = try runner.run(["-c", "edit track all artist=Radiohead"])
    #expect(again.stdout == "\"Kid A\" every track already says that; nothing changed\n", "\(again.stdout)")
  }
}
