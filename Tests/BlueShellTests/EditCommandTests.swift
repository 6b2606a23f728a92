import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `edit` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct EditCommandTests: AlbumVerbExpectations {
  @Test func editChangesTheCurrentAlbumAndKeepsTheSelection() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2; edit year=1994 genre=Rock") == [])
    _ = shell.output()
    let edited = try shell.library.album(at: 1)
    #expect(edited.year == 1994)
    #expect(edited.genre == "Rock")
    #expect(edited.title == "It's My Life")
    #expect(shell.library.selection == 1)
    #expect(shell.run("view") == [])
    #expect(shell.lines() == [Self.catalogueRows[2]!] + Self.details(edited))
  }

  /// Editing the current album redraws the viewport with it; editing another shows that one,
  /// several fields at once; neither moves the selection.
  @Test func editChangesTheCurrentAlbumOrOneByIndexSeveralFieldsAtOnce() throws {
    let shell = try InProcessShell()
    #expect(
      shell.run(
        #"tap 3; edit year=1987; edit 2 artist="Talk Talk" genre=Rock title="Life's What You Make It"; list; show 2"#)
        == [])
    let current = [
      "Artist: Sting", "Album: Nothing Like The Sun", "Genre: Pop", "Year: 1987",
      "Cover: bluelib:covers/nothing-like-the-sun.png (not downloaded)",
    ]
    let other = [
      "Artist: Talk Talk", "Album: Life's What You Make It", "Genre: Rock", "Year: 2003",
      "Cover: bluelib:covers/its-my-life.png (not downloaded)",
    ]
    #expect(
      shell.lines() == Self.catalogueViewport(3) + [#"edited "Nothing Like The Sun": year"#, Self.catalogueRows[3]!]
        + current + [#"edited "Life's What You Make It": artist, genre, title"#] + other + [
          "  1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded",
          "  2. Life's What You Make It — Talk Talk (2003, Rock) · cover: not downloaded",
          "* 3. Nothing Like The Sun — Sting (1987, Pop) · cover: not downloaded",
          "  4. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded",
          "  5. American Pie — Madonna (2000, Pop) · cover: not downloaded",
          "5 albums",
        ] + other)
  }

  /// `edit 5 …` shows album 5 as edited, not the current album (issue 26, item 3).
  @Test func editNamedAlbumShowsThatAlbumAndKeepsTheSelection() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2") == [])
    _ = shell.output()
    #expect(shell.run(#"edit "American Pie" title="Ray of Light" year="#) == [])
    var edited = Self.catalogue(5)
    edited.title = "Ray of Light"
    edited.year = nil
    #expect(shell.lines() == [#"edited "Ray of Light": title, year"#] + Self.details(edited))
    #expect(try shell.library.album(at: 4).title == "Ray of Light")
    #expect(try shell.library.album(at: 4).year == nil)
    #expect(shell.library.selection == 1)
  }

  @Test func undoEditRestoresTheFieldsAndTheSelection() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2; edit 4 title=Changed artist=Nobody; tap 5") == [])
    _ = shell.output()
    #expect(shell.run("undo") == [])
    #expect(try shell.library.album(at: 3).title == "Staring at the Sun")
    #expect(try shell.library.album(at: 3).artist == "U2")
    #expect(shell.library.selection == 1)
    #expect(shell.lines() == [#"undid edit "Changed""#] + Self.catalogueViewport(2))
    #expect(shell.run("redo") == [])
    #expect(try shell.library.album(at: 3).title == "Changed")
    #expect(shell.lines().first == #"redid edit "Changed""#)
  }

  /// Several albums at once (issue 26, item 2): indices, ranges and titles, the same fields
  /// set on each, one step that one undo takes back and one redo makes again.
  @Test func editOfSeveralAlbumsIsOneStep() throws {
    let shell = try InProcessShell()
    let original = try shell.library.allAlbums()
    #expect(shell.run("tap 2; edit 1-3 \"American Pie\" genre=Jazz year=1959") == [])
    #expect(
      shell.lines().dropFirst(Self.catalogueViewport(2).count).first
        == #"edited 4 albums ("Best of Bowie", "It's My Life", "Nothing Like The Sun", …): genre, year"#)
    let albums = try shell.library.allAlbums()
    #expect(albums.map(\.genre) == ["Jazz", "Jazz", "Jazz", "Pop", "Jazz"])
    #expect(albums.map(\.year) == [1959, 1959, 1959, 2000, 1959])
    #expect(albums.map(\.title) == Self.catalogueTitles, "only the fields typed")
    #expect(shell.library.selection == 1)
    #expect(shell.run("undo") == [])
    #expect(shell.lines().first == "undid edit of 4 albums")
    #expect(try shell.library.allAlbums() == original)
    #expect(shell.run("redo") == [])
    #expect(try shell.library.allAlbums().map(\.genre) == ["Jazz", "Jazz", "Jazz", "Pop", "Jazz"])
    #expect(shell.run("undo; undo") == ["undo: nothing to undo"])
  }

  @Test func editAllSetsTheFieldOnEveryAlbumOfTheView() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find year:2000; edit all genre=Soundtrack; find") == [])
    #expect(try shell.library.allAlbums().map(\.genre) == ["Pop", "Pop", "Pop", "Soundtrack", "Soundtrack"])
  }

  /// More than 10,000 albums at once is refused before any is read, naming the count.
  @Test func editOfMoreThanTenThousandAlbumsIsRefused() throws {
    let albums = (1...10_001).map { Album(title: "A\($0)", artist: "", genre: "Pop", year: nil, coverURL: "") }
    let shell = try InProcessShell(albums: albums)
    let message = "edit: edit changes at most 10,000 albums at once, not 10,001 (narrow the view with 'find')"
    #expect(shell.run("edit all genre=Jazz") == [message])
    #expect(shell.run("edit 1-10001 genre=Jazz") == [message])
    #expect(shell.run("undo") == ["undo: nothing to undo"])
    #expect(shell.run("edit 2-10001 genre=Jazz") == [])
    #expect(try shell.library.album(at: 10_000).genre == "Jazz" && shell.library.album(at: 0).genre == "Pop")
  }

  /// A bad value for any album, or an album that is not there, changes none of them.
  @Test(arguments: [
    ("edit 2-9 genre=X", "edit: no album 9 (the library has 5)"),
    ("edit 1 Nope genre=X", "edit: no album titled 'Nope' (try 'list Nope')"),
    ("edit 1-2 title=", "edit: title must not be empty"),
  ])
  func editOfSeveralAlbumsChangesNoneWhenOneFails(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [message])
    #expect(try shell.library.allAlbums().map(\.genre) == Array(repeating: "Pop", count: 5))
    #expect(shell.run("undo") == ["undo: nothing to undo"])
  }

  /// Unquoted words that are not numbers name one title (as `tap` and `scroll to` take it).
  @Test func editTakesATitleOfSeveralUnquotedWords() throws {
    let shell = try InProcessShell()
    #expect(shell.run("edit Nothing Like The Sun year=1987") == [])
    #expect(try shell.library.album(at: 2).year == 1987)
    // A quoted value after the field's name is a change, not an album.
    #expect(shell.run(#"edit title="Ray of Light""#) == [])
    #expect(try shell.library.album(at: 0).title == "Ray of Light")
    #expect(shell.run(#"edit "Love = War" year=1"#) == [#"edit: no album titled 'Love = War' (try 'list Love = War')"#])
  }

  @Test(arguments: [
    ("edit yaer=1", "edit: unknown field 'yaer' (fields: title, artist, genre, year, cover)"),
    ("edit", "edit: missing FIELD=VALUE (usage: edit [ALBUM…|all] FIELD=VALUE…)"),
    ("edit 2", "edit: missing FIELD=VALUE (usage: edit [ALBUM…|all] FIELD=VALUE…)"),
    ("edit 2 oops", "edit: expected FIELD=VALUE, got 'oops'"),
    ("edit 1 2", "edit: expected FIELD=VALUE, got '2'"),
    ("edit 9 year=1", "edit: no album 9 (the library has 5)"),
    ("edit Nope year=1", "edit: no album titled 'Nope' (try 'list Nope')"),
    ("edit year=nineteen", "edit: year must be a whole number, got 'nineteen'"),
    ("edit year=99999", "edit: year must be between 0 and 9999, got '99999'"),
    ("edit title=", "edit: title must not be empty"),
  ])
  func editRejectsBadArguments(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [message])
    #expect(try shell.library.allAlbums().map(\.title) == Self.catalogueTitles)
    #expect(try shell.library.album(at: 0).year == 1992)
    #expect(shell.run("undo") == ["undo: nothing to undo"])
  }

  @Test func editOnAnEmptyLibrarySaysSo() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("edit year=1") == ["edit: the library is empty"])
  }
}
