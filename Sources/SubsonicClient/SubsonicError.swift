import BlueCovers
import BlueSystem
import BlueText
import FoundationEssentials
import MusicSource

/// Why a request to a Subsonic server failed, as one line naming the server and the cause:
/// `Subsonic at admin@127.0.0.1:4040: wrong username or password (error 40)`. What the server
/// said is escaped and cut to ``longestMessage`` characters: it reaches the terminal.
package struct SubsonicError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  package enum Reason: Sendable, Equatable {
    /// The server answered `status: failed` with this code and message (raw: escaped in
    /// ``description``).
    case failed(code: Int, message: String)
    /// The server could not be reached, or the transfer failed (libcurl's words, through
    /// BlueCovers' HTTP).
    case transport(CoverFailure)
    /// An HTTP status other than 2xx.
    case httpStatus(Int)
    /// An answer that is not Subsonic's (not JSON, no `subsonic-response`, too large).
    case badAnswer(String)
    /// Stopped (Ctrl-C) while it waited.
    case interrupted
  }

  /// How the server is named: `Subsonic at admin@127.0.0.1:4040`.
  package var server: String
  package var reason: Reason

  /// The most characters of a server's message shown.
  static let longestMessage = 200

  package init(server: String, _ reason: Reason) {
    self.server = server
    self.reason = reason
  }

  /// The Subsonic error code, when the server answered with one.
  package var code: Int? {
    if case .failed(let code, _) = reason { code } else { nil }
  }

  /// Whether the server answered and refused (asking again changes nothing), rather than
  /// could not be reached.
  package var isRefusal: Bool {
    switch reason {
    case .failed, .httpStatus: true
    case .transport, .badAnswer, .interrupted: false
    }
  }

  package var description: String { server + ": " + cause }

  /// The cause alone: `wrong username or password (error 40)`.
  package var cause: String {
    switch reason {
    case .failed(let code, let message):
      let said = Self.said(message)
      let known: String? =
        switch code {
        case 10: "a required parameter is missing"
        case 20: "the server is newer than this client's protocol (1.16.1)"
        case 30: "the server is older than this client's protocol (1.16.1)"
        case 40: "wrong username or password"
        case 41: "the server takes no token authentication"
        case 42: "the server takes no such authentication"
        case 43: "an API key cannot go with a user name or password"
        case 44: "the API key is not valid"
        case 50: "the user may not do that"
        case 60: "the server's trial period is over"
        case 70: "not found"
        default: nil
        }
      guard let known else { return (said.isEmpty ? "the request failed" : said) + " (error \(code))" }
      let lowered = said.lowercased()
      // The server's words when they say more than the code's own.
      // (The credentials' codes say it all; a server's own words would only say it again.)
      let extra = said.isEmpty || (40...44).contains(code) || lowered.hasPrefix(known.lowercased()) ? "" : ": " + said
      return known + extra + " (error \(code))"
    case .transport(let failure):
      switch failure {
      case .connectionRefused: return "cannot connect: connection refused"
      case .unresolvableHost(let host): return "cannot connect: no such host \(TextSanitizer.escaped(host))"
      case .timedOut(let seconds): return "no answer within \(Self.seconds(seconds))"
      case .tlsFailure(_, let reason):
        return "TLS: " + (reason ?? "the secure connection failed")
          + (reason == "certificate not trusted" ? " (the system's authorities do not vouch for it)" : "")
      case .cancelled: return "interrupted"
      default: return TextSanitizer.escaped(failure.description)
      }
    case .httpStatus(let status):
      switch status {
      case 401, 403: return "wrong username or password (HTTP \(status))"
      case 404: return "no Subsonic API there (HTTP 404)"
      default: return "HTTP \(status)"
      }
    case .badAnswer(let why): return "not a Subsonic answer (\(TextSanitizer.escaped(why)))"
    case .interrupted: return "interrupted"
    }
  }

  /// What a server said, escaped and cut.
  static func said(_ message: String) -> String {
    let cut = message.count > longestMessage ? String(message.prefix(longestMessage)) + "…" : message
    return TextSanitizer.escaped(cut.trimming(.whitespacesAndNewlines))
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  /// As the seam says it.
  var sourceError: SourceError { SourceError(description, refused: isRefusal) }
}
