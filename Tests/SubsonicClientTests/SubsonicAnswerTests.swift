import Foundation
import MusicSource
import Testing

@testable import SubsonicClient

/// Answers in the shapes other servers send (gonic's and Navidrome's published test data,
/// OpenSubsonic's fields), which supysonic does not: read as bluelib takes them.
struct SubsonicAnswerTests {
  /// The file `name` of Recorded/.
  static func recorded(_ name: String) throws -> Data {
    try Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Recorded/" + name)
    )
  }

  private let server = SubsonicServer(address: try! SubsonicAddress("https://me@music.example.org"), password: "x")

  @Test func gonicsAlbumListGivesNameStarsRatingsAndPlays() throws {
    let answer = try SubsonicAnswer.decode(Self.recorded("gonic-getAlbumList2-starred.json"))
    #expect(answer.status == "ok" && answer.type == "gonic" && answer.openSubsonic)
    let albums = try #require(answer.albumList2)
    #expect(albums.count == 2)
    // gonic's `title` is empty beside its `name`.
    #expect(albums[0].name == "Things We Lost in the Fire")
    #expect(albums[0].songCount == 13 && albums[0].duration == 3264 && albums[0].year == 2001)
    #expect(albums[0].starred && albums[0].userRating == 4 && albums[0].playCount == 7)
    #expect(albums[0].created == 1_575_072_000)
    #expect(albums[1].created == 1_560_427_048, "an offset of +01:00")
    #expect(albums[1].musicBrainzID == nil, "an empty id is none")

    let listed = server.sourceAlbum(albums[0])
    #expect(listed.path == "al-3")
    #expect(listed.coverURL == "subsonic://me@music.example.org:443/cover:al-3")
    #expect(listed.rating == 4 && listed.ratingKnown && listed.favourite)
    #expect(listed.plays == 7 && listed.genre == "Slowcore" && listed.trackCount == 13)
  }

  @Test func navidromesAlbumGivesItsSongsWithTheirAlbumArtistRatingAndSuffix() throws {
    let answer = try SubsonicAnswer.decode(Self.recorded("navidrome-getAlbum.json"))
    let album = try #require(answer.album)
    #expect(album.name == "Kid A" && album.userRating == 5 && album.playCount == 12)
    #expect(album.played == 1_709_414_109)
    #expect(album.coverArt == "al-3a0c2c8e1d9b7f6e5d4c3b2a19081726_65f0a1b2")
    #expect(album.songs.count == 2)
    let first = album.songs[0]
    #expect(first.title == "Everything in Its Right Place" && first.track == 1 && first.disc == 1)
    #expect(first.albumArtist == "Radiohead" && first.suffix == "flac" && first.duration == 251)
    #expect(first.userRating == 5 && first.starred)
    #expect(first.musicBrainzID == "e1d2c3b4-a5f6-4789-8abc-def012345678")
    #expect(album.songs[1].userRating == nil && !album.songs[1].starred)
    // What the library's fields take (issue 50, item 4): an empty composer is none; a song
    // that does not say its rates has none.
    #expect(first.bitRate == 1024 && first.samplingRate == 44_100 && first.composer == nil)
    #expect(album.songs[1].bitRate == nil && album.songs[1].samplingRate == nil)
  }

  @Test func theExtensionsAreNamed() throws {
    let answer = try SubsonicAnswer.decode(Self.recorded("navidrome-getOpenSubsonicExtensions.json"))
    let names = try #require(answer.openSubsonicExtensions).map(\.name)
    #expect(names.contains("apiKeyAuthentication") && names.contains("formPost") && names.count == 7)
    #expect(answer.openSubsonicExtensions?.first?.versions == [1])
  }

  @Test func aLastModifiedOfZeroSaysNothing() throws {
    let answer = try SubsonicAnswer.decode(Self.recorded("gonic-getIndexes.json"))
    #expect(answer.indexes?.lastModified == 0)
  }

  /// Numbers as strings, ids as numbers, bounds passed, an item without an id or of another
  /// kind: taken, cut or left out, never a failure of the whole page; the texts are kept as
  /// sent (escaped where shown).
  @Test func aLooseAnswerIsTakenWithinBounds() throws {
    let albums = try #require(try SubsonicAnswer.decode(Self.recorded("loose-getAlbumList2.json")).albumList2)
    #expect(albums.map(\.id) == ["42", "43", "44"])
    #expect(albums[0].songCount == 9 && albums[0].year == 1999 && albums[0].duration == 1800.5)
    #expect(albums[1].songCount == 1 << 20, "a count is capped")
    #expect(albums[1].duration == 0 && albums[1].year == nil && albums[1].userRating == nil)
    #expect(albums[1].coverArt == nil, "an empty cover id is none")
    #expect(albums[1].name == "\u{1B}[2J\u{1B}]0;pwned\u{07}Evil")
    #expect(albums[2].name == "Folder-Style Title")
    #expect(server.sourceAlbum(albums[0]).path == "42")
  }

  @Test func aPageOfMoreAlbumsThanAskedIsCut() throws {
    let items = (0..<700).map { #"{"id":"a\#($0)","name":"N\#($0)","songCount":1}"# }.joined(separator: ",")
    let json = #"{"subsonic-response":{"status":"ok","version":"1.16.1","albumList2":{"album":[\#(items)]}}}"#
    #expect(try SubsonicAnswer.decode(Data(json.utf8)).albumList2?.count == 500)
  }

  @Test func aLongTextIsCut() throws {
    let long = String(repeating: "x", count: 100_000)
    let json = #"{"subsonic-response":{"status":"ok","albumList2":{"album":[{"id":"1","name":"\#(long)"}]}}}"#
    #expect(try SubsonicAnswer.decode(Data(json.utf8)).albumList2?.first?.name.count == SubsonicAnswer.longestText)
  }

  @Test func supysonicsAggregateErrorHasACodeAndNoMessage() throws {
    let answer = try SubsonicAnswer.decode(Self.recorded("supysonic-error-aggregate.json"))
    #expect(answer.status == "failed" && answer.error == SubsonicAnswer.Failure(code: 0, message: ""))
  }

  @Test(arguments: [
    ("2024-12-01T10:00:00.123456", Int64(1_733_047_200)),
    ("2024-12-01T10:00:00Z", Int64(1_733_047_200)),
    ("2024-12-01T11:30:00+01:30", Int64(1_733_047_200)),
    ("2024-12-01", Int64(1_733_011_200)),
    ("0001-01-01T00:00:00Z", Int64(-62_135_596_800)),
  ])
  func datesAreReadAsSecondsSince1970(_ text: String, _ seconds: Int64) {
    #expect(SubsonicAnswer.seconds(ofDate: text) == seconds)
  }

  @Test(arguments: ["", "yesterday", "2024-13-01", "2024-1-1"])
  func whatIsNoDateIsNone(_ text: String) {
    #expect(SubsonicAnswer.seconds(ofDate: text) == nil)
  }

  /// A server's words reach the terminal escaped and cut, in one line.
  @Test func anErrorIsOneEscapedLine() {
    let error = SubsonicError(server: "Subsonic at me@h:443", .failed(code: 0, message: "bad\u{1B}[31m\nthing"))
    #expect(error.description == "Subsonic at me@h:443: bad\\e[31m\\nthing (error 0)")
    let long = SubsonicError(server: "S", .failed(code: 70, message: String(repeating: "y", count: 5000)))
    #expect(long.description.count < 300)
    #expect(
      SubsonicError(server: "S", .failed(code: 40, message: "Wrong username or password.")).description
        == "S: wrong username or password (error 40)")
    #expect(
      SubsonicError(server: "S", .transport(.connectionRefused(host: "h", port: 1))).cause
        == "cannot connect: connection refused")
    #expect(
      SubsonicError(server: "S", .transport(.tlsFailure(host: "h", reason: "certificate not trusted"))).cause
        == "TLS: certificate not trusted (the system's authorities do not vouch for it)")
  }

  /// Ids with what would end a path or a suffix are filed inside one part, and read back.
  @Test func idsAreFiledInOnePartAndReadBack() {
    let id = "a/b:c.d%e f"
    let filed = SubsonicServer.filed(id)
    #expect(!filed.contains("/") && !filed.contains(".") && !filed.contains(":"))
    let ids = SubsonicServer.ids(ofPath: filed + "/" + SubsonicServer.filed("song.1") + ".flac")
    #expect(ids?.album == id && ids?.song == "song.1")
    #expect(SubsonicServer.ids(ofPath: filed)?.song == nil)
  }
}
