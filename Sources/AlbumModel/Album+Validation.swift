import BlueCovers

// The rules every stored album obeys. The field setter, the import decoders and
// the store all apply the same checks, so a message reads the same wherever the
// bad value came from.

extension Album {
  /// The years an album may have.
  package static let validYears = 0...9999

  /// The most characters a title, artist or genre may have.
  package static let maximumTextLength = 1000
  /// The most UTF-8 bytes a title, artist or genre may have (4 KiB): a character is a
  /// grapheme cluster, and one cluster can be megabytes of combining marks.
  package static let maximumTextBytes = 4 << 10
  /// The most bytes a cover URL may have (8 KiB).
  package static let maximumCoverBytes = 8 << 10
  /// The most bytes a local cover URL (`file:`, `embedded:`) may have (16 KiB): its path is
  /// at most 4 KiB, but percent-encoded letters take three bytes each, so a deep folder of
  /// CJK names passes 8 KiB and its cover would be lost.
  package static let maximumLocalCoverBytes = 16 << 10

  /// The most bytes `url` may have: more for a local cover than for a download's URL.
  static func coverLimit(_ url: UnsafeBufferPointer<UInt8>) -> Int {
    LocalCover.isLocal(url) ? maximumLocalCoverBytes : maximumCoverBytes
  }
  /// The track counts an album may have.
  package static let validTrackCounts = 0...100_000
  /// The longest an album may be, in seconds: a year of audio.
  package static let maximumDuration: Double = 366 * 86_400
  /// The most bytes a folder may have (4 KiB, Linux's `PATH_MAX`).
  package static let maximumFolderBytes = 4 << 10

  /// Throws when `text` has more than ``maximumTextLength`` characters or
  /// ``maximumTextBytes`` bytes. Counting stops there, so a field of gigabytes costs no
  /// more than one of a thousand characters.
  static func checkLength(_ text: String, field: AlbumField) throws(LibraryError) {
    guard text.utf8.count > maximumTextLength else { return }
    if text.utf8.count > maximumTextBytes {
      throw .tooLong(field: field, limit: "4 KiB", actual: "\(text.utf8.count) bytes")
    }
    var count = 0
    for _ in text {
      count += 1
      if count > maximumTextLength {
        throw .tooLong(field: field, limit: "1,000 characters", actual: "\(text.utf8.count) bytes")
      }
    }
  }

  /// ``checkLength(_:field:)`` of valid UTF-8 `bytes`: no `String` unless they are long.
  static func checkLength(_ bytes: UnsafeBufferPointer<UInt8>, field: AlbumField) throws(LibraryError) {
    guard bytes.count > maximumTextLength else { return }
    try checkLength(String(decoding: bytes, as: UTF8.self), field: field)
  }

  /// Returns the album unchanged if it obeys the library's rules, else throws the first violation.
  package func validated() throws(LibraryError) -> Album {
    try validate()
    return self
  }

  /// Throws the first rule the album breaks.
  package func validate() throws(LibraryError) {
    var (title, artist, genre, coverURL) = (title, artist, genre, coverURL)
    // Native strings are contiguous already: this reads them in place.
    let violation = title.withUTF8 { title in
      artist.withUTF8 { artist in
        genre.withUTF8 { genre in
          coverURL.withUTF8 { coverURL -> LibraryError? in
            do throws(LibraryError) {
              try AlbumFields(title: title, artist: artist, genre: genre, year: year, coverURL: coverURL).validate()
              return nil
            } catch {
              return error
            }
          }
        }
      }
    }
    if let violation { throw violation }
    try Album.checkMusicFields(tracks: tracks, duration: duration, folder: folder)
  }

  /// Throws the first rule the music-folder fields break (all may be nil).
  static func checkMusicFields(tracks: Int?, duration: Double?, folder: String?) throws(LibraryError) {
    guard let folder else {
      return try checkMusicFields(tracks: tracks, duration: duration, folderBytes: nil)
    }
    let violation = withBytes(of: folder) { bytes -> LibraryError? in
      do throws(LibraryError) {
        try checkMusicFields(tracks: tracks, duration: duration, folderBytes: bytes)
        return nil
      } catch {
        return error
      }
    }
    if let violation { throw violation }
  }

  /// ``checkMusicFields(tracks:duration:folder:)`` with the folder as UTF-8 bytes.
  static func checkMusicFields(
    tracks: Int?, duration: Double?, folderBytes folder: UnsafeBufferPointer<UInt8>?
  ) throws(LibraryError) {
    if let tracks, !Album.validTrackCounts.contains(tracks) {
      throw .invalidMusicField(
        field: "tracks", reason: "must be a whole number from 0 to 100000, got '\(tracks)'")
    }
    if let duration, !(duration.isFinite && duration >= 0 && duration <= Album.maximumDuration) {
      throw .invalidMusicField(
        field: "duration", reason: "must be a number of seconds from 0 to 31622400, got '\(duration)'")
    }
    if let folder {
      if folder.count > Album.maximumFolderBytes {
        throw .invalidMusicField(
          field: "folder", reason: "is longer than the limit of 4 KiB (\(folder.count) bytes)")
      }
      if folder.contains(0) {
        throw .invalidMusicField(field: "folder", reason: "must not contain a NUL character")
      }
    }
  }

