import BlueLibrary
import Foundation
import MPDClient
import TestSupport
import Testing

/// What a sync reads of each song as it reads it from the bytes (issue 47, item 6: the
/// first sync without the arrays and texts it made a song): the format from the name's
/// last extension, as splitting the URI gave it, and tags trimmed of blanks as TagLib's are.
struct MPDSyncTagsTests {
  /// (the song's place, its album tag, the format and album title a sync gives it)
  static let songs: [(uri: String, album: String, format: String, title: String)] = [
    ("A/One/01.flac", "One", "FLAC", "One"),
    ("A/Two/track.name.Mp3", " Two ", "MP3", "Two"),
    ("A/Three/no extension", "\tThree", "", "Three"),
    ("A/Four.d/01.ogg.", "\u{3000}Four\u{3000}", "OGG", "Four"),
    ("A/Five/.opus", "Five ✓", "OPUS", "Five ✓"),
    ("A/Six/01..m4a", "Ørsted", "M4A", "Ørsted"),
  ]

  @Test func theFormatComesFromTheLastExtensionAndTheTagsAreTrimmed() throws {
    let songs = Self.songs
    let mpd = try GeneratedMPD(songs: songs.count) { index in
      "file: \(songs[index].uri)\nLast-Modified: 2024-01-02T03:04:05Z\nduration: 61.5\nArtist: A\n"
        + "Album: \(songs[index].album)\nTitle: Song \(index)\nTrack: 1\n"
    }
    let server = MPDServer(
      address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: mpd.port), password: nil), timeout: 30)
    defer {
      server.stop()
      mpd.stop()
    }
    let library = Library.inMemory(seed: [], source: server)
    #expect(try library.sync().tracks == songs.count)
    let albums = try library.allAlbums()
    for song in songs {
      let album = try #require(albums.first { $0.title == song.title }, "\(song.title) in \(albums.map(\.title))")
      let tracks = try #require(try library.tracklist(of: album)).tracks
      #expect(tracks.map(\.format) == [song.format], "\(song.uri)")
    }
  }
}
