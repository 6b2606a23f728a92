import CoverArt
import Foundation
import MusicFolder
import TestSupport

extension MusicFolderFixture {

  /// Every case of the issue at once: five formats, embedded and folder art (`Folder.png`,
  /// `front.jpg`), a compilation with an album-artist tag and one without, a two-disc album,
  /// an album with no album tag, two albums in one folder, two "Greatest Hits" by different
  /// artists, CJK tags, a corrupt and an empty file, and a symbolic-link loop. 12 albums of
  /// 18 tracks; two files skipped.
  static func issueCases(in parent: URL) throws -> MusicFolderFixture {
    let music = try MusicFolderFixture(in: parent)
    let red = TestPicture.jpeg(TestPicture.red)
    for number in 1...2 {
      try music.track(
        "Radiohead/OK Computer/0\(number).mp3",
        TagEdit(
          album: "OK Computer", artist: "Radiohead", trackNumber: "\(number)", date: "1997-05-21",
          genre: number == 1 ? "Alternative" : "Rock", picture: (red, "image/jpeg"), id3v2Version: 3))
    }
    try music.track(
      "Radiohead/OK Computer/03.flac",
      TagEdit(album: "OK Computer", artist: "Radiohead", trackNumber: "3", date: "1997", genre: "Alternative"))
    try music.symlink("Radiohead/OK Computer/back to the top", to: "../..")
    try music.track("Björk/Homogenic/1.flac", TagEdit(album: "Homogenic", artist: "Björk", date: "1997"))
    try music.track("Björk/Homogenic/2.flac", TagEdit(album: "Homogenic", artist: "Björk", date: "1997"))
    try music.file("Björk/Homogenic/Folder.png", TestPicture.png(TestPicture.green))
    try music.track("Portishead/Dummy/1.m4a", TagEdit(album: "Dummy", artist: "Portishead", genre: "Trip hop"))
    try music.file("Portishead/Dummy/front.jpg", TestPicture.jpeg(TestPicture.blue))
    for (number, artist) in ["Afterlife", "Lamb"].enumerated() {
      try music.track(
        "Compilations/Café del Mar/\(number + 1).ogg",
        TagEdit(album: "Café del Mar", artist: artist, albumArtist: "José Padilla", genre: "Chillout"))
    }
    for (number, artist) in ["Blur", "Pulp"].enumerated() {
      try music.track("Compilations/Britpop/\(number + 1).opus", TagEdit(album: "Britpop", artist: artist))
    }
    for disc in 1...2 {
      try music.track(
        "Pink Floyd/The Wall/CD\(disc)/1.\(disc == 1 ? "mp3" : "flac")",
        TagEdit(album: "The Wall", artist: "Pink Floyd", trackNumber: "1", date: "1979"))
    }
    try music.track("Unsorted Tapes/side a.opus", TagEdit(artist: "Someone"))
    try music.track("Loose/1.mp3", TagEdit(album: "Blue Train", artist: "John Coltrane", date: "1958"))
    try music.track("Loose/2.m4a", TagEdit(album: "Kind of Blue", artist: "Miles Davis", date: "1959"))
    try music.track("Queen/Greatest Hits/1.mp3", TagEdit(album: "Greatest Hits", artist: "Queen", date: "1981"))
    try music.track("ABBA/Greatest Hits/1.m4a", TagEdit(album: "Greatest Hits", artist: "ABBA", date: "1975"))
    try music.track(
      "久石譲/千と千尋の神隠し/1.ogg", TagEdit(album: "千と千尋の神隠し", artist: "久石譲", date: "2001-07-18", genre: "サウンドトラック"))
    var generator = SeededGenerator(seed: 14)
    try music.file("Broken/noise.mp3", (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try music.file("Broken/empty.flac", [])
    return music
  }
}
