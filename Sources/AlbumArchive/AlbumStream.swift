import AlbumModel

/// The albums of an import file, decoded as the file is read (see ``ArchiveInput``).
///
/// Opening it reads the first block, picks the format and, for CSV, reads the header, so
/// a file that cannot be read or has no usable header is refused before anything else
/// happens; ``forEachAlbum(_:)`` then hands over the albums one at a time.
package struct AlbumStream {
  private enum Decoder {
    case csv(CSVAlbumDecoder)
    case json(JSONAlbumDecoder)
  }

  private var decoder: Decoder
  /// Column names of a CSV header that are not album keys (their fields are skipped).
  package let ignoredColumns: [String]

  /// Opens the file at `path` (the path also names it in errors); `isCancelled` is asked
  /// before each block is read (see ``ArchiveInput/isCancelled``).
  package init(path: String, isCancelled: (() -> Bool)? = nil) throws(LibraryError) {
    let input = try ArchiveInput(path: path)
    input.isCancelled = isCancelled
    try self.init(input: input)
  }

  /// Decodes what `input` holds, in the format its name or first bytes say.
  init(input: ArchiveInput) throws(LibraryError) {
    switch try LibraryArchive.format(of: input) {
    case .csv:
      let csv = try CSVAlbumDecoder(input: input)
      ignoredColumns = csv.ignoredColumns
      decoder = .csv(csv)
    case .json:
      ignoredColumns = []
      decoder = .json(JSONAlbumDecoder(input: input))
    }
  }

  /// Hands each album's checked fields to `body`, in file order; throws the first problem
  /// in the file as ``LibraryError/invalidArchive(file:line:reason:)`` (or
  /// ``LibraryError/cannotRead(path:reason:)``), and whatever `body` throws.
  package mutating func forEachAlbum(_ body: (AlbumFields) throws -> Void) throws {
    switch decoder {
    case .csv(var csv):
      try csv.decode(body)
      decoder = .csv(csv)
    case .json(var json):
      try json.decode(body)
      decoder = .json(json)
    }
  }

  /// Every album, in file order, positions counting from 0.
  mutating func albums() throws(LibraryError) -> [Album] {
    var albums: [Album] = []
    do {
      try forEachAlbum { fields in albums.append(fields.album(position: albums.count)) }
    } catch let error as LibraryError {
      throw error
    } catch {
      throw .database(String(describing: error))
    }
    return albums
  }
}
