/// The keys of an exported album, in export order: the original app's property names.
///
/// JSON objects use them as keys and a CSV header names them as columns (in any
/// order, ignoring case); `title` is the one that must be present.
enum ArchiveKey: String, CaseIterable, Sendable {
  case title, artist, genre, year, coverUrl

  /// The key's place in `allCases`.
  var slot: Int {
    switch self {
    case .title: 0
    case .artist: 1
    case .genre: 2
    case .year: 3
    case .coverUrl: 4
    }
  }

  /// Matches a key or column name as written, ignoring case and surrounding blanks.
  init?(name: String) {
    // The exact spelling first: it is what `export` writes, once per value.
    if let exact = ArchiveKey(rawValue: name) {
      self = exact
      return
    }
    var trimmed = Substring(name)
    while trimmed.first == " " || trimmed.first == "\t" { trimmed = trimmed.dropFirst() }
    while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
    guard let key = ArchiveKey.allCases.first(where: { $0.rawValue.lowercased() == trimmed.lowercased() }) else {
      return nil
    }
    self = key
  }

  /// `title, artist, genre, year, coverUrl`, for messages.
  static let list = allCases.map(\.rawValue).joined(separator: ", ")
}

/// The text values read for one JSON element.
struct ArchiveRecord {
  var title: String?
  var artist = ""
  var genre = ""
  var year: Int?
  var coverURL = ""

  /// Hands the values over as UTF-8 (a missing title as empty), read in place.
  func withFields<R>(_ body: (AlbumFields) throws -> R) rethrows -> R {
    var (title, artist, genre, coverURL) = (title ?? "", artist, genre, coverURL)
    return try title.withUTF8 { title in
      try artist.withUTF8 { artist in
        try genre.withUTF8 { genre in
          try coverURL.withUTF8 { coverURL in
            try body(AlbumFields(title: title, artist: artist, genre: genre, year: year, coverURL: coverURL))
          }
        }
      }
    }
  }
}
