import AlbumArchive
import AlbumModel
import BlueLibrary
import Foundation
import Testing

@testable import BlueShell

/// `export` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct ExportCommandTests: AlbumVerbExpectations {
  @Test func exportWritesTheLibraryAsJSONThatImportsBack() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/out.json"
      let shell = try InProcessShell()
      #expect(shell.run("edit 2 year=; export \(path)") == [])
      #expect(shell.lines().last == "exported 5 albums to \(path)")
      let text = try #require(fileContents(path))
      #expect(
        text.hasPrefix(
          "[\n  {\n    \"title\": \"Best of Bowie\",\n    \"artist\": \"David Bowie\",\n"))
      let read = try LibraryArchive.decode(fileAtPath: path)
      let stored = try shell.library.allAlbums()
      #expect(read.count == 5)
      for (back, original) in zip(read, stored) {
        #expect(back.title == original.title)
        #expect(back.artist == original.artist)
        #expect(back.genre == original.genre)
        #expect(back.year == original.year)
        #expect(back.coverURL == original.coverURL)
      }
      #expect(read[1].year == nil)

      let other = try InProcessShell(albums: [])
      #expect(other.run("import \(path)") == [])
      #expect(try other.titles() == Self.catalogueTitles)
    }
  }

  @Test func exportChoosesCSVByTheExtension() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/x.csv"
      let shell = try InProcessShell()
      #expect(shell.run("export \(path)") == [])
      #expect(shell.output() == "exported 5 albums to \(path) as CSV\n")
      let written = try #require(fileContents(path))
      #expect(written.hasPrefix("title,artist,genre,year,coverUrl\r\nBest of Bowie,David Bowie,Pop,1992,"))
    }
  }

  /// A library exported, then imported into another that was emptied, lists the same and
  /// exports the very same bytes.
  @Test func exportThenImportIntoAFreshLibraryGivesTheSameLibrary() throws {
    try withTemporaryDirectory { directory in
      let file = directory + "/library.json"
      let copy = directory + "/again.json"
      let original = try InProcessShell()
      #expect(
        original.run(
          #"add "Quote \"q\"" artist="A, B" cover=https://example.com/q.png; edit 1 year=1993 genre=Glam; "#
            + "move 6 to 1; export '\(file)'") == [])
      _ = original.output()
      #expect(original.run("tap 1; list") == [])
      let before = original.output()
      #expect(
        before.hasSuffix(
          "  3. Quote \"q\" — A, B · cover: not downloaded\n"
            + "  4. It's My Life — No Doubt (2003, Pop) · cover: not downloaded\n"
            + "  5. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded\n"
            + "  6. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded\n6 albums\n"))
      // The other library starts with the default catalogue: empty it, then import.
      let fresh = try InProcessShell()
      #expect(
        fresh.run("delete; delete; delete; delete; delete; import '\(file)'", stopAtFirstFailure: true) == [])
      #expect(fresh.output().hasSuffix("imported 6 albums (6 albums in all)\n"))
      #expect(fresh.run("tap 1; list; export '\(copy)'") == [])
      #expect(fresh.output().hasPrefix(before))
      let copied = try #require(FileManager.default.contents(atPath: copy))
      #expect(copied == FileManager.default.contents(atPath: file))
    }
  }

  @Test func exportOfAnEmptyLibraryWritesAnEmptyArray() throws {
    try withTemporaryDirectory { directory in
      let shell = try InProcessShell(albums: [])
      #expect(shell.run("export \(directory)/empty.json") == [])
      #expect(shell.lines() == ["exported 0 albums to \(directory)/empty.json"])
      #expect(fileContents(directory + "/empty.json") == "[]\n")
      #expect(shell.run("undo") == ["undo: nothing to undo"])
    }
  }

  @Test func exportRejectsBadArguments() throws {
    let shell = try InProcessShell()
    #expect(shell.run("export") == ["export: missing FILE (usage: export FILE [QUERY|all])"])
    #expect(
      shell.run("export a year:abc")
        == ["export: bad query word 'year:abc': 'abc' is not a number (year takes a number or a range like 1990..1999)"]
    )
    try withTemporaryDirectory { directory in
      let failures = shell.run("export \(directory)/missing/out.json")
      #expect(failures.count == 1)
      #expect(
        failures.first?.hasPrefix("export: cannot write '\(directory)/missing/out.json': ") == true)
    }
  }
}
