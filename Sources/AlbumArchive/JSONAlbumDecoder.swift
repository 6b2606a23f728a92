import AlbumModel
internal import MusicFolder

/// Reads albums from the JSON that `export` writes, as the file is read: an array of
/// objects keyed by ``ArchiveKey``, `year` a string or a whole number, any value but
/// `title` may be null.
///
/// A small strict parser over the bytes, so that errors can name the line and
/// the element (1-based) and a large file decodes without a detour through
/// `Any` or `Codable`. It parses one element at a time from the ``ArchiveInput``'s
/// buffer: a quick structural scan first finds where the element ends, reading more of
/// the file until it is all in the buffer, and the parser then sees exactly that element.
struct JSONAlbumDecoder {
  private let input: ArchiveInput
  /// What the parser sees: `input.bytes`, or while it parses one value, the bytes up to
  /// the value's end.
  private var bytes: UnsafeBufferPointer<UInt8>

  private var index = 0
  private var line = 1
  private var scratch: [UInt8] = []

  /// A parsed value: strings and numbers keep their text; containers are checked and skipped.
  private enum Value {
    case string(String)
    case number(String)
    case bool
    case null
    case array
    case object

    var kind: String {
      switch self {
      case .string: "a string"
      case .number: "a number"
      case .bool: "a boolean"
      case .null: "null"
      case .array: "an array"
      case .object: "an object"
      }
    }
  }

  private static let maximumDepth = 256
  /// How many unknown keys of one element an error names.
  private static let namedUnknownKeys = 10

  init(input: ArchiveInput) {
    self.input = input
    bytes = UnsafeBufferPointer(input.bytes)
  }

  /// Reads the array of albums, handing each album's checked fields to `body` in file
  /// order; throws the first problem, naming the file, the line and the element.
  mutating func decode(_ body: (AlbumFields) throws -> Void) throws {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    try skipWhitespaceReading()
    guard index < bytes.count else { throw failure(nil, "the file is empty (expected an array of albums)") }
    guard bytes[index] == UInt8(ascii: "[") else {
      let found = try parseWhole { (decoder) throws(LibraryError) in try decoder.parseValue(depth: 0) }
      throw failure(1, "expected an array of albums, found \(found.kind)")
    }
    index += 1
    var element = 0
    try skipWhitespaceReading()
    if peek == UInt8(ascii: "]") {
      index += 1
    } else {
      while true {
        try skipWhitespaceReading()
        let elementLine = line
        element += 1
        if peek == UInt8(ascii: "{") {
          let record = try parseWhole { (decoder) throws(LibraryError) in try decoder.parseAlbum(element: element) }
          try record.withFields { (fields) throws in
            do throws(LibraryError) {
              try fields.validate()
            } catch {
              throw failure(elementLine, "element \(element): \(error.description)")
            }
            try body(fields)
          }
        } else {
          let found = try parseWhole { (decoder) throws(LibraryError) in try decoder.parseValue(depth: 1) }
          throw failure(elementLine, "element \(element): expected an object, found \(found.kind)")
        }
        try skipWhitespaceReading()
        if peek == UInt8(ascii: ",") {
          index += 1
        } else if peek == UInt8(ascii: "]") {
          index += 1
          break
        } else {
          throw failure(line, "expected ',' or ']' after element \(element), found \(describePeek())")
        }
      }
    }
    try skipWhitespaceReading()
    guard index == bytes.count else {
      throw failure(line, "unexpected \(describePeek()) after the array of albums")
    }
  }

  // MARK: - Reading the file

  /// Skips blanks, reading more of the file while they run to the end of the buffer.
  private mutating func skipWhitespaceReading() throws(LibraryError) {
    skipWhitespace()
    while index == bytes.count && !input.isAtEnd {
      try refill()
      skipWhitespace()
    }
  }

  /// Drops the bytes before `index` and reads more after them.
  private mutating func refill() throws(LibraryError) {
    try input.refill(keepingFrom: index)
    bytes = UnsafeBufferPointer(input.bytes)
    index = 0
  }

