import MusicFolder
import TestSupport

extension MusicFolderFixture {
  /// Scans the root with two workers.
  func scan() throws -> MusicFolderScan {
    try MusicFolderScanner().scan(root)
  }
}

extension MusicFolderScan {
  /// The album titled `title` (by `artist`, when given); nil when there is none.
  func album(_ title: String, by artist: String? = nil) -> MusicAlbum? {
    albums.first { $0.title == title && (artist == nil || $0.artist == artist) }
  }
}
