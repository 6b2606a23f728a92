import AlbumModel
import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import BlueLibrary

/// What `play` and `queue` hand the player, decided by the facade over a library file:
/// the tracks of an album from a track, of several albums, of the view, of a random pick or
/// of a playlist, and each refusal as a ``PlayError`` with its line (issue 47, item 5).
@Suite struct TracksToPlayTests {
  let directory: TemporaryDirectory
  let folder: MusicFolderFixture
  let library: Library

  /// "Alpha" (two tracks, by X) and "Beta" (one, by Y) from a music folder, and "Plain"
  /// (by Z), from none, in a library file.
  init() throws {
    directory = try TemporaryDirectory()
    folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    // Written out of order: the album's order is the tags'.
    try folder.track("X/Alpha/b.mp3", TagEdit(album: "Alpha", artist: "X", title: "A2", trackNumber: "2"))
    try folder.track("X/Alpha/a.mp3", TagEdit(album: "Alpha", artist: "X", title: "A1", trackNumber: "1"))
    try folder.track("Y/Beta/01.mp3", TagEdit(album: "Beta", artist: "Y", title: "B1", trackNumber: "1"))
    library = try Library(store: AlbumStore.open(path: directory.file("library.sqlite")), session: "test")
    try library.importFolder(folder.root, named: "M")
    try library.add(Album(title: "Plain", artist: "Z"))
  }

  /// The 0-based index of the album titled `title`.
  func index(_ title: String) throws -> Int {
    try #require(try library.indices(ofTitle: title, limit: 1).first)
  }

  /// The refusal `choice` meets, nil when it plays.
  func refusal(_ choice: Library.PlayChoice) -> PlayError? {
    do throws(PlayError) {
      _ = try library.tracksToPlay(choice)
      return nil
    } catch {
      return error
    }
  }

  @Test func anAlbumPlaysItsTracksInOrderFromTheTrackNamed() throws {
    let alpha = try library.tracksToPlay(.album(at: try index("Alpha")))
    #expect(alpha.tracks.map(\.title) == ["A1", "A2"])
    #expect(alpha.tracks.map(\.path) == [folder.path("X/Alpha/a.mp3"), folder.path("X/Alpha/b.mp3")])
    #expect(alpha.start == 0)
    #expect(alpha.albums.map(\.title) == ["Alpha"])
    #expect(try library.tracksToPlay(.album(at: try index("Alpha"), fromTrack: 2)).start == 1)
    for number in [Int.min, 0, 3, Int.max] {
      let refused = refusal(.album(at: try index("Alpha"), fromTrack: number))
      #expect(refused == .noTrack(title: "Alpha", number: number, count: 2))
      #expect(refused?.description == "\"Alpha\" has no track \(number) (it has 2)")
    }
    let plain = refusal(.album(at: try index("Plain")))
    #expect(plain == .noMusicFiles(title: "Plain"))
    #expect(plain?.description == "\"Plain\" has no music files to play (it did not come from a music folder)")
    #expect(refusal(.album(at: 9)) == .library(.noAlbum(index: 9, count: 3)))
  }

  @Test func albumsPlayInTheOrderNamedAndOneWithoutFilesIsRefused() throws {
    let both = try library.tracksToPlay(.albums(at: [try index("Beta"), try index("Alpha")]))
    #expect(both.tracks.map(\.title) == ["B1", "A1", "A2"])
    #expect(both.albums.map(\.title) == ["Beta", "Alpha"])
    #expect(refusal(.albums(at: [try index("Beta"), try index("Plain")])) == .noMusicFiles(title: "Plain"))
  }

  @Test func theViewPlaysItsAlbumsWithFilesAndRefusesAViewWithoutAny() throws {
    let all = try library.tracksToPlay(.view)
    #expect(all.albums.map(\.title).sorted() == ["Alpha", "Beta"])
    #expect(all.tracks.count == 3)
    try library.show(try library.query(["artist:Z"]))
    let refused = refusal(.view)
    #expect(refused == .viewHasNoMusic)
    #expect(refused?.description == "no album of the view came from a music folder")
  }

  @Test func aRandomPickTakesDistinctAlbumsWithFilesAndSaysWhyItFindsNone() throws {
    for _ in 0..<20 {
      let pick = try library.tracksToPlay(.random(count: 5, matching: nil))
      #expect(pick.albums.map(\.title).sorted() == ["Alpha", "Beta"])
      #expect(pick.tracks.count == 3)
      #expect(pick.pickedAmong == 3)
    }
    let one = try library.tracksToPlay(.random(count: 1, matching: try library.query(["artist:Y"])))
    #expect(one.albums.map(\.title) == ["Beta"])
    #expect(one.pickedAmong == 1)
    let empty = refusal(.random(count: 1, matching: try library.query(["genre:nothing"])))
    #expect(empty == .nothingToPick(.query))
    #expect(empty?.description == "no album to pick from: what the query matches is empty")
    let none = refusal(.random(count: 1, matching: try library.query(["artist:Z"])))
    #expect(none == .noneWithMusic(.query, among: 1))
    #expect(
      none?.description
        == "no album of what the query matches came from a music folder (1 album, none with music files)")
    try library.show(try library.query(["artist:Z"]))
    #expect(refusal(.random(count: 1, matching: nil))?.description.hasPrefix("no album of the view came") == true)
  }

  @Test func aPlaylistPlaysWhatTheLibraryHoldsInItsOrderAndRefusesOneOfNothing() throws {
    let list = folder.path("road.m3u8")
    try "Y/Beta/01.mp3\nnowhere.mp3\nX/Alpha/b.mp3\n".write(toFile: list, atomically: true, encoding: .utf8)
    let played = try library.tracksToPlay(.playlist(path: list))
    #expect(played.tracks.map(\.title) == ["B1", "A2"])
    #expect(played.missing == [folder.path("nowhere.mp3")])
    #expect(played.listed == 3)
    let nothing = folder.path("nothing.m3u")
    try "gone.mp3\n".write(toFile: nothing, atomically: true, encoding: .utf8)
    let refused = refusal(.playlist(path: nothing))
    #expect(refused == .playlistHoldsNone(path: nothing, listed: 1, missing: [folder.path("gone.mp3")]))
    #expect(refused?.description == "none of the 1 track of nothing.m3u is in the library: gone.mp3")
  }
}
