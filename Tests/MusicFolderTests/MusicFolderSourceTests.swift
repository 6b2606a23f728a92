import Foundation
import MusicFolder
import MusicSource
import TestSupport
import Testing

/// A music folder as a source of albums (``MusicFolderSource``), an adapter of the seam a
/// music server implements too (issue 47, item 1): its fingerprint is its walk's, its tracks
/// are listed as a server lists its songs, filed below its real path, and it keeps no marks.
@Suite struct MusicFolderSourceTests {
  @Test func aFolderListsItsTracksAsAServerListsItsSongs() throws {
    let music = try MusicFolderFixture()
    try music.track(
      "Queen/Innuendo/01.flac",
      TagEdit(album: "Innuendo", artist: "Queen", title: "Innuendo", trackNumber: "1", date: "1991"))
    try music.track(
      "Queen/Innuendo/02.mp3",
      TagEdit(album: "Innuendo", artist: "Queen", title: "I'm Going Slightly Mad", trackNumber: "2"))
    try music.file("Queen/Innuendo/03.ogg", [])
    let source = MusicFolderSource(music.root)
    #expect(source.root == music.root)
    var listed: [SourceTrack] = []
    try source.listTracks { listing in
      if case .tracks(let songs) = listing { listed += songs }
      return true
    }
    #expect(listed.map(\.path) == ["Queen/Innuendo/01.flac", "Queen/Innuendo/02.mp3"])
    #expect(listed.map(\.title) == ["Innuendo", "I'm Going Slightly Mad"])
    #expect(listed.map(\.track) == [1, 2])
    #expect(listed.allSatisfy { $0.album == "Innuendo" && $0.artist == "Queen" && $0.duration > 0.9 })
    #expect(listed.first?.date == "1991")

    // The fingerprint is the scan's, and changes with the files.
    let fingerprint = try source.fingerprint()
    #expect(fingerprint == (try MusicFolderScanner().scan(music.root).fingerprint))
    #expect(try source.fingerprint() == fingerprint)
    try music.track("Queen/Innuendo/04.ogg", TagEdit(album: "Innuendo", title: "Headlong", trackNumber: "4"))
    #expect(try source.fingerprint() != fingerprint)

    // A folder keeps no marks of its own: a rating stays in the library.
    #expect(throws: SourceError.self) { try source.share(.rating(5), onTracks: ["Queen/Innuendo/01.flac"]) }
    #expect(try source.marks() == nil)
  }

  @Test func aFolderThatIsNotThereCannotBeFingerprinted() throws {
    let music = try MusicFolderFixture()
    let source = MusicFolderSource(music.path("missing"))
    #expect(throws: SourceError.self) { try source.fingerprint() }
  }
}
