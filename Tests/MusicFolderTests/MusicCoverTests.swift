import CoverArt
import MusicFolder
import TestSupport
import Testing

@Suite struct MusicCoverTests {
  @Test(arguments: AudioFormat.allCases)
  func embeddedPictureIsTheCoverInEveryFormat(format: AudioFormat) throws {
    let music = try MusicFolderFixture()
    let jpeg = TestPicture.jpeg(TestPicture.red)
    let track = try music.track(
      "Artist/Album/01.\(format)",
      TagEdit(album: "Album", artist: "Artist", picture: (jpeg, "image/jpeg")))
    // A folder image loses to the embedded picture.
    try music.file("Artist/Album/cover.jpg", TestPicture.jpeg(TestPicture.blue))

    let album = try #require(try music.scan().album("Album"))
    #expect(album.cover == .embedded(track: track, mimeType: "image/jpeg"))
    let bytes = try #require(try album.cover?.bytes())
    #expect(bytes == jpeg)
    #expect(TestPicture.close(try TestPicture.color(of: bytes), TestPicture.red))
  }

  @Test func embeddedPNGKeepsItsType() throws {
    let music = try MusicFolderFixture()
    let png = TestPicture.png(TestPicture.green)
    let track = try music.track("A/1.mp3", TagEdit(album: "A", picture: (png, "image/png")))
    let album = try #require(try music.scan().album("A"))
    #expect(album.cover == .embedded(track: track, mimeType: "image/png"))
    #expect(try album.cover?.bytes() == png)
  }

  @Test func theFirstTrackInTrackOrderWithAPictureGivesTheCover() throws {
    let music = try MusicFolderFixture()
    // By name, b.ogg comes first; by track number, a.ogg does.
    try music.track("Album/a.ogg", TagEdit(album: "Album", trackNumber: "1"))
    let second = try music.track(
      "Album/b.ogg",
      TagEdit(album: "Album", trackNumber: "2", picture: (TestPicture.jpeg(TestPicture.green), "image/jpeg")))
    try music.track(
      "Album/c.ogg",
      TagEdit(album: "Album", trackNumber: "3", picture: (TestPicture.jpeg(TestPicture.red), "image/jpeg")))
    let album = try #require(try music.scan().album("Album"))
    #expect(album.cover == .embedded(track: second, mimeType: "image/jpeg"))
    #expect(TestPicture.close(try TestPicture.color(of: try album.cover!.bytes()), TestPicture.green))
  }

  @Test func folderImagesAreFoundInAnyCase() throws {
    let music = try MusicFolderFixture()
    try music.track("Folder Art/1.flac", TagEdit(album: "Folder Art"))
    let folderPNG = try music.file("Folder Art/Folder.png", TestPicture.png(TestPicture.yellow))
    try music.track("Front Art/1.m4a", TagEdit(album: "Front Art"))
    let frontJPEG = try music.file("Front Art/front.jpg", TestPicture.jpeg(TestPicture.blue))
    try music.file("Front Art/back.jpg", TestPicture.jpeg(TestPicture.red))
    try music.track("Shouting/1.opus", TagEdit(album: "Shouting"))
    let upper = try music.file("Shouting/COVER.JPEG", TestPicture.jpeg(TestPicture.green))
    try music.track("No Art/1.mp3", TagEdit(album: "No Art"))
    try music.file("No Art/scan.jpg", TestPicture.jpeg(TestPicture.red))
    try music.file("No Art/cover.gif", [0x47, 0x49, 0x46, 0x38, 0x39, 0x61])

    let scan = try music.scan()
    #expect(scan.album("Folder Art")?.cover == .file(folderPNG))
    #expect(scan.album("Front Art")?.cover == .file(frontJPEG))
    #expect(scan.album("Shouting")?.cover == .file(upper))
    #expect(scan.album("No Art")?.cover == nil)
    #expect(
      TestPicture.close(
        try TestPicture.color(of: try #require(scan.album("Folder Art")?.cover).bytes()), TestPicture.yellow))
    #expect(
      TestPicture.close(
        try TestPicture.color(of: try #require(scan.album("Front Art")?.cover).bytes()), TestPicture.blue))
  }

  @Test func coverBeatsFolderBeatsFront() throws {
    let music = try MusicFolderFixture()
    try music.track("A/1.mp3", TagEdit(album: "A"))
    try music.file("A/front.jpg", TestPicture.jpeg(TestPicture.red))
    try music.file("A/folder.jpg", TestPicture.jpeg(TestPicture.green))
    let cover = try music.file("A/Cover.png", TestPicture.png(TestPicture.blue))
    #expect(try music.scan().album("A")?.cover == .file(cover))
  }

  @Test func mergedDiscsFindTheImageBesideTheDiscFolders() throws {
    let music = try MusicFolderFixture()
    try music.track("Box/CD1/1.flac", TagEdit(album: "Box", artist: "Band"))
    try music.track("Box/CD2/1.flac", TagEdit(album: "Box", artist: "Band"))
    let image = try music.file("Box/folder.jpg", TestPicture.jpeg(TestPicture.green))
    #expect(try music.scan().album("Box")?.cover == .file(image))
  }

  @Test func aCoverLargerThanTheLimitIsAnError() throws {
    let music = try MusicFolderFixture()
    try music.track("A/1.mp3", TagEdit(album: "A", picture: (TestPicture.jpeg(TestPicture.red), "image/jpeg")))
    try music.track("B/1.mp3", TagEdit(album: "B"))
    try music.file("B/cover.jpg", TestPicture.jpeg(TestPicture.red))
    let scan = try music.scan()
    for title in ["A", "B"] {
      let cover = try #require(scan.album(title)?.cover)
      #expect(throws: MusicFolderError.coverTooLarge(cover.path, limit: 100)) { try cover.bytes(limit: 100) }
    }
  }
}
