import AlbumModel
import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import BlueLibrary

/// Moves are not duplicates, wherever the album went (issue 47, item 1: a review of the one
/// importer found an album moved into a folder never imported before came in as a second
/// album): its id, place, edits and history follow it.
extension FolderImportTests {
  @Test func anAlbumMovedIntoAFolderNeverImportedIsFollowedThere() throws {
    for number in 1...2 {
      try track("One/Kind of Blue/\(number).flac", TagEdit(album: "Kind of Blue", artist: "Miles Davis", genre: "Jazz"))
    }
    let library = try shell("A")
    #expect(try library.importFolder(music + "/One", named: "One").added == 1)
    var album = try #require(try library.allAlbums().first { $0.title == "Kind of Blue" })
    album.genre = "Modal jazz"
    _ = try library.edit(album)

    try FileManager.default.createDirectory(atPath: music + "/Two", withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: music + "/One/Kind of Blue", toPath: music + "/Two/Kind of Blue")
    let moved = try library.importFolder(music + "/Two", named: "Two")
    #expect(moved.moved == 1 && moved.added == 0, "\(moved)")
    let albums = try library.allAlbums().filter { $0.title == "Kind of Blue" }
    #expect(albums.count == 1)
    #expect(albums.first?.id == album.id && albums.first?.genre == "Modal jazz")
    #expect(albums.first?.folder == music + "/Two/Kind of Blue")
    #expect(try library.tracklist(of: try #require(albums.first))?.tracks.count == 2)
  }
}
