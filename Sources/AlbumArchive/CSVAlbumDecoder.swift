import AlbumModel

/// Reads albums from CSV (RFC 4180) as the file is read, straight from its bytes.
///
/// A header row names the columns (``ArchiveKey``, any order, `title` required); other
/// columns (exports of other tools have them) are skipped and listed in ``ignoredColumns``.
/// Fields may be quoted, with `""` for a quote and embedded commas and line
/// breaks; records end in LF or CRLF; a UTF-8 byte order mark is skipped and
/// blank lines are ignored.
///
/// Records are parsed in place in the ``ArchiveInput``'s buffer, one at a time: a field
/// is checked as UTF-8 where it lies and handed over as bytes (`""` pairs unescaped in
/// place), so a million rows make no `String`s and memory does not grow with the file.
struct CSVAlbumDecoder {
  private let input: ArchiveInput
  /// `input.bytes`, re-read after each refill.
  private var bytes: UnsafeMutableBufferPointer<UInt8>

  private var index = 0
  /// The 1-based line `index` is on.
  private var line = 1
  /// The line the current record starts on, which errors about it name.
  private var recordLine = 1
  /// The current record's fields, reused from record to record: only as many as the
  /// header has columns, and one more to see that a row has too many (`keptFields` of
  /// them). Storage made once, not an array: appending to one checked that it was not
  /// shared, six times a row.
  private let fields = FieldStorage(capacity: CSVAlbumDecoder.maximumColumns + 1)
  private var keptFields = 0
  /// How many fields the current record has, also those not kept in `fields`.
  private var fieldCount = 0
  /// The header's columns in order; nil for one that is not an ``ArchiveKey``.
  private var columns: [ArchiveKey?] = []
  /// The header's names that are not ``ArchiveKey``s, in order: their fields are skipped.
  private(set) var ignoredColumns: [String] = []

  /// Room for a record's fields, made once per decoder.
  private final class FieldStorage {
    let base: UnsafeMutablePointer<Field>
    init(capacity: Int) { base = .allocate(capacity: capacity) }
    deinit { base.deallocate() }
    subscript(index: Int) -> Field { base[index] }
  }

  private struct Field {
    /// The field's bytes, without its quotes.
    var start: Int
    var end: Int
    var line: Int
    var quoted: Bool
    /// Holds `""` pairs to be read as one quote.
    var escaped: Bool
  }

  /// How reading a record ended.
  private enum Scan {
    case record
    case endOfFile
    /// The record runs past the bytes read so far; `openQuoteLine` is the line its open
    /// quoted field starts on, if it was in one.
    case needsMore(openQuoteLine: Int?)
  }

  private static let quote = UInt8(ascii: "\"")
  private static let comma = UInt8(ascii: ",")
  private static let lf = UInt8(ascii: "\n")
  private static let cr = UInt8(ascii: "\r")

  /// Reads the header row of `input` (skipping a byte order mark and blank lines).
  init(input: ArchiveInput) throws(LibraryError) {
    self.input = input
    bytes = input.bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    columns = try readHeader()
  }

  /// Reads every record after the header, handing each album's checked fields to `body`
  /// in file order; throws the first problem, naming the file and the line.
  mutating func decode(_ body: (AlbumFields) throws -> Void) throws {
    while try nextRecord() {
      if isBlank { continue }
      guard fieldCount == columns.count else {
        throw failure(
          recordLine,
          "expected \(columns.count) field\(columns.count == 1 ? "" : "s") like the header, found \(fieldCount)")
      }
      // Columns the header lacks stay empty.
      var album = AlbumFields(title: AlbumFields.empty)
      for column in 0..<columns.count {
        guard let key = columns[column] else { continue }
        let field = fields[column]
        switch key {
        case .title: album.title = try utf8(field)
        case .artist: album.artist = try utf8(field)
        case .genre: album.genre = try utf8(field)
        case .coverUrl: album.coverURL = try utf8(field)
        case .folder:
          let folder = try utf8(field)
          album.folder = folder.isEmpty ? nil : folder
        case .tracks, .duration:
          // An empty field is no value, as for year. Few rows have these: a String is fine.
          let text = String(decoding: try utf8(field), as: UTF8.self)
          let number = ArchiveKey.trimmed(text)
          if number.isEmpty { continue }
          if key == .tracks, let tracks = ArchiveKey.parseTracks(number) {
            album.tracks = tracks
          } else if key == .duration, let duration = ArchiveKey.parseDuration(number) {
            album.duration = duration
          } else {
            throw failure(recordLine, "'\(key.rawValue)' must be a number, got \(LibraryError.quoted(text))")
          }
        case .year:
          do throws(LibraryError) {
            album.year = try year(field)
          } catch {
            if case .invalidArchive = error { throw error }  // invalid UTF-8: its line is named already
            throw failure(recordLine, error.description)
          }
        }
      }
      do throws(LibraryError) {
        try album.validate()
      } catch {
        throw failure(recordLine, error.description)
      }
      try body(album)
    }
  }

