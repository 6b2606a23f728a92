import AlbumModel
import Foundation
import Testing

@testable import BlueLibrary

/// The sample albums make room (issue 26, item 1): the first import of a music folder or a
/// file into a library that holds only the five sample albums, untouched, takes them out in
/// the same step; one undo brings them back and takes the import back, one redo does both
/// again. A library whose samples were touched keeps them.
extension FolderImportTests {
  @Test func theFirstFolderImportTakesTheUntouchedSamplesOutInTheSameStep() throws {
    try makeTwoAlbums()
    let library = try shell("A")
    let samples = try library.allAlbums()
    #expect(samples.map(\.title) == DefaultCatalogue.albums.map(\.title))
    library.select(3)

    let result = try library.importFolder(music, named: "~/Music")
    #expect(result.added == 2 && result.samplesLeft == 5)
    #expect(result.summary == "import from ~/Music: 2 added, in place of the 5 sample albums")
    let imported = try library.allAlbums()
    #expect(imported.map(\.title) == ["Loud", "Quiet"])
    #expect(library.selection == 0, "the first of the user's albums is current")
    #expect(try library.changeLog(limit: 10).count == 1, "one step")

    #expect(try shell("B").undo() == "import from ~/Music: 2 added, in place of the 5 sample albums")
    #expect(try library.allAlbums() == samples, "the samples are back, with their ids, in their order")
    #expect(try shell("C").redo() == "import from ~/Music: 2 added, in place of the 5 sample albums")
    #expect(try library.allAlbums().map(\.title) == ["Loud", "Quiet"])
    // The folder's bookkeeping followed the redo: a re-import finds its albums unchanged.
    let again = try shell("D").importFolder(music, named: "~/Music")
    #expect(again.added == 0 && again.unchanged == 2 && again.samplesLeft == 0 && again.summary == nil)
    #expect(try library.count() == 2)
  }

  @Test func theFirstFileImportTakesTheUntouchedSamplesOut() throws {
    let file = directory.file("albums.csv")
    try Data("title,artist\nA,x\nB,y\n".utf8).write(to: URL(fileURLWithPath: file))
    let library = try shell("A")
    let samples = try library.allAlbums()
    let imported = try library.importAlbums(fromFile: file)
    #expect(imported.range == 0..<2 && imported.samplesLeft == 5)
    #expect(try library.allAlbums().map(\.title) == ["A", "B"])
    #expect(try library.undo() == "import of 2 albums in place of the 5 sample albums")
    #expect(try library.allAlbums() == samples)
    #expect(try library.redo() == "import of 2 albums in place of the 5 sample albums")
    #expect(try library.allAlbums().map(\.title) == ["A", "B"])
    // The next import appends, as always.
    #expect(try library.importAlbums(fromFile: file) == (2..<4, [], 0))
  }

  @Test func aFileWithNoAlbumsLeavesTheSamples() throws {
    let file = directory.file("empty.csv")
    try Data("title,artist\n".utf8).write(to: URL(fileURLWithPath: file))
    let library = try shell("A")
    #expect(try library.importAlbums(fromFile: file).samplesLeft == 0)
    #expect(try library.allAlbums().map(\.title) == DefaultCatalogue.albums.map(\.title))
  }

  /// Samples you edited, moved, deleted from or added to are part of your library: they stay.
  @Test(arguments: ["edit", "move", "delete", "add"])
  func touchedSamplesStay(touch: String) throws {
    try makeTwoAlbums()
    let library = try shell("A")
    switch touch {
    case "edit":
      var album = try library.album(at: 2)
      album.genre = "Rock"
      try library.edit(album)
    case "move": try library.move(from: 4, to: 0)
    case "delete": try library.delete(at: 1)
    default: try library.add(Album(title: "Mine"))
    }
    let before = try library.allAlbums()
    let result = try library.importFolder(music, named: "M")
    #expect(result.samplesLeft == 0 && result.summary == "import from M: 2 added")
    #expect(try library.allAlbums().prefix(before.count).map(\.id) == before.map(\.id))
    #expect(try library.count() == before.count + 2)
  }

  /// After `reset` the samples are as they came: the next import takes them out again.
  @Test func afterResetTheNextImportTakesTheSamplesOutAgain() throws {
    try makeTwoAlbums()
    let library = try shell("A")
    try library.add(Album(title: "Mine"))
    #expect(try library.importFolder(music, named: "M").samplesLeft == 0)
    try library.reset()
    try library.importFolder(music + "/B", named: "B")
    #expect(try library.allAlbums().map(\.title) == ["Quiet"])
  }
}
