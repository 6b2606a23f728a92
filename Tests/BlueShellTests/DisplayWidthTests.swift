import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// Text measured in terminal cells as a terminal draws it: per grapheme cluster.
struct DisplayWidthTests {
  /// The shell measures in the UTF-8 locale it sets at start-up (East Asian widths come
  /// from the C library's wcwidth, which answers per locale).
  init() { TerminalModes.enableUTF8Locale() }

  @Test(arguments: [
    ("a", 1), ("é", 1), ("e\u{301}", 1), ("東", 2), ("🎸", 2),
    ("🇫🇷", 2), ("🇯🇵", 2), ("❤️", 2), ("👨‍👩‍👧", 2), ("🏳️‍🌈", 2), ("👍🏽", 2),
  ])
  func aGraphemeClusterTakesTheCellsATerminalGivesIt(text: String, cells: Int) {
    #expect(text.count == 1)
    #expect(DisplayWidth.width(text) == cells)
  }

  @Test(arguments: ["Flags 🇫🇷🇯🇵🇧🇷 and more", "Family 👨‍👩‍👧 ❤️ 🏳️‍🌈 ok", "東京事変 教育 🎸🎸🎸🎸🎸🎸"])
  func fittingKeepsEveryCardRowExactlyItsWidth(title: String) {
    for width in [5, 10, 20] {
      #expect(DisplayWidth.width(DisplayWidth.fit(title, width: width)) == width)
    }
  }

  @Test func cardsWithEmojiTitlesKeepTheirRowsAsWideAsTheBorders() {
    let library = Library.inMemory(seed: [
      Album(title: "Flags 🇫🇷🇯🇵🇧🇷🇩🇪🇮🇹🇪🇸", artist: "👨‍👩‍👧 family"), Album(title: "❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️"),
      Album(title: "Plain"),
    ])
    let browser = AlbumBrowser(library: library, style: .plain, layout: .cards)
    let lines = browser.drawing(window: WindowSize(columns: 80, rows: 24)).lines
    // Rows 0-4 are the cards: border, three text rows, border — all as wide as each other.
    let widths = lines.prefix(5).map { DisplayWidth.width($0) }
    #expect(Set(widths).count == 1, "card rows of different widths: \(widths)")
    #expect(widths.first.map { $0 <= 80 } == true)
  }
}
