import BlueLibrary
import BlueSystem
import ListenBrainz

/// `listenbrainz [status | token [TOKEN] | forget]`: what waits for ListenBrainz, and the
/// token listens are sent with.
struct ListenBrainzCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "listenbrainz", group: .playback, synopsis: "[status | token [TOKEN] | forget]",
    summary: "send what you play to ListenBrainz: what waits, and the token",
    details: """
      With a token (BLUELIB_LISTENBRAINZ_TOKEN, or one kept with 'listenbrainz token
      TOKEN': your user token from https://listenbrainz.org/settings/), each track that
      starts is sent as playing now, and each track played half its length or four minutes
      (whichever comes first) as a listen, from your own files and from a Subsonic
      server's streams (--mpd: the server's own scrobbler does it). Listens are kept in the
      library file first and sent from there, in batches, each once; while the server
      cannot be reached they wait, and go when it answers again, in this shell or the next.
      Alone (or 'status'), says whether a token is set, how many listens wait and the last
      problem. 'token TOKEN' checks the token with the server and keeps it in bluelib's
      home, readable by you alone (mode 0600), never shown whole nor kept in the history;
      'token' shows it masked; 'forget' removes it. BLUELIB_LISTENBRAINZ_URL sends to
      another server of ListenBrainz's API.
      """,
    examples: [
      "listenbrainz", "listenbrainz token 0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d", "listenbrainz token",
      "listenbrainz forget",
    ],
    arguments: [.keyword(["status", "token", "forget"]), .text])

  enum Action: Equatable {
    case status
    case showToken
    case setToken(String)
    case forget
  }

  let action: Action

  init(arguments: [Word]) throws(CommandError) {
    guard let first = arguments.first else {
      action = .status
      return
    }
    let rest = Array(arguments.dropFirst())
    switch first.text.lowercased() {
    case "status", "forget":
      if let extra = rest.first { throw .unexpectedArgument(extra) }
      action = first.text.lowercased() == "status" ? .status : .forget
    case "token":
      if rest.count > 1 { throw .unexpectedArgument(rest[1]) }
      guard let word = rest.first else {
        action = .showToken
        return
      }
      // The token itself is never quoted back: a typo would show most of it.
      guard let token = ListenBrainzToken.cleaned(word.text) else {
        throw CommandError("that is not a ListenBrainz token (1 to 200 characters, no spaces): nothing kept")
      }
      action = .setToken(token)
    default:
      throw CommandError(
        "listenbrainz takes 'status', 'token' or 'forget', not '\(TextSanitizer.escaped(first.text))'")
    }
  }

  /// Whether `line` sets a token (`listenbrainz token TOKEN`, in any case, among other
  /// commands): it is not kept in the history, which is a plain file. Asked of every line
  /// read, so it reads the bytes once and makes nothing (no string, no array).
  static func keepsOutOfHistory(_ line: String) -> Bool {
    let verb: StaticString = "listenbrainz"
    let token: StaticString = "token"
    // 1: the last word was `listenbrainz`; 2: then `token`.
    var state = 0
    // The current word's length, and whether it is still the verb's or the token's start.
    var length = 0
    var (maybeVerb, maybeToken) = (true, true)
    for byte in line.utf8 {
      if byte == 0x20 || byte == 0x09 || byte == 0x3B {
        if length > 0 {
          let isVerb = maybeVerb && length == verb.utf8CodeUnitCount
          let isToken = maybeToken && length == token.utf8CodeUnitCount
          state = isVerb ? 1 : state == 1 && isToken ? 2 : 0
        }
        if byte == 0x3B { state = 0 }
        (length, maybeVerb, maybeToken) = (0, true, true)
        continue
      }
      if state == 2 { return true }
      let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
      maybeVerb = maybeVerb && length < verb.utf8CodeUnitCount && verb.utf8Start[length] == lower
      maybeToken = maybeToken && length < token.utf8CodeUnitCount && token.utf8Start[length] == lower
      length += 1
    }
    return false
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let settings = ListenBrainzSubmitter.Settings(
      environment: environment.processEnvironment, tokenFile: environment.listenBrainzTokenFile ?? "",
      userAgent: Self.userAgent(environment.processEnvironment), version: bluelibVersion)
    let current = ListenBrainzToken.current(environment: settings.environment, file: settings.tokenFile)
    switch action {
    case .status:
      return .lines(try status(environment, settings: settings))
    case .showToken:
      guard let current else { return .lines(["no ListenBrainz token is set"]) }
      return .lines([
        "ListenBrainz token \(ListenBrainzToken.masked(current.token)), \(Self.origin(current.origin, settings))"
      ])
    case .setToken(let token):
      guard let file = environment.listenBrainzTokenFile else { throw CommandError("no home to keep a token in") }
      let client = ListenBrainzClient(baseURL: settings.baseURL, userAgent: settings.userAgent)
      defer { client.shutDown() }
      let cancellation = environment.cancellation
      var lines: [String] = []
      switch client.validate(token: token, isCancelled: { cancellation.isStopRequested }) {
      case .failure(.invalid):
        throw CommandError(
          "\(Self.host(settings.baseURL)) does not take the token \(ListenBrainzToken.masked(token)): nothing kept")
      case .failure(.unreachable(let why)):
        lines.append("could not check the token with \(Self.host(settings.baseURL)) now (\(why)); kept all the same")
      case .success(let user):
        lines.append("\(Self.host(settings.baseURL)) knows the token as \(user)")
      }
      do {
        try ListenBrainzToken.save(token, to: file)
      } catch {
        throw CommandError("cannot keep the token: \(error)")
      }
      lines.append(
        "ListenBrainz token \(ListenBrainzToken.masked(token)) kept in \(TextSanitizer.escaped(file)) (mode 0600)")
      if current?.origin == .environment {
        lines.append("BLUELIB_LISTENBRAINZ_TOKEN is set: it is the one used while it is")
      }
      environment.listenBrainz?.tokenChanged()
      return .lines(lines)
    case .forget:
      guard let file = environment.listenBrainzTokenFile, ListenBrainzToken.forget(file) else {
        return .lines(["no ListenBrainz token was kept"])
      }
      environment.listenBrainz?.tokenChanged()
      let waiting = (try? environment.library.listenQueue.count()) ?? 0
      var lines = ["forgot the ListenBrainz token"]
      if waiting > 0 { lines[0] += "; \(Self.counted(waiting)) stay in the library file for when one is set" }
      if current?.origin == .environment { lines.append("BLUELIB_LISTENBRAINZ_TOKEN is still set, and used") }
      return .lines(lines)
    }
  }

  private func status(_ environment: CommandEnvironment, settings: ListenBrainzSubmitter.Settings) throws -> [String] {
    let waiting = try environment.library.listenQueue.count()
    guard let submitter = environment.listenBrainz else {
      var lines = ["ListenBrainz: off here (the player is the music server's: its own scrobbler sends what it plays)"]
      if waiting > 0 { lines.append("\(Self.counted(waiting)) wait in the library file") }
      return lines
    }
    let status = submitter.status()
    guard let token = status.token else {
      var lines = [
        "ListenBrainz: no token set ('listenbrainz token TOKEN' or BLUELIB_LISTENBRAINZ_TOKEN; yours is on https://listenbrainz.org/settings/)"
      ]
      if waiting > 0 { lines.append("\(Self.counted(waiting)) wait in the library file for a token") }
      return lines
    }
    let origin = token.origin == .environment ? "from BLUELIB_LISTENBRAINZ_TOKEN" : "kept in bluelib's home"
    var lines = [
      "ListenBrainz: token \(token.masked) (\(origin)), sending to \(TextSanitizer.escaped(settings.baseURL))"
    ]
    var queue = waiting == 0 ? "no listen waits" : "\(Self.counted(waiting)) wait in the library file"
    if status.sent > 0 { queue += "; \(Self.counted(status.sent)) sent by this shell" }
    lines.append(queue)
    if status.tokenRefused {
      lines.append("the server refused the token (401): nothing is sent until it changes")
    } else if let problem = status.problem {
      lines.append("last problem: " + problem)
    }
    if let seconds = status.waiting, waiting > 0, !status.tokenRefused {
      lines.append("next try in \(Int(seconds.rounded(.up))) s")
    }
    return lines
  }

  /// `bluelib/0.1.0`, with the contact `BLUELIB_CONTACT` gives (ListenBrainz asks for one).
  static func userAgent(_ environment: [String: String]) -> String {
    "bluelib/\(bluelibVersion)" + (LookupCommand.contact(in: environment).map { " ( \($0) )" } ?? "")
  }

  private static func origin(_ origin: ListenBrainzToken.Origin, _ settings: ListenBrainzSubmitter.Settings) -> String {
    origin == .environment
      ? "from BLUELIB_LISTENBRAINZ_TOKEN" : "kept in \(TextSanitizer.escaped(settings.tokenFile))"
  }

  /// `api.listenbrainz.org`: the server's host, for a line.
  private static func host(_ url: String) -> String {
    var rest = Substring(url)
    if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
    return TextSanitizer.escaped(String(rest.prefix { $0 != "/" }))
  }

  static func counted(_ count: Int) -> String {
    count == 1 ? "1 listen" : "\(Library.grouped(count)) listens"
  }
}
