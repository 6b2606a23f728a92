import BlueShell
import Foundation
import LoopbackHTTPServer
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// The Cover Art Archive as a cover source (issue "Covers for every album", item 1), against
  /// a loopback server made to answer as the archive does: 307 to the image, 404 for none.
  /// Albums from a music folder with MusicBrainz ids in their tags and no art of their own
  /// get the archive's cover URL at import; `download` asks the release, then the release
  /// group, at most once a second, with bluelib's User-Agent, and asks again after a 503.
  @Suite(.serialized)
  struct CoverArtArchiveTests {
    /// Release and release-group ids: `…0001` and so on.
    static func id(_ kind: Character, _ number: Int) -> String {
      "\(kind == "r" ? "a" : "b")0000000-0000-4000-8000-\(String(format: "%012d", number))"
    }

    /// Five albums without art, each with ids the server answers differently; one with art
    /// of its own (not asked for), one without ids (skipped).
    static func music(in runner: BinaryRunner) throws -> MusicFolderFixture {
      let music = try MusicFolderFixture(in: runner.home)
      for (number, title) in ["Found", "Group", "Nowhere", "Busy", "Sneaky"].enumerated() {
        try music.track(
          "Artist/\(title)/1.mp3",
          TagEdit(
            album: title, artist: "Artist", musicBrainzAlbumID: id("r", number + 1),
            musicBrainzReleaseGroupID: id("g", number + 1)))
      }
      try music.track(
        "Artist/Own Art/1.mp3", TagEdit(album: "Own Art", artist: "Artist", musicBrainzAlbumID: id("r", 9)))
      try music.file("Artist/Own Art/cover.png", [UInt8](CoverFixture.png()))
      try music.track("Artist/No Ids/1.mp3", TagEdit(album: "No Ids", artist: "Artist"))
      return music
    }

    static func archive() throws -> LoopbackHTTPServer {
      let server = try LoopbackHTTPServer()
      server.route("/images/front.png", .ok(CoverFixture.png()))
      let image = LoopbackHTTPServer.Response.redirect(to: server.url("/images/front.png"), status: 307)
      server.route("/release/\(id("r", 1))/front-500", image)
      server.route("/release-group/\(id("g", 2))/front-500", image)
      server.route("/release/\(id("r", 4))/front-500", inTurn: [.status(503), image])
      server.route("/release/\(id("r", 5))/front-500", .redirect(to: "file:///etc/passwd", status: 307))
      return server
    }

    @Test(.timeLimit(.minutes(1)))
    func downloadAllFetchesFromTheArchiveByReleaseThenReleaseGroup() throws {
      let server = try Self.archive()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try Self.music(in: runner)
      let environment = ["BLUELIB_COVERART_URL": server.url("/")]
      let imported = try runner.run(["-c", "import '\(music.root)'"], environment: environment)
      #expect(imported.status == 0, "\(imported.stderr)")
      let shown = try runner.run(["-c", "show Found", "-c", "list -f '$art $title' artist:=Artist"])
      #expect(shown.stdout.contains("Cover: Cover Art Archive (release \(Self.id("r", 1))) (not downloaded)\n"))
      #expect(
        shown.stdout.hasSuffix(
          "url Busy\nurl Found\nurl Group\nnone No Ids\nurl Nowhere\nlocal Own Art\nurl Sneaky\n"), "\(shown.stdout)")

      let result = try runner.run(
        ["-c", "find artist:=Artist", "-c", "download all", "-c", "wait"], environment: environment)
      #expect(result.status == 0, "\(result.stderr)")
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(
        lines.contains(
          "downloading 5 covers, reading 1 local cover (no download), 1 album with no art and no MusicBrainz id to "
            + "look it up by"),
        "\(result.stdout)")
      #expect(
        Array(lines.filter { $0.hasPrefix("cover of") }) == [
          "cover of \"Busy\": 70 bytes",
          "cover of \"Found\": 70 bytes",
          "cover of \"Group\": 70 bytes",
          "cover of \"Nowhere\" failed: no front cover in the Cover Art Archive for release \(Self.id("r", 3)) "
            + "or release group \(Self.id("g", 3))",
          "cover of \"Sneaky\" failed: redirect to file:///etc/passwd refused (only http and https)",
        ], "\(result.stdout)")

      // What was asked of the archive: the release, then its group on a 404; a 503 asked again.
      let asked = server.requests.filter { $0.path.hasPrefix("/release") }
      #expect(asked.count == 8, "\(asked.map(\.path))")
      #expect(server.requestCount("/release/\(Self.id("r", 2))/front-500") == 1)
      #expect(server.requestCount("/release-group/\(Self.id("g", 2))/front-500") == 1)
      #expect(server.requestCount("/release/\(Self.id("r", 4))/front-500") == 2)
      #expect(server.requestCount("/release-group/\(Self.id("g", 1))/front-500") == 0, "a found release asks no more")
      #expect(server.requestCount("/release/\(Self.id("r", 9))/front-500") == 0, "an album with art is not asked for")
      // At most one request a second (spaced as sent; seen here as they arrive, on new
      // connections, so with some slack), each saying who asks.
      for (earlier, later) in zip(asked, asked.dropFirst()) {
        #expect(earlier.time.duration(to: later.time) >= .milliseconds(800), "\(earlier.path) then \(later.path)")
      }
      #expect(asked.first!.time.duration(to: asked.last!.time) >= .milliseconds(6500), "8 requests in under 7 s")
      for request in server.requests {
        #expect(request.userAgent == "bluelib/\(bluelibVersion) ( \(bluelibProjectURL) )", "\(request.path)")
      }
      let after = try runner.run(["-c", "list -f '$art $title' artist:=Artist"])
      #expect(
        after.stdout
          == "downloaded Busy\ndownloaded Found\ndownloaded Group\nnone No Ids\nurl Nowhere\nlocal Own Art\nurl Sneaky\n",
        "\(after.stdout)")
    }

    /// A mirror's address that is not an http(s) URL with a host is said once, as the
    /// command's failure, before anything is asked (round 4, G22: each album failed with a
    /// reason about another URL, such as `could not resolve host release`).
    @Test(arguments: ["http://", "not a url", "ftp://127.0.0.1/", "http://[::1", "http://127.0.0.1:70000"])
    func aBadMirrorAddressIsOneClearLine(mirror: String) throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let csv = runner.home.appendingPathComponent("caa.csv").path
      try "title,coverUrl\nC1,caa:release/\(Self.id("r", 1))\nC2,caa:release/\(Self.id("r", 2))\n".write(
        toFile: csv, atomically: false, encoding: .utf8)
      #expect(try runner.run(["-c", "import \(csv)"]).status == 0)
      let result = try runner.run(
        ["--download-timeout", "3", "-c", "download all; wait"], environment: ["BLUELIB_COVERART_URL": mirror])
      #expect(result.status == 1)
      let reason =
        mirror.hasSuffix("70000")
        ? "BLUELIB_COVERART_URL '\(mirror)': port 70000 is out of range"
        : "BLUELIB_COVERART_URL '\(mirror)' is not an http(s) URL with a host"
      #expect(result.stderr == "bluelib: -c:1: download: \(reason) (2 albums not asked for)\n")
      #expect(!result.stdout.contains("failed"), "\(result.stdout)")
    }
  }
}
