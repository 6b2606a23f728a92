/// One album found in a music folder: its tracks' tags summed up.
package struct MusicAlbum: Sendable, Hashable {
  /// Identifies the album across scans of the same folder, so that importing it again can
  /// update it in place: its folder, album artist and title (the last two case-folded).
  package var key: String
  /// The album tag, or the folder's name for tracks without one.
  package var title: String
  /// The album-artist tag; else the artist all tracks share; else "Various Artists"
  /// (empty when no track names an artist).
  package var artist: String
  /// The most common year among the tracks' date tags (the earliest on a tie).
  package var year: Int?
  /// The most common genre among the tracks (the first one's on a tie); empty when none.
  package var genre: String
  /// How many tracks it has.
  package var trackCount: Int
  /// The tracks' lengths added up, in seconds.
  package var duration: Double
  /// The folder its tracks are in; for discs in sibling folders merged into one album
  /// (`CD1/`, `CD2/`), the folder holding those.
  package var folder: String
  /// Where its cover is: the first track (in disc-folder, track-number, file-name order)
  /// that embeds a picture, else a cover image in its folder; nil when it has none.
  package var cover: MusicCover?
  /// Its tracks, in disc, track-number and file-name order (tracks without a number after
  /// those with one).
  package var tracks: [MusicTrack] = []
  /// How many discs it spans: the highest disc number of its tracks (1 when none says).
  package var discs: Int { tracks.reduce(1) { max($0, $1.disc ?? 1) } }
  /// The rating all its tracks carry (in their files), nil unless they agree: a rating given to
  /// one track by another player is not the album's.
  package var rating: Int? {
    guard let first = tracks.first?.tags.rating else { return nil }
    return tracks.allSatisfy { $0.tags.rating == first } ? first : nil
  }
  /// Whether every track is marked a favourite in its file.
  package var favourite: Bool { !tracks.isEmpty && tracks.allSatisfy(\.tags.favourite) }
  /// The MusicBrainz release id most of its tracks carry, if any does.
  package var musicBrainzAlbumID: String?
  /// The MusicBrainz release-group id most of its tracks carry, if any does.
  package var musicBrainzReleaseGroupID: String?

  /// The ``key`` of the album with this folder, album artist and title: the three joined
  /// by U+001F, the artist and title lowercased.
  ///
  /// A U+001F inside a part becomes U+FFFD, so the separator stays a separator: folder `A`,
  /// artist `x`, title `y<US>t` must not give the key of folder `A<US>x`, artist `y`, title
  /// `t` (the second album would overwrite the first). Keys of parts without it are as before.
  package static func key(folder: String, artist: String, title: String) -> String {
    [folder, artist.lowercased(), title.lowercased()].map { part in
      guard part.utf8.contains(0x1F) else { return part }
      var scalars = String.UnicodeScalarView()
      scalars.append(contentsOf: part.unicodeScalars.lazy.map { $0 == "\u{1F}" ? "\u{FFFD}" : $0 })
      return String(scalars)
    }.joined(separator: "\u{1F}")
  }

  /// An album with every field given.
  package init(
    key: String, title: String, artist: String, year: Int?, genre: String, trackCount: Int, duration: Double,
    folder: String, cover: MusicCover?
  ) {
    self.key = key
    self.title = title
    self.artist = artist
    self.year = year
    self.genre = genre
    self.trackCount = trackCount
    self.duration = duration
    self.folder = folder
    self.cover = cover
  }
}

/// One track of a ``MusicAlbum``: its file, as the walk saw it, and its tags.
package struct MusicTrack: Sendable, Hashable {
  /// The file's path.
  package var path: String
  /// The file's size in bytes and modification time (nanoseconds since 1970).
  package var size: Int64
  package var modified: Int64
  /// The file's status-change time (nanoseconds since 1970) and inode, -1 when unknown (a
  /// track from an exported file): with the size and modification time, what a re-import
  /// compares to know the file unchanged (``FileStamp``).
  package var changed: Int64
  package var inode: Int64
  /// Its disc: the disc-number tag, else its disc folder's place (1, 2…) in an album merged
  /// from sibling folders (`CD1/`, `CD2/`); nil for a single folder without the tag.
  package var disc: Int?
  /// What TagLib read from it.
  package var tags: TrackTags

  /// A track with every field given.
  package init(
    path: String, size: Int64, modified: Int64, changed: Int64 = -1, inode: Int64 = -1, disc: Int?, tags: TrackTags
  ) {
    self.path = path
    self.size = size
    self.modified = modified
    self.changed = changed
    self.inode = inode
    self.disc = disc
    self.tags = tags
  }
}
