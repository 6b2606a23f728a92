import Foundation
import LoopbackHTTPServer
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// `bluelib --subsonic` from the built binary when the server cannot be used (issue 48,
  /// item 6): a closed port, an HTTP server that is not Subsonic's, a Subsonic error — each
  /// one line on standard error naming the server and the cause, within 5 s, and a failed
  /// exit status; what the server said escaped.
  @Suite(.serialized)
  struct SubsonicConnectionTests {
    /// Runs `bluelib --subsonic URL -c list` with the password `secret`: the result, and
    /// the seconds it took.
    static func start(_ url: String, password: String = "secret") throws -> (BinaryRunner.Result, Double) {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let began = Date()
      let result = try runner.run(
        ["--subsonic", url, "-c", "list"], environment: ["BLUELIB_SUBSONIC_PASSWORD": password, "NO_COLOR": "1"])
      return (result, Date().timeIntervalSince(began))
    }

    @Test func aClosedPortFailsTheStartInOneLineNamingIt() throws {
      let port = try MPDFixture.freePort()
      let (result, seconds) = try Self.start("http://admin@127.0.0.1:\(port)")
      #expect(result.status != 0)
      #expect(result.stderr == "bluelib: Subsonic at admin@127.0.0.1:\(port): cannot connect: connection refused\n")
      #expect(seconds < 5, "\(seconds) s")
    }

    /// An HTTPS server whose certificate the system's authorities do not vouch for (a
    /// self-signed one): refused, with no way around it, in one line that says why.
    @Test func aCertificateTheSystemDoesNotTrustFailsTheStartInOneLine() throws {
      let tls = try UntrustedTLSServer()
      let (result, seconds) = try Self.start("https://admin@127.0.0.1:\(tls.port)")
      #expect(result.status != 0)
      #expect(
        result.stderr
          == "bluelib: Subsonic at admin@127.0.0.1:\(tls.port): TLS: certificate not trusted (the system's "
          + "authorities do not vouch for it)\n")
      #expect(seconds < 5, "\(seconds) s")
    }

    /// An HTTP server that is not a Subsonic server: a web page, no `/rest/` at all, JSON of
    /// another API.
    @Test(arguments: [
      (LoopbackHTTPServer.Response.html(), "not a Subsonic answer (not JSON)"),
      (.status(404), "no Subsonic API there (HTTP 404)"),
      (
        .ok(Data(#"{"error":"unauthorized"}"#.utf8), contentType: "application/json"),
        "not a Subsonic answer (JSON without 'subsonic-response')"
      ),
    ])
    func aServerThatIsNotSubsonicFailsTheStartInOneLine(answer: LoopbackHTTPServer.Response, cause: String) throws {
      let http = try LoopbackHTTPServer()
      defer { http.stop() }
      http.route(startingWith: "/") { _, _ in answer }
      let (result, seconds) = try Self.start("http://admin@127.0.0.1:\(http.port)")
      #expect(result.status != 0)
      #expect(result.stderr == "bluelib: Subsonic at admin@127.0.0.1:\(http.port): \(cause)\n")
      #expect(seconds < 5, "\(seconds) s")
    }

    /// Each code a server answers with (`status: failed`) is one line saying what it means,
    /// with the server's own words where they add to it, their control characters escaped.
    @Test(arguments: [
      (10, "a required parameter is missing: Say \\e[31mred\\e[0m\\nand more (error 10)"),
      (40, "wrong username or password (error 40)"),
      (41, "the server takes no token authentication (error 41)"),
      (50, "the user may not do that: Say \\e[31mred\\e[0m\\nand more (error 50)"),
      (70, "not found: Say \\e[31mred\\e[0m\\nand more (error 70)"),
    ])
    func aSubsonicErrorIsOneLineWithTheServersWordsEscaped(code: Int, cause: String) throws {
      let http = try LoopbackHTTPServer()
      defer { http.stop() }
      let json =
        #"{"subsonic-response":{"status":"failed","version":"1.16.1","error":{"code":\#(code),"#
        + #""message":"Say \u001b[31mred\u001b[0m\nand more"}}}"#
      http.route(startingWith: "/rest/") { _, _ in .ok(Data(json.utf8), contentType: "application/json") }
      let (result, seconds) = try Self.start("http://admin@127.0.0.1:\(http.port)")
      #expect(result.status != 0)
      #expect(result.stderr == "bluelib: Subsonic at admin@127.0.0.1:\(http.port): \(cause)\n")
      #expect(!result.stderr.contains("\u{1B}") && !result.stdout.contains("\u{1B}"))
      #expect(seconds < 5, "\(seconds) s")
    }
  }

  /// A server that lists two albums and refuses every star and rating (error 50, in words
  /// with a control character): `rate` and `fav` of both say so once each, and the marks
  /// stay in the library.
  @Suite(.serialized)
  struct SubsonicRefusalTests {
    @Test func aRefusedMarkIsSaidOnceAndKeptInTheLibrary() throws {
      let http = try LoopbackHTTPServer()
      defer { http.stop() }
      let head = #""status":"ok","version":"1.16.1""#
      http.route(startingWith: "/rest/") { method, query in
        let body: String
        switch method {
        case "/rest/getIndexes": body = #","indexes":{"lastModified":1700000000000}"#
        case "/rest/getStarred2": body = #","starred2":{}"#
        case "/rest/getAlbumList2":
          body =
            query?.contains("offset=0") == true
            ? #","albumList2":{"album":[{"id":"al-1","name":"One","artist":"A","songCount":1},"#
              + #"{"id":"al-2","name":"Two","artist":"B","songCount":1}]}"#
            : #","albumList2":{}"#
        case "/rest/getAlbum":
          body = #","album":{"id":"al-1","name":"One","song":[{"id":"s-1","title":"S","suffix":"mp3"}]}"#
        default:
          let json =
            #"{"subsonic-response":{"status":"failed","version":"1.16.1","#
            + #""error":{"code":50,"message":"Not for you\u001b[2J"}}}"#
          return .ok(Data(json.utf8), contentType: "application/json")
        }
        return .ok(Data(#"{"subsonic-response":{\#(head)\#(body)}}"#.utf8), contentType: "application/json")
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(
        ["--subsonic", "http://admin@127.0.0.1:\(http.port)", "-c", "rate all 4", "-c", "fav all", "-c", "list"],
        environment: ["BLUELIB_SUBSONIC_PASSWORD": "secret", "NO_COLOR": "1"])
      #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
      let note =
        "Subsonic at admin@127.0.0.1:\(http.port): the user may not do that: Not for you\\e[2J (error 50) "
        + "(kept in this library only)"
      #expect(result.stdout.components(separatedBy: note).count == 3, "once for each: \(result.stdout)")
      #expect(!result.stdout.contains("\u{1B}"))
      let shown = try runner.run(
        ["--subsonic", "http://admin@127.0.0.1:\(http.port)", "-c", "show 1", "-c", "show 2"],
        environment: ["BLUELIB_SUBSONIC_PASSWORD": "secret", "NO_COLOR": "1"])
      #expect(shown.stdout.components(separatedBy: "Rating: ★★★★☆").count == 3, "\(shown.stdout)")
      #expect(shown.stdout.components(separatedBy: "Favourite: ♥ yes").count == 3, "\(shown.stdout)")
    }
  }

  /// Playing a server's album from the built binary, headless (`BLUELIB_AUDIO_OUTPUT=null`),
  /// against a server of the test's own that records every request: each track streams
  /// from the configured server (`stream`, the song's id, `format=raw`), is told as "now
  /// playing" when it starts (`scrobble submission=false`) and as played when it ends
  /// (`submission=true`) — the last one too, before the script's end; a stream that
  /// redirects to another origin is not followed there.
  @Suite(.serialized)
  struct SubsonicPlayTests {
    /// A server of one album, "One" (`al-1`), of two songs (`s-1`, `s-2`) one second long,
    /// whose `stream` answers `stream` (the MP3's bytes unless told).
    static func server(
      stream: (@Sendable (String) -> LoopbackHTTPServer.Response)? = nil
    ) throws -> (LoopbackHTTPServer, TemporaryDirectory) {
      let directory = try TemporaryDirectory()
      let music = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
      let file = try MPDFixture.silence(1, at: "one.mp3", in: music)
      let audio = try Data(contentsOf: URL(fileURLWithPath: file))
      let http = try LoopbackHTTPServer()
      let head = #""status":"ok","version":"1.16.1""#
      http.route(startingWith: "/rest/") { method, query in
        let body: String
        switch method {
        case "/rest/stream":
          let id = query?.split(separator: "&").first { $0.hasPrefix("id=") }.map { String($0.dropFirst(3)) } ?? ""
          return stream?(id) ?? .ok(audio, contentType: "audio/mpeg")
        case "/rest/getIndexes": body = #","indexes":{"lastModified":1700000000000}"#
        case "/rest/getStarred2": body = #","starred2":{}"#
        case "/rest/getAlbumList2":
          body =
            query?.contains("offset=0") == true
            ? #","albumList2":{"album":[{"id":"al-1","name":"One","artist":"A","songCount":2,"duration":2}]}"#
            : #","albumList2":{}"#
        case "/rest/getAlbum":
          body =
            #","album":{"id":"al-1","name":"One","artist":"A","song":["#
            + #"{"id":"s-1","title":"First","track":1,"suffix":"mp3","duration":1},"#
            + #"{"id":"s-2","title":"Second","track":2,"suffix":"mp3","duration":1}]}"#
        default: body = ""
        }
        return .ok(Data(#"{"subsonic-response":{\#(head)\#(body)}}"#.utf8), contentType: "application/json")
      }
      return (http, directory)
    }

    /// `METHOD id submission` of each request for a stream or a scrobble, in order.
    static func playRequests(_ http: LoopbackHTTPServer) -> [String] {
      http.requests.filter { ["/rest/stream", "/rest/scrobble"].contains($0.path) }.map { request in
        let fields = Dictionary(
          (request.query ?? "").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
          }, uniquingKeysWith: { first, _ in first })
        return [String(request.path.dropFirst(6)), fields["id"] ?? "", fields["submission"] ?? fields["format"] ?? ""]
          .joined(separator: " ")
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func eachTrackStreamsFromTheServerAndIsScrobbledAtItsStartAndEnd() throws {
      let (http, directory) = try Self.server()
      defer { http.stop() }
      _ = directory
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(
        ["--subsonic", "http://admin@127.0.0.1:\(http.port)", "-c", "play 1"],
        environment: ["BLUELIB_SUBSONIC_PASSWORD": "secret", "NO_COLOR": "1", "BLUELIB_AUDIO_OUTPUT": "null"])
      #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
      #expect(result.stdout.contains("▶ A — One — 01 First") && result.stdout.contains("▶ A — One — 02 Second"))
      #expect(result.stdout.contains("■ end of the queue"), "\(result.stdout)")
      // The streams may be opened before their track starts (gapless): each song's
      // scrobbles are in order, now playing before played.
      let requests = Self.playRequests(http)
      #expect(
        requests.filter { $0.hasPrefix("stream") }.sorted() == ["stream s-1 raw", "stream s-2 raw"], "\(requests)")
      let scrobbles = requests.filter { $0.hasPrefix("scrobble") }
      #expect(
        scrobbles == [
          "scrobble s-1 false", "scrobble s-1 true", "scrobble s-2 false", "scrobble s-2 true",
        ], "\(requests)")
    }

    /// A stream the server redirects to another origin (another port of this machine) is
    /// not followed: libmpv opens no URL but the configured server's. The track fails in
    /// one line that names no URL (they carry the credentials).
    @Test(.timeLimit(.minutes(1)))
    func aStreamRedirectedElsewhereIsNotFollowed() throws {
      let elsewhere = try LoopbackHTTPServer()
      defer { elsewhere.stop() }
      let (http, directory) = try Self.server { _ in .redirect(to: elsewhere.url("/stolen.mp3")) }
      defer { http.stop() }
      let music = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
      let file = try MPDFixture.silence(1, at: "other.mp3", in: music)
      elsewhere.route("/stolen.mp3", .ok(try Data(contentsOf: URL(fileURLWithPath: file)), contentType: "audio/mpeg"))
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(
        ["--subsonic", "http://admin@127.0.0.1:\(http.port)", "-c", "play 1"],
        environment: ["BLUELIB_SUBSONIC_PASSWORD": "secret", "NO_COLOR": "1", "BLUELIB_AUDIO_OUTPUT": "null"])
      #expect(elsewhere.requestCount("/stolen.mp3") == 0, "\(result.stdout)")
      #expect(http.requestCount("/rest/stream") >= 1)
      #expect(!(result.stdout + result.stderr).contains("secret") && !(result.stdout + result.stderr).contains("enc:"))
      #expect(!(result.stdout + result.stderr).contains("http://"), "\(result.stdout)\(result.stderr)")
    }
  }

  /// `bluelib --subsonic` against a real supysonic on 127.0.0.1 (Debian's, served by
  /// waitress; the sample music: folder art for The Wall, pictures in Innuendo's songs,
  /// none for Hits), from the built binary.
  @Suite(.serialized, .enabled(if: SupysonicFixture.isInstalled, Comment(rawValue: SupysonicFixture.unavailable)))
  struct SupysonicEndToEndTests {
    private func server() throws -> SupysonicFixture {
      let supysonic = try SupysonicFixture(prepare: MPDFixture.sampleMusic)
      try supysonic.start()
      return supysonic
    }

    @Test func aWrongPasswordFailsTheStartInOneLineNamingIt() throws {
      let supysonic = try server()
      let (result, seconds) = try SubsonicConnectionTests.start(supysonic.url, password: "guess")
      #expect(result.status != 0)
      #expect(
        result.stderr
          == "bluelib: Subsonic at admin@127.0.0.1:\(supysonic.port): wrong username or password (error 40)\n")
      #expect(seconds < 5, "\(seconds) s")
    }

    /// `fav` stars the album on the server and `rate` rates each of its songs (supysonic
    /// rates songs only: error 70 for an album's id), as the server's own API shows; `undo`
    /// in another bluelib, which has not learnt that yet, takes both back there too.
    @Test func favAndRateReachTheServerAndUndoTakesThemBackThere() throws {
      let supysonic = try server()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let environment = ["BLUELIB_SUBSONIC_PASSWORD": supysonic.password, "NO_COLOR": "1"]
      let innuendo = try Self.albumID("Innuendo", on: supysonic)
      let marked = try runner.run(
        ["--subsonic", supysonic.url, "-c", "find title:innuendo", "-c", "fav 1", "-c", "rate 1 4"],
        environment: environment)
      #expect(marked.status == 0 && marked.stderr.isEmpty, "\(marked.stderr)")
      #expect(marked.stdout.contains("\"Innuendo\" is a favourite"), "\(marked.stdout)")
      #expect(try Self.starredAlbums(on: supysonic) == [innuendo])
      #expect(try Self.songRatings(ofAlbum: innuendo, on: supysonic) == [4, 4])

      let undone = try runner.run(
        ["--subsonic", supysonic.url, "-c", "undo", "-c", "undo", "-c", "find title:innuendo"], environment: environment
      )
      #expect(undone.status == 0 && undone.stderr.isEmpty, "\(undone.stderr)")
      #expect(undone.stdout.contains("undid rate") && undone.stdout.contains("undid fav"), "\(undone.stdout)")
      #expect(try Self.starredAlbums(on: supysonic).isEmpty)
      #expect(try Self.songRatings(ofAlbum: innuendo, on: supysonic) == [0, 0])

      // Redone, in a third: on the server again.
      let redone = try runner.run(
        ["--subsonic", supysonic.url, "-c", "redo", "-c", "redo"], environment: environment)
      #expect(redone.status == 0 && redone.stderr.isEmpty, "\(redone.stderr)")
      #expect(try Self.starredAlbums(on: supysonic) == [innuendo])
      #expect(try Self.songRatings(ofAlbum: innuendo, on: supysonic) == [4, 4])
    }
  }
}

extension RunsAlone.SupysonicEndToEndTests {
  /// `download` fetches each album's cover by its cover id (`getCoverArt`): The Wall's from
  /// its folder's `cover.jpg`, Innuendo's from its songs' pictures; Lost Art's folder had a
  /// cover when the server scanned it, gone since, so the server has none — said as an
  /// answer and remembered; Hits has no art the server knows of, so none is asked for. A
  /// second `download` takes the covers from the cache and does not ask for Lost Art's.
  @Test func coversComeByCoverIDCachedAndNoneRemembered() throws {
    let supysonic = try SupysonicFixture { music in
      try MPDFixture.sampleMusic(music)
      try music.track("Nobody/Lost Art/01.flac", TagEdit(album: "Lost Art", artist: "Nobody", title: "Gone"))
      try music.file("Nobody/Lost Art/cover.jpg", TestPicture.jpeg(TestPicture.green))
    }
    try supysonic.start()
    try FileManager.default.removeItem(atPath: supysonic.music.path("Nobody/Lost Art/cover.jpg"))
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let environment = ["BLUELIB_SUBSONIC_PASSWORD": supysonic.password, "NO_COLOR": "1"]
    let first = try runner.run(
      ["--subsonic", supysonic.url, "-c", "download all", "-c", "wait"], environment: environment)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.range(of: #"cover of "The Wall": [0-9.]+ (bytes|KB)"#, options: .regularExpression) != nil)
    #expect(first.stdout.range(of: #"cover of "Innuendo": [0-9.]+ (bytes|KB)"#, options: .regularExpression) != nil)
    #expect(first.stdout.contains("cover of \"Lost Art\": none on Subsonic at admin@127.0.0.1:\(supysonic.port)"))
    #expect(first.stdout.contains("2 covers downloaded, 1 album has none on the server, 0 failed"), "\(first.stdout)")
    let cached = try FileManager.default.contentsOfDirectory(atPath: runner.home.path + "/covers")
    #expect(cached.filter { !$0.hasPrefix(".") }.count == 2, "\(cached)")

    let second = try runner.run(
      ["--subsonic", supysonic.url, "-c", "download all", "-c", "wait"], environment: environment)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("2 already cached"), "\(second.stdout)")
    #expect(second.stdout.contains("1 album has none on the server (asked in the last 30 days"), "\(second.stdout)")
    #expect(!second.stdout.contains("downloading"), "\(second.stdout)")
  }

  /// `play` of a supysonic album, headless: both songs stream from the server — which
  /// then names the last one as what its user plays (`getNowPlaying`, which supysonic fills
  /// as it streams) — and the queue plays to its end.
  @Test(.timeLimit(.minutes(1)))
  func anAlbumStreamsFromTheServerAndPlaysToItsEnd() throws {
    let supysonic = try server()
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      ["--subsonic", supysonic.url, "-c", "find title:innuendo", "-c", "play 1"],
      environment: ["BLUELIB_SUBSONIC_PASSWORD": supysonic.password, "NO_COLOR": "1", "BLUELIB_AUDIO_OUTPUT": "null"])
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    #expect(result.stdout.contains("playing \"Innuendo\" (2 tracks)"), "\(result.stdout)")
    #expect(
      result.stdout.contains("Queen — Innuendo — 01 Innuendo")
        && result.stdout.contains("Queen — Innuendo — 02 Headlong"))
    #expect(result.stdout.contains("■ end of the queue"), "\(result.stdout)")
    let playing = try supysonic.response("getNowPlaying")["nowPlaying"] as? [String: Any]
    let entries = playing?["entry"] as? [[String: Any]] ?? []
    #expect(entries.map { $0["title"] as? String } == ["Headlong"], "\(entries)")
    #expect(entries.first?["username"] as? String == supysonic.user)
  }

  /// The server gone after a sync: the start says so in one line, `play` of an album whose
  /// tracks were never asked for fails in one line, and the library's albums are still
  /// listed.
  @Test func aServerGoneFailsTheCommandsThatNeedItOnly() throws {
    let supysonic = try server()
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let environment = [
      "BLUELIB_SUBSONIC_PASSWORD": supysonic.password, "NO_COLOR": "1", "BLUELIB_AUDIO_OUTPUT": "null",
    ]
    #expect(try runner.run(["--subsonic", supysonic.url, "-c", "list"], environment: environment).status == 0)
    supysonic.stop()
    let result = try runner.run(
      ["--subsonic", supysonic.url, "-c", "find title:innuendo", "-c", "play 1", "-c", "find", "-c", "list"],
      environment: environment)
    let gone = "Subsonic at admin@127.0.0.1:\(supysonic.port): cannot connect: connection refused"
    #expect(result.status == 1)
    #expect(result.stderr == "bluelib: \(gone)\nbluelib: -c:2: play: \(gone)\n", "\(result.stderr)")
    #expect(result.stdout.contains("Innuendo — Queen") && result.stdout.contains("The Wall — Pink Floyd"))
  }

  /// The id of the album named `title` on `supysonic`, by its own API.
  static func albumID(_ title: String, on supysonic: SupysonicFixture) throws -> String {
    let list = try supysonic.response("getAlbumList2", [("type", "alphabeticalByName"), ("size", "50")])
    let albums = (list["albumList2"] as? [String: Any])?["album"] as? [[String: Any]] ?? []
    return try #require(albums.first { $0["name"] as? String == title }?["id"] as? String)
  }

  /// The ids of the albums `supysonic` has starred, by its own API (`getStarred2`).
  static func starredAlbums(on supysonic: SupysonicFixture) throws -> [String] {
    let starred = try supysonic.response("getStarred2")["starred2"] as? [String: Any]
    return (starred?["album"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
  }

  /// The rating of each song of the album `id` on `supysonic` (`getAlbum`), 0 for none.
  static func songRatings(ofAlbum id: String, on supysonic: SupysonicFixture) throws -> [Int] {
    let album = try supysonic.response("getAlbum", [("id", id)])["album"] as? [String: Any]
    return (album?["song"] as? [[String: Any]] ?? []).map { $0["userRating"] as? Int ?? 0 }
  }
}
