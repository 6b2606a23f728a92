import BlueSystem
import MusicSource

/// Why a request to an MPD server failed: one line naming the server and what went wrong.
package struct MPDError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  package enum Reason: Sendable, Equatable {
    /// No connection could be made: `connection refused`, `no such file or directory`.
    case cannotConnect(String)
    /// The host name does not resolve.
    case unknownHost(String)
    /// Something answered, but not as MPD greets: its first line.
    case notMPD(String)
    /// No complete answer within the timeout.
    case timedOut(seconds: Double)
    /// The server closed the connection (it stopped or restarted) before the answer ended.
    case closed
    /// The connection failed under the request: `connection reset by peer`.
    case broken(String)
    /// MPD refused the command: its `ACK [code@index] {command} message`.
    case refused(code: Int, command: String, message: String)
    /// The password given was refused (ACK 3 to `password`).
    case wrongPassword
    /// A command needs a password (ACK 4): none was given.
    case needsPassword(command: String)
    /// The answer did not follow the protocol.
    case badAnswer(String)
    /// A signal (Ctrl-C, SIGTERM) stopped the wait.
    case interrupted
    /// A request that cannot be sent: an argument with a line break.
    case badArgument(String)
  }

  /// The server, as ``MPDAddress/description`` names it.
  package var server: String
  package var reason: Reason

  /// An error of `server` for `reason`.
  package init(server: String, _ reason: Reason) {
    self.server = server
    self.reason = reason
  }

  /// `MPD at 127.0.0.1:6600: connection refused`, `MPD at 127.0.0.1:6600 refused 'play 9':
  /// Bad song index`. Every word the server sent (its greeting, an `ACK`'s command and
  /// message, a line quoted from an answer) is escaped (``TextSanitizer``): a server must not
  /// set the terminal's title or clipboard through an error line.
  package var description: String {
    let name = "MPD at \(TextSanitizer.escaped(server))"
    let safe = TextSanitizer.escaped
    switch reason {
    case .cannotConnect(let why): return "\(name): cannot connect: \(safe(why))"
    case .unknownHost(let host): return "\(name): cannot resolve host \(TextSanitizer.quotedWord(host, limit: 60))"
    case .notMPD(let greeting):
      return "\(name) is not an MPD server (it said \(TextSanitizer.quotedWord(greeting, limit: 60)))"
    case .timedOut(let seconds): return "\(name): no answer within \(Self.format(seconds)) (MPD_TIMEOUT)"
    case .closed: return "\(name): the server closed the connection"
    case .broken(let why): return "\(name): the connection failed: \(safe(why))"
    case .refused(let code, let command, let message):
      return "\(name) refused '\(safe(command))': \(safe(message)) (error \(code))"
    case .wrongPassword: return "\(name): wrong password (the one before '@' in MPD_HOST or --mpd)"
    case .needsPassword(let command):
      return "\(name): '\(safe(command))' needs a password (MPD_HOST=PASSWORD@HOST or --mpd PASSWORD@HOST)"
    case .badAnswer(let what): return "\(name): an answer that is not MPD's protocol (\(safe(what)))"
    case .interrupted: return "\(name): stopped waiting for the answer"
    case .badArgument(let why): return "\(name): cannot send the request: \(safe(why))"
    }
  }

  /// Whether the connection can still be used after this error: only a refusal (an ACK)
  /// leaves it in step; after anything else the answer is not known to be over.
  package var leavesConnectionUsable: Bool {
    switch reason {
    case .refused, .wrongPassword, .needsPassword, .badArgument: true
    default: false
    }
  }

  /// Whether this says a password is needed or wrong.
  var isAboutThePassword: Bool {
    switch reason {
    case .wrongPassword, .needsPassword: true
    default: false
    }
  }

  /// Whether this says the server is out of reach (gone, restarting), rather than that it
  /// refused something.
  package var meansServerGone: Bool {
    switch reason {
    case .cannotConnect, .closed, .broken, .timedOut: true
    default: false
    }
  }

  /// The error as the library and its player report it.
  var sourceError: SourceError { SourceError(description, refused: leavesConnectionUsable) }

  /// `15 s`, `0.5 s`.
  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() && seconds < 1e9 ? "\(Int(seconds)) s" : "\(seconds) s"
  }
}
