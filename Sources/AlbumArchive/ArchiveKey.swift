import AlbumModel
internal import MusicFolder

/// The keys of an exported album, in export order: the original app's property names,
/// then the music-folder fields (albums imported from a folder of audio files have them).
///
/// JSON objects use them as keys and a CSV header names them as columns (in any
/// order, ignoring case); `title` is the one that must be present.
enum ArchiveKey: String, CaseIterable, Sendable {
  case title, artist, genre, year, coverUrl, tracks, duration, folder

  /// The key's place in `allCases`.
  var slot: Int {
    switch self {
    case .title: 0
    case .artist: 1
    case .genre: 2
    case .year: 3
    case .coverUrl: 4
    case .tracks: 5
    case .duration: 6
    case .folder: 7
    }
  }

  /// Matches a key or column name as written, ignoring case and surrounding blanks.
  init?(name: String) {
    // The exact spelling first: it is what `export` writes, once per value.
    if let exact = ArchiveKey(rawValue: name) {
      self = exact
      return
    }
    let trimmed = Self.trimmed(name).lowercased()
    guard let key = ArchiveKey.allCases.first(where: { $0.rawValue.lowercased() == trimmed }) else {
      return nil
    }
    self = key
  }

  /// `title, artist, genre, year, coverUrl, tracks, duration, folder`, for messages.
  static let list = allCases.map(\.rawValue).joined(separator: ", ")

  /// A whole number of tracks as written (`12`); nil when it is not one.
  static func parseTracks(_ text: some StringProtocol) -> Int? {
    Album.parseWholeNumber(text.utf8)
  }

  /// A length in seconds as written (`2712.5`); nil when it is not a number.
  static func parseDuration(_ text: some StringProtocol) -> Double? {
    Double(String(text))
  }

  /// `text` without blanks (spaces, tabs) at either end.
  static func trimmed(_ text: String) -> Substring {
    var trimmed = Substring(text)
    while trimmed.first == " " || trimmed.first == "\t" { trimmed = trimmed.dropFirst() }
    while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
    return trimmed
  }
}

/// The text values read for one JSON element.
struct ArchiveRecord {
  var title: String?
  var artist = ""
  var genre = ""
  var year: Int?
  var coverURL = ""
  var tracks: Int?
  var duration: Double?
  var folder: String?
  /// The album's tracks, when the JSON lists them.
  var trackList: [MusicTrack]?

  /// Hands the values over as UTF-8 (a missing title as empty), read in place.
  func withFields<R>(_ body: (AlbumFields) throws -> R) rethrows -> R {
    var (title, artist, genre, coverURL) = (title ?? "", artist, genre, coverURL)
    return try title.withUTF8 { title in
      try artist.withUTF8 { artist in
        try genre.withUTF8 { genre in
          try coverURL.withUTF8 { coverURL in
            var fields = AlbumFields(title: title, artist: artist, genre: genre, year: year, coverURL: coverURL)
            fields.tracks = tracks
            fields.duration = duration
            fields.trackList = trackList
            guard var folder else { return try body(fields) }
            return try folder.withUTF8 { folder in
              fields.folder = folder
              return try body(fields)
            }
          }
        }
      }
    }
  }
}
