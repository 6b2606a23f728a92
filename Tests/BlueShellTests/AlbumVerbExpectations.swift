import AlbumModel
import BlueLibrary

/// What script mode prints for the default library, shared by the suites of the album
/// verbs (one per verb: `AddCommandTests`, `EditCommandTests` …), which conform to reach it
/// as `Self.details(…)`.
protocol AlbumVerbExpectations {}

extension AlbumVerbExpectations {
  /// The `Field: value` rows script mode prints for `album` (no cover loader, so a cover
  /// is never downloaded).
  static func details(_ album: Album) -> [String] {
    [
      "Artist: " + album.artist, "Album: " + album.title, "Genre: " + album.genre,
      "Year: " + (album.year.map(String.init) ?? ""),
      "Cover: " + (album.coverURL.isEmpty ? "(none)" : album.coverURL + " (not downloaded)"),
    ]
  }

  /// The default album at 1-based `number`.
  static func catalogue(_ number: Int) -> Album { DefaultCatalogue.albums[number - 1] }

  static var catalogueTitles: [String] { DefaultCatalogue.albums.map(\.title) }

  static var blueTrain: Album {
    Album(title: "Blue Train", artist: "John Coltrane", genre: "Jazz", year: 1957)
  }

  /// The viewport rows of the default library, by the selected album (1-based).
  static var catalogueRows: [Int: String] {
    [
      1: "[1/5] >1 Best of Bowie< | 2 It's My Life | 3 Nothing Like The Sun",
      2: "[2/5] 1 Best of Bowie | >2 It's My Life< | 3 Nothing Like The Sun | 4 Staring at the Sun",
      3:
        "[3/5] 1 Best of Bowie | 2 It's My Life | >3 Nothing Like The Sun< | 4 Staring at the Sun | 5 American Pie",
      4: "[4/5] 2 It's My Life | 3 Nothing Like The Sun | >4 Staring at the Sun< | 5 American Pie",
      5: "[5/5] 3 Nothing Like The Sun | 4 Staring at the Sun | >5 American Pie<",
    ]
  }

  /// The whole viewport of the default library with album `number` selected.
  static func catalogueViewport(_ number: Int) -> [String] {
    [catalogueRows[number]!] + details(catalogue(number))
  }

  static var emptyViewport: [String] {
    ["(the library is empty: 'add TITLE' adds an album, 'reset' brings back the defaults)"]
  }
}
