import FoundationEssentials

/// The cover URLs of albums imported from a music folder: local files the cover sources
/// read without a network, and that the shell reads into the cover cache when it first
/// needs them (no `download`).
///
/// - A cover image beside the tracks is a `file:` URL: `file:///home/me/Music/A/cover.jpg`.
/// - A picture embedded in an audio file is `embedded:` followed by the file URL of the
///   track: `embedded:file:///home/me/Music/A/01%20Intro.mp3` (``EmbeddedCoverSource``
///   reads it with TagLib).
///
/// Paths are percent-encoded: every byte but ASCII letters, digits, `-._~` and `/`, so a
/// URL never holds a blank or a control character.
package enum LocalCover {
  /// The scheme of a picture embedded in an audio file.
  package static let embeddedScheme = "embedded"

  /// Whether `url` names a local cover (`file:` or `embedded:`), which the shell reads
  /// into the cache when it needs it instead of waiting for `download`.
  package static func isLocal(_ url: String) -> Bool {
    var url = url
    return url.withUTF8 { isLocal($0) }
  }

  /// ``isLocal(_:)`` of a URL's UTF-8 bytes (a row of `list`): its scheme, before the first
  /// colon, is `file` or `embedded` in any case.
  package static func isLocal(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
    // The schemes as static bytes: a `String`'s UTF-8 view is walked through generic code,
    // and every imported album asks (a local cover may be longer).
    func hasScheme(_ scheme: StaticString) -> Bool {
      let count = scheme.utf8CodeUnitCount
      guard url.count > count, url[count] == UInt8(ascii: ":") else { return false }
      let expected = scheme.utf8Start
      for index in 0..<count where url[index] | 0x20 != expected[index] { return false }
      return true
    }
    return hasScheme("file") || hasScheme("embedded")
  }

  /// A local cover as a person reads it: `embedded in 01 Track 1.mp3`, `folder image
  /// cover.jpg` (an image in the album's `folder`, by its path there); nil for any other URL,
  /// which is shown as it is. The percent-encoded URL stays what `export` writes.
  package static func shortDescription(of url: String, folder: String?) -> String? {
    guard isLocal(url), let path = try? path(of: url) else { return nil }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    if coverURLScheme(url) == embeddedScheme { return "embedded in \(name)" }
    guard let folder, path.hasPrefix(folder + "/") else { return nil }
    return "folder image " + path.dropFirst(folder.count + 1)
  }

  /// The file a local cover URL names: the image, or the audio file embedding the picture.
  package static func path(of url: String) throws(CoverFailure) -> String {
    coverURLScheme(url) == embeddedScheme ? try EmbeddedCoverSource.path(of: url) : try FileCoverSource.path(of: url)
  }

  /// `file://` and the percent-encoded absolute `path`.
  package static func fileURL(_ path: String) -> String {
    "file://" + percentEncoded(path)
  }

  /// `path` with every byte but letters, digits, `-._~` and `/` percent-encoded.
  package static func percentEncoded(_ path: String) -> String {
    let hex: StaticString = "0123456789ABCDEF"
    var path = path
    // Written as bytes into the string's own storage: appended a scalar at a time, a
    // server's cover URLs cost some 40,000 instructions an album.
    return path.withUTF8 { bytes in
      String(unsafeUninitializedCapacity: bytes.count * 3) { url in
        var count = 0
        for byte in bytes {
          switch byte {
          case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "/"):
            url[count] = byte
            count += 1
          default:
            url[count] = UInt8(ascii: "%")
            url[count + 1] = hex.utf8Start[Int(byte >> 4)]
            url[count + 2] = hex.utf8Start[Int(byte & 0xF)]
            count += 3
          }
        }
        return count
      }
    }
  }
}
