internal import CTagLib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What TagLib reads from one audio file: the tags an album is built from, the length, and
/// whether it embeds a picture.
package struct TrackTags: Sendable, Equatable {
  /// The album tag, trimmed; nil when absent or blank.
  package var album: String?
  /// The track artist.
  package var artist: String?
  /// The album-artist tag (ID3v2 TPE2, Vorbis ALBUMARTIST, MP4 aART).
  package var albumArtist: String?
  /// The track title.
  package var title: String?
  /// The track number: the leading number of the tag ("3/12" → 3).
  package var trackNumber: Int?
  /// The date tag as written ("1997", "1997-05-21"…).
  package var date: String?
  /// The genre.
  package var genre: String?
  /// The length in seconds, with millisecond precision where the format gives it.
  package var duration: Double
  /// Whether the file embeds a picture.
  package var hasPicture: Bool
  /// The embedded picture's MIME type, when it has one and says.
  package var pictureMimeType: String?

  /// The year of the date tag: its first run of four digits ("1997-05-21" → 1997).
  package var year: Int? { date.flatMap(Self.year(in:)) }

  /// What reading a file gave.
  package enum Outcome: Sendable, Equatable {
    /// A file with audio, and its tags.
    case track(TrackTags)
    /// TagLib recognises no audio in it: corrupt, or not the format its name says.
    case noAudio
    /// The file could not be opened.
    case cannotOpen(errno: Int32)
  }

  /// Reads the file at `path` with TagLib.
  package static func read(_ path: String) -> Outcome {
    if !mayHoldMPEGAudio(path) { return access(path, R_OK) == 0 ? .noAudio : .cannotOpen(errno: errno) }
    var track = CTLTrack()
    defer { ctl_track_free(&track) }
    guard ctl_read(path, 0, &track) == CTL_OK else {
      // TagLib does not say why it could not open a file; a permission problem is worth
      // telling apart from a corrupt file.
      return access(path, R_OK) == 0 ? .noAudio : .cannotOpen(errno: errno)
    }
    guard track.hasAudio != 0 else { return .noAudio }
    return .track(
      TrackTags(
        album: text(track.album), artist: text(track.artist), albumArtist: text(track.albumArtist),
        title: text(track.title), trackNumber: text(track.trackNumber).flatMap(leadingNumber),
        date: text(track.date), genre: text(track.genre),
        duration: Double(track.lengthMilliseconds) / 1000, hasPicture: track.hasPicture != 0,
        pictureMimeType: track.hasPicture != 0 ? text(track.pictureMimeType) : nil))
  }

  /// How far into an MPEG file (after its ID3v2 tag) the first frame must start.
  static let mpegSyncWindow = 64 << 10

  /// For an `.mp3` or `.aac` file: whether an MPEG frame sync (11 set bits) starts within
  /// ``mpegSyncWindow`` bytes after its ID3v2 tag. TagLib looks for the first frame through
  /// the whole file, which for a zero-filled file of 256 MiB took 30 s (and Ctrl-C waits for
  /// the file); real files have their first frame right after the tag. Other formats start
  /// with a magic number TagLib checks at once. True for other extensions.
  package static func mayHoldMPEGAudio(_ path: String) -> Bool {
    // The extension alone, lowercased: a small string, not a copy of the whole path.
    let suffix = String(decoding: path.utf8.suffix(4), as: UTF8.self).lowercased()
    guard suffix == ".mp3" || suffix == ".aac" else { return true }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return true }  // TagLib says why it cannot be read
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: 10)
    var start: off_t = 0
    if pread(fd, &header, 10, 0) == 10, header.starts(with: Array("ID3".utf8)) {
      // The tag's size: four 7-bit bytes, then 10 bytes of footer when its flag says so.
      let size = header[6...9].reduce(0) { $0 << 7 | off_t($1 & 0x7F) }
      start = 10 + size + (header[5] & 0x10 != 0 ? 10 : 0)
    }
    var window = [UInt8](repeating: 0, count: mpegSyncWindow)
    let count = pread(fd, &window, window.count, start)
    guard count > 1 else { return false }
    for i in 0..<(count - 1) where window[i] == 0xFF && window[i + 1] & 0xE0 == 0xE0 { return true }
    return false
  }

  /// The embedded picture of the file at `path` and its MIME type ("" when the file does not
  /// say), or nil when it has none; pictures over `limit` bytes are an error.
  static func picture(_ path: String, limit: Int) throws(MusicFolderError) -> (bytes: [UInt8], mimeType: String)? {
    var track = CTLTrack()
    defer { ctl_track_free(&track) }
    guard ctl_read(path, Int32(CTL_READ_PICTURE), &track) == CTL_OK else {
      if access(path, R_OK) != 0 { throw .cannotOpen(path, errno: errno) }
      return nil
    }
    guard track.hasPicture != 0, let picture = track.picture else { return nil }
    guard track.pictureSize <= limit else { throw .coverTooLarge(path, limit: limit) }
    let bytes = [UInt8](UnsafeBufferPointer(start: picture, count: track.pictureSize))
    return (bytes, track.pictureMimeType.map { String(cString: $0) } ?? "")
  }

  /// A C string from TagLib, trimmed; nil when absent or blank.
  private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    let value = trimmed(String(cString: pointer))
    return value.isEmpty ? nil : String(value)
  }

  /// The number at the start of `text` ("3/12" → 3), or nil.
  static func leadingNumber(_ text: String) -> Int? {
    Int(String(text.unicodeScalars.prefix { ("0"..."9").contains($0) }.prefix(9)))
  }

  /// The first run of exactly four ASCII digits in `date`.
  package static func year(in date: String) -> Int? {
    var digits = 0
    var value = 0
    for scalar in date.unicodeScalars {
      if ("0"..."9").contains(scalar) {
        digits += 1
        value = value * 10 + Int(scalar.value - 48)
      } else {
        if digits == 4 { return value }
        digits = 0
        value = 0
      }
    }
    return digits == 4 ? value : nil
  }
}

/// `text` without leading and trailing white space (and control characters such as NULs
/// that some taggers leave at the end).
func trimmed(_ text: String) -> Substring {
  let isBlank: (Character) -> Bool = { $0.isWhitespace || $0.unicodeScalars.allSatisfy { $0.value < 0x20 } }
  guard let first = text.firstIndex(where: { !isBlank($0) }) else { return "" }
  let last = text.lastIndex(where: { !isBlank($0) })!
  return text[first...last]
}
