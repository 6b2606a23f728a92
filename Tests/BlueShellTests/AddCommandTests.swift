import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `add` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct AddCommandTests: AlbumVerbExpectations {
  @Test func addInsertsAfterTheCurrentAlbumAndSelectsIt() throws {
    let shell = try InProcessShell()
    #expect(shell.run(#"add "Blue Train" artist="John Coltrane" year=1957 genre=Jazz"#) == [])
    #expect(try shell.library.count() == 6)
    #expect(shell.library.selection == 1)
    let stored = try shell.library.album(at: 1)
    #expect(stored.title == "Blue Train")
    #expect(stored.artist == "John Coltrane")
    #expect(stored.year == 1957)
    #expect(stored.genre == "Jazz")
    #expect(stored.coverURL == "")
    #expect(
      shell.lines() == [
        #"added "Blue Train" as 2 (6 albums)"#,
        "[2/6] 1 Best of Bowie | >2 Blue Train< | 3 It's My Life | 4 Nothing Like The Sun",
      ] + Self.details(Self.blueTrain))
  }

  /// Every field, after a current album that is not the first: the cover URL shows in the
  /// details and in `list`'s row.
  @Test func addWithEveryFieldInsertsAfterTheCurrentAlbumAndListShowsIt() throws {
    let shell = try InProcessShell()
    #expect(
      shell.run(
        #"tap 2; add "Blue Train" artist="John Coltrane" year=1957 genre=Jazz cover=https://example.com/blue.png; list"#
      )
        == [])
    #expect(
      shell.lines() == Self.catalogueViewport(2) + [
        #"added "Blue Train" as 3 (6 albums)"#,
        "[3/6] 1 Best of Bowie | 2 It's My Life | >3 Blue Train< | 4 Nothing Like The Sun | 5 Staring at the Sun",
        "Artist: John Coltrane", "Album: Blue Train", "Genre: Jazz", "Year: 1957",
        "Cover: https://example.com/blue.png (not downloaded)",
        "  1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded",
        "  2. It's My Life — No Doubt (2003, Pop) · cover: not downloaded",
        "* 3. Blue Train — John Coltrane (1957, Jazz) · cover: not downloaded",
        "  4. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded",
        "  5. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded",
        "  6. American Pie — Madonna (2000, Pop) · cover: not downloaded",
        "6 albums",
      ])
  }

  @Test func addAfterTheLastAlbumAppendsIt() throws {
    let shell = try InProcessShell()
    #expect(shell.run("scroll end; add Last cover=https://example.com/c.png") == [])
    #expect(try shell.titles() == Self.catalogueTitles + ["Last"])
    #expect(shell.library.selection == 5)
    #expect(try shell.library.album(at: 5).coverURL == "https://example.com/c.png")
  }

  @Test func addToAnEmptyLibrary() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("add Solo") == [])
    #expect(try shell.titles() == ["Solo"])
    #expect(shell.library.selection == 0)
    #expect(
      shell.lines() == [#"added "Solo" as 1 (1 album)"#, "[1/1] >1 Solo<"]
        + Self.details(Album(title: "Solo")))
  }

  @Test func undoAddRemovesItAndRestoresTheSelection() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 3; add X; tap 5") == [])
    #expect(try shell.library.album(at: 3).title == "X")
    _ = shell.output()
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.library.selection == 2)
    #expect(shell.lines() == [#"undid add "X""#] + Self.catalogueViewport(3))
    #expect(shell.run("redo") == [])
    #expect(try shell.library.album(at: 3).title == "X")
    #expect(shell.library.selection == 3)
  }

  @Test(arguments: [
    ("add", "add: missing TITLE (usage: add TITLE [FIELD=VALUE…])"),
    ("add year=1999", "add: missing TITLE (usage: add TITLE [FIELD=VALUE…])"),
    ("add Blue Train", "add: expected FIELD=VALUE, got 'Train' (quote a title that has spaces)"),
    ("add X yaer=1", "add: unknown field 'yaer' (fields: title, artist, genre, year, cover)"),
    ("add X year=soon", "add: year must be a whole number, got 'soon'"),
    ("add X year=10000", "add: year must be between 0 and 9999, got '10000'"),
    (
      "add X cover=ftp://host/c.png",
      "add: cover must be an http, https or file URL, got 'ftp://host/c.png'"
    ),
    (#"add """#, "add: title must not be empty"),
  ])
  func addRejectsBadArguments(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [message])
    #expect(try shell.library.count() == 5)
    #expect(shell.output() == "")
  }

  @Test func quotedTitleThatLooksLikeAFieldAssignmentIsATitle() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run(#"add "year=1999" genre=Odd"#) == [])
    #expect(try shell.titles() == ["year=1999"])
    #expect(try shell.library.album(at: 0).genre == "Odd")
  }

  @Test func quotedTitleWithAnEqualsSignIsATitle() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run(#"add "AC=DC" artist=Band"#) == [])
    #expect(try shell.titles() == ["AC=DC"])
  }
}
