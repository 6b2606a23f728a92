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

    static func answer(_ groups: [String], delay: Double = 0) -> LoopbackHTTPServer.Response {
      .ok(
        Data(
          """
          {"created": "2026-11-27T12:00:00.000Z", "count": \(groups.count), "offset": 0,
           "release-groups": [\(groups.joined(separator: ","))]}
          """.utf8), contentType: "application/json", delay: delay)
    }

    /// The title a search asked for (`releasegroup:"TITLE"`).
    static func askedTitle(_ query: String?) -> String {
      let text = (query ?? "").removingPercentEncoding ?? ""
      guard let start = text.range(of: "releasegroup:\"") else { return "" }
      return String(text[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The release group of `Album N` in ``everyAlbumFound(delay:)``.
    static func groupID(_ title: String) -> String {
      let number = title.split(separator: " ").last.flatMap { Int($0) } ?? 0
      return "00000000-0000-4000-8000-" + String(format: "%012d", number)
    }

    /// A search that finds every album `Album N` by X as its own release group, each answer
    /// after `delay` seconds.
    static func everyAlbumFound(delay: Double = 0) throws -> LoopbackHTTPServer {
      let server = try LoopbackHTTPServer()
      server.route(startingWith: "/ws/2/release-group") { _, query in
        let title = askedTitle(query)
        return answer([group(groupID(title), title, "X", "1997", score: 100)], delay: delay)
      }
      return server
    }

    /// A runner whose library holds `Album 1` … `Album count`, all by X.
    static func albums(_ count: Int, title: String = "Album") throws -> BinaryRunner {
      let runner = BinaryRunner()
      let csv = runner.home.appendingPathComponent("albums.csv").path
      try ("title,artist\n" + (1...count).map { "\(title) \($0),X\n" }.joined()).write(
        toFile: csv, atomically: false, encoding: .utf8)
      let imported = try runner.run(["-c", "import \(csv)"])
      #expect(imported.status == 0, "\(imported.stderr)")
      return runner
    }

    /// `bluelib --home HOME -c COMMAND` started in the background, its output in a pipe.
    static func start(_ runner: BinaryRunner, _ command: String, environment: [String: String]) throws -> (
      process: Process, output: Pipe
    ) {
      let process = Process()
      process.executableURL = BinaryRunner.executable
      process.arguments = ["--home", runner.home.path, "-c", command]
      process.environment = runner.environment(environment)
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      try process.run()
      return (process, output)
    }

    /// Waits (up to 30 s) until `server` had `count` searches.
    static func waitForSearches(_ server: LoopbackHTTPServer, _ count: Int) {
      let deadline = ContinuousClock.now + .seconds(30)
      while server.requestCount("/ws/2/release-group") < count, ContinuousClock.now < deadline {
        usleep(20_000)
      }
    }

    static func sqlite(_ runner: BinaryRunner, _ sql: String) throws {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
      process.arguments = [runner.home.appendingPathComponent("library.sqlite").path, sql]
      try process.run()
      process.waitUntilExit()
      try #require(process.terminationStatus == 0, "sqlite3 \(sql) failed")
    }

    static let hasSQLite3 = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

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
          looking up 3 albums in MusicBrainz, one a second (about 3 s; Ctrl-C stops and keeps what was found)
          ✓ "OK Computer" — Radiohead: release group b1392450 (1997)
          ? "Greatest Hits" — Queen: 2 candidates, none clearly it ('edit 2 cover=caa:release-group/ID' takes one):
              1981  \(Self.hits1981)  "Greatest Hits" — Queen (Album, score 100)
              1991  \(Self.hits1991)  "Greatest Hits" — Queen (Album, score 100)
          looked up 3 albums: 1 found, 1 unclear, 1 not found ('find lookup:none' lists it), 0 failed ('download' \
          fetches the covers found; 'undo' takes them back)

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

    // MARK: - The lock (issue 46, item 7)

    /// `lookup all` waits on the network a second or more per album: no lock is held
    /// meanwhile, so another shell rates an album at once (it waited for the whole run and
    /// failed with "database is locked" after 5 s), and each answer is committed as it
    /// comes, the other shell's rating kept.
    @Test(.timeLimit(.minutes(1)))
    func anotherShellSavesWhileLookupAllWaitsForAnswers() throws {
      let server = try Self.everyAlbumFound(delay: 1.5)
      defer { server.stop() }
      let runner = try Self.albums(8)
      defer { runner.cleanUp() }
      let environment = ["BLUELIB_MUSICBRAINZ_URL": server.url("/"), "BLUELIB_CONTACT": "me@example.org"]
      let (lookup, output) = try Self.start(runner, "lookup all", environment: environment)

      // The first answer is in, the second on its way: 6 answers of 1.5 s are still to come.
      Self.waitForSearches(server, 2)
      let rated = try runner.run(["-c", "rate 1 3"])
      let lookupStillRunning = lookup.isRunning
      lookup.waitUntilExit()
      let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

      #expect(rated.status == 0, "\(rated.stderr)")
      #expect(lookupStillRunning, "the look-ups ended before the other shell saved: nothing was tested")
      #expect(lookup.terminationStatus == 0, "\(printed)")
      #expect(
        printed.hasSuffix(
          "looked up 8 albums: 8 found, 0 unclear, 0 not found, 0 failed ('download' fetches the covers found; 'undo' takes them back)\n"
        ), "\(printed)")
      let after = try runner.run(["-c", "list -f '$title $rating $mb_releasegroupid'"])
      #expect(
        after.stdout.hasPrefix("Album 1 3 \(Self.groupID("Album 1"))\nAlbum 2  \(Self.groupID("Album 2"))\n"),
        "\(after.stdout)")
      #expect(after.stdout.contains("Album 8  \(Self.groupID("Album 8"))\n"), "\(after.stdout)")
    }

    /// Each album found is committed as it is found: a `kill -9` keeps those found so far,
    /// and they are one step, which one `undo` takes back.
    @Test(.timeLimit(.minutes(1)))
    func aKilledLookupKeepsTheAlbumsFoundSoFarAsOneStep() throws {
      let server = try Self.everyAlbumFound()
      defer { server.stop() }
      let runner = try Self.albums(9)
      defer { runner.cleanUp() }
      let environment = ["BLUELIB_MUSICBRAINZ_URL": server.url("/"), "BLUELIB_CONTACT": "me@example.org"]
      let (lookup, _) = try Self.start(runner, "lookup all", environment: environment)

      // The third search is asked once the first two answers were taken (one a second).
      Self.waitForSearches(server, 3)
      kill(lookup.processIdentifier, SIGKILL)
      lookup.waitUntilExit()

      let after = try runner.run(["-c", "list -f '$title $mb_releasegroupid'"])
      #expect(after.status == 0, "\(after.stderr)")
      #expect(
        after.stdout.hasPrefix("Album 1 \(Self.groupID("Album 1"))\nAlbum 2 \(Self.groupID("Album 2"))\n"),
        "\(after.stdout)")
      #expect(after.stdout.contains("Album 9 \n"), "\(after.stdout)")
      let undone = try runner.run(["-c", "undo", "-c", "list -f '$title $cover' Album"])
      #expect(undone.status == 0, "\(undone.stderr)")
      #expect(undone.stdout.contains("Album 1 \nAlbum 2 \n"), "\(undone.stdout)")
      #expect(!undone.stdout.contains("caa:"), "\(undone.stdout)")
    }

    // MARK: - Not found, remembered (issue 46, item 7; H18)

    /// Albums MusicBrainz has nothing like are summed up in one line (881 lines for 881
    /// misses before), listed by `find lookup:none`, and not asked about again for 30 days
    /// unless `--retry`.
    @Test(.timeLimit(.minutes(1)))
    func notFoundIsOneLineListedByFindAndNotAskedAgainUnlessRetried() throws {
      let server = try Self.musicBrainz()
      defer { server.stop() }
      let runner = try Self.albums(3, title: "Missing")
      defer { runner.cleanUp() }
      let environment = ["BLUELIB_MUSICBRAINZ_URL": server.url("/"), "BLUELIB_CONTACT": "me@example.org"]

      let first = try runner.run(["-c", "lookup all"], environment: environment)
      #expect(first.status == 0, "\(first.stderr)")
      #expect(
        first.stdout == """
          looking up 3 albums in MusicBrainz, one a second (about 3 s; Ctrl-C stops and keeps what was found)
          looked up 3 albums: 0 found, 0 unclear, 3 not found ('find lookup:none' lists them), 0 failed

          """)
      let listed = try runner.run(["-c", "list -f '$title' lookup:none"])
      #expect(listed.stdout == "Missing 1\nMissing 2\nMissing 3\n", "\(listed.stdout)\(listed.stderr)")

      let again = try runner.run(["-c", "lookup all"], environment: environment)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(
        again.stdout
          == "nothing to look up: 3 albums not found in the last 30 days left out ('lookup --retry all' asks again)\n")
      #expect(server.requestCount("/ws/2/release-group") == 3)

      let retried = try runner.run(["-c", "lookup --retry all"], environment: environment)
      #expect(retried.status == 0, "\(retried.stderr)")
      #expect(
        retried.stdout.hasSuffix(
          "looked up 3 albums: 0 found, 0 unclear, 3 not found ('find lookup:none' lists them), 0 failed\n"),
        "\(retried.stdout)")
      #expect(server.requestCount("/ws/2/release-group") == 6)
    }

    /// A "not found" dated in the future (a wrong clock, a library copied from one) is taken
    /// as not asked: it was left out until that date (H18).
    @Test(.timeLimit(.minutes(1)), .enabled(if: hasSQLite3))
    func aNotFoundDatedInTheFutureIsAskedAgain() throws {
      let server = try Self.musicBrainz()
      defer { server.stop() }
      let runner = try Self.albums(2, title: "Missing")
      defer { runner.cleanUp() }
      let environment = ["BLUELIB_MUSICBRAINZ_URL": server.url("/"), "BLUELIB_CONTACT": "me@example.org"]
      #expect(try runner.run(["-c", "lookup all"], environment: environment).status == 0)
      try Self.sqlite(runner, "UPDATE lookup_none SET checked = 4102444800")

      let again = try runner.run(["-c", "lookup all"], environment: environment)

      #expect(
        again.stdout.hasSuffix(
          "looked up 2 albums: 0 found, 0 unclear, 2 not found ('find lookup:none' lists them), 0 failed\n"),
        "\(again.stdout)")
      #expect(server.requestCount("/ws/2/release-group") == 4)
    }

    // MARK: - MusicBrainz unreachable (H12)

    /// A dead mirror: three failures in a row end the run with one line, instead of asking
    /// once a second for every album; the first line promised nothing.
    @Test(.timeLimit(.minutes(1)))
    func threeFailuresInARowStopTheRunInOneLine() throws {
      let server = try LoopbackHTTPServer()  // every path answers 404
      defer { server.stop() }
      let runner = try Self.albums(10)
      defer { runner.cleanUp() }

      let result = try runner.run(["-c", "lookup all"], environment: ["BLUELIB_MUSICBRAINZ_URL": server.url("/")])

      #expect(result.status == 1)
      #expect(
        result.stderr
          == "bluelib: -c:1: lookup: MusicBrainz could not be asked 3 times in a row (HTTP 404): stopped, 7 albums not "
          + "asked; nothing was looked up\n")
      #expect(result.stdout == "")
      #expect(server.requestCount("/ws/2/release-group") == 3)
    }

    /// The same for a refused connection: a few seconds, not one a second per album.
    @Test(.timeLimit(.minutes(1)))
    func aRefusedConnectionStopsTheRunAfterThreeTries() throws {
      let runner = try Self.albums(10)
      defer { runner.cleanUp() }

      let result = try runner.run(["-c", "lookup all"], environment: ["BLUELIB_MUSICBRAINZ_URL": "http://127.0.0.1:9"])

      #expect(result.status == 1)
      #expect(
        result.stderr
          == "bluelib: -c:1: lookup: MusicBrainz could not be asked 3 times in a row (cannot connect to 127.0.0.1:9): "
          + "stopped, 7 albums not asked; nothing was looked up\n")
    }

    /// The albums to ask about are read a page at a time and kept as ids: `lookup all` on a
    /// large library takes little more memory than a shell that looks nothing up (it held
    /// every album: 319 MB for a million).
    @Test(.timeLimit(.minutes(3)), .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func lookupAllOfALargeLibraryHoldsIdsNotAlbums() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let rows = 200_000
      var csv = "title,artist,genre\n"
      csv.reserveCapacity(rows * 60)
      for i in 1...rows { csv += "A fairly long album title number \(i),Some artist \(i % 1000),Genre \(i % 10)\n" }
      let file = runner.home.appendingPathComponent("big.csv").path
      try csv.write(toFile: file, atomically: false, encoding: .utf8)
      #expect(try runner.run(["-c", "import \(file)"]).status == 0)
      let environment = ["BLUELIB_MUSICBRAINZ_URL": "http://127.0.0.1:9"]

      let idle = try runner.runMeasuringPeakMemory(
        script: "list zzzz\n", until: "match 'zzzz'\n", environment: environment, timeout: 60)
      let looked = try runner.runMeasuringPeakMemory(
        script: "lookup all\nlist zzzz\n", until: "match 'zzzz'\n", environment: environment, timeout: 60)

      let idlePeak = try #require(idle.peakKiB, "\(idle.result.stderr)")
      let lookupPeak = try #require(looked.peakKiB, "lookup all did not end: \(looked.result.stderr)")
      #expect(looked.result.stderr.contains("3 times in a row"), "\(looked.result.stderr)")
      #expect(lookupPeak - idlePeak < 12 * 1024, "lookup all took \(lookupPeak - idlePeak) KiB more than an idle shell")
    }

    // MARK: - What a server sends (H1) and what bluelib says of itself

    /// Every text of an answer — title, artist credit, join phrase, type — reaches the
    /// terminal escaped: a mirror cannot set the clipboard (OSC 52), retitle or clear it.
    @Test(.timeLimit(.minutes(1)))
    func controlCharactersFromMusicBrainzAreEscapedInEveryField() throws {
      let hostile =
        "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}31m\u{9D}0;x\u{9C}\u{1B}]8;;http://evil.example/\u{07}"
      let json = { (text: String) in
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
      }
      let groups = [Self.okComputer, Self.oknotok].map { id in
        """
        {"id": "\(id)", "score": 95, "title": \(json("OK Computer" + hostile)), "first-release-date": "1999",
         "primary-type": \(json("Album" + hostile)),
         "artist-credit": [{"name": \(json("Radiohead" + hostile)), "joinphrase": \(json(" & " + hostile))},
           {"name": "B"}]}
        """
      }
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route(startingWith: "/ws/2/release-group") { _, _ in Self.answer(groups) }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let csv = runner.home.appendingPathComponent("albums.csv").path
      try "title,artist\nOK Computer,Radiohead\n".write(toFile: csv, atomically: false, encoding: .utf8)
      #expect(try runner.run(["-c", "import \(csv)"]).status == 0)

      let result = try runner.run(
        ["-c", "lookup 1"], environment: ["BLUELIB_MUSICBRAINZ_URL": server.url("/"), "BLUELIB_CONTACT": "me@x.org"])

      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("2 candidates"), "\(result.stdout)")
      let raw = (result.stdout + result.stderr).unicodeScalars.filter {
        ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
      }
      #expect(raw.isEmpty, "raw control characters: \(raw.map { String($0.value, radix: 16) })")
      #expect(result.stdout.contains(#"(Album\e]52;c;cHduZWQ=\x07\e]0;PWNED\x07\e[2J"#), "\(result.stdout)")
    }

    /// MusicBrainz asks for a contact in the User-Agent: the user's (BLUELIB_CONTACT), else
    /// none — never an address bluelib made up — and `lookup` says once how to set it.
    @Test(.timeLimit(.minutes(1)))
    func theUserAgentNamesTheUsersContactOrNoneAndLookupSaysOnceHowToSetIt() throws {
      let server = try Self.everyAlbumFound()
      defer { server.stop() }
      let runner = try Self.albums(3)
      defer { runner.cleanUp() }

      let without = try runner.run(
        ["-c", "lookup 1", "-c", "lookup 2"], environment: ["BLUELIB_MUSICBRAINZ_URL": server.url("/")])
      let with = try runner.run(
        ["-c", "lookup 3"],
        environment: ["BLUELIB_MUSICBRAINZ_URL": server.url("/"), "BLUELIB_CONTACT": "me@example.org\r\nX-Evil: 1"])

      #expect(without.status == 0, "\(without.stderr)")
      let hint = "set BLUELIB_CONTACT"
      #expect(without.stdout.components(separatedBy: hint).count == 2, "\(without.stdout)")
      #expect(!with.stdout.contains(hint), "\(with.stdout)")
      let agents = server.requests.filter { $0.path == "/ws/2/release-group" }.map(\.userAgent)
      #expect(
        agents == [
          "bluelib/\(bluelibVersion)", "bluelib/\(bluelibVersion)",
          "bluelib/\(bluelibVersion) ( me@example.orgX-Evil: 1 )",
        ])
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
