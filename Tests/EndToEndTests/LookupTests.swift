import BlueShell
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

extension RunsAlone {
  /// `lookup` against a loopback server that answers as MusicBrainz's ws/2 search does (JSON
  /// shaped like its own) and as the Cover Art Archive (issue 39, item 3): a clear match is
  /// stored as one undoable step that `download` then fetches, an unclear one is listed with
  /// its candidates and never guessed, and the service is asked at most once a second with a
  /// User-Agent that names a contact (item 4).
  @Suite(.serialized)
  struct LookupTests {
    static let okComputer = "b1392450-e666-3926-a536-22c65f834433"
    static let oknotok = "11111111-e666-3926-a536-22c65f834433"
    static let hits1981 = "22222222-0000-4000-8000-000000000001"
    static let hits1991 = "22222222-0000-4000-8000-000000000002"

    /// A release group as the search answers it.
    static func group(_ id: String, _ title: String, _ artist: String, _ date: String, score: Int) -> String {
      """
      {"id": "\(id)", "type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc", "score": \(score),
       "primary-type-id": "f529b476-6e62-324f-b0aa-1f3e33d313fc", "count": 1, "title": "\(title)",
       "first-release-date": "\(date)", "primary-type": "Album",
       "artist-credit": [{"name": "\(artist)", "artist": {"id": "a74b1b7f-71a5-4011-9441-d0b5e4122711",
         "name": "\(artist)", "sort-name": "\(artist)"}}],
       "releases": [{"id": "0b6b4ba0-d36f-47bd-b4ea-6a5b91842d29", "title": "\(title)", "status": "Official"}]}
      """
    }

    static func answer(_ groups: [String]) -> LoopbackHTTPServer.Response {
      .ok(
        Data(
          """
          {"created": "2026-11-27T12:00:00.000Z", "count": \(groups.count), "offset": 0,
           "release-groups": [\(groups.joined(separator: ","))]}
          """.utf8), contentType: "application/json")
    }

    /// The search as MusicBrainz would answer these three albums' queries.
    static func musicBrainz() throws -> LoopbackHTTPServer {
      let server = try LoopbackHTTPServer()
      server.route(startingWith: "/ws/2/release-group") { _, query in
        let query = (query ?? "").removingPercentEncoding ?? ""
        if query.contains("OK Computer") {
          return answer([
            group(okComputer, "OK Computer", "Radiohead", "1997-05-21", score: 100),
            group(oknotok, "OK Computer OKNOTOK 1997 2017", "Radiohead", "2017-06-23", score: 82),
          ])
        }
        if query.contains("Greatest Hits") {
          return answer([
            group(hits1981, "Greatest Hits", "Queen", "1981-10-26", score: 100),
            group(hits1991, "Greatest Hits", "Queen", "1991-10-28", score: 100),
          ])
        }
        return answer([])
      }
      server.route("/release-group/\(okComputer)/front-500", .ok(CoverFixture.png()))
      return server
    }

    @Test(.timeLimit(.minutes(1)))
    func lookupStoresAClearMatchListsAnUnclearOneAndUndoTakesItBack() throws {
      let server = try Self.musicBrainz()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let csv = runner.home.appendingPathComponent("albums.csv").path
      try "title,artist,year\nOK Computer,Radiohead,1997\nGreatest Hits,Queen,\nNo Such Album,Nobody,\n".write(
        toFile: csv, atomically: false, encoding: .utf8)
      #expect(try runner.run(["-c", "import \(csv)"]).status == 0)
      let environment = [
        "BLUELIB_MUSICBRAINZ_URL": server.url("/"), "BLUELIB_COVERART_URL": server.url("/"),
        "BLUELIB_CONTACT": "me@example.org",
      ]

      let result = try runner.run(["-c", "lookup all"], environment: environment)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        result.stdout == """
          looking up 3 albums in MusicBrainz (one a second; Ctrl-C stops)
          ✓ "OK Computer" — Radiohead: release group b1392450 (1997)
          ? "Greatest Hits" — Queen: 2 candidates, none clearly it ('edit 2 cover=caa:release-group/ID' takes one):
              1981  \(Self.hits1981)  "Greatest Hits" — Queen (Album, score 100)
              1991  \(Self.hits1991)  "Greatest Hits" — Queen (Album, score 100)
          ✗ "No Such Album" — Nobody: nothing like it in MusicBrainz
          looked up 3 albums: 1 found, 1 unclear, 1 not found, 0 failed ('download' fetches the covers found; 'undo' \
          takes them back)

          """)
      // One request a second, each naming the contact, asking by title and artist.
      let asked = server.requests.filter { $0.path == "/ws/2/release-group" }
      #expect(asked.count == 3)
      for (earlier, later) in zip(asked, asked.dropFirst()) {
        #expect(earlier.time.duration(to: later.time) >= .milliseconds(800))
      }
      #expect(asked.allSatisfy { $0.userAgent == "bluelib/\(bluelibVersion) ( me@example.org )" })
      let query = try #require(asked.first?.query?.removingPercentEncoding)
      #expect(query.contains(#"query=releasegroup:"OK Computer" AND artist:"Radiohead""#), "\(query)")

