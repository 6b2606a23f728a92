import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// A script's drawing is written as bytes (``AlbumBrowser/appendPlainDrawing(to:)``, issue
/// 36): each byte must be what the lines of ``AlbumBrowser/drawing(window:)`` say.
@Suite struct PlainDrawingTests {
  /// Albums with what changes a script's row and details: control characters, stars and
  /// the mark, music-folder fields, no cover, a local and a Cover Art Archive cover.
  static let albums = [
    Album(title: "Plain", artist: "Someone", genre: "Pop", year: 1999, coverURL: "https://covers.example/1.png"),
    Album(title: "Tab\there\u{1B}[31m", artist: "Bell\u{07}", genre: "Noise\nLine", coverURL: ""),
    Album(
      title: "Rated", artist: "", year: 2001, coverURL: "file:///music/Rated/cover.jpg", rating: 4, favourite: true),
    Album(
      title: "Folder", artist: "Band", genre: "Rock", year: 1975,
      coverURL: "caa:release/0b9ee3b3-3a5b-4a53-b2e7-cdd6c1a0e2b4", tracks: 12, duration: 2_713.4,
      folder: "/music/Band/Folder"),
    Album(title: "Ünïcode ★", artist: "Ärtist", genre: "", year: 0, rating: 1),
    Album(title: "Sixth", artist: "Six"), Album(title: "Seventh", artist: "Seven"),
  ]

  /// The drawing's lines, each ended by a newline, as bytes.
  static func drawn(_ browser: AlbumBrowser) -> [UInt8] {
    Array(browser.drawing(window: .standard).lines.map { $0 + "\n" }.joined().utf8)
  }

  static func written(_ browser: AlbumBrowser) -> [UInt8] {
    var bytes: [UInt8] = []
    browser.appendPlainDrawing(to: &bytes)
    return bytes
  }

  @Test(arguments: [TextStyle.plain, TextStyle(colors: true)])
  func everyAlbumSelectedDrawsTheSameBytes(style: TextStyle) {
    let library = Library.inMemory(seed: Self.albums)
    let browser = AlbumBrowser(library: library, style: style, layout: .plain)
    for index in 0..<Self.albums.count {
      browser.select(index)
      let written = Self.written(browser)
      #expect(written == Self.drawn(browser), "album \(index): \(String(decoding: written, as: UTF8.self))")
    }
  }

  @Test func thePlayingAlbumIsMarkedAsInTheLines() throws {
    let library = Library.inMemory(seed: Self.albums)
    let browser = AlbumBrowser(library: library, style: .plain, layout: .plain)
    browser.select(2)
    let playing = try library.album(at: 3).id
    browser.playingAlbumID = { playing }
    let written = Self.written(browser)
    #expect(String(decoding: written, as: UTF8.self).contains("| 4 ▶ Folder |"))
    #expect(written == Self.drawn(browser))
  }

  @Test func anEmptyLibraryAndAnEmptyViewSayTheSame() throws {
    let empty = AlbumBrowser(library: Library.inMemory(seed: []), style: .plain, layout: .plain)
    #expect(Self.written(empty) == Self.drawn(empty))
    #expect(String(decoding: Self.written(empty), as: UTF8.self).hasPrefix("(the library is empty"))

    let library = Library.inMemory(seed: Self.albums)
    try library.show(try AlbumQuery(words: ["year:1800"]))
    let browser = AlbumBrowser(library: library, style: .plain, layout: .plain)
    #expect(Self.written(browser) == Self.drawn(browser))
    #expect(String(decoding: Self.written(browser), as: UTF8.self).hasPrefix("(no album in this view"))
  }

  @Test func aViewDrawsItsOwnAlbums() throws {
    let library = Library.inMemory(seed: Self.albums)
    try library.show(try AlbumQuery(words: ["year:1970..2010"]))
    let browser = AlbumBrowser(library: library, style: .plain, layout: .plain)
    for index in 0..<(try library.count()) {
      browser.select(index)
      #expect(Self.written(browser) == Self.drawn(browser), "album \(index) of the view")
    }
  }
}
