import BlueCovers

/// Where an album's art stands: the field `art` of queries (`find art:none`) and `list -f
/// '$art'`.
package enum AlbumArt: String, Sendable, CaseIterable {
  /// No cover URL at all: nothing to show, nothing to fetch.
  case none
  /// A picture in the album's files or folder (`embedded:`, `file:`): read when shown, never
  /// downloaded.
  case local
  /// A cover URL whose picture is in the cover cache.
  case downloaded
  /// A cover URL not fetched yet (or whose download failed): `download` fetches it.
  case url

  /// `none, local, downloaded or url`, for messages.
  static var names: String {
    allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
  }
}

extension Album {
  /// Where the album's art stands (see ``AlbumArt``).
  package var art: AlbumArt {
    if coverURL.isEmpty { return .none }
    if LocalCover.isLocal(coverURL) { return .local }
    return coverCached ? .downloaded : .url
  }
}