      // Stored: shown, found by the field, and fetched by download from the archive.
      let shown = try runner.run(
        ["-c", "show 1", "-c", "list -f '$title' mb_releasegroupid:\(Self.okComputer)", "-c", "download 1; wait"],
        environment: environment)
      #expect(shown.stdout.contains("Cover: Cover Art Archive (release group \(Self.okComputer))"), "\(shown.stdout)")
      #expect(shown.stdout.contains("\nOK Computer\n"), "\(shown.stdout)")
      #expect(shown.stdout.contains("cover of \"OK Computer\": 70 bytes"), "\(shown.stdout)")
      #expect(server.requestCount("/release-group/\(Self.okComputer)/front-500") == 1)

      // One step, which undo takes back.
      let undone = try runner.run(["-c", "undo", "-c", "list -f '$title $cover'"])
      #expect(undone.status == 0, "\(undone.stderr)")
      #expect(undone.stdout.hasSuffix("OK Computer \nGreatest Hits \nNo Such Album \n"), "\(undone.stdout)")
    }

    /// Ctrl-C (SIGINT, which also ends a script) stops the look-ups and keeps what was
    /// found: the albums asked about before it have their release groups.
    @Test(.timeLimit(.minutes(1)))
    func anInterruptKeepsWhatWasFound() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route(startingWith: "/ws/2/release-group") { _, query in
        let title = ((query ?? "").removingPercentEncoding ?? "").contains("Album 1") ? "Album 1" : "Album 2"
        return Self.answer([Self.group(Self.okComputer, title, "X", "1997", score: 100)])
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let csv = runner.home.appendingPathComponent("albums.csv").path
      try ("title,artist\n" + (1...9).map { "Album \($0),X\n" }.joined()).write(
        toFile: csv, atomically: false, encoding: .utf8)
      #expect(try runner.run(["-c", "import \(csv)"]).status == 0)
      let process = Process()
      process.executableURL = BinaryRunner.executable
      process.arguments = ["--home", runner.home.path, "-c", "lookup all"]
      process.environment = runner.environment(["BLUELIB_MUSICBRAINZ_URL": server.url("/")])
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // One a second: the first two answered, then Ctrl-C while the third waits its turn.
      let deadline = ContinuousClock.now + .seconds(20)
      while server.requestCount("/ws/2/release-group") < 2, ContinuousClock.now < deadline {
        usleep(20_000)
      }
      usleep(300_000)
      kill(process.processIdentifier, SIGINT)
      process.waitUntilExit()
      #expect(process.terminationStatus == 130)
      let after = try runner.run(["-c", "list -f '$title $mb_releasegroupid' Album"])
      #expect(after.stdout.hasPrefix("Album 1 \(Self.okComputer)\n"), "\(after.stdout)")
      #expect(after.stdout.contains("Album 9 \n"), "\(after.stdout)")
    }

    /// A service that cannot be reached is one failure of the command, not three lines of success.
    @Test func lookupFailsWhenMusicBrainzCannotBeReached() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let csv = runner.home.appendingPathComponent("albums.csv").path
      try "title,artist\nA,X\nB,Y\n".write(toFile: csv, atomically: false, encoding: .utf8)
      #expect(try runner.run(["-c", "import \(csv)"]).status == 0)
      let result = try runner.run(["-c", "lookup all"], environment: ["BLUELIB_MUSICBRAINZ_URL": "http://127.0.0.1:9"])
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "bluelib: -c:1: lookup: MusicBrainz could not be asked (cannot connect to 127.0.0.1:9); nothing was looked up\n"
      )
    }

    /// Albums with a cover or an id are left alone; with none to ask about, one line says so.
    @Test func lookupLeavesAlbumsWithACoverAlone() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["-c", "lookup all"], environment: ["BLUELIB_MUSICBRAINZ_URL": "http://127.0.0.1:9"])
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "bluelib: -c:1: lookup: none of these albums needs a look-up: each has a cover or a MusicBrainz id (or no "
          + "artist to look it up by)\n")
    }
  }
}
