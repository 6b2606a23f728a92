import AlbumModel

// Twins and duplicates (issue 50, item 4): which albums share an artist and a title, and what
// tells them apart (`list`, the cards, `show`); whether an album has a duplicate.
extension Library {
  /// Every album from a source that shares its artist and title with another, by id, with
  /// what tells it apart: read once for a whole listing.
  package func twins() throws(LibraryError) -> [Int64: TwinLabel] {
    try store.twins()
  }

  /// What tells `album` from the albums that share its artist and title; nil when none does,
  /// or it has no source (nothing to tell it by).
  package func twinLabel(of album: Album) throws(LibraryError) -> TwinLabel? {
    guard let id = album.id, album.sourceKey != nil else { return nil }
    return try store.twinLabel(ofAlbumID: id, artist: album.artist, title: album.title)
  }

  /// Whether another album of the library is the same release as `album` (`duplicate:true`).
  package func isDuplicate(_ album: Album) throws(LibraryError) -> Bool {
    guard let id = album.id else { return false }
    return try store.isDuplicate(albumID: id)
  }
}