  /// Runs `parse` on the value at `index` with all of it in the buffer and nothing after
  /// it in sight (so the parser meets the end of the file only where the file ends).
  private mutating func parseWhole<T>(
    _ parse: (inout JSONAlbumDecoder) throws(LibraryError) -> T
  ) throws(LibraryError) -> T {
    var scan = ValueScan()
    var end = scan.end(in: bytes, from: index)
    while end == nil && !input.isAtEnd {
      guard bytes.count - index < input.maximumRecordBytes else {
        throw failure(
          line,
          "value is longer than \(input.maximumRecordText), the most import reads at once"
            + " (is a closing quote or bracket missing?)")
      }
      let start = index
      try refill()
      scan.shift(by: start)
      end = scan.end(in: bytes, from: index)
    }
    // One byte more, which the parser never takes, so that it can name what stands where
    // a value was expected (`[{…},]`).
    let whole = bytes
    bytes = UnsafeBufferPointer(rebasing: whole[..<min((end ?? whole.count) + 1, whole.count)])
    defer { bytes = whole }
    return try parse(&self)
  }

  // MARK: - Albums

  private mutating func parseAlbum(element: Int) throws(LibraryError) -> ArchiveRecord {
    let elementLine = line
    index += 1
    // One slot per key, in `ArchiveKey` order: cheaper than a dictionary per element.
    var values = [Value?](repeating: nil, count: ArchiveKey.allCases.count)
    var trackList: [MusicTrack]?
    var unknown: [String] = []
    var unknownCount = 0
    if !isEmpty(closedBy: UInt8(ascii: "}")) {
      while true {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else {
          throw failure(line, "expected a key in double quotes, found \(describePeek())")
        }
        let name = try parseString()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else {
          throw failure(line, "expected ':' after key \(LibraryError.quoted(name)), found \(describePeek())")
        }
        index += 1
        skipWhitespace()
        let key = ArchiveKey(name: name)
        let value: Value
        if key == .tracks && peek == UInt8(ascii: "[") {
          // An album's tracks, as `export` writes them.
          trackList = try parseTracks(element: element)
          value = .array
        } else {
          value = try parseValue(depth: 2)
        }
        if let key {
          guard values[key.slot] == nil else {
            throw failure(elementLine, "element \(element): duplicate key '\(key.rawValue)'")
          }
          values[key.slot] = value
        } else {
          unknownCount += 1
          // The message names a few: an element of a million keys must not keep them all.
          if unknown.count < Self.namedUnknownKeys { unknown.append(LibraryError.quoted(name)) }
        }
        guard let end = isClosed(by: UInt8(ascii: "}")) else {
          throw failure(line, "expected ',' or '}' in element \(element), found \(describePeek())")
        }
        if end { break }
      }
    }
    func fail(_ reason: String) -> LibraryError {
      failure(elementLine, "element \(element): \(reason)")
    }
    if !unknown.isEmpty {
      let more = unknownCount > unknown.count ? ", … (\(unknownCount) in all)" : ""
      let keys = unknown.count == 1 ? "key \(unknown[0])" : "keys \(unknown.joined(separator: ", "))\(more)"
      throw fail("unknown \(keys) (keys: \(ArchiveKey.list))")
    }
    var record = ArchiveRecord()
    for key in ArchiveKey.allCases {
      guard let value = values[key.slot] else { continue }
      switch (key, value) {
      case (.title, .string(let text)): record.title = text
      case (.title, _): throw fail("'title' must be a string, found \(value.kind)")
      case (.year, .string(let text)), (.year, .number(let text)):
        do throws(LibraryError) {
          record.year = try Album.parseYear(text)
        } catch {
          throw fail(error.description)
        }
      case (_, .null): break
      case (.artist, .string(let text)): record.artist = text
      case (.genre, .string(let text)): record.genre = text
      case (.coverUrl, .string(let text)): record.coverURL = text
      case (.folder, .string(let text)): record.folder = text
      case (.tracks, .array) where trackList != nil:
        record.trackList = trackList
        record.tracks = trackList?.count
      case (.tracks, .number(let text)):
        guard let tracks = ArchiveKey.parseTracks(text) else {
          throw fail("'tracks' must be a whole number, got \(text)")
        }
        record.tracks = tracks
      case (.duration, .number(let text)):
        guard let duration = ArchiveKey.parseDuration(text) else {
          throw fail("'duration' must be a number, got \(text)")
        }
        record.duration = duration
      case (.tracks, _): throw fail("'tracks' must be a number or an array of tracks, found \(value.kind)")
      case (.duration, _): throw fail("'duration' must be a number, found \(value.kind)")
      case (.year, _): throw fail("'year' must be a string or a number, found \(value.kind)")
      default: throw fail("'\(key.rawValue)' must be a string, found \(value.kind)")
      }
    }
    guard record.title != nil else { throw fail("missing key 'title'") }
    return record
  }

