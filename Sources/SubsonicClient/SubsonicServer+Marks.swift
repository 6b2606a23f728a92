import MusicSource

// Stars and ratings: where a Subsonic server keeps them for every client of the user. A
// favourite album is a starred album (`star`/`unstar` with `albumId`); an album's rating is
// `setRating` of the album, or, from a server that rates songs only (supysonic answers 70,
// "Track not found", for an album's id; remembered for the process), of each of its songs.
// Taking a rating back (0) is answered `ok` by supysonic whatever the id: on a server not
// known to rate albums (it said 70, or it is not OpenSubsonic's), the songs' go too.
extension SubsonicServer {
  /// The albums one `star` or `unstar` names.
  static let albumsPerStar = 50

  /// Keeps `mark` on the albums of `paths` (tracks `ALBUM/SONG.SUFFIX`, or albums `ALBUM`
  /// whose tracks the library has not asked for).
  ///
  /// - Throws: a ``SourceError`` that is a refusal (``SourceError/refused``) when the server
  ///   said no (the mark stays in the library only), another when it could not be reached.
  package func share(_ mark: SharedMark, onTracks paths: [String]) throws(SourceError) {
    var albums: [String] = []
    var songs: [String: [String]] = [:]
    for path in paths {
      guard let ids = Self.ids(ofPath: path) else { continue }
      if songs[ids.album] == nil {
        albums.append(ids.album)
        songs[ids.album] = []
      }
      if let song = ids.song { songs[ids.album]?.append(song) }
    }
    guard !albums.isEmpty else { return }
    do throws(SubsonicError) {
      switch mark {
      case .favourite(let favourite):
        try star(albums, favourite)
      case .rating(let stars):
        let value = String(stars.map { min(max($0, 1), 5) } ?? 0)
        for album in albums {
          if !ratesSongsOnly {
            do throws(SubsonicError) {
              _ = try call("setRating", [("id", album), ("rating", value)])
              // A removal tells nothing: supysonic answers `ok` to a rating of 0 for any id
              // (it removes what it does not have). Unless the server is known to rate
              // albums, the songs' ratings go too (below).
              if stars != nil || !mayRateSongsOnly { continue }
            } catch  where error.code == 70 || error.code == 0 && error.description.contains("Invalid ID") {
              // Rates songs only: its songs from now on.
              ratesSongsOnly = true
            }
          }
          var ids = songs[album] ?? []
          if ids.isEmpty {
            let listed = try call("getAlbum", [("id", album)], maxBytes: Self.largestList).album?.songs ?? []
            // A removal asks only of the songs that have a rating.
            ids = listed.filter { stars != nil || $0.userRating != nil }.map(\.id)
          }
          for song in ids { _ = try call("setRating", [("id", song), ("rating", value)]) }
        }
      }
    } catch {
      throw error.sourceError
    }
  }

  /// Whether the server may rate songs only: it said so (error 70 for an album's id), or it
  /// does not speak OpenSubsonic (whose servers rate albums, and say so in their lists).
  var mayRateSongsOnly: Bool { ratesSongsOnly || features?.openSubsonic != true }

  /// Stars (or unstars) `albums`, fifty to a request. supysonic refuses to star an album
  /// starred already (error 0, "… already starred"), and then every album of the request:
  /// they are starred one by one, those starred already taken as they are.
  private func star(_ albums: [String], _ favourite: Bool) throws(SubsonicError) {
    let method = favourite ? "star" : "unstar"
    var start = 0
    while start < albums.count {
      let batch = Array(albums[start..<min(start + Self.albumsPerStar, albums.count)])
      start += batch.count
      do throws(SubsonicError) {
        _ = try call(method, batch.map { ("albumId", $0) })
      } catch  where favourite && Self.saysAlreadyStarred(error) {
        for album in batch {
          do throws(SubsonicError) {
            _ = try call(method, [("albumId", album)])
          } catch  where Self.saysAlreadyStarred(error) {
            continue
          }
        }
      }
    }
  }

  /// Whether `error` is supysonic's refusal to star what is starred.
  private static func saysAlreadyStarred(_ error: SubsonicError) -> Bool {
    guard case .failed(0, let message) = error.reason else { return false }
    return message.lowercased().contains("already starred") || message.isEmpty
  }
}
