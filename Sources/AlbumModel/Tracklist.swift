/// The tracks of an album imported from a music folder, as its files said at the last scan.
package struct Tracklist: Sendable, Equatable {
  /// One track: one audio file.
  package struct Track: Sendable, Equatable {
    /// Its disc (the disc-number tag, else its disc folder's place); nil on a single disc.
    package var disc: Int?
    /// Its track number, when the tags give one.
    package var number: Int?
    /// Its title tag; nil when it has none (``displayTitle`` is then the file's name).
    package var title: String?
    /// Its artist tag.
    package var artist: String?
    /// Its length in seconds.
    package var duration: Double
    /// The file's absolute path.
    package var path: String
    /// The format TagLib opened it as: "MP3", "FLAC", "OGG", "Opus", "AAC"…
    package var format: String
    /// Its bitrate in kb/s; 0 when unknown.
    package var bitrate: Int
    /// The file's size in bytes.
    package var size: Int64
    /// The file's modification time, in nanoseconds since 1970.
    package var modified: Int64
    /// Its MusicBrainz recording id.
    package var musicBrainzTrackID: String?
    /// The album-artist tag you gave its file (``fileSays`` then says what the file has);
    /// nil when you gave none.
    package var albumArtist: String?
    /// Its sample rate in Hz; 0 when unknown (a file read before bluelib read it, a server
    /// that does not say).
    package var sampleRate = 0
    /// Its composer tag.
    package var composer: String?
    /// For each field you edited (``title``, ``artist`` and ``number`` then hold your values)
    /// what the file says ("" for nothing); empty when the track is as its file says.
    package var fileSays: [TrackField: String] = [:]

    /// The title, else the file's name.
    package var displayTitle: String {
      title ?? String(path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...])
    }

    /// A track with every field given.
    package init(
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
  package var tracks: [Track]
  /// How many discs the album spans (1 when no track says).
  package var discs: Int
  /// The MusicBrainz release id most of its tracks carry.
  package var musicBrainzAlbumID: String?
  /// The MusicBrainz release-group id most of its tracks carry.
  package var musicBrainzReleaseGroupID: String?
  /// Whether the last scan of the album's folder found none of its files (the tracks are
  /// what it had when they were last seen).
  package var missing: Bool

  /// The tracks' formats, each once, in the order of their names: `FLAC`, `FLAC+MP3`; "" when
  /// none says.
  package var format: String {
    Set(tracks.map(\.format).filter { !$0.isEmpty }).sorted().joined(separator: "+")
  }

  /// The average bitrate in kb/s, each track weighed by its length (what the files hold in
  /// all over the time they play); nil when no track says.
  package var bitrate: Int? {
    let known = tracks.filter { $0.bitrate > 0 }
    guard !known.isEmpty else { return nil }
    let seconds = known.reduce(0) { $0 + max($1.duration, 0) }
    guard seconds > 0 else { return known.reduce(0) { $0 + $1.bitrate } / known.count }
    return Int((known.reduce(0) { $0 + Double($1.bitrate) * max($1.duration, 0) } / seconds).rounded())
  }

  /// The lowest and highest sample rate in Hz of the tracks that say; nil when none does.
  package var sampleRates: ClosedRange<Int>? {
    let known = tracks.map(\.sampleRate).filter { $0 > 0 }
    guard let low = known.min(), let high = known.max() else { return nil }
    return low...high
  }

  /// The tracks' composers, each once, in album order, joined by "; "; "" when none says.
  package var composer: String {
    var seen: Set<String> = []
    return tracks.compactMap(\.composer).filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: "; ")
  }

  /// A track list with every field given.
  package init(
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
