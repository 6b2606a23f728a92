import AlbumModel
import BlueLibrary
import BluePlayback

/// Albums picked at random for `play random` and `queue random`: among the view's albums
/// (or those of a query within it), only albums from a music folder, each at most once.
struct RandomAlbums {
  /// The albums picked, with their tracks, in the order picked.
  var picked: [(album: Album, tracks: [Player.Track])]
  /// How many albums they were picked among (all the view's or the query's, with files or not).
  var among: Int

  /// Picks `count` distinct albums with music files at random among those `words` (a query;
  /// none: the whole view) match; fewer when fewer have files, an error when none has.
  init(count: Int, matching words: [Word], in library: Library) throws {
    let query = try TypedQuery(words: words).resolve(in: library)
    var ids = try library.listing(query).map(\.id)
    among = ids.count
    ids.shuffle()
    picked = []
    // Read in small batches: an album without files is passed over, and a library of a
    // million reads only as many as it takes.
    var next = ids[...]
    while picked.count < count, !next.isEmpty {
      let batch = next.prefix(max(16, count - picked.count))
      next = next.dropFirst(batch.count)
      let albums = Dictionary(
        try library.albums(ids: Array(batch)).compactMap { album in album.id.map { ($0, album) } },
        uniquingKeysWith: { first, _ in first })
      for id in batch where picked.count < count {
        guard let album = albums[id] else { continue }
        let tracks = try library.playableTracks(of: album)
        if !tracks.isEmpty { picked.append((album, tracks)) }
      }
    }
    guard !picked.isEmpty else {
      let scope = words.isEmpty ? (library.view == nil ? "the library" : "the view") : "what the query matches"
      throw CommandError(
        among == 0
          ? "no album to pick from: \(scope) is empty"
          : "no album of \(scope) came from a music folder (\(albumCount(among)), none with music files)")
    }
  }
}
