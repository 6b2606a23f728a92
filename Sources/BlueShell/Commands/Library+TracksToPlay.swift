import AlbumModel
import BlueLibrary
import BluePlayback

extension Library {
  /// The album at `index` and its tracks to play, or an error saying it has none (`play`,
  /// `queue`).
  func tracksToPlay(ofAlbumAt index: Int) throws -> (album: Album, tracks: [Player.Track]) {
    let album = try album(at: index)
    let tracks = try playableTracks(of: album)
    guard !tracks.isEmpty else {
      throw CommandError("\(quotedTitle(album)) has no music files to play (it did not come from a music folder)")
    }
    return (album, tracks)
  }
}
