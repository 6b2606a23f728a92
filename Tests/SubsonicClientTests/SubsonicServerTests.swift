import Foundation
import LoopbackHTTPServer
import MusicSource
import Synchronization
import Testing

@testable import SubsonicClient

extension RunsAlone {
  /// The client against a Subsonic server of the test's own on 127.0.0.1 (a real HTTP
  /// server, `LoopbackHTTPServer`), answering as OpenSubsonic servers do where supysonic
  /// does not: tokens, API keys, error 41, pages, a server that misbehaves.
  @Suite(.serialized)
  struct SubsonicServerTests {
    /// `{"subsonic-response": {…}}` with `status: ok` and `body`'s fields.
    static func ok(_ body: String = "", openSubsonic: Bool = true) -> LoopbackHTTPServer.Response {
      let fields = #""status":"ok","version":"1.16.1","type":"fake","openSubsonic":\#(openSubsonic)"#
      let json = #"{"subsonic-response":{\#(fields)\#(body.isEmpty ? "" : "," + body)}}"#
      return .ok(Data(json.utf8), contentType: "application/json")
    }

    /// `status: failed` with `code` and `message`.
    static func failed(_ code: Int, _ message: String) -> LoopbackHTTPServer.Response {
      let json =
        #"{"subsonic-response":{"status":"failed","version":"1.16.1","error":{"code":\#(code),"message":"\#(message)"}}}"#
      return .ok(Data(json.utf8), contentType: "application/json")
    }

    /// The parameters of a query, decoded.
    static func parameters(_ query: String?) -> [String: String] {
      var found: [String: String] = [:]
      for pair in (query ?? "").split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
        if parts.count == 2, found[parts[0]] == nil { found[parts[0]] = parts[1] }
      }
      return found
    }

    /// A server whose `/rest/METHOD` answers what `answer` says for the method and the
    /// parameters.
    static func server(
      _ answer: @escaping @Sendable (String, [String: String]) -> LoopbackHTTPServer.Response
    ) throws -> LoopbackHTTPServer {
      let http = try LoopbackHTTPServer()
      http.route(startingWith: "/rest/") { path, query in answer(String(path.dropFirst(6)), parameters(query)) }
      return http
    }

    static func client(_ http: LoopbackHTTPServer, password: String? = "secret", apiKey: String? = nil)
      throws -> SubsonicServer
    {
      SubsonicServer(
        address: try SubsonicAddress("http://admin@127.0.0.1:\(http.port)"), password: password, apiKey: apiKey,
        timeout: 10)
    }

    @Test func theTokenIsTriedFirstAndKeptWhereTheServerTakesIt() throws {
      let http = try Self.server { _, query in
        guard let salt = query["s"], query["t"] == MD5.hex("secret" + salt), query["u"] == "admin", query["p"] == nil
        else { return Self.failed(40, "Wrong username or password") }
        return Self.ok()
      }
      let client = try Self.client(http)
      try client.check()
      try client.check()
      #expect(client.authentication == .token)
      let salts = http.requests.map { Self.parameters($0.query)["s"] ?? "" }
      #expect(salts.count == 2 && Set(salts).count == 2 && salts.allSatisfy { $0.count >= 12 }, "a salt a request")
      #expect(http.requests.allSatisfy { Self.parameters($0.query)["f"] == "json" })
    }

    /// Error 41 (Nextcloud Music, LMS) or 10 (supysonic, for its missing `p`): the password,
    /// hex-encoded, once, then for every request of the process.
    @Test(arguments: [41, 10])
    func aServerWithoutTokensGetsThePasswordAndKeepsGettingIt(code: Int) throws {
      let http = try Self.server { _, query in
        if query["t"] != nil { return Self.failed(code, "Token authentication not supported") }
        return query["p"] == "enc:736563726574" ? Self.ok(openSubsonic: false) : Self.failed(40, "Wrong password")
      }
      let client = try Self.client(http)
      try client.check()
      try client.check()
      #expect(client.authentication == .password)
      let ways = http.requests.map { Self.parameters($0.query)["t"] != nil ? "token" : "password" }
      #expect(ways == ["token", "password", "password"])
    }

    @Test func anAPIKeyGoesAloneWithoutUserOrPassword() throws {
      let http = try Self.server { _, query in
        query["apiKey"] == "K3Y" && query["u"] == nil && query["p"] == nil && query["t"] == nil
          ? Self.ok() : Self.failed(43, "Multiple conflicting authentication mechanisms provided")
      }
      let client = try Self.client(http, password: nil, apiKey: "K3Y")
      try client.check()
      #expect(client.authentication == .apiKey)
    }

