import AlbumModel
import BluePlayback
import BlueSystem

// What `play` and `queue` hand the player: which tracks of which albums, decided here from
// the library's data, so the shell only parses the verb and says what happened.
extension Library {
  /// Albums (or a playlist) as `play` and `queue` choose them, their indices already read.
  package enum PlayChoice: Equatable, Sendable {
    /// The album at the 0-based `index`, from its `track`-th track (1-based, as `show` lists
    /// them; nil: the first).
    case album(at: Int, fromTrack: Int? = nil)
    /// The albums at the 0-based `indices`, in that order; one without music files is refused.
    case albums(at: [Int])
    /// Every album of the view with music files; those without are passed over.
    case view
    /// `count` different albums with music files picked at random among those `query`
    /// matches in the view (nil: the whole view).
    case random(count: Int, matching: AlbumQuery?)
    /// The tracks of the library that the playlist file at `path` (M3U, M3U8, PLS) lists.
    case playlist(path: String)
  }

  /// The tracks to hand the player, in order, with what the messages about them need.
  package struct TracksToPlay: Sendable {
    /// The tracks, album after album (a playlist's in its order).
    package var tracks: [Player.Track]
    /// The place in ``tracks`` to play from (0 unless a track was named).
    package var start = 0
    /// The albums the tracks are of, in order; empty for a playlist.
    package var albums: [Album]
    /// For a random pick: how many albums it was made among (all the query's or view's,
    /// with files or not).
    package var pickedAmong: Int?
    /// For a playlist: the entries that are no track of the library, as it lists them
    /// (resolved), in order.
    package var missing: [String] = []
    /// For a playlist: how many entries it lists.
    package var listed = 0
  }

  /// The tracks `choice` plays, in order.
  ///
  /// - Throws: a ``PlayError`` saying why there is nothing to play (an album without music
  ///   files, a track it does not have, none to pick, a playlist of nothing the library
  ///   holds), or ``PlayError/library(_:)`` for the library's own errors.
  package func tracksToPlay(_ choice: PlayChoice) throws(PlayError) -> TracksToPlay {
    switch choice {
    case .album(let index, let track):
      let (album, tracks) = try albumToPlay(at: index)
      guard let track else { return TracksToPlay(tracks: tracks, albums: [album]) }
      // Compared as typed, before any arithmetic: the number may be Int.min.
      guard track >= 1 && track <= tracks.count else {
        throw .noTrack(title: album.title, number: track, count: tracks.count)
      }
      return TracksToPlay(tracks: tracks, start: track - 1, albums: [album])
    case .albums(let indices):
      var result = TracksToPlay(tracks: [], albums: [])
      for index in indices {
        let (album, tracks) = try albumToPlay(at: index)
        result.tracks += tracks
        result.albums.append(album)
      }
      return result
    case .view:
      var result = TracksToPlay(tracks: [], albums: [])
      for album in try reading({ () throws(LibraryError) in try albums(in: 0..<(try count())) }) {
        let tracks = try reading { () throws(LibraryError) in try playableTracks(of: album) }
        guard !tracks.isEmpty else { continue }
        result.tracks += tracks
        result.albums.append(album)
      }
      guard !result.tracks.isEmpty else { throw .viewHasNoMusic }
      return result
    case .random(let count, let query):
      return try randomAlbumsToPlay(count: count, matching: query)
    case .playlist(let path):
      let found = try reading { () throws(LibraryError) in try playlistTracks(at: path) }
      guard !found.tracks.isEmpty else {
        throw .playlistHoldsNone(path: path, listed: found.count, missing: found.missing)
      }
      return TracksToPlay(tracks: found.tracks, albums: [], missing: found.missing, listed: found.count)
    }
  }

  /// The album at `index` and its tracks, or an error saying it has none.
  private func albumToPlay(at index: Int) throws(PlayError) -> (album: Album, tracks: [Player.Track]) {
    let album = try reading { () throws(LibraryError) in try self.album(at: index) }
    let tracks = try reading { () throws(LibraryError) in try playableTracks(of: album) }
    guard !tracks.isEmpty else { throw .noMusicFiles(title: album.title) }
    return (album, tracks)
  }

