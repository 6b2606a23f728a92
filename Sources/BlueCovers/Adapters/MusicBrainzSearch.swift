import BlueSystem
import BlueText
import FoundationEssentials

/// MusicBrainz's web service (https://musicbrainz.org/doc/MusicBrainz_API), searched for the
/// release group of an album that has no MusicBrainz id: `GET {base}/ws/2/release-group?
/// query=releasegroup:"TITLE" AND artist:"ARTIST"&fmt=json&limit=10`.
///
/// As the service asks (https://musicbrainz.org/doc/MusicBrainz_API/Rate_Limiting): at most
/// one request a second, each with a `User-Agent` that names the application, its version
/// and a contact; a 503 is waited out as for any host (``HostBackoff``). A match is taken
/// only when it is clear (``match(title:artist:year:in:)``): never a guess.
///
/// What the service (or a mirror, or whatever answers in its place) sends is not trusted:
/// every text of an answer is escaped for a terminal and cut to ``maximumTextLength`` as
/// it is read, and at most ``maximumCandidates`` release groups are read, so no printer
/// can forget to.
package final class MusicBrainzSearch: Sendable {
  /// The service, unless `BLUELIB_MUSICBRAINZ_URL` names a mirror.
  package static let defaultBase = "https://musicbrainz.org"
  /// The lowest search score a clear match may have (MusicBrainz scores 0–100).
  static let clearScore = 90
  /// The most release groups read from one answer (10 are asked for).
  static let maximumCandidates = 100
  /// The most characters kept of a text of an answer (a title, an artist credit, a type).
  static let maximumTextLength = 500

  private let base: String
  private let http: HTTPCoverSource
  private let gate: RequestGate

  /// One release group a search found.
  package struct Candidate: Sendable, Equatable {
    package var id: String
    package var title: String
    /// The artist credit as MusicBrainz writes it (`Simon & Garfunkel`).
    package var artist: String
    /// The year of its first release, when known.
    package var year: Int?
    package var score: Int
    /// `Album`, `Single`, `EP`…
    package var type: String?

    package init(id: String, title: String, artist: String, year: Int?, score: Int, type: String?) {
      (self.id, self.title, self.artist, self.year, self.score, self.type) = (id, title, artist, year, score, type)
    }
  }

  /// What a search says of one album.
  package enum Match: Sendable, Equatable {
    /// One release group is clearly the album.
    case clear(Candidate)
    /// Several might be, or none clearly: the closest ones, for the user to choose.
    case unclear([Candidate])
    /// Nothing like it.
    case none
  }

  /// A search of `base` at most one request per `interval`, each saying it comes from `userAgent`.
  package init(base: String = MusicBrainzSearch.defaultBase, userAgent: String, interval: Duration = .seconds(1)) {
    self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    http = HTTPCoverSource(userAgent: userAgent)
    gate = RequestGate(interval: interval)
  }

  /// Releases the connections and thread of its HTTP client.
  package func shutDown() { http.shutDown() }

  /// The release groups the service finds for `title` by `artist`, best first.
  package func candidates(title: String, artist: String, timeout: Duration) async throws(CoverFailure) -> [Candidate] {
    guard let url = Self.url(base: base, title: title, artist: artist) else { throw .unsupportedURL(base) }
    try await gate.wait()
    let data = try await http.fetch(
      url, limits: CoverLimits(timeout: timeout, maxBytes: 4 << 20), accepting: "application/json")
    guard let found = Self.candidates(fromJSON: data) else {
      throw .downloadFailed("MusicBrainz did not answer with a search result")
    }
    return found
  }

  /// What `candidates` says of the album `title` by `artist` (of `year`, when known), all
  /// compared after case, accents and width are folded. Clear: of the candidates whose
  /// title and artist credit are the album's (when the album has a year and several are,
  /// those first released that year), the one scored at least ``clearScore``, else the only
  /// one whatever its score (MusicBrainz scores exact matches 72 too); and of the album's
  /// year when both have one. Else `unclear` with the closest (up to five: the exact ones,
  /// else those scored ``clearScore`` or more), or `none`.
  package static func match(title: String, artist: String, year: Int?, in candidates: [Candidate]) -> Match {
    let same = candidates.filter { fold($0.title) == fold(title) && fold($0.artist) == fold(artist) }
    var chosen = same
    if chosen.count > 1, let year {
      let ofYear = chosen.filter { $0.year == year }
      if !ofYear.isEmpty { chosen = ofYear }
    }
    let scoredHigh = chosen.filter { $0.score >= clearScore }
    if scoredHigh.count == 1 { chosen = scoredHigh }
    if chosen.count == 1, let only = chosen.first, year == nil || only.year == nil || only.year == year {
      return .clear(only)
    }
    let shown = (same.isEmpty ? candidates.filter { $0.score >= clearScore } : same).prefix(5)
    return shown.isEmpty ? .none : .unclear(Array(shown))
  }

  /// `text` without case, accents or width, as the library's searches compare it.
  private static func fold(_ text: String) -> String {
    TextFolding.folded(text)
  }

  /// The search URL for `title` by `artist` (Lucene syntax, each value quoted).
  static func url(base: String, title: String, artist: String) -> String? {
    let query = "releasegroup:\"\(escaped(title))\" AND artist:\"\(escaped(artist))\""
    guard var components = URLComponents(string: base + "/ws/2/release-group") else { return nil }
    components.queryItems = [
      URLQueryItem(name: "query", value: query), URLQueryItem(name: "fmt", value: "json"),
      URLQueryItem(name: "limit", value: "10"),
    ]
    // `+` means a space to a query parser: it must go as %2B.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacing("+", with: "%2B")
    return components.url?.absoluteString
  }

  /// `text` inside a quoted Lucene term: backslash and double quote escaped.
  static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      if character == "\\" || character == "\"" { out.append("\\") }
      out.append(character)
    }
    return out
  }

  /// The candidates of a `release-group` search answer (its JSON form), nil when it is not
  /// one: at most ``maximumCandidates``, each text escaped (``TextSanitizer``) and cut.
  static func candidates(fromJSON data: Data) -> [Candidate]? {
    guard let object = try? JSONDecoder().decode(JSONValue.self, from: data),
      let groups = object["release-groups"]?.elements
    else { return nil }
    return groups.prefix(maximumCandidates).compactMap { group in
      guard group.isObject, let id = group["id"]?.string, CoverArtArchiveSource.isMBID(id),
        let title = group["title"]?.string
      else { return nil }
      let credits = (group["artist-credit"]?.elements ?? []).prefix(maximumCandidates).filter(\.isObject)
      let artist = credits.map { ($0["name"]?.string ?? "") + ($0["joinphrase"]?.string ?? "") }.joined()
      let year = group["first-release-date"]?.string.flatMap { Int($0.prefix(4)) }
      let score = group["score"]?.integer ?? Int(group["score"]?.string ?? "") ?? 0
      return Candidate(
        id: id.lowercased(), title: harmless(title), artist: harmless(artist), year: year, score: score,
        type: group["primary-type"]?.string.map(harmless))
    }
  }

  /// `text` as a server sent it, made fit for a terminal: control characters escaped, and
  /// cut to ``maximumTextLength`` characters (with `…`).
  static func harmless(_ text: String) -> String {
    let cut = text.count > maximumTextLength ? String(text.prefix(maximumTextLength)) + "…" : text
    return TextSanitizer.escaped(cut)
  }
}

/// Any JSON value, read as JSONSerialization's objects were (`as? String`, `as? Int`, `as?
/// [Any]`, `as? [String: Any]`): a value of another type than asked is nil, as a cast was.
private enum JSONValue: Decodable {
  case object([String: JSONValue])
  case array([JSONValue])
  case string(String)
  case number(Double)
  case other

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let object = try? container.decode([String: JSONValue].self) {
      self = .object(object)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else {
      self = .other
    }
  }

  subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { object[key] } else { nil }
  }

  /// An array's elements (`as? [Any]`).
  var elements: [JSONValue]? {
    if case .array(let elements) = self { elements } else { nil }
  }

  /// Whether it is an object (`as? [String: Any]`).
  var isObject: Bool {
    if case .object = self { true } else { false }
  }

  var string: String? {
    if case .string(let text) = self { text } else { nil }
  }

  /// A number that is a whole `Int` (`as? Int` of an NSNumber).
  var integer: Int? {
    if case .number(let number) = self { Int(exactly: number) } else { nil }
  }
}
