import MusicFolder
import TestSupport
import Testing

/// The rules that make albums out of tracks, checked on real tagged files through a scan.
@Suite struct AlbumGroupingTests {
  @Test func compilationWithAnAlbumArtistTagIsOneAlbumByThatArtist() throws {
    let music = try MusicFolderFixture()
    for (number, artist) in ["Air", "Moby", "Zero 7"].enumerated() {
      try music.track(
        "Chill/\(number + 1).mp3",
        TagEdit(album: "Café del Mar 7", artist: artist, albumArtist: "Café del Mar", trackNumber: "\(number + 1)"))
    }
    let scan = try music.scan()
    #expect(scan.albums.count == 1)
    let album = try #require(scan.album("Café del Mar 7"))
    #expect(album.artist == "Café del Mar")
    #expect(album.trackCount == 3)
  }

  @Test func compilationWithoutAlbumArtistTagsIsOneAlbumByVariousArtists() throws {
    let music = try MusicFolderFixture()
    for (number, artist) in ["Blur", "Oasis", "Pulp", "Oasis"].enumerated() {
      try music.track("Britpop/\(number + 1).ogg", TagEdit(album: "Britpop Anthems", artist: artist))
    }
    let scan = try music.scan()
    #expect(scan.albums.count == 1)
    #expect(scan.albums.first?.artist == "Various Artists")
    #expect(scan.albums.first?.trackCount == 4)
  }

  @Test func albumWhoseTracksShareAnArtistIsByThatArtist() throws {
    let music = try MusicFolderFixture()
    try music.track("Kid A/1.flac", TagEdit(album: "Kid A", artist: "Radiohead"))
    try music.track("Kid A/2.flac", TagEdit(album: "Kid A", artist: "Radiohead"))
    try music.track("Kid A/3.flac", TagEdit(album: "Kid A"))
    #expect(try music.scan().albums.map(\.artist) == ["Radiohead"])
  }

  @Test func twoDiscsInSiblingFoldersAreOneAlbumWithTheirTracksSummed() throws {
    let music = try MusicFolderFixture()
    for disc in 1...2 {
      for number in 1...3 {
        try music.track(
          "Pink Floyd/The Wall/CD\(disc)/\(number).mp3",
          TagEdit(album: "The Wall", artist: "Pink Floyd", trackNumber: "\(number)", date: "1979", genre: "Rock"))
      }
    }
    let scan = try music.scan()
    #expect(scan.albums.count == 1)
    let album = try #require(scan.album("The Wall"))
    #expect(album.trackCount == 6)
    #expect(abs(album.duration - 6 * 1.152) < 0.01)
    #expect(album.folder == music.path("Pink Floyd/The Wall"))
    #expect(album.year == 1979)
  }

  @Test func albumWithoutAnAlbumTagIsNamedAfterItsFolder() throws {
    let music = try MusicFolderFixture()
    try music.track("Field Recordings/rain.opus", TagEdit(artist: "Me"))
    try music.track("Field Recordings/wind.opus", TagEdit(artist: "Me"))
    let scan = try music.scan()
    #expect(scan.albums.count == 1)
    #expect(scan.albums.first?.title == "Field Recordings")
    #expect(scan.albums.first?.artist == "Me")
    #expect(scan.albums.first?.trackCount == 2)
  }

  @Test func twoAlbumsLooseInOneFolderStayTwo() throws {
    let music = try MusicFolderFixture()
    try music.track("Downloads/a1.mp3", TagEdit(album: "Blue Train", artist: "John Coltrane"))
    try music.track("Downloads/b1.m4a", TagEdit(album: "Kind of Blue", artist: "Miles Davis"))
    try music.track("Downloads/a2.mp3", TagEdit(album: "Blue Train", artist: "John Coltrane"))
    let scan = try music.scan()
    #expect(scan.albums.map(\.title) == ["Blue Train", "Kind of Blue"])
    #expect(scan.albums.map(\.trackCount) == [2, 1])
    #expect(scan.albums.map(\.folder) == [music.path("Downloads"), music.path("Downloads")])
    #expect(Set(scan.albums.map(\.key)).count == 2)
  }

