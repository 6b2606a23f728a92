/// The fields of one track that `edit ALBUM track N FIELD=VALUE` changes.
package enum TrackField: String, CaseIterable, Sendable {
  // New cases go last: messages list the fields in this order.
  /// The track's title (not empty).
  case title
  /// The track's artist; empty removes it (the album artist then stands for it).
  case artist
  /// The track's number, 1 to 9999.
  case number
  /// The album-artist tag of its file (`write` puts it there even where bluelib inferred
  /// the album artist: a compilation's "Various Artists"); not empty.
  case albumartist

  /// Parses a field name as typed, ignoring case. Throws ``LibraryError/unknownTrackField(_:)``.
  package init(parsing name: String) throws(LibraryError) {
    guard let field = TrackField(rawValue: name.lowercased()) else { throw .unknownTrackField(name) }
    self = field
  }
}

/// What you changed of one track: nil for a field you did not edit.
package struct TrackEdit: Sendable, Equatable {
  package var title: String?
  /// "" for an artist you removed.
  package var artist: String?
  package var number: Int?
  /// The album-artist tag its file is to say.
  package var albumArtist: String?

  package init(title: String? = nil, artist: String? = nil, number: Int? = nil, albumArtist: String? = nil) {
    (self.title, self.artist, self.number, self.albumArtist) = (title, artist, number, albumArtist)
  }

  /// Whether no field is edited.
  package var isEmpty: Bool { title == nil && artist == nil && number == nil && albumArtist == nil }

  /// This edit with `field` set to the text `value`, checked: a title that is not empty, a
  /// number from 1 to 9999.
  package func setting(_ field: TrackField, to value: String) throws(LibraryError) -> TrackEdit {
    var edit = self
    switch field {
    case .title:
      guard !value.allSatisfy(\.isWhitespace) else { throw .emptyTrackTitle }
      try Album.checkText(value, field: .title)
      try Album.checkLength(value, field: .title)
      edit.title = value
    case .artist:
      try Album.checkText(value, field: .artist)
      try Album.checkLength(value, field: .artist)
      edit.artist = value
    case .albumartist:
      guard !value.allSatisfy(\.isWhitespace) else {
        throw .invalidMusicField(field: "albumartist", reason: "must not be empty (it is written into the files)")
      }
      try Album.checkText(value, field: .artist)
      try Album.checkLength(value, field: .artist)
      edit.albumArtist = value
    case .number:
      guard value.count <= 4, let number = Int(value), (1...9999).contains(number) else {
        throw .invalidTrackNumber(value)
      }
      edit.number = number
    }
    return edit
  }
}
