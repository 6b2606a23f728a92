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
    var trimmed = Substring(name)
    while trimmed.first == " " || trimmed.first == "\t" { trimmed = trimmed.dropFirst() }
    while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
    guard let key = ArchiveKey.allCases.first(where: { $0.rawValue.lowercased() == trimmed.lowercased() }) else {
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

/// The text values read for one album, turned into a validated ``Album``.
struct ArchiveRecord {
  var title: String?
  var artist = ""
  var genre = ""
  var year: Int?
  var coverURL = ""
  var tracks: Int?
  var duration: Double?
  var folder: String?

  /// The album, or the first rule it breaks (same messages as `edit`).
  func album(position: Int) throws(LibraryError) -> Album {
    guard let title else { throw .emptyTitle }
    // The same rules the store applies (lengths included), here where the error can
    // still name the file's line.
    return try Album(
      title: title, artist: artist, genre: genre, year: year, coverURL: coverURL, position: position, tracks: tracks,
      duration: duration, folder: folder
    ).validated()
  }
}
