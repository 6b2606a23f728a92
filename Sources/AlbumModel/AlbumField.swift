/// The fields of an album that are yours to set: those `edit` and `add` name (`year=1999`),
/// and the rating and favourite mark that `rate`, `fav` and `unfav` set. An import keeps each
/// of them that you changed since its files said otherwise, and `write` puts them into the
/// files.
package enum AlbumField: String, CaseIterable, Sendable {
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
  /// The rating in stars, 1 to 5, or empty (`rate`).
  case rating
  /// Whether the album is a favourite: `true` or `false` (`fav`, `unfav`).
  case fav

  /// The fields `edit` and `add` take as `FIELD=VALUE`, in the order messages list them.
  package static let typed: [AlbumField] = [.title, .artist, .genre, .year, .cover]

  /// Parses a field name as typed, ignoring case: `Year` is ``year``; one of `among` (by
  /// default the ``typed`` fields).
  ///
  /// Throws ``LibraryError/unknownField(_:)`` naming the word and listing the typed fields.
  package init(parsing name: String, among fields: [AlbumField] = typed) throws(LibraryError) {
    guard let field = AlbumField(rawValue: name.lowercased()), fields.contains(field) else {
      throw .unknownField(name)
    }
    self = field
  }

  /// The field's value in `album` as the user would type it (`""` for no year, cover or
  /// rating; `true` or `false` for a favourite).
  package func value(in album: Album) -> String {
    switch self {
    case .title: album.title
    case .artist: album.artist
    case .genre: album.genre
    case .year: album.year.map(String.init) ?? ""
    case .cover: album.coverURL
    case .rating: album.rating.map(String.init) ?? ""
    case .fav: album.favourite ? "true" : "false"
    }
  }

  /// Returns `album` with `field` set to the text `value`, validated.
  ///
  /// Year must be empty or a whole number in 0...9999, cover must be empty or an
  /// http, https, file (or bundled `bluelib:`) URL, and title must not be empty.
  package static func album(
    _ album: Album, setting field: AlbumField, to value: String
  ) throws(LibraryError) -> Album {
    try album.setting(field, to: value)
  }
}

extension Album {
  /// Returns a copy with `field` set to the text `value`, validated as
  /// ``AlbumField/album(_:setting:to:)`` describes.
  package func setting(_ field: AlbumField, to value: String) throws(LibraryError) -> Album {
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
    case .rating:
      copy.rating = try Album.parseRating(value)
    case .fav:
      switch value.lowercased() {
      case "true", "yes", "1": copy.favourite = true
      case "false", "no", "0", "": copy.favourite = false
      default: throw .invalidRating("fav is true or false, got \(LibraryError.quoted(value))")
      }
    }
    return copy
  }

  /// The stars of `text`: a whole number 0 to 5 (0 or empty: none).
  package static func parseRating(_ text: String) throws(LibraryError) -> Int? {
    if text.isEmpty { return nil }
    guard text.count <= 3, let stars = Int(text), (0...5).contains(stars) else {
      throw .invalidRating("a rating is 0 to 5 stars (0 clears it), got \(LibraryError.quoted(text))")
    }
    return stars == 0 ? nil : stars
  }
}