  @Test func sameTitleByTwoArtistsStaysTwo() throws {
    let music = try MusicFolderFixture()
    // Sibling folders, which would merge were the artists the same…
    try music.track("Hits/Queen - Greatest Hits/1.flac", TagEdit(album: "Greatest Hits", artist: "Queen"))
    try music.track("Hits/ABBA - Greatest Hits/1.flac", TagEdit(album: "Greatest Hits", artist: "ABBA"))
    try music.track("Hits/ABBA - Greatest Hits/2.flac", TagEdit(album: "Greatest Hits", artist: "ABBA"))
    // …and one folder holding two, told apart by their album-artist tags.
    try music.track("Loose/1.mp3", TagEdit(album: "Greatest Hits", artist: "Queen", albumArtist: "Queen"))
    try music.track("Loose/2.mp3", TagEdit(album: "Greatest Hits", artist: "Eagles", albumArtist: "Eagles"))
    let scan = try music.scan()
    #expect(scan.albums.count == 4)
    #expect(scan.albums.filter { $0.title == "Greatest Hits" }.map(\.artist) == ["ABBA", "Queen", "Eagles", "Queen"])
    #expect(scan.album("Greatest Hits", by: "ABBA")?.trackCount == 2)
  }

  @Test func sameTitleAndArtistWithDifferentYearsInSiblingFoldersStaysTwo() throws {
    let music = try MusicFolderFixture()
    try music.track("Queen/Greatest Hits (1981)/1.ogg", TagEdit(album: "Greatest Hits", artist: "Queen", date: "1981"))
    try music.track("Queen/Greatest Hits (1991)/1.ogg", TagEdit(album: "Greatest Hits", artist: "Queen", date: "1991"))
    #expect(try music.scan().albums.map(\.year) == [1981, 1991])
  }

