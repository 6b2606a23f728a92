import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `delete` in process: an ``InProcessShell`` over a library on an in-memory store. Each
/// test asserts the library's state and what the user sees (script mode).
@Suite struct DeleteCommandTests: AlbumVerbExpectations {
  @Test func deleteTheCurrentAlbumSelectsTheOneInItsPlace() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 4") == [])
    _ = shell.output()
    #expect(shell.run("delete") == [])
    #expect(
      try shell.titles() == [
        "Best of Bowie", "It's My Life", "Nothing Like The Sun", "American Pie",
      ])
    #expect(shell.library.selection == 3)
    #expect(
      shell.lines() == [
        #"deleted "Staring at the Sun" (4 albums left)"#,
        "[4/4] 2 It's My Life | 3 Nothing Like The Sun | >4 American Pie<",
      ] + Self.details(Self.catalogue(5)))
  }

  /// `delete` and `rm` take the current album; the next one takes its place, or at the end
  /// the one before.
  @Test func deleteOfTheCurrentAlbumAtTheEndSelectsTheOneBefore() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2; delete; scroll end; rm; list") == [])
    #expect(
      shell.lines() == Self.catalogueViewport(2) + [
        #"deleted "It's My Life" (4 albums left)"#,
        "[2/4] 1 Best of Bowie | >2 Nothing Like The Sun< | 3 Staring at the Sun | 4 American Pie",
      ] + Self.details(Self.catalogue(3))
        + ["[4/4] 2 Nothing Like The Sun | 3 Staring at the Sun | >4 American Pie<"]
        + Self.details(Self.catalogue(5)) + [
          #"deleted "American Pie" (3 albums left)"#,
          "[3/3] 1 Best of Bowie | 2 Nothing Like The Sun | >3 Staring at the Sun<",
        ] + Self.details(Self.catalogue(4)) + [
          "  1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded",
          "  2. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded",
          "* 3. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded",
          "3 albums",
        ])
  }

  @Test func undoDeleteBringsTheAlbumBackAndSelectsIt() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 4; delete; tap 1") == [])
    _ = shell.output()
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.library.selection == 3)
    #expect(shell.lines() == [#"undid delete "Staring at the Sun""#] + Self.catalogueViewport(4))
    #expect(shell.run("redo") == [])
    #expect(try shell.library.count() == 4)
    #expect(shell.lines().first == #"redid delete "Staring at the Sun""#)
  }

  @Test func deleteAnotherAlbumKeepsTheCurrentOneSelected() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 4; rm 1") == [])
    #expect(try shell.library.selectedAlbum()?.title == "Staring at the Sun")
    #expect(shell.library.selection == 2)
    // Undo brings the deleted album back and selects it, not the one that was current.
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(shell.library.selection == 0)
  }

  @Test func deleteByQuotedTitle() throws {
    let shell = try InProcessShell()
    #expect(shell.run(#"delete "american pie""#) == [])
    #expect(try shell.titles() == Array(Self.catalogueTitles.prefix(4)))
    #expect(shell.lines().first == #"deleted "American Pie" (4 albums left)"#)
  }

  @Test func deleteTheLastAlbumEmptiesTheLibraryAndUndoBringsItBack() throws {
    let shell = try InProcessShell(albums: [Album(title: "Only")])
    #expect(shell.run("delete") == [])
    #expect(try shell.library.count() == 0)
    #expect(shell.library.selection == nil)
    #expect(shell.lines() == [#"deleted "Only" (0 albums left)"#] + Self.emptyViewport)
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == ["Only"])
    #expect(shell.library.selection == 0)
  }

  @Test(arguments: [
    ("delete", "delete: the library is empty"),
    ("delete 1", "delete: no album 1 (the library is empty)"),
    ("rm 1", "rm: no album 1 (the library is empty)"),
    ("rm Nope", "rm: no album titled 'Nope' (try 'list Nope')"),
  ])
  func deleteOnAnEmptyLibraryFails(line: String, message: String) throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run(line) == [message])
    #expect(shell.output() == "")
    #expect(shell.run("undo") == ["undo: nothing to undo"])
  }

  @Test(arguments: [
    ("delete 9", "delete: no album 9 (the library has 5)"),
    ("delete 0", "delete: no album 0 (the library has 5)"),
    ("delete 1 9", "delete: no album 9 (the library has 5)"),
    ("delete 2-9", "delete: no album 9 (the library has 5)"),
    ("delete 0-2", "delete: no album '0-2' (indices start at 1)"),
    ("delete 4-2", "delete: the range '4-2' runs backwards (try '2-4')"),
    ("delete 1 Nope", "delete: no album titled 'Nope' (try 'list Nope')"),
  ])
  func deleteRejectsBadAlbums(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [message])
    #expect(try shell.library.count() == 5)
  }

  /// `delete 1 3 5`, `delete 2-4`, titles and ranges mixed: one step, one undo (issue 26, item 2).
  @Test(arguments: [
    (
      "delete 1 3 5", [2, 4],
      #"deleted 3 albums: "Best of Bowie", "Nothing Like The Sun", "American Pie" (2 albums left)"#
    ),
    (
      "delete 2-4", [1, 5],
      #"deleted 3 albums: "It's My Life", "Nothing Like The Sun", "Staring at the Sun" (2 albums left)"#
    ),
    (
      #"rm 5 "best of bowie" 4-5 2"#, [3],
      #"deleted 4 albums: "Best of Bowie", "It's My Life", "Staring at the Sun", … (1 album left)"#
    ),
    (
      "delete 1-5", [], #"deleted 5 albums: "Best of Bowie", "It's My Life", "Nothing Like The Sun", … (0 albums left)"#
    ),
    ("delete 3-3", [1, 2, 4, 5], #"deleted "Nothing Like The Sun" (4 albums left)"#),
  ])
  func deleteSeveralAlbumsIsOneStepThatOneUndoTakesBack(line: String, left: [Int], message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 3") == [])
    _ = shell.output()
    #expect(shell.run(line) == [])
    #expect(shell.lines().first == message)
    #expect(try shell.titles() == left.map { Self.catalogue($0).title })
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
    #expect(try shell.library.changeLog(limit: 5).count == 1)
    #expect(shell.run("redo") == [])
    #expect(try shell.titles() == left.map { Self.catalogue($0).title })
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == Self.catalogueTitles)
  }

  /// A query past SQLite's own limits is the user's to shorten: it said "library database
  /// error: Expression tree is too large", as if the file were damaged (round 3, F23).
  @Test(arguments: [
    Array(repeating: "w", count: 1_000).joined(separator: " "), String(repeating: "x", count: 60_000),
  ])
  func listSaysAQueryIsTooLongNotThatTheLibraryIsDamaged(query: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run("list \(query)") == ["list: the query is too long (at most 100 words of 4 KiB each)"])
    #expect(shell.run("list " + Array(repeating: "o", count: 100).joined(separator: " ")) == [])
  }

  /// `scroll to Album 01500` and `tap Best of Bowie`: an unquoted title of several words is
  /// the rest of the line (issue 26, item 10); after an index, a word more is still an error.
  @Test(arguments: [
    ("scroll to Nothing Like The Sun", 2), ("tap american pie", 4), ("scroll to staring at the sun", 3),
  ])
  func anUnquotedTitleOfSeveralWordsIsTheRestOfTheLine(line: String, selected: Int) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [])
    #expect(shell.library.selection == selected)
    #expect(shell.run("tap no such album") == ["tap: no album titled 'no such album' (try 'list no such album')"])
  }

  /// A title two albums share names neither: the error lists their indices and nothing
  /// changes; an index picks one, and then the title names the other.
  @Test func anAmbiguousTitleIsAnErrorThatListsTheMatchesAndChangesNothing() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2; add Dup; tap 5; add Dup") == [])
    #expect(
      try shell.titles() == [
        "Best of Bowie", "It's My Life", "Dup", "Nothing Like The Sun", "Staring at the Sun", "Dup", "American Pie",
      ])
    _ = shell.output()
    #expect(shell.run("list") == [])
    let before = shell.output()
    #expect(shell.run("delete Dup") == ["delete: 2 albums are titled 'Dup': 3, 6 (name one by its index)"])
    #expect(shell.output() == "")
    #expect(shell.run("list") == [])
    #expect(shell.output() == before)
    #expect(shell.run("delete 6; delete Dup") == [])
    _ = shell.output()
    #expect(shell.run("list dup") == [])
    #expect(shell.output() == "0 of 5 albums match 'dup'\n")
  }
}
