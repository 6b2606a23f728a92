/// The user-editable fields of an album, as `edit` and `add` name them (`year=1999`).
public enum AlbumField: String, CaseIterable, Sendable {
  /// The album's title (required).
  case title
  /// The performing artist.
  case artist
  /// The genre.
  case genre
  /// The release year, 0...9999 or empty.
  case year
  /// The cover's URL: http, https, file (or bundled `bluelib:`), or empty.
  case cover

  /// Parses a field name as typed, ignoring case: `Year` is ``year``.
  ///
  /// Throws ``LibraryError/unknownField(_:)`` naming the word and listing the fields.
  public init(parsing name: String) throws(LibraryError) {
    guard let field = AlbumField(rawValue: name.lowercased()) else {
      throw .unknownField(name)
    }
    self = field
  }

  /// The field's value in `album` as the user would type it (`""` for no year or cover).
  public func value(in album: Album) -> String {
    switch self {
    case .title: album.title
    case .artist: album.artist
    case .genre: album.genre
    case .year: album.year.map(String.init) ?? ""
    case .cover: album.coverURL
    }
  }

  /// Returns `album` with `field` set to the text `value`, validated.
  ///
  /// Year must be empty or a whole number in 0...9999, cover must be empty or an
  /// http, https, file (or bundled `bluelib:`) URL, and title must not be empty.
  public static func album(
    _ album: Album, setting field: AlbumField, to value: String
  ) throws(LibraryError) -> Album {
    try album.setting(field, to: value)
  }
}

extension Album {
  /// Returns a copy with `field` set to the text `value`, validated as
  /// ``AlbumField/album(_:setting:to:)`` describes.
  public func setting(_ field: AlbumField, to value: String) throws(LibraryError) -> Album {
    var copy = self
    switch field {
    case .title:
      try Album.checkTitle(value)
      copy.title = value
    case .artist:
      try Album.checkText(value, field: .artist)
      copy.artist = value
    case .genre:
      try Album.checkText(value, field: .genre)
      copy.genre = value
    case .year:
      copy.year = try Album.parseYear(value)
    case .cover:
      try Album.checkCover(value)
      copy.coverURL = value
    }
    return copy
  }
}
