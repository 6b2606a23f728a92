/// Reads albums from CSV (RFC 4180) straight from the file's bytes.
///
/// A header row names the columns (``ArchiveKey``, any order, `title` required); other
/// columns (exports of other tools have them) are skipped and listed in ``ignoredColumns``.
/// Fields may be quoted, with `""` for a quote and embedded commas and line
/// breaks; records end in LF or CRLF; a UTF-8 byte order mark is skipped and
/// blank lines are ignored. A field becomes a `String` only once, validated as
/// UTF-8 where it lies, so a million rows take a fraction of a second.
struct CSVAlbumDecoder {
  let bytes: UnsafeBufferPointer<UInt8>
  let fileName: String

  private var index = 0
  /// The 1-based line `index` is on.
  private var line = 1
  /// The line the current record starts on, which errors about it name.
  private var recordLine = 1
  /// The current record's fields, reused from record to record.
  private var fields: [Field] = []
  private var scratch: [UInt8] = []
  /// The header's names that are not ``ArchiveKey``s, in order: their fields are skipped.
  private(set) var ignoredColumns: [String] = []

  private struct Field {
    /// The field's bytes, without its quotes.
    var start: Int
    var end: Int
    var line: Int
    var quoted: Bool
    /// Holds `""` pairs to be read as one quote.
    var escaped: Bool
  }

  private static let quote = UInt8(ascii: "\"")
  private static let comma = UInt8(ascii: ",")
  private static let lf = UInt8(ascii: "\n")
  private static let cr = UInt8(ascii: "\r")

  init(bytes: UnsafeBufferPointer<UInt8>, fileName: String) {
    self.bytes = bytes
    self.fileName = fileName
  }

  mutating func decode() throws(LibraryError) -> [Album] {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    let columns = try readHeader()
    var albums: [Album] = []
    albums.reserveCapacity(bytes.count / 64)
    while try nextRecord() {
      if fields.count == 1 && !fields[0].quoted && fields[0].start == fields[0].end { continue }
      guard fields.count == columns.count else {
        throw failure(
          recordLine,
          "expected \(columns.count) field\(columns.count == 1 ? "" : "s") like the header, found \(fields.count)")
      }
      var record = ArchiveRecord()
      for (column, field) in zip(columns, fields) {
        guard let column else { continue }
        switch column {
        case .title: record.title = try string(field)
        case .artist: record.artist = try string(field)
        case .genre: record.genre = try string(field)
        case .coverUrl: record.coverURL = try string(field)
        case .folder:
          let text = try string(field)
          record.folder = text.isEmpty ? nil : text
        case .tracks, .duration:
          // An empty field is no value, as for year.
          let text = try string(field)
          let number = ArchiveKey.trimmed(text)
          if number.isEmpty { continue }
          if column == .tracks, let tracks = ArchiveKey.parseTracks(number) {
            record.tracks = tracks
          } else if column == .duration, let duration = ArchiveKey.parseDuration(number) {
            record.duration = duration
          } else {
            throw failure(recordLine, "'\(column.rawValue)' must be a number, got \(LibraryError.quoted(text))")
          }
        case .year:
          do throws(LibraryError) {
            record.year = try year(field)
          } catch {
            throw failure(recordLine, error.description)
          }
        }
      }
      do throws(LibraryError) {
        albums.append(try record.album(position: albums.count))
      } catch {
        throw failure(recordLine, error.description)
      }
    }
    return albums
  }

  // MARK: - Header

  private mutating func readHeader() throws(LibraryError) -> [ArchiveKey?] {
    var blank = true
    while blank {
      guard try nextRecord() else {
        throw failure(nil, "the file is empty (expected a header row naming \(ArchiveKey.list))")
      }
      blank = fields.count == 1 && !fields[0].quoted && fields[0].start == fields[0].end
    }
    var columns: [ArchiveKey?] = []
    for field in fields {
      let name = try string(field)
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

  /// Reads the next record's fields into `fields`; false at the end of the file.
  private mutating func nextRecord() throws(LibraryError) -> Bool {
    fields.removeAll(keepingCapacity: true)
    let count = bytes.count
    guard index < count else { return false }
    recordLine = line
    while true {
      if index < count && bytes[index] == Self.quote {
        let openLine = line
        var i = index + 1
        var escaped = false
        while true {
          guard i < count else {
            throw failure(nil, "unterminated quoted field starting on line \(openLine)")
          }
          let byte = bytes[i]
          if byte == Self.quote {
            if i + 1 < count && bytes[i + 1] == Self.quote {
              escaped = true
              i += 2
              continue
            }
            break
          }
          if byte == Self.lf { line += 1 }
          i += 1
        }
        fields.append(Field(start: index + 1, end: i, line: openLine, quoted: true, escaped: escaped))
        i += 1
        if i >= count {
          index = i
          return true
        }
        switch bytes[i] {
        case Self.comma:
          index = i + 1
        case Self.lf:
          index = i + 1
          line += 1
          return true
        case Self.cr where i + 1 < count && bytes[i + 1] == Self.lf:
          index = i + 2
          line += 1
          return true
        default:
          throw failure(
            line, "unexpected \(describe(at: i)) after a closing quote (write a quote inside a quoted field as \"\")")
        }
      } else {
        var i = index
        while i < count {
          let byte = bytes[i]
          if byte == Self.comma || byte == Self.lf { break }
          i += 1
        }
        var end = i
        if end > index && bytes[end - 1] == Self.cr && (i == count || bytes[i] == Self.lf) { end -= 1 }
        fields.append(Field(start: index, end: end, line: line, quoted: false, escaped: false))
        if i < count && bytes[i] == Self.comma {
          index = i + 1
          continue
        }
        index = i == count ? i : i + 1
        line += 1
        return true
      }
    }
  }

  // MARK: - Fields

  private mutating func string(_ field: Field) throws(LibraryError) -> String {
    if !field.escaped {
      let slice = UnsafeBufferPointer(rebasing: bytes[field.start..<field.end])
      if let text = Self.makeString(slice) { return text }
      throw invalidUTF8(slice, from: field.line)
    }
    scratch.removeAll(keepingCapacity: true)
    var i = field.start
    while i < field.end {
      let byte = bytes[i]
      scratch.append(byte)
      i += byte == Self.quote ? 2 : 1
    }
    if let text = scratch.withUnsafeBufferPointer(Self.makeString) { return text }
    let copy = scratch
    throw copy.withUnsafeBufferPointer { invalidUTF8($0, from: field.line) }
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
    return try Album.parseYear(string(field))
  }

  // MARK: - Errors

  private func failure(_ line: Int?, _ reason: String) -> LibraryError {
    .invalidArchive(file: fileName, line: line, reason: reason)
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
