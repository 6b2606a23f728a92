import AlbumModel
import FoundationEssentials

/// The file formats of `import` and `export`.
///
/// Export writes JSON: an array of objects with the original app's keys `title`,
/// `artist`, `genre`, `year` (a string, `""` when unknown) and `coverUrl`. Import
/// reads that JSON (also with `year` as a number) or CSV (RFC 4180) with a header
/// row naming the same keys. Decoding is all or nothing: it returns every album
/// or throws the first problem, naming the file, the line and what was wrong.
package enum LibraryArchive {
  /// The formats `import` understands.
  package enum Format: String, Sendable {
    /// An array of objects, as `export` writes.
    case json
    /// RFC 4180 with a header row naming the columns.
    case csv
  }

  /// The format of a file: by its extension (`.json`, `.csv`), else JSON when its
  /// first non-blank character is `[` or `{`, else CSV.
  package static func format(of bytes: some Collection<UInt8>, fileName: String) -> Format {
    let name = fileName.lowercased()
    if name.hasSuffix(".json") { return .json }
    if name.hasSuffix(".csv") { return .csv }
    let first = bytes.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }).first
    return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .json : .csv
  }

  /// The format of `input`, from its name or from its first non-blank byte (reading on
  /// while the buffer holds only blanks).
  static func format(of input: ArchiveInput) throws(LibraryError) -> Format {
    let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
    while !input.isAtEnd, input.bytes.count < input.maximumRecordBytes,
      input.bytes.allSatisfy({ blanks.contains($0) })
    {
      try input.refill(keepingFrom: 0)
    }
    return format(of: input.bytes, fileName: input.name)
  }

  /// Decodes the albums in `bytes`; `fileName` picks the format and names the file in errors.
  ///
  /// Errors are ``LibraryError/invalidArchive(file:line:reason:)``, e.g.
  /// `albums.csv:7: year must be a whole number, got 'nineteen'`. Positions of the
  /// returned albums count from 0 in file order; ids are nil.
  package static func decode(_ bytes: [UInt8], fileName: String) throws(LibraryError) -> [Album] {
    var stream = try AlbumStream(input: ArchiveInput(copying: bytes, name: fileName))
    return try stream.albums()
  }

  /// Decodes the albums in `data`, as the `[UInt8]` variant does.
  package static func decode(_ data: Data, fileName: String) throws(LibraryError) -> [Album] {
    try decode([UInt8](data), fileName: fileName)
  }

  /// Reads and decodes the file at `path` (the path also names it in errors).
  ///
  /// This holds every album at once; `import` streams the file into the library instead
  /// (``AlbumStore/importAlbums(fromFile:origin:)``).
  package static func decode(fileAtPath path: String) throws(LibraryError) -> [Album] {
    try contents(ofFile: path).albums
  }

  /// The keys an archive's albums have, as messages list them: `title, artist, …`.
  package static let keyList = ArchiveKey.list

  /// What an import file holds: its albums, and the CSV header's columns that were skipped.
  package struct Contents: Sendable {
    /// The albums, in the file's order.
    package var albums: [Album]
    /// Column names of a CSV header that are not album keys (their fields were skipped).
    package var ignoredColumns: [String]
  }

  /// Reads and decodes the file at `path`, saying which CSV columns were skipped.
  package static func contents(ofFile path: String) throws(LibraryError) -> Contents {
    var stream = try AlbumStream(path: path)
    return Contents(albums: try stream.albums(), ignoredColumns: stream.ignoredColumns)
  }
}
