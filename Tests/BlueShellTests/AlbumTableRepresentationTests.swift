import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `show`'s rows: the original app's fields, and for an album from a music folder its
/// tracks, length and folder (issue 14).
struct AlbumTableRepresentationTests {
  @Test(arguments: [
    (0.0, "0:00"), (0.4, "0:00"), (59.5, "1:00"), (61, "1:01"), (2712.5, "45:13"), (3599.4, "59:59"),
    (3599.6, "1:00:00"), (3725, "1:02:05"), (36_000, "10:00:00"), (-3, "0:00"), (.nan, "0:00"),
  ])
  func lengthIsMinutesAndSecondsOrHoursPastAnHour(seconds: Double, text: String) {
    #expect(Album.length(seconds) == text)
  }

  @Test func anAlbumFromAMusicFolderShowsTracksLengthAndFolder() {
    let album = Album(
      title: "OK Computer", artist: "Radiohead", genre: "Alternative", year: 1997, coverURL: "", tracks: 12,
      duration: 3207.4, folder: "/m/OK Computer")
    #expect(
      album.tableRepresentation.map { "\($0.title): \($0.value)" } == [
        "Artist: Radiohead", "Album: OK Computer", "Genre: Alternative", "Year: 1997", "Tracks: 12",
        "Length: 53:27", "Cover: (none)", "Folder: /m/OK Computer",
      ])
    #expect(Album(title: "Plain").tableRepresentation.map(\.title) == ["Artist", "Album", "Genre", "Year", "Cover"])
  }

  @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (20_000, "20,000"), (1_234_567, "1,234,567")])
  func progressCountsAreGroupedByThousands(number: Int, text: String) {
    #expect(Library.grouped(number) == text)
  }
}
