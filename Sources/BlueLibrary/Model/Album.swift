/// One album of the library: what the scroller shows as a card and `show` prints.
///
/// Albums are plain values. `id` is the store's row id (nil until the album is
/// stored) and `position` its 0-based place in the scroller's order; both are
/// assigned by ``AlbumStore`` and ignored by import and export.
public struct Album: Sendable, Equatable, Hashable {
  /// The store's row id, or nil for an album that has not been stored yet.
  public var id: Int64?
  /// The album title; never empty in a stored album.
  public var title: String
  /// The performing artist, empty when unknown.
  public var artist: String
  /// The genre, empty when unknown.
  public var genre: String
  /// The release year in 0...9999, or nil when unknown.
  public var year: Int?
  /// The cover's URL (http, https, file or the bundled `bluelib:` scheme); empty for no cover.
  public var coverURL: String
  /// The 0-based place of the album in the scroller's order.
  public var position: Int
  /// Whether the library has recorded the cover at ``coverURL`` as in the cover cache (set
  /// by the store when it reads the album; not imported or exported). Lets a card or a
  /// `list` line show the cover's state without looking in the cache.
  public var coverCached: Bool
  /// How many tracks the album has; known for albums imported from a music folder.
  public var tracks: Int?
  /// The album's length in seconds (its tracks' lengths added up); known for albums
  /// imported from a music folder.
  public var duration: Double?
  /// The folder the album's audio files are in, for albums imported from a music folder.
  public var folder: String?
  /// What identifies an album imported from a music folder across imports of it (its
  /// folder, album artist and title): importing the folder again updates the album with
  /// this key in place. Nil for other albums; never shown, exported or edited.
  var sourceKey: String?

  /// Creates an album; nothing is validated here (see ``validated()``).
  public init(
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
    folder: String? = nil
  ) {
    self.id = id
    self.title = title
    self.artist = artist
    self.genre = genre
    self.year = year
    self.coverURL = coverURL
    self.position = position
    self.coverCached = coverCached
    self.tracks = tracks
    self.duration = duration
    self.folder = folder
  }
}