  // MARK: - Header

  private mutating func readHeader() throws(LibraryError) -> [ArchiveKey?] {
    var blank = true
    while blank {
      guard try nextRecord() else {
        throw failure(nil, "the file is empty (expected a header row naming \(ArchiveKey.list))")
      }
      blank = isBlank
    }
    guard fieldCount <= Self.maximumColumns else {
      throw failure(
        recordLine, "the header has \(fieldCount) columns, more than the \(Self.maximumColumns) import reads")
    }
    var columns: [ArchiveKey?] = []
    for index in 0..<keptFields {
      let field = fields[index]
      let name = String(decoding: try utf8(field), as: UTF8.self)
      guard let key = ArchiveKey(name: name) else {
        ignoredColumns.append(name)
        columns.append(nil)
        continue
      }
      guard !columns.contains(key) else {
        throw failure(recordLine, "duplicate column '\(key.rawValue)'")
      }
      columns.append(key)
    }
    guard columns.contains(.title) else {
      throw failure(recordLine, "missing column 'title' (columns: \(ArchiveKey.list))")
    }
    return columns
  }

  // MARK: - Records

  /// The most columns a header may have (SQLite's own default limit for a table).
  static let maximumColumns = 2000

  /// Whether the current record is a blank line.
  private var isBlank: Bool {
    fieldCount == 1 && !fields[0].quoted && fields[0].start == fields[0].end
  }

  /// Keeps `field` if a row can use it: the fields past the header's columns only count.
  private mutating func add(_ field: Field) {
    fieldCount += 1
    if keptFields <= (columns.isEmpty ? Self.maximumColumns : columns.count) {
      (fields.base + keptFields).initialize(to: field)
      keptFields += 1
    }
  }

  /// Reads the next record's fields into `fields`, reading more of the file when it runs
  /// past the buffer; false at the end of the file.
  private mutating func nextRecord() throws(LibraryError) -> Bool {
    while true {
      switch try scanRecord() {
      case .record: return true
      case .endOfFile: return false
      case .needsMore(let openQuoteLine):
        // `index` and `line` are back at the record's start.
        guard bytes.count - index < input.maximumRecordBytes else {
          throw recordTooLong(openQuoteLine: openQuoteLine)
        }
        try input.refill(keepingFrom: index)
        bytes = input.bytes
        index = 0
      }
    }
  }

  /// Reads the record at `index` from the bytes in the buffer.
  private mutating func scanRecord() throws(LibraryError) -> Scan {
    keptFields = 0
    fieldCount = 0
    let count = bytes.count
    // Whether bytes of the file follow the buffer: then its end is not the file's.
    let more = !input.isAtEnd
    guard index < count else { return more ? .needsMore(openQuoteLine: nil) : .endOfFile }
    let start = index
    recordLine = line
    func needsMore(_ openQuoteLine: Int?) -> Scan {
      index = start
      line = recordLine
      return .needsMore(openQuoteLine: openQuoteLine)
    }
    while true {
      if index < count && bytes[index] == Self.quote {
        let openLine = line
        var i = index + 1
        var escaped = false
        while true {
          guard i < count else {
            if more { return needsMore(openLine) }
            throw failure(nil, "unterminated quoted field starting on line \(openLine)")
          }
          let byte = bytes[i]
          if byte == Self.quote {
            if i + 1 < count {
              if bytes[i + 1] == Self.quote {
                escaped = true
                i += 2
                continue
              }
            } else if more {
              return needsMore(openLine)
            }
            break
          }
          if byte == Self.lf { line += 1 }
          i += 1
        }
        add(Field(start: index + 1, end: i, line: openLine, quoted: true, escaped: escaped))
        i += 1
        if i >= count {
          if more { return needsMore(nil) }
          index = i
          return .record
        }
        let next = bytes[i]
        if next == Self.comma {
          index = i + 1
        } else if next == Self.lf {
          index = i + 1
          line += 1
          return .record
        } else if next == Self.cr && i + 1 < count && bytes[i + 1] == Self.lf {
          index = i + 2
          line += 1
          return .record
        } else if next == Self.cr && i + 1 == count && more {
          return needsMore(nil)
        } else {
          throw failure(
            line, "unexpected \(describe(at: i)) after a closing quote (write a quote inside a quoted field as \"\")")
        }
      } else {
        let i = Self.commaOrLineFeed(in: bytes, from: index, to: count)
        if i == count && more { return needsMore(nil) }
        var end = i
        if end > index && bytes[end - 1] == Self.cr && (i == count || bytes[i] == Self.lf) { end -= 1 }
        add(Field(start: index, end: end, line: line, quoted: false, escaped: false))
        if i < count && bytes[i] == Self.comma {
          index = i + 1
          continue
        }
        index = i == count ? i : i + 1
        line += 1
        return .record
      }
    }
  }

