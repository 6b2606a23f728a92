import BlueLibrary
import Foundation
import MPDClient
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// A sync against a fake MPD whose database is made up song by song and listed in
  /// `find … window` requests of 4,000 songs, as MPD lists it: grouped and stored a window at
  /// a time, with the albums one listing of every song would give.
  @Suite(.serialized)
  struct MPDSyncWindowTests {
    /// One made-up song: its place and tags.
    struct Song {
      var uri: String
      var album: String?
      var artist: String
      var title: String
      var track: Int
      var disc: Int?

      /// The lines MPD answers for it.
      var lines: String {
        var text = "file: \(uri)\nLast-Modified: 2024-01-02T03:04:05Z\nduration: 61.5\nArtist: \(artist)\n"
        if let album { text += "Album: \(album)\n" }
        text += "Title: \(title)\nTrack: \(track)\n"
        if let disc { text += "Disc: \(disc)\n" }
        return text
      }
    }

    /// 8,106 songs: albums of six songs in folders whose names differ in case only (`artist
    /// 001/`, `Artist 002/`), so album 666 (songs 3,996 to 4,001) and album 1,333 straddle
    /// the windows; two discs of one album in sibling folders at the top, which merge into
    /// one; and a folder of two albums with one key (an untagged song titled by the folder,
    /// and a song tagged with the folder's name).
    static let songs: [Song] = {
      var songs = (0..<8100).map { index in
        let album = index / 6
        let artist = String(format: album % 2 == 0 ? "artist %03d" : "Artist %03d", album / 20)
        let title = String(format: "Album %05d", album)
        return Song(
          uri: "\(artist)/\(title)/\(String(format: "%02d", index % 6 + 1)).flac", album: title, artist: artist,
          title: "Song \(index)", track: index % 6 + 1)
      }
      songs += [
        Song(uri: "Loose CD2/01.flac", album: "Loose", artist: "L", title: "Second", track: 1, disc: 2),
        Song(uri: "Loose CD1/01.flac", album: "Loose", artist: "L", title: "First", track: 1, disc: 1),
        Song(uri: "Mixed/01.flac", album: nil, artist: "M", title: "Untagged", track: 1),
        Song(uri: "Mixed/02.flac", album: "Mixed", artist: "M", title: "Tagged", track: 2),
        Song(uri: "zz/Last/01.flac", album: "Last", artist: "Z", title: "One", track: 1),
        Song(uri: "zz/Last/02.flac", album: "Last", artist: "Z", title: "Two", track: 2),
      ]
      return songs
    }()

    @Test func aSyncGroupsWindowByWindowTheAlbumsOneListingOfEverySongGives() throws {
      let songs = Self.songs
      let mpd = try GeneratedMPD(songs: songs.count) { songs[$0].lines }
      let server = MPDServer(
        address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: mpd.port), password: nil), timeout: 30)
      defer {
        server.stop()
        mpd.stop()
      }
      let library = Library.inMemory(seed: [], source: server)
      let synced = try library.sync()
      #expect(synced.tracks == songs.count)

      // What grouping every song at once gives, keyed as an import keys (a suffix for the
      // later of two albums with one key).
      let root = "mpd://127.0.0.1:\(mpd.port)"
      let listed = songs.map { song in
        ListedTrack(
          path: root + "/" + song.uri, modified: 1_704_164_645_000_000_000,
          tags: TrackTags(
            album: song.album, artist: song.artist, title: song.title, trackNumber: song.track,
            discNumber: song.disc, format: "FLAC", duration: 61.5))
      }
      var keys: Set<String> = []
      let expected = MusicFolderScanner.albums(listed: listed).map { album in
        var key = album.key
        var copy = 1
        while !keys.insert(key).inserted {
          copy += 1
          key = album.key + "\u{1F}\(copy)"
        }
        return "\(key)|\(album.title)|\(album.artist)|\(album.folder)|\(album.trackCount)"
      }
      let albums = try library.allAlbums()
      let stored = albums.map { "\($0.sourceKey ?? "")|\($0.title)|\($0.artist)|\($0.folder ?? "")|\($0.tracks ?? 0)" }
      #expect(stored.count == 1354)
      #expect(stored == expected)

      // The albums across the windows' edges are one album each, with their six tracks in order.
      for number in [666, 1333] {
        let album = try #require(albums.first { $0.title == String(format: "Album %05d", number) })
        let tracklist = try #require(try library.tracklist(of: album))
        #expect(tracklist.tracks.map(\.title) == (0..<6).map { "Song \(number * 6 + $0)" })
      }
      // The discs in sibling folders at the top are one album; the two of one key are two.
      let loose = try #require(albums.first { $0.title == "Loose" })
      #expect(loose.folder == root && loose.tracks == 2)
      #expect(try library.tracklist(of: loose)?.tracks.map(\.title) == ["First", "Second"])
      #expect(albums.filter { $0.title == "Mixed" }.count == 2)

      // Listed again unchanged (another version): nothing written.
      let again = try library.sync()
      #expect(!again.listed)
    }
  }
}

/// A listing asks for its next window before it hands the last over, so the server finds and
/// writes it while the library files the last (issue 47, item 6); a listing stopped with
/// an answer asked ahead leaves no answer behind for the next request.
@Suite struct MPDListingAheadTests {
  private static func server(_ mpd: GeneratedMPD) -> MPDServer {
    MPDServer(address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: mpd.port), password: nil), timeout: 30)
  }

  @Test func theNextWindowIsAskedForBeforeTheLastIsHandedOver() throws {
    // Three windows of 4,000 songs and a last of 1,000: each but the last asks for the next.
    let mpd = try GeneratedMPD(songs: 13_000)
    let server = Self.server(mpd)
    defer {
      server.stop()
      mpd.stop()
    }
    var windows: [(songs: Int, nextAsked: Bool)] = []
    try server.listTracks { listing in
      guard case .tracks(let songs) = listing else { return true }
      // The server has the request for the next window while this one is being handed
      // over (a listing that asked only after would never let it come).
      let next = windows.count + 2
      windows.append((songs.count, mpd.waitForRequests(startingWith: "find", count: next, seconds: next < 5 ? 20 : 0)))
      return true
    }
    #expect(windows.map(\.songs) == [4000, 4000, 4000, 1000])
    #expect(windows.map(\.nextAsked) == [true, true, true, false])
    // The stats said 13,000 songs: no window is asked for past them.
    #expect(mpd.requestCount(startingWith: "find") == 4)
  }

  @Test func aListingStoppedWithAWindowAskedAheadLeavesNoAnswerForTheNextRequest() throws {
    let mpd = try GeneratedMPD(songs: 13_000)
    let server = Self.server(mpd)
    defer {
      server.stop()
      mpd.stop()
    }
    var handed = 0
    try server.listTracks { listing in
      guard case .tracks = listing else { return true }
      handed += 1
      return false
    }
    #expect(handed == 1)
    #expect(mpd.waitForRequests(startingWith: "find", count: 2, seconds: 20))
    // Its connection is closed at once, not kept for the next request with an answer unread.
    #expect(mpd.waitForClosedConnections(1, seconds: 20))
    // The answer to the second window, never read, is not taken for the stats' answer.
    #expect(try server.fingerprint().hasPrefix("1700000000 13000"))
    var songs = 0
    try server.listTracks { listing in
      if case .tracks(let window) = listing { songs += window.count }
      return true
    }
    #expect(songs == 13_000)
  }
}
