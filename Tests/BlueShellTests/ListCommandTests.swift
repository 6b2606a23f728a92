import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `list` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct ListCommandTests: AlbumVerbExpectations {
  @Test func listPrintsEveryAlbumAndMarksTheCurrentOne() throws {
    let shell = try InProcessShell()
    #expect(
      shell.run("tap 2; add \"Blue Train\" artist=\"John Coltrane\" year=1957 genre=Jazz") == [])
    _ = shell.output()
    #expect(shell.run("list") == [])
    #expect(
      shell.lines() == [
        "  1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded",
        "  2. It's My Life — No Doubt (2003, Pop) · cover: not downloaded",
        "* 3. Blue Train — John Coltrane (1957, Jazz) · cover: no cover",
        "  4. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded",
        "  5. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded",
        "  6. American Pie — Madonna (2000, Pop) · cover: not downloaded",
        "6 albums",
      ])
    #expect(shell.library.selection == 2)
  }

  @Test(arguments: [
    (
      "list sun", ["3. Nothing Like The Sun", "4. Staring at the Sun"], "2 of 5 albums match 'sun'"
    ),
    ("ls SUN", ["3. Nothing Like The Sun", "4. Staring at the Sun"], "2 of 5 albums match 'SUN'"),
    ("list year:2000", ["4. Staring at the Sun", "5. American Pie"], "2 of 5 albums match 'year:2000'"),
    ("list no doubt", ["2. It's My Life"], "1 of 5 albums match 'no doubt'"),
    ("list madonna", ["5. American Pie"], "1 of 5 albums match 'madonna'"),
    ("list jazz", [], "0 of 5 albums match 'jazz'"),
  ])
  func listFiltersByQuery(line: String, albums: [String], summary: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [])
    let lines = shell.lines()
    #expect(lines.last == summary)
    #expect(
      lines.dropLast().map { String($0.dropFirst(2).prefix { $0 != "—" }.dropLast()) } == albums)
  }

  /// Over title, artist, genre and year, whatever the case; the current album keeps its mark.
  @Test func listQueryMatchesCaseInsensitivelyOverTitleArtistGenreAndYear() throws {
    let shell = try InProcessShell()
    #expect(shell.run("list SUN; list sting; list year:1992; list at the; list zzz") == [])
    #expect(
      shell.lines() == [
        "  3. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded",
        "  4. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded",
        "2 of 5 albums match 'SUN'",
        "  3. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded",
        "1 of 5 albums match 'sting'",
        "* 1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded",
        "1 of 5 albums match 'year:1992'",
        "  4. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded",
        "1 of 5 albums match 'at the'",
        "0 of 5 albums match 'zzz'",
      ])
    #expect(shell.run(#"add "Blue Train" genre=Jazz year=1957"#) == [])
    _ = shell.output()
    #expect(shell.run("list JAZZ") == [])
    #expect(shell.lines() == ["* 2. Blue Train (1957, Jazz) · cover: no cover", "1 of 6 albums match 'JAZZ'"])
    #expect(shell.run("ls pop") == [])
    #expect(
      shell.lines() == [
        "  1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded",
        "  3. It's My Life — No Doubt (2003, Pop) · cover: not downloaded",
        "  4. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded",
        "  5. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded",
        "  6. American Pie — Madonna (2000, Pop) · cover: not downloaded",
        "5 of 6 albums match 'pop'",
      ])
  }

  /// `list` writes its lines straight from the library's rows; they must be the very lines
  /// the album-by-album path makes (the pager uses that one), whatever the text holds.
  @Test func listWrittenFromRowsIsTheSameAsAlbumByAlbum() throws {
    let albums = [
      Album(
        title: "Red \u{1B}[31mAlert", artist: "Tab\tBand", genre: "Noise\u{7}", year: 1999, coverURL: "http://x/a.png"),
      Album(title: "Café – 東京 🎷", artist: "", genre: "Jazz", coverURL: "file:///covers/b.png"),
      Album(title: "C1 \u{9B}2J here", artist: "Ünïcode", genre: "", year: 2001, coverURL: "FILE:///c.png"),
      Album(title: "No cover at all", artist: "Someone", year: 0),
      Album(title: "Plain", artist: "Plain Artist", genre: "Pop", year: 1980, coverURL: "https://example.com/p.jpg"),
    ]
    let shell = try InProcessShell(albums: albums)
    #expect(shell.run("tap 3") == [])
    _ = shell.output()
    #expect(shell.run("list") == [])
    let direct = shell.lines()
    let library = shell.library
    let byAlbum = Array(
      AlbumListing(
        library: library, query: nil, total: try library.count(), entries: try library.listing(.all),
        format: nil))
    #expect(direct == byAlbum)
    #expect(direct.count == 6)
    #expect(direct[0] == "  1. Red \\e[31mAlert — Tab\\tBand (1999, Noise\\x07) · cover: not downloaded")
    #expect(direct[1] == "  2. Café – 東京 🎷 (Jazz) · cover: local")
    #expect(direct[2] == "* 3. C1 \\u{9b}2J here — Ünïcode (2001) · cover: local")
  }

  @Test func listOfAnEmptyLibrary() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("list") == [])
    #expect(shell.lines() == ["0 albums"])
  }

  @Test func listOfOneAlbumWithoutDetails() throws {
    let shell = try InProcessShell(albums: [Album(title: "Bare")])
    #expect(shell.run("list") == [])
    #expect(shell.lines() == ["* 1. Bare · cover: no cover", "1 album"])
  }
}
