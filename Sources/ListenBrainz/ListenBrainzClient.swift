import BlueCovers
import BlueSystem
import BlueText
import FoundationEssentials

/// ListenBrainz's API as bluelib uses it (https://listenbrainz.readthedocs.io, "API"):
/// `POST /1/submit-listens` and `GET /1/validate-token`, with `Authorization: Token …`,
/// over the package's libcurl (``HTTPGetter``), on the calling thread.
package struct ListenBrainzClient: Sendable {
  /// The server's API root: `https://api.listenbrainz.org`, or `BLUELIB_LISTENBRAINZ_URL`.
  package var baseURL: String
  private let http: HTTPGetter

  /// The most listens one `import` takes (`MAX_LISTENS_PER_REQUEST`).
  package static let maxListensPerRequest = 1_000
  /// The most bytes of one request's JSON (`MAX_LISTEN_PAYLOAD_SIZE`, 10,240 × 1,000).
  package static let maxPayloadBytes = 10_240_000
  /// The default server.
  package static let defaultBaseURL = "https://api.listenbrainz.org"

  static let limits = HTTPGetter.Limits(maxBytes: 64 << 10, timeout: .seconds(30), connectTimeout: .seconds(10))

  /// A client of `baseURL` (a trailing `/` is dropped) saying it is `userAgent`
  /// (`bluelib/0.1.0 ( contact )`, as ListenBrainz asks).
  package init(baseURL: String, userAgent: String) {
    var base = baseURL
    while base.hasSuffix("/") { base.removeLast() }
    self.baseURL = base
    http = HTTPGetter(userAgent: userAgent)
  }

  /// What became of a request.
  package enum Answer: Sendable, Equatable {
    /// 200: taken.
    case accepted
    /// 401: the token is wrong.
    case unauthorized
    /// 429: too many requests; wait the seconds given.
    case rateLimited
    /// Another 4xx: the request is refused for good (its status).
    case refused(Int)
    /// No answer, or a 5xx: try again later (why, escaped for the terminal).
    case failed(String)
  }

  /// The rate limit as the server's last answer told it (`X-RateLimit-Remaining`,
  /// `X-RateLimit-Reset-In`).
  package struct RateLimit: Sendable, Equatable {
    package var remaining: Int?
    package var resetIn: Double?

    init(_ headers: [String: String]) {
      remaining = headers["x-ratelimit-remaining"].flatMap { Int($0.trimming(.whitespaces)) }
      resetIn = headers["x-ratelimit-reset-in"].flatMap { Double($0.trimming(.whitespaces)) }.map {
        min(max($0, 0), 3_600)
      }
    }

    init() {}
  }

  /// Sends `listens` (JSON objects as ``Listen/json`` writes them) as one `listen_type`
  /// request (`single`, `playing_now`, `import`); `isCancelled` is asked every 50 ms.
  package func submit(
    _ listenType: String, _ listens: [String], token: String, isCancelled: @escaping () -> Bool = { false }
  ) -> (Answer, RateLimit) {
    let body = Data(("{\"listen_type\":\"\(listenType)\",\"payload\":[" + listens.joined(separator: ",") + "]}").utf8)
    return request(path: "/1/submit-listens", body: body, token: token, isCancelled: isCancelled)
  }

  /// Whether the server takes `token` (`GET /1/validate-token`): the user's name when it
  /// does (escaped for the terminal), why not otherwise.
  package func validate(token: String, isCancelled: @escaping () -> Bool = { false }) -> Result<String, Failure> {
    let url = baseURL + "/1/validate-token"
    do throws(CoverFailure) {
      let answer = try http.get(
        url, headers: ["Authorization: Token " + token, "Accept: application/json"], limits: Self.limits,
        isCancelled: isCancelled)
      switch answer.status {
      case 200:
        let object = try? JSONDecoder().decode(TokenAnswer.self, from: answer.body)
        guard object?.valid == true else { return .failure(.invalid) }
        return .success(object?.user_name.map { TextSanitizer.escaped($0) } ?? "?")
      case 401: return .failure(.invalid)
      default: return .failure(.unreachable("the server answered \(answer.status)"))
      }
    } catch {
      return .failure(.unreachable(TextSanitizer.escaped(error.description)))
    }
  }

  /// `validate-token`'s answer: `{"valid": true, "user_name": "…", …}` (other keys ignored).
  private struct TokenAnswer: Decodable {
    var valid: Bool?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var user_name: String?
  }

  /// Why a token could not be checked.
  package enum Failure: Error, Equatable {
    /// The server does not take it.
    case invalid
    /// No answer (why, escaped).
    case unreachable(String)
  }

  private func request(
    path: String, body: Data, token: String, isCancelled: @escaping () -> Bool
  ) -> (Answer, RateLimit) {
    do throws(CoverFailure) {
      let answer = try http.post(
        baseURL + path, body: body,
        headers: ["Authorization: Token " + token, "Content-Type: application/json", "Accept: application/json"],
        limits: Self.limits, isCancelled: isCancelled)
      let limit = RateLimit(answer.headers)
      switch answer.status {
      case 200...299: return (.accepted, limit)
      case 401: return (.unauthorized, limit)
      case 429: return (.rateLimited, limit)
      case 400...499: return (.refused(answer.status), limit)
      default: return (.failed("the server answered \(answer.status)"), limit)
      }
    } catch {
      return (.failed(TextSanitizer.escaped(error.description)), RateLimit())
    }
  }

  /// Ends a request in flight (at exit).
  package func shutDown() { http.shutDown() }
}
