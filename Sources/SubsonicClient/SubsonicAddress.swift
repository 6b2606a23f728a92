import BlueSystem
import BlueText

/// Where a Subsonic server is and whose library is browsed: `https://USER@HOST[:PORT][/PATH]`,
/// as `--subsonic` takes it. `http:` is taken only for this machine (`127.0.0.1`,
/// `localhost`, `::1`): anywhere else the password, or the token made from it, would cross
/// the network in clear. The password never goes in it (`BLUELIB_SUBSONIC_PASSWORD`, or asked
/// for on the terminal); with an API key (`BLUELIB_SUBSONIC_API_KEY`) the user may go too.
package struct SubsonicAddress: Sendable, Equatable, CustomStringConvertible {
  /// `https` or `http`.
  package var scheme: String
  /// The user whose library it is; nil with an API key alone.
  package var user: String?
  /// The host name or address (an IPv6 address without its brackets).
  package var host: String
  /// The port: given, else 443 (`https`) or 80 (`http`).
  package var port: Int
  /// The path the API lives under, without a trailing slash (`/music`), empty for none: its
  /// requests go to `PATH/rest/METHOD`.
  package var path: String

  /// The longest host name: DNS's limit (RFC 1035).
  static let longestHost = 253
  /// The longest user name and path taken.
  static let longestPart = 256

  /// Reads `text` (`--subsonic`'s value).
  ///
  /// - Throws: ``SubsonicAddressError`` naming what is wrong with it.
  package init(_ text: String) throws(SubsonicAddressError) {
    func refuse(_ reason: String) -> SubsonicAddressError { SubsonicAddressError(value: text, reason: reason) }
    guard let separator = text.firstRange(of: "://") else {
      throw refuse("not a URL (https://USER@HOST[:PORT][/PATH])")
    }
    let scheme = text[..<separator.lowerBound].lowercased()
    guard scheme == "https" || scheme == "http" else { throw refuse("only https (or http on this machine)") }
    var rest = Substring(text[separator.upperBound...])
    guard !rest.contains("?"), !rest.contains("#") else { throw refuse("no query or fragment") }
    guard !rest.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
      throw refuse("no blanks or control characters")
    }
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    var authority = rest[..<slash]
    rest = rest[slash...]
    var user: String?
    if let at = authority.lastIndex(of: "@") {
      let given = authority[..<at]
      guard !given.contains(":") else {
        throw refuse("the password goes in BLUELIB_SUBSONIC_PASSWORD (or is asked for), never in the URL")
      }
      guard !given.isEmpty, given.utf8.count <= Self.longestPart, let decoded = given.percentDecoded else {
        throw refuse("no user before '@'")
      }
      user = decoded
      authority = authority[authority.index(after: at)...]
    }
    var host: Substring
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw refuse("an IPv6 address needs its ']'") }
      host = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw refuse("no host") }
        portText = after.dropFirst()
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      portText = authority[authority.index(after: colon)...]
    } else {
      host = authority
    }
    guard !host.isEmpty else { throw refuse("no host") }
    guard host.utf8.count <= Self.longestHost else { throw refuse("a host name is at most 253 bytes") }
    var port = scheme == "https" ? 443 : 80
    if let portText {
      guard let number = Int(portText), (1...65535).contains(number), portText.allSatisfy(\.isASCII) else {
        throw refuse("'\(TextSanitizer.escaped(String(portText)))' is not a port (1-65535)")
      }
      port = number
    }
    let lowered = host.lowercased()
    if scheme == "http", !["127.0.0.1", "localhost", "::1"].contains(lowered) {
      throw refuse("http only for this machine (127.0.0.1, localhost): https anywhere else")
    }
    var path = String(rest)
    while path.hasSuffix("/") { path.removeLast() }
    guard path.utf8.count <= Self.longestPart else { throw refuse("a path is at most 256 bytes") }
    self.scheme = scheme
    self.user = user
    self.host = lowered
    self.port = port
    self.path = path
  }

  /// `scheme://host:port`: the one origin bluelib asks, and libmpv plays from.
  package var origin: String {
    let bracketed = host.contains(":") ? "[" + host + "]" : host
    return "\(scheme)://\(bracketed):\(port)"
  }

  /// `origin` and the path: what `/rest/METHOD` follows.
  package var base: String { origin + path }

  /// `USER@HOST:PORT/PATH` (the user's `@` and `/` percent-encoded): the authority of the
  /// `subsonic:` URLs the library files the server's albums and covers under.
  package var authority: String {
    let bracketed = host.contains(":") ? "[" + host + "]" : host
    let name = user.map { Self.encoded($0) + "@" } ?? ""
    return name + bracketed + ":\(port)" + path
  }

  /// `https://admin@music.example.org:443/music`.
  package var description: String {
    let bracketed = host.contains(":") ? "[" + host + "]" : host
    return "\(scheme)://" + (user.map { $0 + "@" } ?? "") + bracketed + ":\(port)" + path
  }

  /// `text` with `%`, `@`, `/`, `:` and what is not printable ASCII percent-encoded.
  static func encoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      if byte > 0x20 && byte < 0x7F && !"%@/:?#[]".utf8.contains(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return out
  }
}

/// Why `--subsonic`'s value is no server's address: `--subsonic 'ftp://x': only https (or
/// http on this machine)`.
package struct SubsonicAddressError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The value given.
  package var value: String
  /// What is wrong with it.
  package var reason: String

  package var description: String { "--subsonic '\(TextSanitizer.escaped(value))': \(reason)" }
}

extension String {
  /// `self` with zeros in front, `width` characters at least.
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
