import BlueSystem

/// Where an MPD server listens and the password to give it, read as mpc reads them:
/// `HOST[:PORT]`, a socket's path (`/run/mpd/socket`, or `@name` in the abstract
/// namespace), `PASSWORD@` in front of either; `MPD_HOST` and `MPD_PORT` when nothing is
/// given; `localhost:6600` when neither says.
package struct MPDAddress: Sendable, Equatable, CustomStringConvertible {
  /// How to reach the server.
  package enum Endpoint: Sendable, Equatable {
    /// A host name or address and a TCP port.
    case tcp(host: String, port: Int)
    /// A Unix-domain socket: a path, or `@name` in Linux's abstract namespace.
    case socket(String)
  }

  /// The port MPD listens on unless told.
  package static let defaultPort = 6600
  /// The longest host name: DNS's limit (RFC 1035).
  package static let longestHost = 253

  /// How to reach the server.
  package var endpoint: Endpoint
  /// The password sent once connected (`password PASSWORD`), if one was given.
  package var password: String?

  /// An address with every field given.
  package init(endpoint: Endpoint, password: String? = nil) {
    self.endpoint = endpoint
    self.password = password
  }

  /// The address `given` names (the value of `--mpd`; nil or empty for the environment's),
  /// completed from `MPD_HOST` and `MPD_PORT` in `environment`.
  ///
  /// - Throws: ``MPDAddressError`` naming the word that is not an address.
  package static func resolve(_ given: String?, environment: [String: String]) throws(MPDAddressError) -> MPDAddress {
    let text = given.flatMap { $0.isEmpty ? nil : $0 } ?? environment["MPD_HOST"].flatMap { $0.isEmpty ? nil : $0 }
    let source = given.flatMap { $0.isEmpty ? nil : $0 } != nil ? "--mpd" : "MPD_HOST"
    var port = defaultPort
    if let value = environment["MPD_PORT"], !value.isEmpty {
      guard let number = Int(value), (1...65535).contains(number) else {
        throw MPDAddressError(source: "MPD_PORT", value: value, reason: "not a port (1-65535)")
      }
      port = number
    }
    guard var rest = text else { return MPDAddress(endpoint: .tcp(host: "localhost", port: port)) }
    var password: String?
    // `PASSWORD@HOST`, split at the first `@` as libmpdclient does, but not `@name`: an
    // abstract socket has nothing before its `@`.
    if !rest.hasPrefix("@"), let at = rest.firstIndex(of: "@") {
      password = String(rest[..<at])
      rest = String(rest[rest.index(after: at)...])
    }
    if rest.hasPrefix("/") || rest.hasPrefix("@") {
      guard rest.utf8.count < 108 else {
        throw MPDAddressError(source: source, value: rest, reason: "a socket's path is at most 107 bytes")
      }
      return MPDAddress(endpoint: .socket(rest), password: password)
    }
    var host = rest
    if rest.hasPrefix("[") {
      // `[::1]` or `[::1]:6601`.
      guard let close = rest.firstIndex(of: "]") else {
        throw MPDAddressError(source: source, value: rest, reason: "no ']' after the IPv6 address")
      }
      host = String(rest[rest.index(after: rest.startIndex)..<close])
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":"), let number = Int(after.dropFirst()), (1...65535).contains(number) else {
          throw MPDAddressError(source: source, value: rest, reason: "not a port (1-65535) after the address")
        }
        port = number
      }
    } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
      host = String(rest[..<colon])
      let number = rest[rest.index(after: colon)...]
      guard let value = Int(number), (1...65535).contains(value) else {
        throw MPDAddressError(
          source: source, value: rest,
          reason: "\(TextSanitizer.quotedWord(String(number), limit: 20)) is not a port (1-65535)")
      }
      port = value
    }
    guard host.utf8.count <= longestHost else {
      throw MPDAddressError(source: source, value: rest, reason: "a host name is at most \(longestHost) bytes")
    }
    guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
      throw MPDAddressError(source: source, value: rest, reason: "not a host name, an address or a socket's path")
    }
    return MPDAddress(endpoint: .tcp(host: host, port: port), password: password)
  }

  /// `127.0.0.1:6600`, `[::1]:6600`, `/run/mpd/socket`: how lines name the server (never
  /// the password).
  package var description: String {
    switch endpoint {
    case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    case .socket(let path): path
    }
  }

  /// The address as the authority of a URL (`127.0.0.1:6600`; a socket's path with its
  /// slashes and other reserved bytes percent-encoded), which track paths and cover URLs
  /// start with after `mpd://`.
  package var authority: String {
    var out = ""
    for byte in description.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }
}

/// An `--mpd`, `MPD_HOST` or `MPD_PORT` that is not an address.
package struct MPDAddressError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Where the value came from: `--mpd`, `MPD_HOST`, `MPD_PORT`.
  package var source: String
  package var value: String
  package var reason: String

  /// `MPD_PORT 'abc': not a port (1-65535)`; the value escaped, and cut after 60 characters.
  package var description: String { "\(source) \(TextSanitizer.quotedWord(value, limit: 60)): \(reason)" }
}
