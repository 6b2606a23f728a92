import Foundation
import LoopbackHTTPServer
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
  }
}
