import AlbumModel
import Foundation
import MusicFolder
import MusicSource
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

/// A music server's album is never taken for a folder's album that moved (its files are
/// never where a folder's are, so it always looked "moved"): a folder imported into the
/// library file of a server whose album has the same MusicBrainz id adds its own album.
@Suite struct SourceMoveTests {
  @Test func aFolderAlbumIsNotTakenForAServersAlbumWithItsMusicBrainzID() throws {
    let directory = try TemporaryDirectory()
    let folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    let id = "f5093c06-23e3-404f-aeaa-40f72885ee3a"
    var listed = SourceAlbum(
      path: "Miles Davis/Kind of Blue", title: "Kind of Blue", artist: "Miles Davis", trackCount: 5)
    listed.musicBrainzAlbumID = id
    let server = AlbumsSource([listed], fingerprint: "1")
    let library = Library.inMemory(seed: [], source: server)
    #expect(try library.importSource(server).added == 1)

    for number in 1...2 {
      try folder.track(
        "Kind of Blue/\(number).flac",
        TagEdit(album: "Kind of Blue", artist: "Miles Davis", musicBrainzAlbumID: id))
    }
    let imported = try library.importFolder(folder.root, named: "Music")
    #expect(imported.added == 1 && imported.moved == 0, "\(imported)")
    #expect(
      try library.allAlbums().map(\.folder) == [
        server.root + "/Miles Davis/Kind of Blue", folder.root + "/Kind of Blue",
      ])
    // The server's album is still the server's: its next sync finds it as it was.
    server.version = "2"
    let synced = try library.importSource(server)
    #expect(synced.added == 0 && synced.gone == 0, "\(synced)")
    #expect(try library.allAlbums().count == 2)
  }
}
