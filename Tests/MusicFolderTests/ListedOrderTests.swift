import MusicFolder
import Testing

/// The grouping of listed tracks (a server's songs) finds a path's folders from its bytes
/// where each slash is a character of its own, and from its characters where one is not
/// (issue 47, item 6): the same folders either way.
@Suite struct ListedOrderTests {
  private static func track(_ path: String, album: String) -> ListedTrack {
    var tags = TrackTags()
    tags.album = album
    tags.artist = "Artist"
    return ListedTrack(path: path, modified: 0, tags: tags)
  }

  @Test func slashesBesideLettersBeyondASCIIStandAloneAndBesideMarksDoNot() {
    #expect(MusicFolderScanner.slashesStandAlone("mpd://h/Café Ñ/Album é — Live/01 à.flac"))
    #expect(MusicFolderScanner.slashesStandAlone("a/Ørsted/"))
    // A combining mark after a slash, a prepended mark before one: one character with it.
    #expect(!MusicFolderScanner.slashesStandAlone("a/\u{301}b/c.flac"))
    #expect(!MusicFolderScanner.slashesStandAlone("a\u{600}/b/c.flac"))
    #expect(!MusicFolderScanner.slashesStandAlone("a/\u{200D}b/c.flac"))
  }

  @Test func theFoldersOfPathsBeyondASCIIAreTheirCharactersFolders() {
    let paths = [
      "r/Café Ñ/Album é/02 b.flac", "r/Café Ñ/Album é/01 a.flac", "r/Café/Album é/01.flac",
      "r/a/\u{301}x/01.flac", "r/a/\u{301}x/02.flac", "r/Ørsted/Zz/1.flac",
    ]
    let albums = MusicFolderScanner.albums(listed: paths.map { Self.track($0, album: "Album") })
    // Each album's folder is its tracks' path up to their last slash character.
    for album in albums {
      for track in album.tracks {
        let path = track.path
        #expect(album.folder == String(path[..<path.lastIndex(of: "/")!]), "\(path)")
      }
    }
    #expect(
      albums.map(\.folder) == ["r/Café/Album é", "r/Café Ñ/Album é", "r/a/\u{301}x", "r/Ørsted/Zz"])
    #expect(albums[1].tracks.map(\.path) == ["r/Café Ñ/Album é/01 a.flac", "r/Café Ñ/Album é/02 b.flac"])
  }
}