    @Test func aWrongPasswordAndAnInvalidKeyAreOneLineEach() throws {
      let http = try Self.server { _, query in
        query["apiKey"] != nil ? Self.failed(44, "Invalid API key") : Self.failed(40, "Wrong username or password.")
      }
      let client = try Self.client(http)
      #expect(throws: SourceError("Subsonic at admin@127.0.0.1:\(http.port): wrong username or password (error 40)")) {
        try client.check()
      }
      let keyed = try Self.client(http, password: nil, apiKey: "nope")
      #expect(throws: SourceError("Subsonic at admin@127.0.0.1:\(http.port): the API key is not valid (error 44)")) {
        try keyed.check()
      }
    }

    @Test func anHTTPErrorANonJSONAnswerAndARedirectElsewhereAreOneLineEach() throws {
      let other = try LoopbackHTTPServer()
      let http = try Self.server { method, _ in
        switch method {
        case "ping": .status(404)
        case "getIndexes": .html()
        default: .redirect(to: other.url("/rest/ping"))
        }
      }
      let client = try Self.client(http)
      let name = "Subsonic at admin@127.0.0.1:\(http.port)"
      #expect(throws: SourceError(name + ": no Subsonic API there (HTTP 404)")) { try client.check() }
      #expect(throws: SourceError(name + ": not a Subsonic answer (not JSON)")) { try client.fingerprint() }
      #expect(throws: SourceError.self) { try client.tracks(ofAlbum: "x") }
      do {
        _ = try client.tracks(ofAlbum: "x")
      } catch {
        #expect(error.description.contains("refused (another server than the one asked)"), "\(error)")
      }
      #expect(other.totalRequests == 0)
    }

    /// `getAlbumList2` by pages of 500 until one is short; an album met twice is handed on
    /// once; the albums carry what the list says.
    @Test func theAlbumsArePagedByFiveHundredUntilAPageIsShort() throws {
      let http = try Self.server { method, query in
        guard method == "getAlbumList2", query["type"] == "alphabeticalByName", query["size"] == "500",
          let offset = Int(query["offset"] ?? "")
        else { return Self.failed(0, "unexpected") }
        // 1,200 albums; the last page repeats the one before's last (the list changed).
        let ids = Array((offset == 1000 ? 999 : offset)..<min(1200, offset + 500))
        let items = ids.map { #"{"id":"al-\#($0)","name":"Album \#($0)","artist":"A","songCount":2,"duration":60}"# }
        return Self.ok(#""albumList2":{"album":[\#(items.joined(separator: ","))]}"#)
      }
      let client = try Self.client(http)
      var albums: [SourceAlbum] = []
      try client.listTracks { listing in
        if case .albums(let some) = listing { albums += some }
        return true
      }
      #expect(albums.count == 1200 && Set(albums.map(\.path)).count == 1200)
      #expect(
        albums.first
          == {
            var album = SourceAlbum(path: "al-0", title: "Album 0", artist: "A", trackCount: 2, duration: 60)
            album.ratingKnown = true
            return album
          }())
      #expect(http.requests.map { Self.parameters($0.query)["offset"] } == ["0", "500", "1000"])
    }

    @Test func aServerThatIgnoresTheOffsetIsStopped() throws {
      let http = try Self.server { _, _ in
        let items = (0..<500).map { #"{"id":"al-\#($0)","name":"N"}"# }.joined(separator: ",")
        return Self.ok(#""albumList2":{"album":[\#(items)]}"#)
      }
      let client = try Self.client(http)
      #expect(
        throws: SourceError(
          "Subsonic at admin@127.0.0.1:\(http.port): not a Subsonic answer (the same albums at offset 500 as before it)"
        )
      ) {
        try client.listTracks { _ in true }
      }
      #expect(http.totalRequests == 2)
    }

    /// An unchanged server costs a few small requests: `getIndexes` (its `lastModified`), the
    /// extensions of an OpenSubsonic server once, `getStarred2`; and the head of the newest
    /// albums where `lastModified` says nothing (gonic's 0).
    @Test(arguments: [(Int64(1_700_000_000_000), 3), (Int64(0), 4)])
    func theFingerprintTakesAtMostFourRequests(lastModified: Int64, requests: Int) throws {
      let http = try Self.server { method, query in
        switch method {
        case "getIndexes":
          #expect(Int64(query["ifModifiedSince"] ?? "") ?? 0 > Int64(Date().timeIntervalSince1970) * 1000)
          return Self.ok(#""indexes":{"lastModified":\#(lastModified)}"#)
        case "getOpenSubsonicExtensions":
          return Self.ok(#""openSubsonicExtensions":[{"name":"apiKeyAuthentication","versions":[1]}]"#)
        case "getStarred2": return Self.ok(#""starred2":{"album":[{"id":"al-1","name":"A"}]}"#)
        case "getAlbumList2": return Self.ok(#""albumList2":{"album":[{"id":"al-1","name":"A"}]}"#)
        default: return Self.failed(0, "unexpected \(method)")
        }
      }
      let client = try Self.client(http)
      let first = try client.fingerprint()
      #expect(http.totalRequests == requests)
      #expect(client.features?.extensions == ["apiKeyAuthentication"])
      #expect(try client.fingerprint() == first)
      #expect(http.totalRequests == requests * 2 - 1, "the extensions are asked once")
    }

    /// Stars go fifty albums to a request; a rating on the album, and on its songs once the
    /// server said it rates songs only (70), for the rest of the process.
    @Test func starsGoByTheFiftyAndRatingsToSongsOnceAnAlbumIsRefused() throws {
      let http = try Self.server { method, query in
        switch method {
        case "star": return Self.ok()
        case "setRating": return query["id"]?.hasPrefix("al-") == true ? Self.failed(70, "Track not found") : Self.ok()
        case "getAlbum":
          return Self.ok(#""album":{"id":"\#(query["id"]!)","name":"A","song":[{"id":"s-1"},{"id":"s-2"}]}"#)
        default: return Self.failed(0, "unexpected \(method)")
        }
      }
      let client = try Self.client(http)
      try client.share(.favourite(true), onTracks: (0..<60).map { "al-\($0)" })
      #expect(http.requests.map { $0.path } == ["/rest/star", "/rest/star"])
      #expect(http.requests[0].query?.components(separatedBy: "albumId=").count == 51)
      // One album known by its tracks, one by its folder alone (its songs asked for).
      try client.share(.rating(3), onTracks: ["al-1/s-7.flac", "al-1/s-8.flac", "al-2"])
      let rated = http.requests.dropFirst(2).map { "\($0.path.dropFirst(6)) \(Self.parameters($0.query)["id"] ?? "")" }
      #expect(
        rated == [
          "setRating al-1", "setRating s-7", "setRating s-8", "getAlbum al-2", "setRating s-1", "setRating s-2",
        ])
      #expect(http.requests.dropFirst(3).allSatisfy { Self.parameters($0.query)["rating"] ?? "3" == "3" })
    }

    /// A rating taken back goes to the album, and — as supysonic answers `ok` to a rating of
    /// 0 for any id — to its songs that have one, unless the server speaks OpenSubsonic
    /// (which rates albums): there the album's alone.
    @Test(arguments: [false, true])
    func aRatingTakenBackGoesToTheSongsOfAServerNotKnownToRateAlbums(openSubsonic: Bool) throws {
      let http = try Self.server { method, query in
        switch method {
        case "ping", "setRating": return Self.ok(openSubsonic: openSubsonic)
        case "getAlbum":
          return Self.ok(
            #""album":{"id":"\#(query["id"]!)","name":"A","song":[{"id":"s-1","userRating":4},{"id":"s-2"}]}"#,
            openSubsonic: openSubsonic)
        default: return Self.failed(0, "unexpected \(method)")
        }
      }
      let client = try Self.client(http)
      try client.check()
      try client.share(.rating(nil), onTracks: ["al-1/s-7.flac", "al-1/s-8.flac", "al-2"])
      let sent = http.requests.dropFirst().map { "\($0.path.dropFirst(6)) \(Self.parameters($0.query)["id"] ?? "")" }
      #expect(
        sent
          == (openSubsonic
            ? ["setRating al-1", "setRating al-2"]
            : [
              "setRating al-1", "setRating s-7", "setRating s-8", "setRating al-2", "getAlbum al-2", "setRating s-1",
            ]))
      #expect(http.requests.dropFirst().allSatisfy { Self.parameters($0.query)["rating"] ?? "0" == "0" })
    }
  }
}
