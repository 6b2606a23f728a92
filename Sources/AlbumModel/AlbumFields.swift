package import MusicFolder

/// One album's fields as UTF-8, borrowed from whoever holds the bytes: an import decoder's
/// buffer, or an ``Album``'s strings.
///
/// A streamed import checks and stores each album straight from the file's bytes, so a
/// million rows make no `String` or ``Album`` each. The buffers are valid only during the
/// call that hands the fields over; text fields must be valid UTF-8.
package struct AlbumFields {
  package var title: UnsafeBufferPointer<UInt8>
  package var artist: UnsafeBufferPointer<UInt8>
  package var genre: UnsafeBufferPointer<UInt8>
  package var year: Int?
  package var coverURL: UnsafeBufferPointer<UInt8>
  /// The music-folder fields (an album exported after `import DIR` has them); nil when unknown.
  package var tracks: Int?
  package var duration: Double?
  package var folder: UnsafeBufferPointer<UInt8>?
  /// The album's tracks, from a JSON `tracks` array; stored under ``sourceKey``.
  package var trackList: [MusicTrack]?

  /// No bytes: an empty field.
  package static var empty: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }

  package init(
    title: UnsafeBufferPointer<UInt8>, artist: UnsafeBufferPointer<UInt8> = empty,
    genre: UnsafeBufferPointer<UInt8> = empty, year: Int? = nil, coverURL: UnsafeBufferPointer<UInt8> = empty
  ) {
    self.title = title
    self.artist = artist
    self.genre = genre
    self.year = year
    self.coverURL = coverURL
  }

  /// Throws the first rule of the library the fields break, in the order ``Album``'s own
  /// validation reports them (it is this one).
  package func validate() throws(LibraryError) {
    try Album.checkTitle(title)
    try Album.checkLength(title, field: .title)
    try Album.checkText(artist, field: .artist)
    try Album.checkLength(artist, field: .artist)
    try Album.checkText(genre, field: .genre)
    try Album.checkLength(genre, field: .genre)
    let coverLimit = Album.coverLimit(coverURL)
    if coverURL.count > coverLimit {
      throw .tooLong(field: .cover, limit: "\(coverLimit >> 10) KiB", actual: "\(coverURL.count) bytes")
    }
    if let year, !Album.validYears.contains(year) {
      throw .yearOutOfRange(String(year))
    }
    try Album.checkCover(coverURL)
    try Album.checkMusicFields(tracks: tracks, duration: duration, folderBytes: folder)
  }

  /// The fields as an ``Album`` at `position` (copied into strings).
  package func album(position: Int) -> Album {
    Album(
      title: String(decoding: title, as: UTF8.self), artist: String(decoding: artist, as: UTF8.self),
      genre: String(decoding: genre, as: UTF8.self), year: year, coverURL: String(decoding: coverURL, as: UTF8.self),
      position: position, tracks: tracks, duration: duration, folder: folder.map { String(decoding: $0, as: UTF8.self) }
    )
  }

  /// The source key a scan of ``folder`` would give this album (so that importing the
  /// folder later updates it rather than adding it twice); nil without a folder.
  package var sourceKey: String? {
    folder.map {
      Album.sourceKey(
        folder: String(decoding: $0, as: UTF8.self), artist: String(decoding: artist, as: UTF8.self),
        title: String(decoding: title, as: UTF8.self))
    }
  }
}