  // MARK: - Tracks

  /// The keys of a track object (``LibraryArchive/appendTracks(_:to:)``).
  private static let trackKeys: Set<String> = [
    "path", "disc", "discnumber", "number", "title", "artist", "albumartist", "album", "date", "genre", "length",
    "format", "bitrate", "samplerate", "composer", "size", "modified", "changed", "inode", "picture", "mb_trackid",
    "mb_albumid", "mb_releasegroupid",
  ]

  /// An array of track objects, as `export` writes an album's `tracks`: each needs `path`
  /// (a string); numbers must be numbers, text strings (or null).
  private mutating func parseTracks(element: Int) throws(LibraryError) -> [MusicTrack] {
    index += 1
    var tracks: [MusicTrack] = []
    if isEmpty(closedBy: UInt8(ascii: "]")) { return tracks }
    while true {
      skipWhitespace()
      let number = tracks.count + 1
      func fail(_ reason: String) -> LibraryError { failure(line, "element \(element): track \(number): \(reason)") }
      guard peek == UInt8(ascii: "{") else { throw fail("expected an object, found \(describePeek())") }
      index += 1
      var fields: [String: Value] = [:]
      if !isEmpty(closedBy: UInt8(ascii: "}")) {
        while true {
          skipWhitespace()
          guard peek == UInt8(ascii: "\"") else {
            throw fail("expected a key in double quotes, found \(describePeek())")
          }
          let name = try parseString()
          guard Self.trackKeys.contains(name) else {
            throw fail(
              "unknown key \(LibraryError.quoted(name)) (keys: \(Self.trackKeys.sorted().joined(separator: ", ")))")
          }
          skipWhitespace()
          guard peek == UInt8(ascii: ":") else { throw fail("expected ':', found \(describePeek())") }
          index += 1
          skipWhitespace()
          guard fields.updateValue(try parseValue(depth: 4), forKey: name) == nil else {
            throw fail("duplicate key '\(name)'")
          }
          guard let end = isClosed(by: UInt8(ascii: "}")) else {
            throw fail("expected ',' or '}', found \(describePeek())")
          }
          if end { break }
        }
      }
      func text(_ key: String) throws(LibraryError) -> String? {
        switch fields[key] {
        case nil, .null: return nil
        case .string(let value): return value
        case let other?: throw fail("'\(key)' must be a string, found \(other.kind)")
        }
      }
      func integer(_ key: String) throws(LibraryError) -> Int64? {
        switch fields[key] {
        case nil, .null: return nil
        case .number(let value):
          guard let whole = Int64(value) else { throw fail("'\(key)' must be a whole number, got \(value)") }
          return whole
        case let other?: throw fail("'\(key)' must be a number, found \(other.kind)")
        }
      }
      guard let path = try text("path") else { throw fail("missing key 'path'") }
      // A track is a file of a music folder: a URL or an mpv protocol would be fetched or
      // run by `play`, and a relative path read against whatever folder bluelib runs in.
      guard path.hasPrefix("/") else { throw fail("'path' must be an absolute path, got \(LibraryError.quoted(path))") }
      guard !path.utf8.contains(0) else { throw fail("'path' must not contain a NUL character") }
      var length = 0.0
      switch fields["length"] {
      case nil, .null: break
      case .number(let value):
        guard let seconds = Double(value), seconds >= 0, seconds <= Album.maximumDuration else {
          throw fail("'length' must be a number of seconds, got \(value)")
        }
        length = seconds
      case let other?: throw fail("'length' must be a number, found \(other.kind)")
      }
      let picture = try text("picture")
      let tags = TrackTags(
        album: try text("album"), artist: try text("artist"), albumArtist: try text("albumartist"),
        title: try text("title"), trackNumber: try integer("number").map { Int($0) }, date: try text("date"),
        genre: try text("genre"), discNumber: try integer("discnumber").map { Int($0) },
        musicBrainzTrackID: try text("mb_trackid"), musicBrainzAlbumID: try text("mb_albumid"),
        musicBrainzReleaseGroupID: try text("mb_releasegroupid"), format: try text("format") ?? "",
        bitrate: Int(try integer("bitrate") ?? 0), duration: length, hasPicture: picture != nil,
        pictureMimeType: picture.flatMap { $0.isEmpty ? nil : $0 },
        sampleRate: Int(min(max(try integer("samplerate") ?? 0, 0), 10_000_000)), composer: try text("composer"))
      tracks.append(
        MusicTrack(
          path: path, size: try integer("size") ?? -1, modified: try integer("modified") ?? -1,
          changed: try integer("changed") ?? -1, inode: try integer("inode") ?? -1,
          disc: try integer("disc").map { Int($0) }, tags: tags))
      guard let end = isClosed(by: UInt8(ascii: "]")) else {
        throw failure(line, "element \(element): expected ',' or ']' after track \(number), found \(describePeek())")
      }
      if end { return tracks }
    }
  }