  /// Parses a year as typed: empty (or blanks) is no year; otherwise a whole number in 0...9999.
  package static func parseYear(_ text: String) throws(LibraryError) -> Int? {
    var utf8 = Substring(text).utf8[...]
    while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
    while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
    if utf8.isEmpty { return nil }
    switch parseWholeNumber(utf8) {
    case .some(let year) where validYears.contains(year): return year
    case .some: throw .yearOutOfRange(text)
    case .none: throw .invalidYear(text)
    }
  }

  /// Parses `[-]digits` without overflowing: a huge number comes back as `Int.max`.
  package static func parseWholeNumber(_ bytes: some Collection<UInt8>) -> Int? {
    var iterator = bytes.makeIterator()
    guard var byte = iterator.next() else { return nil }
    var negative = false
    if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
      negative = byte == UInt8(ascii: "-")
      guard let next = iterator.next() else { return nil }
      byte = next
    }
    var value = 0
    while true {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = product.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      value = overflow1 || overflow2 ? Int.max : sum
      guard let next = iterator.next() else { break }
      byte = next
    }
    return negative ? -value : value
  }

  static func checkTitle(_ title: String) throws(LibraryError) {
    if let violation = withBytes(of: title, titleViolation) { throw violation }
  }

  /// ``checkTitle(_:)`` of UTF-8 bytes.
  static func checkTitle(_ bytes: UnsafeBufferPointer<UInt8>) throws(LibraryError) {
    if let violation = titleViolation(bytes) { throw violation }
  }

  private static func titleViolation(_ bytes: UnsafeBufferPointer<UInt8>) -> LibraryError? {
    if !bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) { return .emptyTitle }
    return bytes.contains(0) ? .nulCharacter(.title) : nil
  }

  /// Runs `body` over the string's UTF-8 in place (native strings, the usual
  /// case, need no copy: this check runs for every imported album).
  private static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = text
    return copy.withUTF8(body)
  }

  /// SQLite's C string paths would cut a value at a NUL, so NUL is the one
  /// character a text field may not hold; every other control character is kept
  /// as is (escaping them for display is the shell's job).
  static func checkText(_ text: String, field: AlbumField) throws(LibraryError) {
    if withBytes(of: text, { $0.contains(0) }) {
      throw .nulCharacter(field)
    }
  }

  /// ``checkText(_:field:)`` of UTF-8 bytes.
  static func checkText(_ bytes: UnsafeBufferPointer<UInt8>, field: AlbumField) throws(LibraryError) {
    if bytes.contains(0) { throw .nulCharacter(field) }
  }

  /// A cover is empty or `scheme:rest` with scheme http, https, file, `bluelib` (a cover
  /// bundled with the program), `embedded` (a picture in an audio file), `mpd` (a song's
  /// picture on a music server) or `subsonic` (a cover on a Subsonic server), a non-empty
  /// rest, a host for http, https, mpd and subsonic, and no blanks or control characters.
  static func checkCover(_ url: String) throws(LibraryError) {
    if !withBytes(of: url, isValidCover) {
      throw .invalidCover(url)
    }
  }

  /// ``checkCover(_:)`` of valid UTF-8 bytes.
  static func checkCover(_ bytes: UnsafeBufferPointer<UInt8>) throws(LibraryError) {
    if !isValidCover(bytes) { throw .invalidCover(String(decoding: bytes, as: UTF8.self)) }
  }

  private static func isValidCover(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if bytes.isEmpty { return true }
    // No blanks or control characters (every imported album's URL), then where the scheme ends.
    guard !hasBlankOrControl(bytes) else { return false }
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 1 < bytes.count else { return false }
    let scheme = UnsafeBufferPointer(rebasing: bytes[..<colon])
    if isScheme(scheme, "http") || isScheme(scheme, "https") || isScheme(scheme, "mpd") || isScheme(scheme, "subsonic")
    {
      // `//` and a host: `http://` alone, or `http:///path`, has none.
      let slashes = UInt8(ascii: "/")
      return bytes.count > colon + 3 && bytes[colon + 1] == slashes && bytes[colon + 2] == slashes
        && bytes[colon + 3] != slashes
    }
    if isScheme(scheme, "caa") {
      // The Cover Art Archive's, by a release's (or release group's) MusicBrainz id.
      return (try? CoverArtArchiveSource.ids(of: String(decoding: bytes, as: UTF8.self))) != nil
    }
    return isScheme(scheme, "file") || isScheme(scheme, "bluelib") || isScheme(scheme, "embedded")
  }

  /// Whether any byte is a blank or an ASCII control character (≤ 0x20, or DEL): eight
  /// bytes at a time, then byte by byte.
  private static func hasBlankOrControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var i = 0
    while i + 8 <= bytes.count {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      // Some byte below 0x21, or equal to 0x7F: the classic tests, exact as a yes or no.
      let dels = word ^ (ones &* 0x7F)
      if ((word &- ones &* 0x21) & ~word | (dels &- ones) & ~dels) & highs != 0 { return true }
      i += 8
    }
    while i < bytes.count {
      if bytes[i] <= 0x20 || bytes[i] == 0x7F { return true }
      i += 1
    }
    return false
  }

  /// Whether `bytes` spell the lowercase ASCII `name`, ignoring case.
  private static func isScheme(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
    guard bytes.count == name.utf8CodeUnitCount else { return false }
    let expected = name.utf8Start
    for i in 0..<bytes.count where bytes[i] | 0x20 != expected[i] {
      return false
    }
    return true
  }
}
