import AlbumModel

extension LibraryArchive {
  /// The albums as CSV (RFC 4180, CRLF) with the header `title,artist,genre,year,coverUrl`,
  /// which `import` reads back to the same albums. When any album was imported from a
  /// music folder, three more columns follow: `tracks,duration,folder` (empty where unknown).
  ///
  /// A field is quoted when it holds a comma, a quote, a line break or blanks at
  /// either end; control characters are written as they are.
  package static func encodeCSV(_ albums: [Album]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(albums.count * 100 + 40)
    let music = albums.contains { $0.tracks != nil || $0.duration != nil || $0.folder != nil }
    appendCSVHeader(music: music, to: &out)
    for album in albums { appendCSV(album, music: music, to: &out) }
    return out
  }

  /// The header row; with `music`, the three music-folder columns too.
  package static func appendCSVHeader(music: Bool, to out: inout [UInt8]) {
    out.append(
      contentsOf: (music
        ? "title,artist,genre,year,coverUrl,tracks,duration,folder\r\n" : "title,artist,genre,year,coverUrl\r\n").utf8)
  }

  /// One row of ``encodeCSV(_:)``; `export` streams a library of any size through it.
  package static func appendCSV(_ album: Album, music: Bool, to out: inout [UInt8]) {
    appendCSVField(album.title, to: &out)
    out.append(UInt8(ascii: ","))
    appendCSVField(album.artist, to: &out)
    out.append(UInt8(ascii: ","))
    appendCSVField(album.genre, to: &out)
    out.append(UInt8(ascii: ","))
    if let year = album.year { out.append(contentsOf: String(year).utf8) }
    out.append(UInt8(ascii: ","))
    appendCSVField(album.coverURL, to: &out)
    if music {
      out.append(contentsOf: ",\(album.tracks.map(String.init) ?? ""),\(album.duration.map { "\($0)" } ?? ""),".utf8)
      appendCSVField(album.folder ?? "", to: &out)
    }
    out.append(contentsOf: "\r\n".utf8)
  }

  private static func appendCSVField(_ text: String, to out: inout [UInt8]) {
    let utf8 = text.utf8
    let needsQuotes =
      utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
      || utf8.first == 0x20 || utf8.last == 0x20 || utf8.first == 0x09 || utf8.last == 0x09
    guard needsQuotes else {
      out.append(contentsOf: utf8)
      return
    }
    out.append(UInt8(ascii: "\""))
    for byte in utf8 {
      out.append(byte)
      if byte == UInt8(ascii: "\"") { out.append(byte) }
    }
    out.append(UInt8(ascii: "\""))
  }
}