  // MARK: - Values

  private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  /// Whether the array or object just opened is empty (blanks aside): then its `close` is
  /// passed too.
  private mutating func isEmpty(closedBy close: UInt8) -> Bool {
    skipWhitespace()
    guard peek == close else { return false }
    index += 1
    return true
  }

  /// After an element of an array or object (blanks aside): false past a ',' (another
  /// element follows), true past `close` (the end); nil at anything else, left for the
  /// caller's error.
  private mutating func isClosed(by close: UInt8) -> Bool? {
    skipWhitespace()
    guard let byte = peek, byte == UInt8(ascii: ",") || byte == close else { return nil }
    index += 1
    return byte == close
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D: index += 1
      case 0x0A:
        index += 1
        line += 1
      default: return
      }
    }
  }

  private mutating func parseValue(depth: Int) throws(LibraryError) -> Value {
    guard depth <= Self.maximumDepth else { throw failure(line, "values nested more than \(Self.maximumDepth) deep") }
    switch peek ?? 0 {
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "{"):
      index += 1
      if isEmpty(closedBy: UInt8(ascii: "}")) { return .object }
      while true {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else {
          throw failure(line, "expected a key in double quotes, found \(describePeek())")
        }
        _ = try parseString()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw failure(line, "expected ':', found \(describePeek())") }
        index += 1
        skipWhitespace()
        _ = try parseValue(depth: depth + 1)
        guard let end = isClosed(by: UInt8(ascii: "}")) else {
          throw failure(line, "expected ',' or '}', found \(describePeek())")
        }
        if end { return .object }
      }
    case UInt8(ascii: "["):
      index += 1
      if isEmpty(closedBy: UInt8(ascii: "]")) { return .array }
      while true {
        skipWhitespace()
        _ = try parseValue(depth: depth + 1)
        guard let end = isClosed(by: UInt8(ascii: "]")) else {
          throw failure(line, "expected ',' or ']', found \(describePeek())")
        }
        if end { return .array }
      }
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool)
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool)
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw failure(line, "expected a value, found \(describePeek())")
    }
  }

  private mutating func parseLiteral(_ word: StaticString, _ value: Value) throws(LibraryError) -> Value {
    let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard bytes.count - index >= text.count, bytes[index..<(index + text.count)].elementsEqual(text) else {
      throw failure(line, "expected a value, found \(describePeek())")
    }
    index += text.count
    return value
  }

  /// A number per the JSON grammar, returned as written.
  private mutating func parseNumber() throws(LibraryError) -> String {
    let start = index
    func digits() -> Int {
      let first = index
      while let byte = peek, byte >= 0x30 && byte <= 0x39 { index += 1 }
      return index - first
    }
    if peek == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    var valid = integerDigits > 0 && !(integerDigits > 1 && bytes[integerStart] == 0x30)
    if valid && peek == UInt8(ascii: ".") {
      index += 1
      valid = digits() > 0
    }
    if valid && (peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E")) {
      index += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
      valid = digits() > 0
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard valid else { throw failure(line, "invalid number '\(text)'") }
    return text
  }

  /// A string at `index` (on its opening quote), escapes resolved.
  private mutating func parseString() throws(LibraryError) -> String {
    let openLine = line
    index += 1
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        if let text = CSVAlbumDecoder.makeString(slice) { return text }
        throw failure(nil, "invalid UTF-8 on line \(line)")
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      index += 1
    }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
    while true {
      guard index < bytes.count else {
        throw failure(nil, "unterminated string starting on line \(openLine)")
      }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        if let text = scratch.withUnsafeBufferPointer(CSVAlbumDecoder.makeString) { return text }
        throw failure(nil, "invalid UTF-8 on line \(line)")
      case UInt8(ascii: "\\"):
        index += 1
        try parseEscape()
      case 0x0A:
        throw failure(line, "unterminated string (a line break inside a string is written \\n)")
      case ..<0x20:
        throw failure(
          line,
          "control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4)) in a string must be escaped"
        )
      default:
        scratch.append(byte)
        index += 1
      }
    }
  }

  private mutating func parseEscape() throws(LibraryError) {
    guard let byte = peek else { throw failure(nil, "unterminated string at the end of the file") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      var value = try parseHex4()
      if (0xD800..<0xDC00).contains(value) {
        guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
          throw failure(line, "unpaired surrogate in a \\u escape")
        }
        index += 2
        let low = try parseHex4()
        guard (0xDC00..<0xE000).contains(low) else { throw failure(line, "unpaired surrogate in a \\u escape") }
        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00..<0xE000).contains(value) {
        throw failure(line, "unpaired surrogate in a \\u escape")
      }
      scratch.append(contentsOf: String(Character(Unicode.Scalar(value)!)).utf8)
    default:
      throw failure(line, "invalid escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
    }
  }

  private mutating func parseHex4() throws(LibraryError) -> UInt32 {
    guard bytes.count - index >= 4 else { throw failure(line, "incomplete \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure(line, "incomplete \\u escape")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  // MARK: - Errors

  private func failure(_ line: Int?, _ reason: String) -> LibraryError {
    .invalidArchive(file: input.name, line: line, reason: reason)
  }

  private func describePeek() -> String {
    guard let byte = peek else { return "the end of the file" }
    return byte >= 0x20 && byte < 0x7F
      ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

/// Finds where a JSON value ends without parsing it: strings (with their escapes) and
/// bracket depth only, resumable as the buffer grows.
///
/// The parser agrees with it on every input it accepts, so it never needs a byte past the
/// end found here; on input it rejects it stops at or before the first disagreement.
private struct ValueScan {
  private var position: Int?
  private var depth = 0
  private var inString = false
  private var escaped = false

  /// Moves the resume point after the bytes before `offset` were dropped.
  mutating func shift(by offset: Int) {
    position = position.map { $0 - offset }
  }

  /// The index just past the value that starts at `start`, or nil when `bytes` end first.
  mutating func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var p = position ?? start
    defer { position = p }
    while p < bytes.count {
      let byte = bytes[p]
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          if depth == 0 { return p + 1 }
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 { return p }
          depth -= 1
          if depth == 0 { return p + 1 }
        case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
          if depth == 0 { return p }
        default: break
        }
      }
      p += 1
    }
    return nil
  }
}
