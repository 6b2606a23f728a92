import AlbumModel
import BlueSystem
import BlueText

/// A playlist file's entries, in order (`play FILE`, `queue FILE`): M3U and M3U8 (a path or
/// URL a line; `#EXTM3U`, `#EXTINF` and other `#` lines are comments) and PLS (`[playlist]`
/// with `FileN=` entries, in the order of N; `NumberOfEntries`, `TitleN`, `LengthN` are
/// not needed). A relative path is resolved against the playlist's folder, a `file://` URL
/// is its path; any other URL stays as it is (no library track has it).
package enum PlaylistFile {
  /// The largest playlist read: some 100,000 entries of long paths.
  static let largest = 32 << 20

  /// Whether `path` names a playlist by its extension (`.m3u`, `.m3u8`, `.pls`).
  package static func isPlaylist(_ path: String) -> Bool {
    let lowered = path.lowercased()
    return lowered.hasSuffix(".m3u") || lowered.hasSuffix(".m3u8") || lowered.hasSuffix(".pls")
  }

  /// The entries of the playlist at `path`, as absolute paths (or URLs other than `file:`).
  ///
  /// - Throws: ``LibraryError/cannotRead(path:reason:)`` for a file that cannot be read, is
  ///   too large or holds no entry.
  package static func entries(at path: String) throws(LibraryError) -> [String] {
    let data: [UInt8]
    do {
      data = try readFile(atPath: path, atMost: largest)
    } catch {
      throw .cannotRead(path: path, reason: error.reason)
    }
    guard data.count <= largest else {
      throw .cannotRead(path: path, reason: "a playlist of more than \(largest >> 20) MB is not read")
    }
    // M3U8 and PLS are UTF-8; an M3U of older players is Latin-1. A UTF-8 byte-order mark is
    // no part of the text, whichever it is: dropped before, or Latin-1 would read it `ï»¿`.
    let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data[3...] : data[...]
    let text =
      String(validating: body, as: UTF8.self)
      ?? String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
    let folder = PathText.directory(of: path)
    let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map {
      $0.trimming(.whitespaces)
    }
    let isPLS =
      path.lowercased().hasSuffix(".pls") || lines.first { !$0.isEmpty }?.lowercased() == "[playlist]"
    let raw = isPLS ? Self.plsEntries(lines) : lines.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    let entries = raw.map { Self.resolved($0, in: folder) }
    guard !entries.isEmpty else {
      throw .cannotRead(path: path, reason: "it lists no tracks (an M3U or PLS playlist?)")
    }
    return entries
  }

  /// The `FileN=` values of a PLS, in the order of N.
  static func plsEntries(_ lines: [String]) -> [String] {
    var files: [(number: Int, value: String)] = []
    for line in lines {
      guard let equals = line.firstIndex(of: "="), line.lowercased().hasPrefix("file") else { continue }
      guard let number = Int(line[line.index(line.startIndex, offsetBy: 4)..<equals]) else { continue }
      let value = line[line.index(after: equals)...].trimming(.whitespaces)
      if !value.isEmpty { files.append((number, value)) }
    }
    return files.sorted { $0.number < $1.number }.map(\.value)
  }

  /// An entry as an absolute, standardized path; a `file://` URL as its path; any other URL
  /// as it is.
  static func resolved(_ entry: String, in folder: String) -> String {
    if entry.lowercased().hasPrefix("file://") {
      // file:///music/a%20b.flac, or file://localhost/music/… as some players write it.
      var rest = entry.dropFirst(7)
      if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") { rest = rest[slash...] }
      return PathText.standardized(rest.percentDecoded ?? String(rest))
    }
    if let colon = entry.firstIndex(of: ":"), entry[..<colon].count > 1,
      entry[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    {
      return entry
    }
    let absolute = entry.hasPrefix("/") ? entry : folder + "/" + entry
    return PathText.standardized(absolute)
  }
}
