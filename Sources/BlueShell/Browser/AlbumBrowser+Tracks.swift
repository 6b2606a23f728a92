import AlbumModel
import BlueLibrary
import BlueSystem

extension AlbumBrowser {
  /// What `show` prints for `album`: its `Field: value` rows (an edited field marked with
  /// what the files say), then, for an album from a music
  /// folder, its discs and MusicBrainz ids and its track list, in disc and track order, a
  /// `Disc N` line where each disc of several starts.
  func showLines(for album: Album) -> [String] {
    var lines = detailLines(for: album, filesSay: try? library.filesSay(of: album))
    let found: Tracklist?
    do {
      found = try library.tracklist(of: album)
    } catch {
      // A server's album whose tracks could not be asked for: said, the rest shown.
      return lines + [style.bold("Tracks:") + " " + TextSanitizer.escaped(String(describing: error))]
    }
    guard let tracklist = found else { return lines }
    var rows: [(String, String)] = []
    if tracklist.missing {
      rows.append(("Files", "gone: the last import found none of them (import their folder when they are back)"))
    }
    if tracklist.discs > 1 { rows.append(("Discs", String(tracklist.discs))) }
    if !tracklist.format.isEmpty { rows.append(("Format", tracklist.format)) }
    if let bitrate = tracklist.bitrate { rows.append(("Bitrate", "\(bitrate) kb/s")) }
    if let rates = tracklist.sampleRates { rows.append(("Sample rate", Self.sampleRates(rates))) }
    if !tracklist.composer.isEmpty { rows.append(("Composer", tracklist.composer)) }
    // Another album of the same artist and title: which one this is.
    if let twin = try? library.twinLabel(of: album) {
      rows.append(("Twin", "\(twin.text) (another album has its artist and title)"))
    }
    if let release = tracklist.musicBrainzAlbumID { rows.append(("MusicBrainz release", release)) }
    if let group = tracklist.musicBrainzReleaseGroupID { rows.append(("MusicBrainz release group", group)) }
    lines += rows.map { style.bold($0.0 + ":") + " " + TextSanitizer.escaped($0.1) }
    guard !tracklist.tracks.isEmpty else { return lines }
    lines.append("")
    lines += Self.trackLines(tracklist, albumArtist: album.artist, style: style)
    return lines
  }

  /// `44.1 kHz`, `44.1–96 kHz`: the lowest and highest sample rate of an album's tracks.
  static func sampleRates(_ rates: ClosedRange<Int>) -> String {
    func kilohertz(_ hertz: Int) -> String {
      let tenths = (hertz + 50) / 100
      return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }
    let low = kilohertz(rates.lowerBound)
    let high = kilohertz(rates.upperBound)
    return (low == high ? low : low + "–" + high) + " kHz"
  }

  /// What a track's file says of the fields you edited: `"Airbg"`, `artist Radiohaed` (or
  /// `no artist`), `number 4`, in that order.
  static func fileSays(_ says: [TrackField: String]) -> String {
    TrackField.allCases.compactMap { field in
      guard let value = says[field] else { return nil }
      switch field {
      case .title: return value.isEmpty ? "no title" : "\"" + TextSanitizer.escaped(value) + "\""
      case .number: return value.isEmpty ? "no number" : "number " + value
      case .artist: return value.isEmpty ? "no artist" : "artist " + TextSanitizer.escaped(value)
      case .albumartist: return value.isEmpty ? "no album artist" : "album artist " + TextSanitizer.escaped(value)
      }
    }.joined(separator: ", ")
  }

  /// One line per track: its number, length and title, and its artist when it is not the
  /// album's (an edited track marked with what its file says); a `Disc N` line before each
  /// disc's first track when there are several.
  static func trackLines(_ tracklist: Tracklist, albumArtist: String, style: TextStyle) -> [String] {
    let numbers = tracklist.tracks.map { $0.number.map(String.init) ?? "" }
    let numberWidth = max(2, numbers.map(\.count).max() ?? 0)
    let lengths = tracklist.tracks.map { Album.length($0.duration) }
    let lengthWidth = lengths.map(\.count).max() ?? 0
    var lines: [String] = []
    var disc: Int?
    for (index, track) in tracklist.tracks.enumerated() {
      if tracklist.discs > 1, track.disc != disc || index == 0 {
        disc = track.disc
        lines.append(style.bold("Disc \(track.disc ?? 1)"))
      }
      var line = String(repeating: " ", count: numberWidth - numbers[index].count + 2) + numbers[index]
      line += "  " + String(repeating: " ", count: lengthWidth - lengths[index].count) + lengths[index]
      line += "  " + TextSanitizer.escaped(track.displayTitle)
      if let artist = track.artist, !artist.isEmpty, artist.lowercased() != albumArtist.lowercased() {
        line += " — " + TextSanitizer.escaped(artist)
      }
      if !track.fileSays.isEmpty { line += " (edited; the file says " + Self.fileSays(track.fileSays) + ")" }
      lines.append(line)
    }
    return lines
  }
}
