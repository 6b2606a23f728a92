import BlueCovers
import BlueLibrary
import Foundation
import MusicSource
import TestSupport
import Testing

@testable import SubsonicClient

extension RunsAlone {
  /// The client and the library against a real supysonic on 127.0.0.1 (Debian's, served by
  /// waitress): its albums listed without their tracks, the tracks asked for once when
  /// needed and kept, an unchanged server synced again in a few requests, the token tried
  /// before the password it needs.
  @Suite(.serialized, .enabled(if: SupysonicFixture.isInstalled, Comment(rawValue: SupysonicFixture.unavailable)))
  struct SupysonicTests {
    private func server() throws -> SupysonicFixture {
      let supysonic = try SupysonicFixture(prepare: MPDFixture.sampleMusic)
      try supysonic.start()
      return supysonic
    }

    private func client(_ supysonic: SupysonicFixture, password: String? = nil) throws -> SubsonicServer {
      SubsonicServer(
        address: try SubsonicAddress(supysonic.url), password: password ?? supysonic.password, timeout: 20)
    }

    @Test func theTokenIsTriedBeforeThePasswordItNeeds() throws {
      let supysonic = try server()
      let client = try client(supysonic)
      try client.check()
      try client.check()
      // supysonic takes no token (error 10 for its missing `p`): the password, from then on.
      #expect(client.authentication == .password)
      #expect(client.requestLog.methods == ["ping", "ping", "ping"])
      #expect(client.features?.version == "1.10.2" && client.features?.openSubsonic == false)
    }

    /// The way to authenticate is remembered per server, in its library file: a second
    /// process sends the password from its first request (no token answered 10 first), and a
    /// wrong password is still said as such.
    @Test func thePasswordTheServerNeededIsSentFirstAtTheNextStart() throws {
      let supysonic = try server()
      let home = try TemporaryDirectory()
      let path = home.file("subsonic.sqlite")
      let covers = CoverSettings(directory: home.file("covers"))
      let first = try client(supysonic)
      _ = try Library.open(path: path, covers: covers, seed: [], source: first).sync()
      #expect(first.requestLog.methods.prefix(2) == ["getIndexes", "getIndexes"], "token, then password")

      let again = try client(supysonic)
      let second = try Library.open(path: path, covers: covers, seed: [], source: again).sync()
      #expect(!second.listed)
      #expect(again.requestLog.methods == ["getIndexes", "getStarred2"], "\(again.requestLog.methods)")
      #expect(again.authentication == .password)

      let wrong = try client(supysonic, password: "guess")
      let error = #expect(throws: (any Error).self) {
        try Library.open(path: path, covers: covers, seed: [], source: wrong).sync()
      }
      #expect(
        error.map { String(describing: $0) }
          == "Subsonic at \(supysonic.url.dropFirst(7)): wrong username or password (error 40)")
    }

    @Test func aWrongPasswordIsOneLine() throws {
      let supysonic = try server()
      let client = try client(supysonic, password: "guess")
      #expect(throws: SourceError("Subsonic at \(supysonic.url.dropFirst(7)): wrong username or password (error 40)")) {
        try client.check()
      }
    }

    /// A sync lists the albums by pages (no `getAlbum`); `show` and `play` ask an album's
    /// tracks once, and they are kept; a second process with the server unchanged lists
    /// nothing, in at most four requests.
    @Test func theAlbumsAreListedWithoutTheirTracksWhichComeOnDemandAndStay() throws {
      let supysonic = try server()
      let home = try TemporaryDirectory()
      let path = home.file("subsonic.sqlite")
      let first = try client(supysonic)
      let library = try Library.open(
        path: path, covers: CoverSettings(directory: home.file("covers")), seed: [], source: first)
      let synced = try library.sync()
      #expect(synced.listed && synced.added >= 3, "\(synced)")
      #expect(!first.requestLog.methods.contains("getAlbum"))
      // supysonic says when it last scanned (`lastModified`): one page, no head of the newest.
      #expect(first.requestLog.methods.filter { $0 == "getAlbumList2" }.count == 1)

      let albums = try library.albums(in: 0..<library.count()).filter { $0.title == "Innuendo" }
      let innuendo = try #require(albums.first)
      #expect(
        innuendo.artist == "Queen" && innuendo.tracks == 2 && innuendo.folder?.hasPrefix(first.root + "/") == true)
      #expect(try library.storedTracklist(of: innuendo)?.tracks.isEmpty == true)
      let tracks = try #require(try library.tracklist(of: innuendo)).tracks
      #expect(tracks.map(\.title) == ["Innuendo", "Headlong"])
      #expect(tracks.map(\.format) == ["FLAC", "MP3"])
      let asked = first.requestLog.count
      #expect(first.requestLog.methods.last == "getAlbum")
      #expect(try library.tracklist(of: innuendo)?.tracks.count == 2)
      #expect(first.requestLog.count == asked, "kept: not asked again")

      // Another process, the server unchanged: nothing listed, at most four requests.
      let again = try client(supysonic)
      let other = try Library.open(
        path: path, covers: CoverSettings(directory: home.file("covers")), seed: [], source: again)
      let second = try other.sync()
      #expect(!second.listed)
      #expect(again.requestLog.count <= 4, "\(again.requestLog.methods)")
      #expect(!again.requestLog.methods.contains("getAlbumList2"), "\(again.requestLog.methods)")
      #expect(try other.storedTracklist(of: innuendo)?.tracks.count == 2, "the tracks stay")
    }
  }
}
