import AlbumModel
import BlueCovers
import BlueLibrary

extension Album {
  /// The album as `Field: value` rows, in the original app's order plus the cover: the
  /// decorator (`Album+TableRepresentation`), kept out of the model type. An album imported
  /// from a music folder adds `Tracks`, `Length` and `Folder` (each only when known); a rated
  /// album `Rating`, a favourite `Favourite` (each also when it is in `showing`).
  var tableRepresentation: [(title: String, value: String)] { tableRepresentation(showing: []) }

  /// ``tableRepresentation``, with the rows of `showing` even when they have no value.
  func tableRepresentation(showing: Set<AlbumField>) -> [(title: String, value: String)] {
    var rows: [(title: String, value: String)] = []
    rows.reserveCapacity(10)
    forEachTableRow(showing: showing) { rows.append(($0, $1)) }
    return rows
  }

  /// Hands `body` each row of ``tableRepresentation(showing:)`` in order, without making
  /// the array (a script draws these rows after every scroll).
  func forEachTableRow(showing: Set<AlbumField>, _ body: (_ title: String, _ value: String) -> Void) {
    body("Artist", artist)
    body("Album", title)
    body("Genre", genre)
    body("Year", year.map(String.init) ?? "")
    if rating != nil || showing.contains(.rating) { body("Rating", Self.shown(.rating, of: self)) }
    if favourite || showing.contains(.fav) { body("Favourite", Self.shown(.fav, of: self)) }
    if let tracks { body("Tracks", String(tracks)) }
    if let duration { body("Length", Self.length(duration)) }
    // A music folder's cover is named by its file, not by a percent-encoded URL that
    // wraps on every album (`export` keeps the URL).
    body(
      "Cover",
      coverURL.isEmpty
        ? "(none)"
        : LocalCover.shortDescription(of: coverURL, folder: folder)
          ?? CoverArtArchiveSource.shortDescription(of: coverURL) ?? coverURL)
    if let folder { body("Folder", folder) }
  }

  /// The field a row of ``tableRepresentation`` shows, for those an edit changes.
  static func field(ofRow title: String) -> AlbumField? {
    switch title {
    case "Album": .title
    case "Artist": .artist
    case "Genre": .genre
    case "Year": .year
    case "Cover": .cover
    case "Rating": .rating
    case "Favourite": .fav
    default: nil
    }
  }

  /// `field` of `album` as `show` prints it: the rating as stars (`★★★★☆`, `none`), the mark
  /// as `♥ yes` or `no`, the others as typed.
  static func shown(_ field: AlbumField, of album: Album) -> String {
    switch field {
    case .rating: album.rating.map(starMark) ?? "none"
    case .fav: album.favourite ? "♥ yes" : "no"
    default: field.value(in: album)
    }
  }

  /// `★★★★☆`: `stars` of five.
  static func starMark(_ stars: Int) -> String {
    let filled = min(max(stars, 0), 5)
    return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
  }

  /// What a card's bottom border says of the album: its stars and ♥ (`★★★★☆ ♥`), or "".
  var cardMark: String {
    [rating.map(Self.starMark), favourite ? "♥" : nil].compactMap { $0 }.joined(separator: " ")
  }

  /// `M:SS`, or `H:MM:SS` from an hour on, to the nearest second: `45:13`, `1:02:05`. A
  /// length past a year (a library file that holds `1e19`) is shown as a year.
  static func length(_ seconds: Double) -> String {
    let total = seconds.isFinite ? Int(min(max(0, seconds), Album.maximumDuration).rounded()) : 0
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : String(value) }
    return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(total / 60):\(twoDigits(rest))"
  }
}
