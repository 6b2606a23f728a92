/// The tracks of an album imported from a music folder, as its files said at the last scan.
public struct Tracklist: Sendable, Equatable {
  /// One track: one audio file.
  public struct Track: Sendable, Equatable {
    /// Its disc (the disc-number tag, else its disc folder's place); nil on a single disc.
    public var disc: Int?
    /// Its track number, when the tags give one.
    public var number: Int?
    /// Its title tag; nil when it has none (``displayTitle`` is then the file's name).
    public var title: String?
    /// Its artist tag.
    public var artist: String?
    /// Its length in seconds.
    public var duration: Double
    /// The file's absolute path.
    public var path: String
    /// The format TagLib opened it as: "MP3", "FLAC", "OGG", "Opus", "AAC"…
    public var format: String
    /// Its bitrate in kb/s; 0 when unknown.
    public var bitrate: Int
    /// The file's size in bytes.
    public var size: Int64
    /// The file's modification time, in nanoseconds since 1970.
    public var modified: Int64
    /// Its MusicBrainz recording id.
    public var musicBrainzTrackID: String?
    /// For each field you edited (``title``, ``artist`` and ``number`` then hold your values)
    /// what the file says ("" for nothing); empty when the track is as its file says.
    public var fileSays: [TrackField: String] = [:]

    /// The title, else the file's name.
    public var displayTitle: String {
      title ?? String(path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...])
    }

    /// A track with every field given.
    public init(
      disc: Int?, number: Int?, title: String?, artist: String?, duration: Double, path: String, format: String,
      bitrate: Int, size: Int64, modified: Int64, musicBrainzTrackID: String?
    ) {
      self.disc = disc
      self.number = number
      self.title = title
      self.artist = artist
      self.duration = duration
      self.path = path
      self.format = format
      self.bitrate = bitrate
      self.size = size
      self.modified = modified
      self.musicBrainzTrackID = musicBrainzTrackID
    }
  }

  /// The tracks in disc, track-number and file-name order.
  public var tracks: [Track]
  /// How many discs the album spans (1 when no track says).
  public var discs: Int
  /// The MusicBrainz release id most of its tracks carry.
  public var musicBrainzAlbumID: String?
  /// The MusicBrainz release-group id most of its tracks carry.
  public var musicBrainzReleaseGroupID: String?
  /// Whether the last scan of the album's folder found none of its files (the tracks are
  /// what it had when they were last seen).
  public var missing: Bool

  /// A track list with every field given.
  public init(
    tracks: [Track], discs: Int, musicBrainzAlbumID: String?, musicBrainzReleaseGroupID: String?,
    missing: Bool = false
  ) {
    self.missing = missing
    self.tracks = tracks
    self.discs = discs
    self.musicBrainzAlbumID = musicBrainzAlbumID
    self.musicBrainzReleaseGroupID = musicBrainzReleaseGroupID
  }
}
