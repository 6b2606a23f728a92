import MusicFolder
import TestSupport
import Testing

/// The folder of issue 14's "done when", scanned as a whole: every case at once, as a user's
/// music folder holds them.
@Suite struct MusicLibraryScanTests {
  /// One expected album: where, what, and which cover.
  struct Expected: Equatable, CustomStringConvertible {
    var folder: String
    var title: String
    var artist: String
    var year: Int?
    var genre: String
    var tracks: Int
    /// "embedded NAME", "file NAME" or "none".
    var cover: String

    var description: String {
      "\(folder) | \(title) | \(artist) | \(year.map(String.init) ?? "-") | \(genre) | \(tracks) | \(cover)"
    }
  }

  @Test func everyCaseOfTheIssueComesOutRight() throws {
    let music = try MusicFolderFixture()
    let red = TestPicture.jpeg(TestPicture.red)
    try music.track(
      "Radiohead/OK Computer/01 Airbag.mp3",
      TagEdit(
        album: "OK Computer", artist: "Radiohead", trackNumber: "1", date: "1997-05-21", genre: "Alternative",
        picture: (red, "image/jpeg"), id3v2Version: 3))
    try music.track(
      "Radiohead/OK Computer/02 Paranoid Android.flac",
      TagEdit(album: "OK Computer", artist: "Radiohead", trackNumber: "2", date: "1997-05-21", genre: "Alternative"))
    try music.symlink("Radiohead/OK Computer/back to the top", to: "../..")
    try music.track("Björk/Homogenic/1.flac", TagEdit(album: "Homogenic", artist: "Björk", date: "1997"))
    try music.track("Björk/Homogenic/2.flac", TagEdit(album: "Homogenic", artist: "Björk", date: "1997"))
    try music.file("Björk/Homogenic/Folder.png", TestPicture.png(TestPicture.green))
    try music.track("Portishead/Dummy/1.m4a", TagEdit(album: "Dummy", artist: "Portishead", genre: "Trip hop"))
    try music.file("Portishead/Dummy/front.jpg", TestPicture.jpeg(TestPicture.blue))
    try music.file("Portishead/Dummy/liner notes.txt", Array("notes".utf8))
    for (number, artist) in ["Afterlife", "Lamb"].enumerated() {
      try music.track(
        "Compilations/Café del Mar/\(number + 1).ogg",
        TagEdit(album: "Café del Mar", artist: artist, albumArtist: "José Padilla", genre: "Chillout"))
    }
    for (number, artist) in ["Blur", "Pulp", "Suede"].enumerated() {
      try music.track("Compilations/Britpop/\(number + 1).opus", TagEdit(album: "Britpop", artist: artist))
    }
    for disc in 1...2 {
      for number in 1...2 {
        try music.track(
          "Pink Floyd/The Wall/CD\(disc)/\(number).\(disc == 1 ? "mp3" : "flac")",
          TagEdit(album: "The Wall", artist: "Pink Floyd", trackNumber: "\(number)", date: "1979"))
      }
    }
    try music.track("Unsorted Tapes/side a.opus", TagEdit(artist: "Someone"))
    try music.track("Loose/1.mp3", TagEdit(album: "Blue Train", artist: "John Coltrane", date: "1958"))
    try music.track("Loose/2.m4a", TagEdit(album: "Kind of Blue", artist: "Miles Davis", date: "1959"))
    try music.track("Queen/Greatest Hits/1.mp3", TagEdit(album: "Greatest Hits", artist: "Queen", date: "1981"))
    try music.track("ABBA/Greatest Hits/1.m4a", TagEdit(album: "Greatest Hits", artist: "ABBA", date: "1975"))
    try music.track("久石譲/千と千尋の神隠し/1.ogg", TagEdit(album: "千と千尋の神隠し", artist: "久石譲", date: "2001-07-18"))
    var generator = SeededGenerator(seed: 14)
    try music.file("Broken/noise.mp3", (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try music.file("Broken/empty.flac", [])

    let scan = try music.scan()
    let got = scan.albums.map { album in
      Expected(
        folder: String(album.folder.dropFirst(music.root.count + 1)), title: album.title, artist: album.artist,
        year: album.year, genre: album.genre, tracks: album.trackCount, cover: coverName(album.cover))
    }
    let expected = [
      Expected(
        folder: "ABBA/Greatest Hits", title: "Greatest Hits", artist: "ABBA", year: 1975, genre: "", tracks: 1,
        cover: "none"),
      Expected(
        folder: "Björk/Homogenic", title: "Homogenic", artist: "Björk", year: 1997, genre: "", tracks: 2,
        cover: "file Folder.png"),
      Expected(
        folder: "Compilations/Britpop", title: "Britpop", artist: "Various Artists", year: nil, genre: "", tracks: 3,
        cover: "none"),
      Expected(
        folder: "Compilations/Café del Mar", title: "Café del Mar", artist: "José Padilla", year: nil,
        genre: "Chillout",
        tracks: 2, cover: "none"),
      Expected(
        folder: "Loose", title: "Blue Train", artist: "John Coltrane", year: 1958, genre: "", tracks: 1, cover: "none"),
      Expected(
        folder: "Loose", title: "Kind of Blue", artist: "Miles Davis", year: 1959, genre: "", tracks: 1, cover: "none"),
      Expected(
        folder: "Pink Floyd/The Wall", title: "The Wall", artist: "Pink Floyd", year: 1979, genre: "", tracks: 4,
        cover: "none"),
      Expected(
        folder: "Portishead/Dummy", title: "Dummy", artist: "Portishead", year: nil, genre: "Trip hop", tracks: 1,
        cover: "file front.jpg"),
      Expected(
        folder: "Queen/Greatest Hits", title: "Greatest Hits", artist: "Queen", year: 1981, genre: "", tracks: 1,
        cover: "none"),
      Expected(
        folder: "Radiohead/OK Computer", title: "OK Computer", artist: "Radiohead", year: 1997, genre: "Alternative",
        tracks: 2, cover: "embedded 01 Airbag.mp3"),
      Expected(
        folder: "Unsorted Tapes", title: "Unsorted Tapes", artist: "Someone", year: nil, genre: "", tracks: 1,
        cover: "none"),
      Expected(
        folder: "久石譲/千と千尋の神隠し", title: "千と千尋の神隠し", artist: "久石譲", year: 2001, genre: "", tracks: 1, cover: "none"),
    ]
    #expect(got == expected)

    // Lengths: each album's tracks' fixture lengths added up.
    let length = try Dictionary(
      uniqueKeysWithValues: AudioFormat.allCases.map { format in
        guard case .track(let tags) = TrackTags.read(format.fixture) else { throw FixtureError.unreadable(format) }
        return (format.rawValue, tags.duration)
      })
    #expect(abs((scan.album("The Wall")?.duration ?? 0) - 2 * length["mp3"]! - 2 * length["flac"]!) < 0.001)
    #expect(abs((scan.album("Britpop")?.duration ?? 0) - 3 * length["opus"]!) < 0.001)
    #expect(abs((scan.album("OK Computer")?.duration ?? 0) - length["mp3"]! - length["flac"]!) < 0.001)
    #expect(scan.albums.allSatisfy { $0.duration > 0.9 * Double($0.trackCount) })

    #expect(scan.skipped.map(\.path) == [music.path("Broken/empty.flac"), music.path("Broken/noise.mp3")])
    #expect(scan.skipped.map(\.reason) == [.empty, .noAudio])
    #expect(scan.filesScanned == 22)
    #expect(scan.trackCount == 20)
    let okComputer = try #require(scan.album("OK Computer")?.cover).bytes()
    #expect(okComputer == red)
  }

  private func coverName(_ cover: MusicCover?) -> String {
    switch cover {
    case .embedded(let track, _)?: return "embedded " + track.split(separator: "/").last!
    case .file(let path)?: return "file " + path.split(separator: "/").last!
    case nil: return "none"
    }
  }

  enum FixtureError: Error {
    case unreadable(AudioFormat)
  }
}
