import BlueCovers
package import MusicFolder

extension Album {
  /// The album a music-folder scan found, as the library stores it: its tags, its track
  /// count, length and folder, the rating and favourite mark its tracks agree on, its cover as a local URL (``LocalCover``), else as the Cover Art Archive's
  /// (``CoverArtArchiveSource``), and its source key.
  ///
  /// Tag values are cut to the library's limits rather than refused (a tag of megabytes
  /// must not fail an import of thousands of albums); a cover URL or folder too long to
  /// store (paths of thousands of bytes) is left out.
  package init(music album: MusicAlbum, key: String) {
    self.init(
      title: Self.cut(album.title), artist: Self.cut(album.artist), genre: Self.cut(album.genre),
      year: album.year.flatMap { Album.validYears.contains($0) ? $0 : nil },
      // Art of its own first; else the Cover Art Archive's, by the MusicBrainz ids of its tags.
      coverURL: album.cover.map(Self.coverURL(of:))
        ?? CoverArtArchiveSource.url(release: album.musicBrainzAlbumID, group: album.musicBrainzReleaseGroupID) ?? "",
      tracks: min(album.trackCount, Album.validTrackCounts.upperBound),
      duration: min(max(album.duration, 0), Album.maximumDuration),
      folder: album.folder.utf8.count <= Album.maximumFolderBytes ? album.folder : nil, rating: album.rating,
      favourite: album.favourite)
    if coverURL.utf8.count > Album.maximumLocalCoverBytes { coverURL = "" }
    if title.allSatisfy({ $0 == " " || $0 == "\t" }) { title = "(untitled)" }
    sourceKey = key
  }

  /// The cover URL (``LocalCover``) of a cover a scan found.
  static func coverURL(of cover: MusicCover) -> String {
    switch cover {
    case .file(let path): LocalCover.fileURL(path)
    case .embedded(let track, _): LocalCover.embeddedScheme + ":" + LocalCover.fileURL(track)
    }
  }

  /// The source key a scan gives the album with this folder, album artist and title.
  package static func sourceKey(folder: String, artist: String, title: String) -> String {
    MusicAlbum.key(folder: folder, artist: artist, title: title)
  }

  /// `text` cut to ``maximumTextLength`` characters and ``maximumTextBytes`` bytes (at a
  /// scalar's end: one character may be longer than that), without NUL characters.
  static func cut(_ text: String) -> String {
    // Most texts have no NUL and fewer bytes than either limit (a character has at least
    // one): taken as they are, without counting their characters.
    if text.utf8.count <= min(maximumTextLength, maximumTextBytes), !text.utf8.contains(0) { return text }
    let clean = text.contains("\0") ? text.filter { $0 != "\0" } : text
    var kept = clean.count > maximumTextLength ? String(clean.prefix(maximumTextLength)) : clean
    if kept.utf8.count > maximumTextBytes {
      var scalars = String.UnicodeScalarView()
      var bytes = 0
      for scalar in kept.unicodeScalars {
        bytes += UTF8.width(scalar)
        if bytes > maximumTextBytes { break }
        scalars.append(scalar)
      }
      kept = String(scalars)
    }
    return kept
  }
}
