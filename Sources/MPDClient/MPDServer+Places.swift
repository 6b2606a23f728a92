import MusicSource

// Where a server's songs are filed in the library (``SourceTrack/path``), and back. MPD's
// URIs are paths under its music folder, filed as they are. Mopidy-Local's are
// `local:track:` and the path percent-encoded (`local:track:Pink%20Floyd/The%20Wall/CD1/01.flac`):
// they are filed decoded in a folder of that name (`local:track:/Pink Floyd/The Wall/CD1/01.flac`),
// so an album's folder, its title when it has no album tag (the folder's name), and a query
// of its folder read as the files' names do, and the place alone says how to write its URI
// again, with no state: a place in `local:track:/` is decoded, any other is the URI itself.
extension MPDServer {
  /// What Mopidy-Local's songs' URIs start with.
  static let localTrackPrefix = "local:track:"

  /// Where the song `uri` is filed: `uri`, but for a `local:track:` URI, `local:track:/` and
  /// its path decoded, when the path is exactly what Mopidy-Local writes for the decoded one
  /// (Python's `urllib.parse.quote`); otherwise (a file name that is not UTF-8) the URI.
  static func place(ofURI uri: String) -> String {
    guard uri.hasPrefix(localTrackPrefix) else { return uri }
    let path = uri.utf8.dropFirst(localTrackPrefix.utf8.count)
    guard let decoded = percentDecoded(Substring(path)), quoted(decoded).elementsEqual(path) else { return uri }
    return localTrackPrefix + "/" + decoded
  }

  /// The URI of the song filed at `place` (``place(ofURI:)`` undone).
  static func uri(ofPlace place: String) -> String {
    guard place.hasPrefix(localTrackPrefix + "/") else { return place }
    return localTrackPrefix
      + String(decoding: quoted(String(place.utf8.dropFirst(localTrackPrefix.utf8.count + 1))!), as: UTF8.self)
  }

  /// The bytes Python's `urllib.parse.quote` leaves as they are (its `safe` being `/`).
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"),
      UInt8(ascii: "~"), UInt8(ascii: "/"):
      true
    default: false
    }
  }

  /// `text` as Python's `urllib.parse.quote` writes it: each byte but the unreserved ones
  /// and `/` as `%XX`, in capitals.
  static func quoted(_ text: String) -> [UInt8] {
    let digits = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if isUnreserved(byte) {
        bytes.append(byte)
      } else {
        bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
      }
    }
    return bytes
  }
}
