/// One album of the library: what the scroller shows as a card and `show` prints.
///
/// Albums are plain values. `id` is the store's row id (nil until the album is
/// stored) and `position` its 0-based place in the scroller's order; both are
/// assigned by ``AlbumStore`` and ignored by import and export.
package struct Album: Sendable, Equatable, Hashable {
  /// The store's row id, or nil for an album that has not been stored yet.
  package var id: Int64?
  /// The album title; never empty in a stored album.
  package var title: String
  /// The performing artist, empty when unknown.
  package var artist: String
  /// The genre, empty when unknown.
  package var genre: String
  /// The release year in 0...9999, or nil when unknown.
  package var year: Int?
  /// The cover's URL (http, https, file or the bundled `bluelib:` scheme); empty for no cover.
  package var coverURL: String
  /// The 0-based place of the album in the scroller's order.
  package var position: Int
  /// Whether the library has recorded the cover at ``coverURL`` as in the cover cache (set
  /// by the store when it reads the album; not imported or exported). Lets a card or a
  /// `list` line show the cover's state without looking in the cache.
  package var coverCached: Bool
  /// Whether the album is one of your favourites (`fav`, `unfav`).
  package var favourite: Bool
  /// The rating's stars, 0 for none: one byte beside the flags, not another optional word.
  private var stars: UInt8
  /// The music-folder fields, boxed: most albums have none, and a million albums in memory
  /// (an import of a large file) should not carry four more fields each.
  private var music: MusicFields?

  /// How many tracks the album has; known for albums imported from a music folder.
  package var tracks: Int? {
    get { music?.tracks }
    set { changeMusic { $0.tracks = newValue } }
  }
  /// The album's length in seconds (its tracks' lengths added up); known for albums
  /// imported from a music folder.
  package var duration: Double? {
    get { music?.duration }
    set { changeMusic { $0.duration = newValue } }
  }
  /// The folder the album's audio files are in, for albums imported from a music folder.
  package var folder: String? {
    get { music?.folder }
    set { changeMusic { $0.folder = newValue } }
  }
  /// The rating in stars, 1 to 5 (`rate`); nil when unrated. A value out of range is clamped.
  package var rating: Int? {
    get { stars == 0 ? nil : Int(stars) }
    set { stars = UInt8(min(max(newValue ?? 0, 0), 5)) }
  }
  /// Whether the album came from a music folder (it has a source key).
  package var isFromMusicFolder: Bool { sourceKey != nil }

  /// What identifies an album imported from a music folder across imports of it (its
  /// folder, album artist and title): importing the folder again updates the album with
  /// this key in place. Nil for other albums; never shown, exported or edited.
  package var sourceKey: String? {
    get { music?.sourceKey }
    set { changeMusic { $0.sourceKey = newValue } }
  }

  /// Creates an album; nothing is validated here (see ``validated()``).
  package init(
    id: Int64? = nil,
    title: String,
    artist: String = "",
    genre: String = "",
    year: Int? = nil,
    coverURL: String = "",
    position: Int = 0,
    coverCached: Bool = false,
    tracks: Int? = nil,
    duration: Double? = nil,
    folder: String? = nil,
    rating: Int? = nil,
    favourite: Bool = false
  ) {
    self.id = id
    self.title = title
    self.artist = artist
    self.genre = genre
    self.year = year
    self.coverURL = coverURL
    self.position = position
    self.coverCached = coverCached
    self.favourite = favourite
    stars = UInt8(min(max(rating ?? 0, 0), 5))
    if tracks != nil || duration != nil || folder != nil {
      music = MusicFields(tracks: tracks, duration: duration, folder: folder, sourceKey: nil)
    }
  }

  /// Replaces the music-folder fields with `change` applied to them (none left: no box).
  private mutating func changeMusic(_ change: (inout MusicFields.Values) -> Void) {
    var values = music?.values ?? MusicFields.Values()
    change(&values)
    music = values == MusicFields.Values() ? nil : MusicFields(values)
  }
}

/// An album's music-folder fields, immutable and compared by value (see ``Album/tracks``).
private final class MusicFields: Sendable, Hashable {
  struct Values: Hashable {
    var tracks: Int?
    var duration: Double?
    var folder: String?
    var sourceKey: String?
  }

  let values: Values

  var tracks: Int? { values.tracks }
  var duration: Double? { values.duration }
  var folder: String? { values.folder }
  var sourceKey: String? { values.sourceKey }

  init(_ values: Values) { self.values = values }

  convenience init(tracks: Int?, duration: Double?, folder: String?, sourceKey: String?) {
    self.init(Values(tracks: tracks, duration: duration, folder: folder, sourceKey: sourceKey))
  }

  static func == (left: MusicFields, right: MusicFields) -> Bool { left.values == right.values }
  func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
