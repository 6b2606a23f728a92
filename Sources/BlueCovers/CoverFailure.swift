import BlueSystem

/// Why a cover could not be loaded; `description` is the reason a status line shows.
package enum CoverFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The server answered with a status outside 200...299: `HTTP 404`.
  case httpStatus(Int)
  /// The host name did not resolve: `could not resolve host example.invalid`.
  case unresolvableHost(String)
  /// No complete answer within the configured timeout: `timed out after 15 s`.
  case timedOut(seconds: Double)
  /// The bytes are not a PNG, JPEG, GIF or WebP image: `not an image`.
  case notAnImage
  /// Starts like an image but does not decode (a truncated or corrupt file), with why.
  case unreadableImage(String)
  /// The cover is larger than the configured cap: `larger than 10 MiB`.
  case tooLarge(maxBytes: Int)
  /// The connection was refused: `cannot connect to 127.0.0.1:8080`.
  case connectionRefused(host: String, port: Int)
  /// The server hung up before the whole answer arrived:
  /// `connection closed by 127.0.0.1:8080 before the answer was complete`.
  case connectionClosed(host: String, port: Int)
  /// libcurl stopped reading an answer whose head was larger than it takes, with its limit
  /// in bytes when it said it: `the answer's headers from 127.0.0.1:8080 are larger than 300 KiB`.
  case headersTooLarge(host: String, port: Int, limit: Int?)
  /// libcurl refused a chunked body's framing (a chunk size that is no number, or too
  /// long a one), with its words: `bad chunked encoding from 127.0.0.1:8080 (illegal or
  /// missing hexadecimal sequence in chunked-encoding)`.
  case badChunkedEncoding(host: String, port: Int, detail: String)
  /// The TLS handshake failed, with why if known:
  /// `TLS handshake with covers.example failed: certificate not trusted`.
  case tlsFailure(host: String, reason: String?)
  /// A redirect went somewhere a cover may not come from, with why:
  /// `redirect to file:///etc/passwd refused (only http and https)`.
  case redirectRefused(String, reason: String)
  /// More redirects than allowed in a row: `too many redirects (more than 5)`.
  case tooManyRedirects(max: Int)
  /// A `file:` or bundled cover does not exist: `no such file /tmp/cover.png`.
  case noSuchFile(String)
  /// No cover source handles the URL, or it is malformed: `unsupported URL gopher://x`.
  case unsupportedURL(String)
  /// The URL names something no connection can reach, with why:
  /// `bad URL http://127.0.0.1:65536/x.png (port 65536 is out of range)`.
  case badURL(String, reason: String)
  /// The download was cancelled before it finished: `cancelled`.
  case cancelled
  /// Anything else, with a short lowercase reason: `download failed: connection lost`.
  case downloadFailed(String)
  /// HTTP downloads cannot run on this machine: libcurl, loaded at the first one, could not
  /// be, with why and what to install: `cannot load libcurl (libcurl.so.4: cannot open shared
  /// object file: No such file or directory); to download covers, install libcurl (Debian:
  /// apt install libcurl4)`.
  case httpUnavailable(String)
  /// A local cover (a file, a picture in a track) could not be read, with why:
  /// `permission denied /music/A/cover.jpg`. Nothing was downloaded, so no word of it.
  case unreadableFile(String)
  /// The Cover Art Archive has no front cover for the release or its release group:
  /// `none in the Cover Art Archive (release 76df3287, release group 1e0eee38)`, the ids
  /// cut to their first eight digits (`show` has them whole).
  case notInArchive(release: String?, group: String?)
  /// A music server has no picture for the song and no cover file beside it:
  /// `none on MPD at 127.0.0.1:6600 (no picture in 01.flac, no cover file in its folder)`;
  /// with no song (a Subsonic server, asked by cover id), `none on Subsonic at …`.
  case noneOnServer(server: String, song: String)

  /// The user-facing reason, as a status line shows it: whatever a server, a file or a
  /// library sent (a `Location`, libcurl's words about an answer, a song's path) is quoted
  /// with its control characters escaped, so no printer can forget to.
  package var description: String {
    TextSanitizer.escaped(text)
  }

  private var text: String {
    switch self {
    case .httpStatus(let code): "HTTP \(code)"
    case .unresolvableHost(let host): "could not resolve host \(host)"
    case .timedOut(let seconds): "timed out after \(Self.format(seconds: seconds))"
    case .notAnImage: "not an image"
    case .unreadableImage(let reason): "not a readable image: \(reason)"
    case .tooLarge(let maxBytes): "larger than \(Self.format(bytes: maxBytes))"
    case .connectionRefused(let host, let port): "cannot connect to \(host):\(port)"
    case .connectionClosed(let host, let port): "connection closed by \(host):\(port) before the answer was complete"
    case .headersTooLarge(let host, let port, let limit):
      "the answer's headers from \(host):\(port) are larger than "
        + (limit.map { Self.format(bytes: $0) } ?? "libcurl takes")
    case .badChunkedEncoding(let host, let port, let detail): "bad chunked encoding from \(host):\(port) (\(detail))"
    case .tlsFailure(let host, let reason): "TLS handshake with \(host) failed" + (reason.map { ": " + $0 } ?? "")
    case .redirectRefused(let url, let reason): "redirect to \(url) refused (\(reason))"
    case .tooManyRedirects(let max): "too many redirects (more than \(max))"
    case .noSuchFile(let path): "no such file \(path)"
    case .unsupportedURL(let url): "unsupported URL \(url)"
    case .badURL(let url, let reason): "bad URL \(url) (\(reason))"
    case .cancelled: "cancelled"
    case .downloadFailed(let reason): "download failed: \(reason)"
    case .httpUnavailable(let reason): "\(reason); \(Self.installHint)"
    case .unreadableFile(let reason): reason
    case .noneOnServer(let server, let song) where song.isEmpty:
      "none on \(server)"
    case .noneOnServer(let server, let song):
      "none on \(server) (no picture in \(song.split(separator: "/").last.map(String.init) ?? song), no cover file in its folder)"
    case .notInArchive(let release, let group):
      "none in the Cover Art Archive ("
        + [release.map { "release \($0.prefix(8))" }, group.map { "release group \($0.prefix(8))" }].compactMap { $0 }
        .joined(separator: ", ") + ")"
    }
  }

  /// What to install where HTTP downloads cannot run (``httpUnavailable(_:)``).
  static let installHint = "to download covers, install libcurl (Debian: apt install libcurl4)"

  /// `15 s` for whole seconds (the usual configuration), `0.5 s` otherwise.
  static func format(seconds: Double) -> String {
    if seconds.isFinite, seconds == seconds.rounded(), abs(seconds) < 1e15 {
      return "\(Int(seconds)) s"
    }
    return "\(seconds) s"
  }

  /// `10 MiB`, `512 KiB` or `1000 bytes`: the largest unit that divides the cap exactly.
  static func format(bytes: Int) -> String {
    if bytes > 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes > 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}
