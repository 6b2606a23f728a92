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
    #expect(try Mutagen.artists(paths) == Array(repeating: "Radiohead|Radiohead", count: 10))
    #expect(!written.stdout.contains("(edited"), "\(written.stdout)")

    // The write's undo gives every file its tags back, and the edits are yours again.
    let back = try runner.run(["-c", "undo", "-c", "show 1"])
    #expect(back.stdout.hasPrefix("undid write \"Kid A\" to 10 files\n"), "\(back.stdout)\(back.stderr)")
    #expect(try Mutagen.artists(paths) == Array(repeating: "Radiohed|Radiohead", count: 10))
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

  /// A compilation whose "Various Artists" bluelib inferred (its files have no album-artist
  /// tag) gets it written: `edit ALBUM albumartist=…` is one step, undone in one, and
  /// `write` puts the tag into every file; the next import finds nothing changed.
  @Test func anInferredVariousArtistsIsWrittenAsTheAlbumArtist() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let paths = try ["Blur", "Pulp", "Suede"].enumerated().map { (number: Int, artist: String) in
      try music.track(
        "Compilations/Britpop/0\(number + 1).\(["mp3", "flac", "ogg"][number])",
        TagEdit(album: "Britpop", artist: artist, title: "Song \(number + 1)", trackNumber: "\(number + 1)"))
    }
    let edited = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1 albumartist=\"Various Artists\"", "-c", "show 1", "-c", "undo",
      "-c", "redo",
    ])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("edited \"Britpop\": albumartist\n"), "\(edited.stdout)")
    #expect(
      edited.stdout.contains("   1  0:01  Song 1 — Blur (edited; the file says no album artist)\n"), "\(edited.stdout)")
    #expect(edited.stdout.contains("undid edit \"Britpop\"\n"), "\(edited.stdout)")
    #expect(edited.stdout.contains("redid edit \"Britpop\"\n"), "\(edited.stdout)")

    let written = try runner.run(["-c", "write 1", "-c", "import '\(music.root)'"])
    #expect(written.stdout.hasPrefix("wrote \"Britpop\" to 3 files\n"), "\(written.stdout)\(written.stderr)")
    #expect(try Mutagen.artists(paths) == ["Blur|Various Artists", "Pulp|Various Artists", "Suede|Various Artists"])
    #expect(written.stdout.contains("imported 1 album (3 tracks) from \(music.root): 1 unchanged\n"))

    // The write undone, the files say no album artist again, and the edit is yours again.
    let back = try runner.run(["-c", "undo", "-c", "show 1"])
    #expect(back.stdout.hasPrefix("undid write \"Britpop\" to 3 files\n"), "\(back.stdout)\(back.stderr)")
    #expect(try Mutagen.artists(paths) == ["Blur|-", "Pulp|-", "Suede|-"])
    #expect(back.stdout.contains("Song 3 — Suede (edited; the file says no album artist)"), "\(back.stdout)")
  }

  /// `albumartist=` with other fields renames the album's artist too; given to several
  /// albums, or empty, it is refused in one line.
  @Test func albumArtistChangesTheArtistAndIsForOneAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let paths = try Self.kidA(in: music)
    try music.track("Other/One/1.mp3", TagEdit(album: "One", artist: "X", title: "One"))
    let result = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1-2 albumartist=Y", "-c", "edit 2 albumartist=", "-c",
      "edit \"Kid A\" albumartist=Radiohead genre=Electronic", "-c", "list -f '$artist $genre $title'", "-c", "write 2",
    ])
    #expect(
      result.stderr.contains("edit: albumartist= is given to one album at a time (it goes into each of its files)\n"),
      "\(result.stderr)")
    #expect(
      result.stderr.contains("edit: albumartist must not be empty (it is written into the files)\n"), "\(result.stderr)"
    )
    // The files said Radiohead already: only the genre is the album's edit.
    #expect(result.stdout.contains("edited \"Kid A\": genre, albumartist\n"), "\(result.stdout)")
    #expect(result.stdout.contains("Radiohead Electronic Kid A\n"), "\(result.stdout)")
    #expect(try Mutagen.artists([paths[0]]) == ["Radiohed|Radiohead"])
  }
}
