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
  /// group, as many at once as --downloads allows, with bluelib's User-Agent, and a host
  /// that answers 503 or 429 is given room by every request (issue 39).
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

    /// A "none" dated in the future (a wrong clock, a library copied from one) is taken as
    /// not asked: `download all` left it out until that date, here the year 2100 (H18).
    @Test(.timeLimit(.minutes(1)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func aNoneDatedInTheFutureIsAskedAgain() throws {
      let server = try Self.archive()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let music = try Self.music(in: runner)
      let environment = ["BLUELIB_COVERART_URL": server.url("/")]
      #expect(try runner.run(["-c", "import '\(music.root)'"], environment: environment).status == 0)
      let first = try runner.run(["-c", "download Nowhere", "-c", "wait"], environment: environment)
      #expect(first.stdout.contains("none in the Cover Art Archive"), "\(first.stdout)")
      let sqlite = Process()
      sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
      sqlite.arguments = [
        runner.home.appendingPathComponent("library.sqlite").path, "UPDATE cover_none SET checked = 4102444800",
      ]
      try sqlite.run()
      sqlite.waitUntilExit()
      #expect(sqlite.terminationStatus == 0)

      let again = try runner.run(["-c", "find Nowhere", "-c", "download all", "-c", "wait"], environment: environment)

      #expect(!again.stdout.contains("asked in the last 30 days"), "\(again.stdout)")
      #expect(again.stdout.contains("cover of \"Nowhere\": none in the Cover Art Archive"), "\(again.stdout)")
      #expect(server.requestCount("/release/\(Self.id("r", 3))/front-500") == 2)
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
          "cover of \"Nowhere\": none in the Cover Art Archive (release a0000000, release group b0000000)",
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
      // Not spaced out (the archive has no rate limit): the five releases are asked at once,
      // as --downloads allows; each request says who asks.
      let releases = asked.filter { $0.path.hasPrefix("/release/") }
      #expect(releases[0].time.duration(to: releases[4].time) < .seconds(1), "\(releases.map(\.time))")
      for request in server.requests {
        #expect(request.userAgent == "bluelib/\(bluelibVersion)", "\(request.path)")
      }
      // One line sums the batch up, after every album's.
      #expect(lines.last == "3 covers downloaded, 1 album has none in the archive, 1 failed", "\(result.stdout)")

      // "None" is an answer: the next `download all` does not ask about Nowhere again (for
      // 30 days), until `download --retry`.
      let before = server.totalRequests
      let again = try runner.run(
        ["-c", "find artist:=Artist", "-c", "download all", "-c", "wait"], environment: environment)
      #expect(
        again.stdout.contains(
          "downloading 1 cover, 3 already cached, reading 1 local cover (no download), 1 album with no art and no "
            + "MusicBrainz id to look it up by, 1 album has none in the Cover Art Archive (asked in the last 30 days; "
            + "'download --retry' asks again)"), "\(again.stdout)")
      #expect(server.requestCount("/release/\(Self.id("r", 3))/front-500") == 1)
      #expect(server.totalRequests == before + 1, "only Sneaky's release again")
      let retried = try runner.run(
        ["-c", "find artist:=Artist", "-c", "download --retry all", "-c", "wait"], environment: environment)
      #expect(retried.stdout.contains("cover of \"Nowhere\": none in the Cover Art Archive"), "\(retried.stdout)")
      #expect(server.requestCount("/release/\(Self.id("r", 3))/front-500") == 2)
      let after = try runner.run(["-c", "list -f '$art $title' artist:=Artist"])
      #expect(
        after.stdout
          == "downloaded Busy\ndownloaded Found\ndownloaded Group\nnone No Ids\nurl Nowhere\nlocal Own Art\nurl Sneaky\n",
        "\(after.stdout)")
    }

    /// `count` albums whose covers are the archive's releases `…0001` on, in a fresh home.
    static func archiveAlbums(_ count: Int, in runner: BinaryRunner) throws {
      let csv = runner.home.appendingPathComponent("caa.csv").path
      let rows = (1...count).map { "C\($0),caa:release/\(id("r", $0))" }
      try ("title,coverUrl\n" + rows.joined(separator: "\n") + "\n").write(
        toFile: csv, atomically: false, encoding: .utf8)
      #expect(try runner.run(["-c", "import \(csv)"]).status == 0)
    }

    /// The lines of each cover that landed, from a run's output.
    static func downloaded(_ output: String) -> Int {
      output.split(separator: "\n").count { $0.hasPrefix("cover of \"C") && $0.hasSuffix(": 70 bytes") }
    }

    /// 100 covers from the archive, each answered 0.2 s late, eight at once: seconds, not
    /// the 100 s of one request a second (issue 39: 80 s for 11 covers).
    @Test(.timeLimit(.minutes(1)))
    func aHundredArchiveCoversTakeSecondsNotMinutes() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route("/images/front.png", .ok(CoverFixture.png()))
      let image = server.url("/images/front.png")
      server.route(startingWith: "/release/") { _, _ in
        var redirect = LoopbackHTTPServer.Response.redirect(to: image, status: 307)
        redirect.delay = 0.2
        return redirect
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      try Self.archiveAlbums(100, in: runner)
      let start = ContinuousClock.now
      let result = try runner.run(
        ["--downloads", "8", "-c", "download all", "-c", "wait"], environment: ["BLUELIB_COVERART_URL": server.url("/")]
      )
      let took = ContinuousClock.now - start
      #expect(result.status == 0, "\(result.stderr)")
      #expect(Self.downloaded(result.stdout) == 100, "\(result.stdout)")
      #expect(took < .seconds(20), "took \(took)")
      #expect(server.peakConnections >= 8)
    }

    /// The archive says it is busy (503, `Retry-After: 2`) to its first three requests:
    /// every request to it waits two seconds — not only those three — then all go on, and
    /// no cover is lost (issue 39).
    @Test(.timeLimit(.minutes(1)))
    func aBurstOfBusyAnswersSlowsEveryRequestToTheHostThenRecovers() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route("/images/front.png", .ok(CoverFixture.png()))
      let image = server.url("/images/front.png")
      let answered = LockedBox(0)
      server.route(startingWith: "/release/") { _, _ in
        var busy = false
        answered.update {
          $0 += 1
          busy = $0 <= 3
        }
        return busy
          ? LoopbackHTTPServer.Response(status: 503, headers: ["Retry-After": "2"])
          : .redirect(to: image, status: 307)
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      try Self.archiveAlbums(20, in: runner)
      let result = try runner.run(
        ["--downloads", "4", "-c", "download all", "-c", "wait"], environment: ["BLUELIB_COVERART_URL": server.url("/")]
      )
      #expect(result.status == 0, "\(result.stderr)")
      #expect(Self.downloaded(result.stdout) == 20, "\(result.stdout)")
      let asked = server.requests.filter { $0.path.hasPrefix("/release/") }
      #expect(asked.count == 23, "three asked again")
      // The first four went at once; once one came back busy, nothing was asked for two
      // seconds (a little slack for the arrival of what was already on its way).
      let first = asked[0].time
      let quiet = asked.dropFirst(4).filter { first.duration(to: $0.time) < .milliseconds(1800) }
      #expect(quiet.isEmpty, "\(asked.map { first.duration(to: $0.time) })")
      #expect(Set(asked.map(\.path)).count == 20)
    }

    /// `seconds` since 1970 as an HTTP date in `format` (strftime's, in GMT).
    private static func httpDate(_ seconds: Int, _ format: String) -> String {
      var time = time_t(seconds)
      var parts = tm()
      gmtime_r(&time, &parts)
      var buffer = [CChar](repeating: 0, count: 64)
      let count = strftime(&buffer, buffer.count, format, &parts)
      return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A busy answer whose `Retry-After` is a date four seconds ahead, in each of the three
    /// forms RFC 9110 §5.6.7 says a recipient must read: the host is left alone until then
    /// (three seconds at least), where only the first form was read and the others waited
    /// the one second of a busy answer without a date (review of issue 47).
    @Test(
      .timeLimit(.minutes(1)),
      arguments: [
        ("%a, %d %b %Y %H:%M:%S GMT", 503), ("%A, %d-%b-%y %H:%M:%S GMT", 429), ("%a %b %e %H:%M:%S %Y", 503),
      ])
    func aRetryAfterDateInEachFormLeavesTheHostAloneUntilThen(format: String, status: Int) throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route("/images/front.png", .ok(CoverFixture.png()))
      let image = server.url("/images/front.png")
      // The first answer is busy, with a date four seconds from when it is sent.
      let told = LockedBox<String?>(nil)
      server.route(startingWith: "/release/") { _, _ in
        var date: String?
        told.update {
          if $0 == nil {
            $0 = Self.httpDate(Int(Date().timeIntervalSince1970) + 4, format)
            date = $0
          }
        }
        guard let date else { return .redirect(to: image, status: 307) }
        return LoopbackHTTPServer.Response(status: status, headers: ["Retry-After": date])
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      try Self.archiveAlbums(1, in: runner)

      let result = try runner.run(
        ["-c", "download all", "-c", "wait"], environment: ["BLUELIB_COVERART_URL": server.url("/")])

      #expect(result.status == 0, "\(result.stderr)")
      #expect(Self.downloaded(result.stdout) == 1, "\(result.stdout)")
      let asked = server.requests.filter { $0.path.hasPrefix("/release/") }
      #expect(asked.count == 2, "\(asked.map(\.path))")
      let gap = asked.count == 2 ? asked[0].time.duration(to: asked[1].time) : .zero
      #expect(gap >= .seconds(3), "asked again \(gap) later, told '\(told.value ?? "")'")
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
