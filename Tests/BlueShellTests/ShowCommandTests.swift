import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `show` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct ShowCommandTests: AlbumVerbExpectations {
  @Test func showPrintsTheCurrentAlbumsDetails() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 3") == [])
    _ = shell.output()
    #expect(shell.run("show") == [])
    #expect(
      shell.lines() == [
        "Artist: Sting", "Album: Nothing Like The Sun", "Genre: Pop", "Year: 1999",
        "Cover: bluelib:covers/nothing-like-the-sun.png (not downloaded)",
      ])
  }

  @Test(arguments: [("show 2", 2), (#"show "American Pie""#, 5), ("show 1", 1)])
  func showNamedAlbumDoesNotMoveTheSelection(line: String, shown: Int) throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 3") == [])
    _ = shell.output()
    #expect(shell.run(line) == [])
    #expect(shell.lines() == Self.details(Self.catalogue(shown)))
    #expect(shell.library.selection == 2)
  }

  /// By index, quoted title, unquoted word, or (without one) the current album.
  @Test func showPrintsFieldsByIndexQuotedTitleUnquotedWordOrTheCurrentAlbum() throws {
    let shell = try InProcessShell()
    #expect(shell.run(#"show 2; show "American Pie"; show; tap 4; show"#) == [])
    #expect(
      shell.lines()
        == [2, 5, 1].flatMap { Self.details(Self.catalogue($0)) } + Self.catalogueViewport(4)
        + Self.details(Self.catalogue(4)))
    #expect(
      shell.run("add Blue artist=Joni year=1971 genre=Folk cover=https://example.com/blue.png; tap 1; show Blue") == [])
    let blue = [
      "Artist: Joni", "Album: Blue", "Genre: Folk", "Year: 1971",
      "Cover: https://example.com/blue.png (not downloaded)",
    ]
    #expect(
      shell.lines() == [
        #"added "Blue" as 5 (6 albums)"#,
        "[5/6] 3 Nothing Like The Sun | 4 Staring at the Sun | >5 Blue< | 6 American Pie",
      ] + blue + ["[1/6] >1 Best of Bowie< | 2 It's My Life | 3 Nothing Like The Sun"] + Self.details(Self.catalogue(1))
        + blue)
  }

  @Test func showEscapesControlCharacters() throws {
    let shell = try InProcessShell(albums: [Album(title: "Evil\u{1B}[2J", artist: "Tab\there")])
    #expect(shell.run("show") == [])
    #expect(shell.lines().prefix(2) == ["Artist: Tab\\there", "Album: Evil\\e[2J"])
  }

  @Test func showErrors() throws {
    let shell = try InProcessShell()
    #expect(shell.run("show 6") == ["show: no album 6 (the library has 5)"])
    #expect(shell.run("show 1 9") == ["show: no album 9 (the library has 5)"])
    let empty = try InProcessShell(albums: [])
    #expect(empty.run("show") == ["show: the library is empty"])
  }

  @Test(arguments: [
    ("show 9", "show: no album 9 (the library has 5)"),
    ("show nope", "show: no album titled 'nope' (try 'list nope')"),
    (#"show "Best of""#, "show: no album titled 'Best of' (try 'list Best of')"),
    ("show 1 9", "show: no album 9 (the library has 5)"),
  ])
  func showReportsAlbumsThatDoNotExist(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [message])
    #expect(shell.output() == "")
  }
}
