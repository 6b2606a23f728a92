import BlueLibrary

extension Album {
  /// The album as `Field: value` rows, in the original app's order plus the cover: the
  /// decorator (`Album+TableRepresentation`), kept out of the model type. An album imported
  /// from a music folder adds `Tracks`, `Length` and `Folder` (each only when known).
  var tableRepresentation: [(title: String, value: String)] {
    var rows: [(title: String, value: String)] = [
      ("Artist", artist), ("Album", title), ("Genre", genre), ("Year", year.map(String.init) ?? ""),
    ]
    if let tracks { rows.append(("Tracks", String(tracks))) }
    if let duration { rows.append(("Length", Self.length(duration))) }
    // A music folder's cover is named by its file, not by a percent-encoded URL that
    // wraps on every album (`export` keeps the URL).
    rows.append(
      (
        "Cover",
        coverURL.isEmpty
          ? "(none)"
          : LocalCover.shortDescription(of: coverURL, folder: folder)
            ?? CoverArtArchiveSource.shortDescription(of: coverURL) ?? coverURL
      ))
    if let folder { rows.append(("Folder", folder)) }
    return rows
  }

  /// The field a row of ``tableRepresentation`` shows, for those an edit changes.
  static func field(ofRow title: String) -> AlbumField? {
    switch title {
    case "Album": .title
    case "Artist": .artist
    case "Genre": .genre
    case "Year": .year
    case "Cover": .cover
    default: nil
    }
  }

  /// `M:SS`, or `H:MM:SS` from an hour on, to the nearest second: `45:13`, `1:02:05`.
  static func length(_ seconds: Double) -> String {
    let total = seconds.isFinite ? Int(max(0, seconds).rounded()) : 0
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : String(value) }
    return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(total / 60):\(twoDigits(rest))"
  }
}