  /// The index of the first comma or line feed in `bytes[start..<end]`, else `end`: eight
  /// bytes at a time (an unquoted field is most of a file), then byte by byte.
  private static func commaOrLineFeed(in bytes: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int) -> Int
  {
    guard let base = bytes.baseAddress else { return end }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var i = start
    while i + 8 <= end {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
      // A zero byte of `word ^ pattern` is a byte equal to the pattern's: the classic test
      // for a zero byte (`(x - 0x01…) & ~x & 0x80…`) marks the first one exactly.
      let commas = word ^ (ones &* UInt64(comma))
      let feeds = word ^ (ones &* UInt64(lf))
      let found = ((commas &- ones) & ~commas | (feeds &- ones) & ~feeds) & highs
      if found != 0 { return i + found.trailingZeroBitCount / 8 }
      i += 8
    }
    while i < end && bytes[i] != comma && bytes[i] != lf { i += 1 }
    return i
  }

  // MARK: - Fields

  /// The field's bytes, `""` pairs unescaped in place, checked as UTF-8.
  private mutating func utf8(_ field: Field) throws(LibraryError) -> UnsafeBufferPointer<UInt8> {
    var end = field.end
    if field.escaped {
      // Read `""` as `"`, writing over the field itself: the result is never longer.
      var from = field.start
      end = field.start
      while from < field.end {
        let byte = bytes[from]
        bytes[end] = byte
        end += 1
        from += byte == Self.quote ? 2 : 1
      }
    }
    let slice = UnsafeBufferPointer(rebasing: bytes[field.start..<end])
    guard Self.isUTF8(slice) else { throw invalidUTF8(slice, from: field.line) }
    return slice
  }

  /// Whether the bytes are UTF-8. ASCII, the common case, is checked without decoding.
  static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var high: UInt8 = 0
    for byte in bytes { high |= byte }
    return high < 0x80 || String(validating: bytes, as: UTF8.self) != nil
  }

  /// The bytes as a `String`, or nil when they are not UTF-8. ASCII, the common
  /// case, skips the generic validating initialiser, which is several times slower.
  static func makeString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var high: UInt8 = 0
    for byte in bytes { high |= byte }
    return high < 0x80 ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
  }

  /// A year read from the bytes directly: no `String` unless it is wrong.
  private mutating func year(_ field: Field) throws(LibraryError) -> Int? {
    var start = field.start
    var end = field.end
    while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
    if start == end { return nil }
    if !field.escaped && end - start <= 4 {
      var value = 0
      var digits = true
      for i in start..<end {
        let byte = bytes[i]
        guard byte >= 0x30 && byte <= 0x39 else {
          digits = false
          break
        }
        value = value * 10 + Int(byte - 0x30)
      }
      if digits { return value }
    }
    return try Album.parseYear(String(decoding: utf8(field), as: UTF8.self))
  }

  // MARK: - Errors

  private func failure(_ line: Int?, _ reason: String) -> LibraryError {
    .invalidArchive(file: input.name, line: line, reason: reason)
  }

  /// A record longer than ``ArchiveInput/maximumRecordBytes``: in a quoted field, most
  /// likely a missing closing quote; in a column with a length limit, that limit.
  private func recordTooLong(openQuoteLine: Int?) -> LibraryError {
    let most = "longer than \(input.maximumRecordText), the most import reads at once"
    if let openQuoteLine {
      return failure(nil, "quoted field starting on line \(openQuoteLine) is \(most) (is its closing quote missing?)")
    }
    return failure(recordLine, "row is \(most)")
  }

  /// Names the line holding the first invalid byte: multi-byte UTF-8 never contains LF.
  private func invalidUTF8(_ slice: UnsafeBufferPointer<UInt8>, from firstLine: Int) -> LibraryError {
    var badLine = firstLine
    for piece in slice.split(separator: Self.lf, omittingEmptySubsequences: false) {
      if String(validating: piece, as: UTF8.self) == nil { break }
      badLine += 1
    }
    return failure(nil, "invalid UTF-8 on line \(badLine)")
  }

  private func describe(at i: Int) -> String {
    let byte = bytes[i]
    return byte >= 0x20 && byte < 0x7F
      ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }
}
