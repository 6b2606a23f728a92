internal import CTagLib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What TagLib reads from one audio file: the tags an album is built from, the length,
/// format, bitrate and sample rate, the composer, and whether it embeds a picture.
package struct TrackTags: Sendable, Hashable {
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
  /// The disc number: the leading number of the tag ("1/2" → 1).
  package var discNumber: Int?
  /// The MusicBrainz recording (track) id.
  package var musicBrainzTrackID: String?
  /// The MusicBrainz release (album) id.
  package var musicBrainzAlbumID: String?
  /// The MusicBrainz release-group id.
  package var musicBrainzReleaseGroupID: String?
  /// The format's name, as TagLib opened the file: "MP3", "FLAC", "OGG", "Opus", "AAC"…
  package var format: String = ""
  /// The bitrate in kb/s; 0 when unknown.
  package var bitrate: Int = 0
  /// The sample rate in Hz; 0 when unknown.
  package var sampleRate: Int = 0
  /// The composer tag (ID3v2 TCOM, Vorbis COMPOSER, MP4 ©wrt).
  package var composer: String?
  /// The length in seconds, with millisecond precision where the format gives it.
  package var duration: Double
  /// Whether the file embeds a picture.
  package var hasPicture: Bool
  /// The embedded picture's MIME type, when it has one and says.
  package var pictureMimeType: String?
  /// The rating in stars, 1 to 5, where other players keep it (ID3v2 POPM or
  /// TXXX:FMPS_Rating, Vorbis FMPS_RATING or RATING, MP4 `rate`); nil when it has none.
  package var rating: Int?
  /// Whether the file marks the track a favourite (`LOVE RATING` = `L`, as MusicBee writes it).
  package var favourite = false

  /// The year of the date tag: its first run of four digits ("1997-05-21" → 1997).
  package var year: Int? { date.flatMap(Self.year(in:)) }

  /// Tags with every field given; the rest are read from files.
  package init(
    album: String? = nil, artist: String? = nil, albumArtist: String? = nil, title: String? = nil,
    trackNumber: Int? = nil, date: String? = nil, genre: String? = nil, discNumber: Int? = nil,
    musicBrainzTrackID: String? = nil, musicBrainzAlbumID: String? = nil, musicBrainzReleaseGroupID: String? = nil,
    format: String = "", bitrate: Int = 0, duration: Double = 0, hasPicture: Bool = false,
    pictureMimeType: String? = nil, rating: Int? = nil, favourite: Bool = false, sampleRate: Int = 0,
    composer: String? = nil
  ) {
    self.album = album
    self.artist = artist
    self.albumArtist = albumArtist
    self.title = title
    self.trackNumber = trackNumber
    self.date = date
    self.genre = genre
    self.discNumber = discNumber
    self.musicBrainzTrackID = musicBrainzTrackID
    self.musicBrainzAlbumID = musicBrainzAlbumID
    self.musicBrainzReleaseGroupID = musicBrainzReleaseGroupID
    self.format = format
    self.bitrate = bitrate
    self.duration = duration
    self.hasPicture = hasPicture
    self.pictureMimeType = pictureMimeType
    self.rating = rating
    self.favourite = favourite
    self.sampleRate = sampleRate
    self.composer = composer
  }

  /// What reading a file gave.
  package enum Outcome: Sendable, Equatable {
    /// A file with audio, and its tags.
    case track(TrackTags)
    /// TagLib recognises no audio in it: corrupt, or not the format its name says.
    case noAudio
    /// The file could not be opened.
    case cannotOpen(errno: Int32)
    /// Not a regular file (a FIFO, a device, a socket put where a file was listed).
    case notRegularFile
    /// Its metadata says it is `bytes` long, more than TagLib should read (``metadataLimit``).
    case metadataTooLarge(bytes: Int64)
  }

  /// The most metadata (an MP4 file's `ilst`, a FLAC file's metadata blocks) a file may
  /// declare: TagLib reads all of it, pictures included, when it opens the file, so a sparse
  /// file of kilobytes declaring a cover of gigabytes would cost gigabytes of memory.
  package static let metadataLimit: Int64 = 64 << 20

  /// Reads the file at `path` with TagLib.
  ///
  /// The file is opened once, without blocking, and read only if it is a regular file,
  /// through that descriptor: a FIFO or device put in its place after the folder was listed
  /// is skipped at once instead of blocking the reader for ever.
  package static func read(_ path: String) -> Outcome {
    var track = CTLTrack()
    defer { ctl_track_free(&track) }
    switch open(path, flags: 0, into: &track) {
    case .skipped(let outcome): return outcome
    case .read(let status) where status != CTL_OK: return .noAudio
    case .read: break
    }
    guard track.hasAudio != 0 else { return .noAudio }
    return .track(
      TrackTags(
        album: text(track.album), artist: text(track.artist), albumArtist: text(track.albumArtist),
        title: text(track.title), trackNumber: text(track.trackNumber).flatMap(leadingNumber),
        date: text(track.date), genre: text(track.genre), discNumber: text(track.discNumber).flatMap(leadingNumber),
        musicBrainzTrackID: text(track.musicBrainzTrackId), musicBrainzAlbumID: text(track.musicBrainzAlbumId),
        musicBrainzReleaseGroupID: text(track.musicBrainzReleaseGroupId),
        format: track.format.map { String(cString: $0) } ?? "", bitrate: Int(max(track.bitrate, 0)),
        duration: Double(track.lengthMilliseconds) / 1000, hasPicture: track.hasPicture != 0,
        pictureMimeType: track.hasPicture != 0 ? text(track.pictureMimeType) : nil,
        rating: (1...5).contains(track.rating) ? Int(track.rating) : nil, favourite: track.favourite != 0,
        sampleRate: Int(max(track.sampleRate, 0)), composer: text(track.composer)))
  }

  /// Opens `path` without blocking, checks it is a regular file TagLib may read, and reads
  /// it with `flags` through that descriptor: TagLib's status, or why it was not read.
  private static func open(_ path: String, flags: Int32, into track: inout CTLTrack) -> Opened {
    switch checkedDescriptor(path) {
    case .skipped(let outcome): return .skipped(outcome)
    // The descriptor is TagLib's now: closed when the call returns.
    case .descriptor(let fd): return .read(ctl_read_descriptor(fd, path, flags, &track))
    }
  }

  /// A descriptor of `path` opened without blocking, once it is known to be a regular file
  /// TagLib may read (its first bytes are its format's, its metadata not too large); or why
  /// it is not. The caller owns the descriptor.
  static func checkedDescriptor(_ path: String) -> Checked {
    let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return .skipped(.cannotOpen(errno: errno)) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      return .skipped(.notRegularFile)
    }
    if !mayHoldAudio(fd, path: path) {
      close(fd)
      return .skipped(.noAudio)
    }
    if let declared = declaredMetadataSize(fd, path: path), declared > metadataLimit {
      close(fd)
      return .skipped(.metadataTooLarge(bytes: declared))
    }
    return .descriptor(fd)
  }

  /// What ``checkedDescriptor(_:)`` found.
  enum Checked {
    case descriptor(Int32)
    case skipped(Outcome)
  }

  /// What ``open(_:flags:into:)`` did: TagLib read the file (with this status), or the file
  /// was skipped before TagLib saw it.
  private enum Opened {
    case read(Int32)
    case skipped(Outcome)
  }

  /// How far into an MPEG file (after its ID3v2 tag) the first frame must start.
  static let mpegSyncWindow = 64 << 10

  /// Whether the file at `path` may hold audio of the format its extension names, by a look
  /// at its first bytes (``mayHoldAudio(_:path:)``). True when it cannot be opened: TagLib
  /// then says why.
  package static func mayHoldAudio(_ path: String) -> Bool {
    let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return true }
    defer { close(fd) }
    return mayHoldAudio(fd, path: path)
  }

  /// Whether the open file `fd` named `path` starts as a file of the format its extension
  /// names must start. Some of TagLib's readers look for their format's first frame or
  /// header through the whole file: for a zero-filled file of 256 MiB, 30 s for MPEG, about
  /// 1 s for Ogg, FLAC and Monkey's Audio; and a Musepack reader takes zeros for a stream of
  /// 27 hours. Real files start with their magic (after an ID3v2 tag for MPEG, FLAC, APE
  /// and Musepack):
  /// - `.mp3`: an MPEG frame sync (11 set bits) within ``mpegSyncWindow`` bytes;
  /// - `.ogg`, `.oga`, `.opus`, `.spx`: `OggS`;
  /// - `.flac`: `fLaC`; `.ape`: `MAC `;
  /// - `.mpc`: `MPCK` (SV8), `MP+` (SV7), or a header of stream version 4 to 6;
  /// - `.mod`, `.module`, `.nst`, `.wow`: a tracker's id at byte 1080 (`M.K.`, `8CHN`…):
  ///   15-sample modules, which have none, cannot be told from other bytes.
  /// Other formats start with a magic number TagLib checks at once: true for them.
  static func mayHoldAudio(_ fd: Int32, path: String) -> Bool {
    // The extension alone, lowercased: a small string, not a copy of the whole path.
    let tail = path.utf8.suffix(7)
    guard let dot = tail.lastIndex(of: UInt8(ascii: ".")) else { return true }
    switch String(decoding: tail[tail.index(after: dot)...], as: UTF8.self).lowercased() {
    case "mp3":
      return hasMPEGSync(fd, from: afterID3v2(fd))
    case "ogg", "oga", "opus", "spx":
      return starts(fd, at: 0, with: ["OggS"])
    case "flac":
      return starts(fd, at: afterID3v2(fd), with: ["fLaC"])
    case "ape":
      return starts(fd, at: afterID3v2(fd), with: ["MAC "])
    case "mpc":
      let start = afterID3v2(fd)
      if starts(fd, at: start, with: ["MPCK", "MP+"]) { return true }
      var header = [UInt8](repeating: 0, count: 4)
      guard pread(fd, &header, 4, start) == 4 else { return false }
      let word = header.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      return (4...6).contains((word >> 11) & 0x3FF)
    case "mod", "module", "nst", "wow":
      var id = [UInt8](repeating: 0, count: 4)
      guard pread(fd, &id, 4, 1080) == 4 else { return false }
      return isTrackerID(id)
    default:
      return true
    }
  }

  /// The audio format the first bytes of the regular file at `path` announce, whatever its
  /// name: `MP3`, `FLAC`, `Ogg`, `MP4`, `WAV`, `AIFF`, `APE`, `Musepack`, `WavPack`, `TTA`,
  /// `WMA` (FLAC, APE and Musepack after an ID3v2 tag too, as ``mayHoldAudio(_:)`` reads
  /// them); nil for other files and files that cannot be read. An audio file given where a
  /// JSON or CSV file is expected is named as one, not read as text.
  package static func audioFormat(ofFileAt path: String) -> String? {
    let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    let start = afterID3v2(fd)
    for (magics, format) in [(["fLaC"], "FLAC"), (["MAC "], "APE"), (["MPCK", "MP+"], "Musepack")]
    where starts(fd, at: start, with: magics) {
      return format
    }
    var head = [UInt8](repeating: 0, count: 12)
    guard pread(fd, &head, 12, 0) == 12 else { return nil }
    if start > 0 || (head[0] == 0xFF && head[1] & 0xE0 == 0xE0) { return "MP3" }
    func has(_ magic: String, at offset: Int = 0) -> Bool { head[offset...].starts(with: Array(magic.utf8)) }
    if has("OggS") { return "Ogg" }
    if has("ftyp", at: 4) { return "MP4" }
    if has("RIFF") && has("WAVE", at: 8) { return "WAV" }
    if has("FORM") && (has("AIFF", at: 8) || has("AIFC", at: 8)) { return "AIFF" }
    if has("wvpk") { return "WavPack" }
    if has("TTA1") { return "TTA" }
    // The ASF header object's GUID.
    if head.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return "WMA" }
    return nil
  }

  /// Whether `id` (the 4 bytes at 1080 of a module) names a tracker TagLib knows:
  /// `M.K.`, `M!K!`, `M&K!`, `N.T.`, `FLTn`, `TDZn`, `nCHN`, `CD81`, `OKTA`, `nnCH`, `nnCN`.
  static func isTrackerID(_ id: [UInt8]) -> Bool {
    let text = String(decoding: id, as: UTF8.self)
    let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    if ["M.K.", "M!K!", "M&K!", "N.T.", "CD81", "OKTA"].contains(text) { return true }
    if text.hasPrefix("FLT") || text.hasPrefix("TDZ") { return isDigit(id[3]) }
    if text.hasSuffix("CHN") { return isDigit(id[0]) }
    if text.hasSuffix("CH") || text.hasSuffix("CN") { return isDigit(id[0]) && isDigit(id[1]) }
    return false
  }

  /// Where the audio of the open file `fd` starts: after its ID3v2 tag, or 0 without one.
  private static func afterID3v2(_ fd: Int32) -> off_t {
    var header = [UInt8](repeating: 0, count: 10)
    guard pread(fd, &header, 10, 0) == 10, header.starts(with: Array("ID3".utf8)) else { return 0 }
    // The tag's size: four 7-bit bytes, then 10 bytes of footer when its flag says so.
    let size = header[6...9].reduce(0) { $0 << 7 | off_t($1 & 0x7F) }
    return 10 + size + (header[5] & 0x10 != 0 ? 10 : 0)
  }

  /// Whether the bytes of `fd` at `offset` start with one of `magics`.
  private static func starts(_ fd: Int32, at offset: off_t, with magics: [String]) -> Bool {
    var bytes = [UInt8](repeating: 0, count: 4)
    let count = pread(fd, &bytes, 4, offset)
    guard count > 0 else { return false }
    return magics.contains { bytes[..<count].starts(with: Array($0.utf8)) && $0.utf8.count <= count }
  }

  /// Whether an MPEG frame sync starts within ``mpegSyncWindow`` bytes from `start`.
  /// Read 4 KiB at a time, where the first frame nearly always is: the whole window, zeroed
  /// then read, cost a folder import more than its database did.
  private static func hasMPEGSync(_ fd: Int32, from start: off_t) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
      var previous: UInt8 = 0
      var offset = 0
      while offset < mpegSyncWindow {
        let count = pread(fd, buffer.baseAddress, min(buffer.count, mpegSyncWindow - offset), start + off_t(offset))
        guard count > 0 else { return false }
        for byte in buffer[..<count] {
          if previous == 0xFF && byte & 0xE0 == 0xE0 { return true }
          previous = byte
        }
        offset += count
      }
      return false
    }
  }

  /// The size of the metadata TagLib would read from the open file `fd` named `path`, as
  /// its headers declare it, without reading the metadata: an MP4 file's `moov/udta/meta/ilst`
  /// (by the `.m4a`, `.m4b`, `.m4p`, `.mp4` extension) or a FLAC file's metadata blocks (by
  /// its `fLaC` magic). Nil for other files or headers that do not parse.
  static func declaredMetadataSize(_ fd: Int32, path: String) -> Int64? {
    var magic = [UInt8](repeating: 0, count: 4)
    if pread(fd, &magic, 4, 0) == 4, magic == Array("fLaC".utf8) { return flacMetadataSize(fd) }
    let suffix = String(decoding: path.utf8.suffix(4), as: UTF8.self).lowercased()
    guard [".m4a", ".m4b", ".m4p", ".mp4"].contains(suffix) else { return nil }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    // moov, then udta, meta (a full box: 4 bytes of version and flags) and ilst inside it.
    var range = (start: Int64(0), end: Int64(info.st_size))
    for (name, skip) in [("moov", 0), ("udta", 0), ("meta", 4), ("ilst", 0)] as [(String, Int64)] {
      guard let atom = findAtom(name, in: range, fd) else { return nil }
      range = (atom.body + skip, atom.end)
    }
    return range.end - range.start
  }

  /// The first atom named `name` among those in `range`: where its body starts and it ends.
  private static func findAtom(_ name: String, in range: (start: Int64, end: Int64), _ fd: Int32)
    -> (body: Int64, end: Int64)?
  {
    var offset = range.start
    var atoms = 0
    while offset + 8 <= range.end, atoms < 10_000 {
      atoms += 1
      var header = [UInt8](repeating: 0, count: 16)
      guard pread(fd, &header, 16, off_t(offset)) >= 8 else { return nil }
      var size = Int64(header[0...3].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
      var body = offset + 8
      if size == 1 {
        size = Int64(bitPattern: header[8...15].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        body = offset + 16
      } else if size == 0 {
        size = range.end - offset
      }
      guard size >= body - offset else { return nil }
      if String(decoding: header[4...7], as: UTF8.self) == name { return (body, offset + size) }
      offset += size
    }
    return nil
  }

  /// The total length of a FLAC file's metadata blocks (each up to 16 MiB, any number).
  private static func flacMetadataSize(_ fd: Int32) -> Int64? {
    var offset: Int64 = 4
    var total: Int64 = 0
    for _ in 0..<100_000 {
      var header = [UInt8](repeating: 0, count: 4)
      guard pread(fd, &header, 4, off_t(offset)) == 4 else { return total }
      let length = Int64(header[1]) << 16 | Int64(header[2]) << 8 | Int64(header[3])
      total += length
      offset += 4 + length
      if header[0] & 0x80 != 0 { return total }
    }
    return total
  }

  /// The embedded picture of the file at `path` and its MIME type ("" when the file does not
  /// say), or nil when it has none; pictures over `limit` bytes are an error.
  static func picture(_ path: String, limit: Int) throws(MusicFolderError) -> (bytes: [UInt8], mimeType: String)? {
    var track = CTLTrack()
    defer { ctl_track_free(&track) }
    switch open(path, flags: Int32(CTL_READ_PICTURE), into: &track) {
    case .skipped(.cannotOpen(let code)): throw .cannotOpen(path, errno: code)
    case .skipped(.notRegularFile): throw .cannotOpen(path, errno: EINVAL)
    case .skipped(.metadataTooLarge): throw .coverTooLarge(path, limit: limit)
    case .skipped: return nil
    case .read(let status) where status != CTL_OK: return nil
    case .read: break
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
package func trimmed(_ text: String) -> Substring {
  // Most tags begin and end with a printable ASCII character, which no grapheme cluster
  // around it makes blank: no need to walk their characters (1,700 instructions a tag).
  let printable: ClosedRange<UInt8> = 0x21...0x7E
  if let first = text.utf8.first, let last = text.utf8.last, printable.contains(first), printable.contains(last) {
    return text[...]
  }
  let isBlank: (Character) -> Bool = { $0.isWhitespace || $0.unicodeScalars.allSatisfy { $0.value < 0x20 } }
  guard let first = text.firstIndex(where: { !isBlank($0) }) else { return "" }
  let last = text.lastIndex(where: { !isBlank($0) })!
  return text[first...last]
}