  /// `count` distinct albums with music files picked at random among those `query` matches
  /// (nil: the whole view); fewer when fewer have files, an error when none has.
  private func randomAlbumsToPlay(count: Int, matching query: AlbumQuery?) throws(PlayError) -> TracksToPlay {
    var ids = try reading { () throws(LibraryError) in try listing(query).map(\.id) }
    var result = TracksToPlay(tracks: [], albums: [], pickedAmong: ids.count)
    ids.shuffle()
    // Read in small batches: an album without files is passed over, and a library of a
    // million reads only as many as it takes.
    var next = ids[...]
    while result.albums.count < count, !next.isEmpty {
      let batch = next.prefix(max(16, count - result.albums.count))
      next = next.dropFirst(batch.count)
      let read = try reading { () throws(LibraryError) in try self.albums(ids: Array(batch)) }
      let albums = Dictionary(
        read.compactMap { album in album.id.map { ($0, album) } }, uniquingKeysWith: { first, _ in first })
      for id in batch where result.albums.count < count {
        guard let album = albums[id] else { continue }
        let tracks = try reading { () throws(LibraryError) in try playableTracks(of: album) }
        guard !tracks.isEmpty else { continue }
        result.tracks += tracks
        result.albums.append(album)
      }
    }
    guard !result.albums.isEmpty else {
      let scope: PlayError.Scope = query != nil ? .query : view == nil ? .library : .view
      throw ids.isEmpty ? .nothingToPick(scope) : .noneWithMusic(scope, among: ids.count)
    }
    return result
  }

  /// What `body` reads, its error as a ``PlayError``.
  private func reading<T>(_ body: () throws(LibraryError) -> T) throws(PlayError) -> T {
    do { return try body() } catch { throw .library(error) }
  }
}

/// Why `play` or `queue` has nothing to play; each description is the one line to show.
package enum PlayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Where a random pick looked: the library, the view, or what a query matches in it.
  package enum Scope: Equatable, Sendable {
    case library, view, query
  }

  /// The album titled `title` has no music files (it came from no music folder).
  case noMusicFiles(title: String)
  /// The album titled `title` has `count` tracks, and no track `number` (1-based, as typed).
  case noTrack(title: String, number: Int, count: Int)
  /// No album of the view has music files.
  case viewHasNoMusic
  /// A random pick among no albums at all.
  case nothingToPick(Scope)
  /// A random pick among `among` albums, none with music files.
  case noneWithMusic(Scope, among: Int)
  /// The playlist at `path` lists `listed` entries, none a track of the library (`missing`).
  case playlistHoldsNone(path: String, listed: Int, missing: [String])
  /// The library could not answer.
  case library(LibraryError)

  package var description: String {
    switch self {
    case .noMusicFiles(let title):
      "\(Self.quoted(title)) has no music files to play (it did not come from a music folder)"
    case .noTrack(let title, let number, let count):
      "\(Self.quoted(title)) has no track \(number) (it has \(count))"
    case .viewHasNoMusic:
      "no album of the view came from a music folder"
    case .nothingToPick(let scope):
      "no album to pick from: \(scope.named) is empty"
    case .noneWithMusic(let scope, let among):
      "no album of \(scope.named) came from a music folder (\(Library.albumCount(among)), none with music files)"
    case .playlistHoldsNone(let path, let listed, let missing):
      "none of the \(Library.counted(listed, "track")) of \(Self.fileName(path)) is in the library: "
        + Self.fileNames(missing)
    case .library(let error):
      error.description
    }
  }

  /// `"title"`, escaped.
  private static func quoted(_ title: String) -> String {
    "\"" + TextSanitizer.escaped(title) + "\""
  }

  /// The last part of `path`, escaped, as messages name a file.
  package static func fileName(_ path: String) -> String {
    TextSanitizer.escaped(String(path.split(separator: "/").last ?? Substring(path)))
  }

  /// The first ten of `paths` by their file names, with `…` when there are more.
  package static func fileNames(_ paths: [String]) -> String {
    paths.prefix(10).map(fileName).joined(separator: ", ") + (paths.count > 10 ? ", …" : "")
  }
}

extension PlayError.Scope {
  fileprivate var named: String {
    switch self {
    case .library: "the library"
    case .view: "the view"
    case .query: "what the query matches"
    }
  }
}
