import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// The missing-art loop (issue "Covers for every album", items 2 and 3): the field `art`
/// (none, local, downloaded, url) in queries and `list -f '$art'`, and `download all`
/// counting only real downloads — a cover in the music folder is neither announced nor
/// reported with a status line.
@Suite(.serialized)
struct ArtFieldTests {
  /// The issue cases' music folder (embedded and folder covers, albums with none), plus
  /// "Remote", whose cover is on a loopback server and already downloaded.
  static func library(_ runner: BinaryRunner, _ server: LoopbackHTTPServer) throws -> MusicFolderFixture {
    let music = try MusicFolderFixture.issueCases(in: runner.home)
    server.route("/remote.png", .ok(CoverFixture.png()))
    let made = try runner.run([
      // Added first: the sample albums (their covers bundled, `url`) stay in the library.
      "-c", "add Remote cover=\(server.url("/remote.png"))", "-c", "import '\(music.root)'", "-c", "download Remote",
      "-c", "wait",
    ])
    #expect(made.status == 0, "\(made.stderr)")
    return music
  }

  @Test func theArtFieldSaysWhereEachAlbumsArtStandsInQueriesAndFormats() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    _ = try Self.library(runner, server)
    let listed = try runner.run(["-c", "list -f '$art|$title'"])
    var byArt: [String: [String]] = [:]
    for line in listed.stdout.split(separator: "\n") {
      let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
      byArt[parts[0], default: []].append(parts[1])
    }
    #expect(Set(byArt.keys) == ["none", "local", "downloaded", "url"], "\(listed.stdout)")
    #expect(byArt["downloaded"] == ["Remote"])
    #expect(
      byArt["url"] == ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"])
    #expect(byArt["local"]?.contains("OK Computer") == true && byArt["local"]?.contains("Homogenic") == true)
    #expect(byArt["local"]?.contains("Dummy") == true)
    #expect(byArt["none"]?.isEmpty == false)
    // The query finds exactly the albums the format names, for every kind, in any case.
    for (art, titles) in byArt {
      let found = try runner.run(["-c", "list -f '$title' art:\(art.uppercased())"])
      #expect(found.stdout == titles.map { $0 + "\n" }.joined(), "art:\(art)")
    }
    let negated = try runner.run(["-c", "list -f '$title' ^art:none ^art:local"])
    let fetched = listed.stdout.split(separator: "\n").filter { $0.hasPrefix("url|") || $0.hasPrefix("downloaded|") }
    #expect(negated.stdout == fetched.map { $0.split(separator: "|", maxSplits: 1)[1] + "\n" }.joined())
    let wrong = try runner.run(["-c", "find art:missing"])
    #expect(wrong.status == 1)
    #expect(
      wrong.stderr.contains("'missing' is not a kind of art (art is none, local, downloaded or url)"), "\(wrong.stderr)"
    )
  }

  /// `download all` in a view: one announcement that counts each kind once, a status line
  /// per real download only; covers in the music folder are read, not downloaded, and
  /// print no line when they are read.
  @Test func downloadAllCountsOnlyRealDownloads() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    _ = try Self.library(runner, server)
    let none = try runner.run(["-c", "list -f '$title' art:none"]).stdout.split(separator: "\n").count
    let local = try runner.run(["-c", "list -f '$title' art:local"]).stdout.split(separator: "\n").count
    let result = try runner.run(["-c", "download all", "-c", "wait"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == "downloading 5 covers, 1 already cached, reading \(local) local covers (no download), "
        + "\(none) albums with no art and no MusicBrainz id to look it up by", "\(result.stdout)")
    let statusLines = lines.filter { $0.hasPrefix("cover of") }
    #expect(statusLines.count == 5, "\(result.stdout)")
    #expect(!statusLines.contains { $0.contains("OK Computer") || $0.contains("Homogenic") || $0.contains("Dummy") })
    // Then the samples' covers are downloaded too: nothing is left to fetch.
    #expect(try runner.run(["-c", "list -f '$title' art:url"]).stdout == "")
    #expect(try runner.run(["-c", "list -f '$title' art:downloaded"]).stdout.split(separator: "\n").count == 6)
  }
  /// The issue's case: `download all` on a view of 300 albums — 100 covers on a server, 100
  /// in local files, 100 with none — prints one summary and one line per real download.
  @Test func downloadAllOnAViewOf300AlbumsPrintsALinePerRealDownload() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    var csv = "title,artist,coverUrl\n"
    for number in 1...300 {
      let cover: String
      switch number % 3 {
      case 0:
        server.route("/\(number).png", .ok(CoverFixture.png()))
        cover = server.url("/\(number).png")
      case 1:
        // A picture of its own in each album's folder.
        let local = runner.home.appendingPathComponent("local-\(number).png")
        try CoverFixture.png().write(to: local)
        cover = "file://" + local.path
      default: cover = ""
      }
      csv += "Album \(number),Many,\(cover)\n"
    }
    let file = runner.home.appendingPathComponent("many.csv")
    try csv.write(to: file, atomically: true, encoding: .utf8)
    #expect(try runner.run(["-c", "import '\(file.path)'"]).status == 0)
    let result = try runner.run(["-c", "find artist:=Many", "-c", "download all", "-c", "wait"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.hasPrefix("downloading") } == [
        "downloading 100 covers, reading 100 local covers (no download), 100 albums without a cover URL"
      ], "\(result.stdout.prefix(400))")
    let statusLines = lines.filter { $0.hasPrefix("cover of") }
    #expect(statusLines.count == 100)
    #expect(statusLines.allSatisfy { $0.hasSuffix(": 70 bytes") }, "\(statusLines.prefix(3))")
    #expect(server.totalRequests == 100)
  }
  /// A view by `art` follows covers as they land, as a view follows edits: after `find
  /// art:url; download all; wait` its albums have left it (a cover in the cache changes no
  /// album row, so the view is made again when covers landed).
  @Test func aViewByArtFollowsTheCoversThatLand() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run([
      "-c", "find art:url", "-c", "download all", "-c", "wait", "-c", "show 1", "-c", "find art:downloaded",
    ])
    #expect(result.stdout.hasPrefix("5 of 5 albums match 'art:url'\n"), "\(result.stdout)")
    #expect(result.stderr.contains("show: no album 1"), "the view kept albums it no longer matches: \(result.stderr)")
    #expect(result.stdout.contains("5 of 5 albums match 'art:downloaded'\n"), "\(result.stdout)")
  }
}