  /// An album kept in `flac/` and `mp3/` (or as an original and a remaster) is two albums,
  /// each with its own tracks: the same numbers and titles in both folders are copies, not
  /// discs (round 4, G8; Navidrome #1226: one album with every track twice).
  @Test(arguments: [("flac", "mp3"), ("FLAC", "MP3"), ("OK Computer", "OK Computer (2017 Remaster)")])
  func theSameTracksInSiblingFoldersAreTwoAlbums(first: String, second: String) throws {
    let music = try MusicFolderFixture()
    for (folder, format) in [(first, "flac"), (second, "mp3")] {
      for number in 1...3 {
        try music.track(
          "Radiohead/OK Computer/\(folder)/0\(number).\(format)",
          TagEdit(album: "OK Computer", artist: "Radiohead", title: "Song \(number)", trackNumber: "\(number)"))
      }
    }
    let scan = try music.scan()
    #expect(scan.albums.map(\.trackCount) == [3, 3])
    #expect(
      scan.albums.map(\.folder) == [
        music.path("Radiohead/OK Computer/\(first)"), music.path("Radiohead/OK Computer/\(second)"),
      ])
    for album in scan.albums {
      #expect(Set(album.tracks.map { $0.tags.format }).count == 1, "one format per album")
      #expect(album.tracks.map(\.disc) == [nil, nil, nil])
    }
  }

  /// Copies that carry the same disc tags stay apart too; different disc tags are discs,
  /// whatever the folders are called and even when titles repeat (a bonus disc of alternate takes).
  @Test func discTagsDecideWhenTheyAreThere() throws {
    let music = try MusicFolderFixture()
    for folder in ["A", "B"] {
      try music.track(
        "X/Copies/\(folder)/1.ogg",
        TagEdit(album: "Copies", artist: "X", title: "One", trackNumber: "1", discNumber: "1"))
    }
    for disc in 1...2 {
      try music.track(
        "X/Takes/Part \(disc == 1 ? "A" : "B")/1.ogg",
        TagEdit(album: "Takes", artist: "X", title: "One", trackNumber: "1", discNumber: "\(disc)"))
    }
    let scan = try music.scan()
    #expect(scan.albums.filter { $0.title == "Copies" }.map(\.trackCount) == [1, 1])
    #expect(scan.albums.filter { $0.title == "Takes" }.map(\.trackCount) == [2])
  }

  /// Disc folders without disc tags are discs when their names say so (`CD1`, `Disc 2`,
  /// `The Wall - disc 3`) or when their tracks do not repeat (numbered on across discs).
  @Test func discFoldersAreDiscsByNameOrByTracksThatDoNotRepeat() throws {
    let music = try MusicFolderFixture()
    for (disc, folder) in ["CD1", "Disc 2", "The Wall - disc 3"].enumerated() {
      try music.track(
        "Floyd/The Wall/\(folder)/1.ogg",
        TagEdit(album: "The Wall", artist: "Pink Floyd", title: "Song", trackNumber: "1"))
      _ = disc
    }
    for (folder, number) in [("First", 1), ("Second", 2)] {
      try music.track(
        "Floyd/Animals/\(folder)/\(number).ogg",
        TagEdit(album: "Animals", artist: "Pink Floyd", title: "Pigs \(number)", trackNumber: "\(number)"))
    }
    let scan = try music.scan()
    let wall = try #require(scan.album("The Wall"))
    #expect(wall.trackCount == 3 && wall.tracks.map(\.disc) == [1, 2, 3])
    #expect(try #require(scan.album("Animals")).trackCount == 2)
  }

  @Test func yearComesFromTheDateTagAndGenreIsTheMostCommon() throws {
    let music = try MusicFolderFixture()
    try music.track("OK/1.mp3", TagEdit(album: "OK Computer", date: "1997-05-21", genre: "Alternative"))
    try music.track("OK/2.flac", TagEdit(album: "OK Computer", date: "1997-05-21", genre: "Rock"))
    try music.track("OK/3.m4a", TagEdit(album: "OK Computer", date: "1997-05-21", genre: "Rock"))
    let album = try #require(try music.scan().album("OK Computer"))
    #expect(album.year == 1997)
    #expect(album.genre == "Rock")
    #expect(album.trackCount == 3)
  }

  @Test func cjkTagsAndFoldersComeOutIntact() throws {
    let music = try MusicFolderFixture()
    try music.track("久石譲/千と千尋の神隠し/01.flac", TagEdit(album: "千と千尋の神隠し", artist: "久石譲", genre: "サウンドトラック"))
    try music.track("久石譲/千と千尋の神隠し/02.mp3", TagEdit(album: "千と千尋の神隠し", artist: "久石譲", genre: "サウンドトラック"))
    try music.track("王菲/唱游/01.opus", TagEdit(artist: "王菲"))
    let scan = try music.scan()
    let spirited = try #require(scan.album("千と千尋の神隠し"))
    #expect(spirited.artist == "久石譲")
    #expect(spirited.genre == "サウンドトラック")
    #expect(spirited.trackCount == 2)
    #expect(spirited.folder == music.path("久石譲/千と千尋の神隠し"))
    #expect(scan.album("唱游")?.artist == "王菲")
  }

  @Test func albumsAreOrderedByFolderThenTitle() throws {
    let music = try MusicFolderFixture()
    try music.track("b/1.mp3", TagEdit(album: "Zebra"))
    try music.track("b/2.mp3", TagEdit(album: "Aardvark"))
    try music.track("a b/1.mp3", TagEdit(album: "Middle"))
    try music.track("a/z/1.mp3", TagEdit(album: "Deep"))
    let scan = try music.scan()
    #expect(scan.albums.map(\.title) == ["Deep", "Middle", "Aardvark", "Zebra"])
    // The same folder gives the same albums, keys included.
    #expect(try music.scan().albums == scan.albums)
  }

  /// Folder `A`, artist `x`, title `y<US>t` and folder `A<US>x`, artist `y`, title `t` are
  /// two albums: with the parts joined by U+001F as they were, they had one key, and a
  /// re-import overwrote one with the other (round 3, F16).
  @Test func theKeySeparatorInsideATagOrAFolderNameDoesNotMergeTwoAlbums() throws {
    let music = try MusicFolderFixture()
    try music.track("A/01.mp3", TagEdit(album: "y\u{1F}t", artist: "x"))
    try music.track("A\u{1F}x/01.mp3", TagEdit(album: "t", artist: "y"))
    let scan = try music.scan()
    #expect(scan.albums.count == 2)
    #expect(Set(scan.albums.map(\.key)).count == 2, "\(scan.albums.map(\.key))")
    #expect(
      MusicAlbum.key(folder: "/m/A", artist: "x", title: "y\u{1F}t")
        != MusicAlbum.key(folder: "/m/A\u{1F}x", artist: "y", title: "t"))
    // Keys without the separator in a part are what they always were.
    #expect(MusicAlbum.key(folder: "/m/A", artist: "X", title: "T") == "/m/A\u{1F}x\u{1F}t")
  }
}
