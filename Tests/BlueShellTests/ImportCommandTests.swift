import AlbumModel
import BlueLibrary
import Foundation
import TestSupport
import Testing

@testable import BlueShell

/// `import` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct ImportCommandTests: AlbumVerbExpectations {
  /// The first import into the untouched samples: they make room in the same step, and the
  /// summary says so (issue 26, item 1).
  @Test func importAppendsJSONAsOneUndoStep() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/albums.json"
      try writeFile(
        path,
        """
        [
          {"title": "Blue Train", "artist": "John Coltrane", "genre": "Jazz", "year": "1957", "coverUrl": ""},
          {"title": "Kind of Blue", "artist": "Miles Davis", "genre": "Jazz", "year": 1959,
           "coverUrl": "https://example.com/kob.png"}
        ]
        """)
      let shell = try InProcessShell()
      #expect(shell.run("tap 2; import \(path)") == [])
      #expect(
        shell.lines().suffix(2) == [
          "imported 2 albums (2 albums in all)",
          "the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)",
        ])
      #expect(try shell.titles() == ["Blue Train", "Kind of Blue"])
      #expect(shell.library.selection == 0)
      let kindOfBlue = try shell.library.album(at: 1)
      #expect(kindOfBlue.artist == "Miles Davis")
      #expect(kindOfBlue.year == 1959)
      #expect(kindOfBlue.coverURL == "https://example.com/kob.png")
      #expect(try shell.library.album(at: 0).year == 1957)

      #expect(shell.run("tap 2; undo") == [])
      #expect(try shell.titles() == Self.catalogueTitles)
      #expect(shell.library.selection == 1, "what was current before the import")
      #expect(
        shell.lines().suffix(7) == [#"undid import of 2 albums in place of the 5 sample albums"#]
          + Self.catalogueViewport(2))
      #expect(shell.run("undo") == ["undo: nothing to undo"])
      #expect(shell.run("redo") == [])
      #expect(try shell.titles() == ["Blue Train", "Kind of Blue"])
      // Into a library of your own, an import appends.
      #expect(shell.run("import \(path)") == [])
      #expect(shell.lines().last == "imported 2 albums (4 albums in all)")
      #expect(try shell.titles() == ["Blue Train", "Kind of Blue", "Blue Train", "Kind of Blue"])
    }
  }

  @Test func importAppendsCSV() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/albums.csv"
      try writeFile(
        path,
        """
        title,artist,genre,year,coverUrl
        "Blue Train","John Coltrane",Jazz,1957,
        "Heroes, Live",David Bowie,Rock,,https://example.com/h.png

        """)
      let shell = try InProcessShell(albums: [Album(title: "Kept")])
      #expect(shell.run("import \(path)") == [])
      #expect(shell.lines() == ["imported 2 albums (3 albums in all)"])
      #expect(try shell.titles() == ["Kept", "Blue Train", "Heroes, Live"])
      #expect(shell.library.selection == 0)
      let blueTrain = try shell.library.album(at: 1)
      #expect(blueTrain.artist == "John Coltrane")
      #expect(blueTrain.genre == "Jazz")
      #expect(blueTrain.year == 1957)
      let heroes = try shell.library.album(at: 2)
      #expect(heroes.year == nil)
      #expect(heroes.coverURL == "https://example.com/h.png")
      #expect(shell.run("scroll end; undo") == [])
      #expect(try shell.titles() == ["Kept"])
      #expect(shell.library.selection == 0)
    }
  }

  /// A JSON file in place of the untouched samples, then a CSV (columns in any order, quoted
  /// commas and quotes) appended: the current album stays current.
  @Test func importAppendsAlbumsFromJSONAndCSVKeepingTheSelection() throws {
    try withTemporaryDirectory { directory in
      let json = directory + "/albums.json"
      try writeFile(
        json,
        """
        [{"title": "Kind of Blue", "artist": "Miles Davis", "genre": "Jazz", "year": 1959, "coverUrl": ""},
         {"title": "Blue Train", "artist": "John Coltrane", "genre": "Jazz", "year": "1957",
          "coverUrl": "https://example.com/blue.png"}]
        """)
      let csv = directory + "/albums.csv"
      try writeFile(
        csv,
        #"""
        year,title,artist,genre,coverUrl
        1971,"Blue, Remastered",Joni Mitchell,Folk,
        1969,"Abbey ""Road""",The Beatles,Rock,https://example.com/abbey.png

        """#)
      let shell = try InProcessShell()
      #expect(shell.run("tap 3; import '\(json)'; tap 2; import '\(csv)'; list; show 4") == [])
      #expect(
        shell.lines() == Self.catalogueViewport(3) + [
          "imported 2 albums (2 albums in all)",
          "the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)",
          "[2/2] 1 Kind of Blue | >2 Blue Train<",
          "Artist: John Coltrane", "Album: Blue Train", "Genre: Jazz", "Year: 1957",
          "Cover: https://example.com/blue.png (not downloaded)",
          "imported 2 albums (4 albums in all)",
          "  1. Kind of Blue — Miles Davis (1959, Jazz) · cover: no cover",
          "* 2. Blue Train — John Coltrane (1957, Jazz) · cover: not downloaded",
          "  3. Blue, Remastered — Joni Mitchell (1971, Folk) · cover: no cover",
          "  4. Abbey \"Road\" — The Beatles (1969, Rock) · cover: not downloaded",
          "4 albums",
          "Artist: The Beatles", "Album: Abbey \"Road\"", "Genre: Rock", "Year: 1969",
          "Cover: https://example.com/abbey.png (not downloaded)",
        ])
    }
  }

  /// A column bluelib does not read is skipped with one notice line, before the summary.
  @Test func importSkipsUnknownCSVColumnsWithANotice() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/other.csv"
      try writeFile(path, "title,Rating,artist\nBlue Train,5,John Coltrane\n")
      let shell = try InProcessShell()
      #expect(shell.run("import \(path)") == [])
      #expect(
        shell.output()
          == "ignored a column bluelib does not read: 'Rating' (it reads title, artist, genre, year, coverUrl, tracks, duration, folder)\n"
          + "imported 1 album (1 album in all)\n"
          + "the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)\n")
      #expect(try shell.titles() == ["Blue Train"])
      #expect(try shell.library.album(at: 0).artist == "John Coltrane")
    }
  }

  @Test func importIntoAnEmptyLibrarySelectsTheFirstAlbum() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/albums.csv"
      try writeFile(path, "title\nOne\nTwo\n")
      let shell = try InProcessShell(albums: [])
      #expect(shell.run("import \(path)") == [])
      #expect(shell.lines() == ["imported 2 albums (2 albums in all)"])
      #expect(try shell.titles() == ["One", "Two"])
      #expect(shell.library.selection == 0)
    }
  }

  @Test func undoImportIntoAnEmptyLibraryEmptiesIt() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/albums.csv"
      try writeFile(path, "title\nOne\nTwo\n")
      let shell = try InProcessShell(albums: [])
      #expect(shell.run("import \(path)") == [])
      _ = shell.output()
      #expect(shell.run("undo") == [])
      #expect(try shell.library.count() == 0)
      #expect(shell.library.selection == nil)
      #expect(shell.lines() == ["undid import of 2 albums"] + Self.emptyViewport)
    }
  }

  @Test func importWithABadRowChangesNothing() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/bad.csv"
      try writeFile(path, "title,year\nGood,1999\nBad,nineteen\n")
      let shell = try InProcessShell()
      #expect(
        shell.run("import \(path)") == [
          "import: \(path):3: year must be a whole number, got 'nineteen'"
        ])
      #expect(try shell.titles() == Self.catalogueTitles)
      #expect(shell.output() == "")
      #expect(shell.run("undo") == ["undo: nothing to undo"])
    }
  }

  @Test func importRejectsBadArguments() throws {
    let shell = try InProcessShell()
    #expect(shell.run("import") == ["import: missing FILE or DIR (usage: import [--with-deleted] FILE|DIR)"])
    #expect(shell.run("import a b") == ["import: unexpected argument 'b'"])
    try withTemporaryDirectory { directory in
      let missing = directory + "/nowhere.json"
      #expect(shell.run("import '\(missing)'") == ["import: cannot read '\(missing)': no such file or directory"])
    }
    // A directory is a music folder: an empty one holds no albums, and nothing changes.
    try withTemporaryDirectory { directory in
      #expect(shell.run("import \(directory)") == [])
      #expect(shell.output() == "imported 0 albums (0 tracks) from \(directory) (no readable audio files)\n")
    }
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.run("undo") == ["undo: nothing to undo"])
  }

  /// An audio file given to `import` is named by its format, as the library's one sniffer
  /// (the music folder's) reads it, with its folder to import instead: APE, Musepack,
  /// WavPack, TTA and WMA files were read as CSV and failed on their bytes (issue 47, item 5).
  @Test(arguments: [("ape", "APE"), ("mpc", "Musepack"), ("wv", "WavPack"), ("tta", "TTA"), ("wma", "WMA")])
  func anAudioFileGivenToImportIsNamedByItsFormat(fileExtension: String, format: String) throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/01." + fileExtension
      try FileManager.default.copyItem(atPath: AudioFormat.fixtures + "/silence." + fileExtension, toPath: path)
      let shell = try InProcessShell()
      #expect(
        shell.run("import \(path)") == [
          "import: '\(path)' is an audio file (\(format)); import its folder: import \(directory)"
        ])
      #expect(try shell.titles() == Self.catalogueTitles)
    }
  }

  /// A FLAC file behind an ID3v2 tag (as some taggers write it) is FLAC, not MP3: the
  /// sniffer looks past the tag, as the scan does (issue 47, item 5).
  @Test func aFLACFileBehindAnID3v2TagIsNamedFLAC() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/01.flac"
      let flac = try Data(contentsOf: URL(fileURLWithPath: AudioFormat.fixtures + "/silence.flac"))
      // An empty ID3v2.3 tag: "ID3", version 3.0, no flags, size 0.
      try (Data([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]) + flac).write(to: URL(fileURLWithPath: path))
      let shell = try InProcessShell()
      #expect(
        shell.run("import \(path)") == [
          "import: '\(path)' is an audio file (FLAC); import its folder: import \(directory)"
        ])
    }
  }
}
