/// One album found in a music folder: its tracks' tags summed up.
public struct MusicAlbum: Sendable, Hashable {
  /// Identifies the album across scans of the same folder, so that importing it again can
  /// update it in place: its folder, album artist and title (the last two case-folded).
  public var key: String
  /// The album tag, or the folder's name for tracks without one.
  public var title: String
  /// The album-artist tag; else the artist all tracks share; else "Various Artists"
  /// (empty when no track names an artist).
  public var artist: String
  /// The most common year among the tracks' date tags (the earliest on a tie).
  public var year: Int?
  /// The most common genre among the tracks (the first one's on a tie); empty when none.
  public var genre: String
  /// How many tracks it has.
  public var trackCount: Int
  /// The tracks' lengths added up, in seconds.
  public var duration: Double
  /// The folder its tracks are in; for discs in sibling folders merged into one album
  /// (`CD1/`, `CD2/`), the folder holding those.
  public var folder: String
  /// Where its cover is: the first track (in disc-folder, track-number, file-name order)
  /// that embeds a picture, else a cover image in its folder; nil when it has none.
  public var cover: MusicCover?

  /// The ``key`` of the album with this folder, album artist and title: the three joined
  /// by U+001F, the artist and title lowercased.
  ///
  /// A U+001F inside a part becomes U+FFFD, so the separator stays a separator: folder `A`,
  /// artist `x`, title `y<US>t` must not give the key of folder `A<US>x`, artist `y`, title
  /// `t` (the second album would overwrite the first). Keys of parts without it are as before.
  public static func key(folder: String, artist: String, title: String) -> String {
    [folder, artist.lowercased(), title.lowercased()].map { part in
      guard part.utf8.contains(0x1F) else { return part }
      var scalars = String.UnicodeScalarView()
      scalars.append(contentsOf: part.unicodeScalars.lazy.map { $0 == "\u{1F}" ? "\u{FFFD}" : $0 })
      return String(scalars)
    }.joined(separator: "\u{1F}")
  }

  /// An album with every field given.
  public init(
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
