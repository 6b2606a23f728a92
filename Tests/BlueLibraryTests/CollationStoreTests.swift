import AlbumModel
import BlueSQL
import BlueSystem
import Testing

@testable import BlueLibrary

/// Issue 50, item 3, in the store: sorts, completion and grouping fold case and accents by
/// ``CollationKey``, whoever wrote the albums (an add, an edit, an undo, an older library).
struct CollationStoreTests {
  private static let names = ["Zappa", "Émile", "Ólafur", "Øystein", "Åkesson", "Alfa", "Echo", "Oscar"]
  private static let sorted = ["Åkesson", "Alfa", "Echo", "Émile", "Ólafur", "Oscar", "Øystein", "Zappa"]

  private static func albums() -> [Album] {
    names.map { Album(title: $0, artist: $0, genre: $0 == "Zappa" ? "Électro" : "electro", year: 2000) }
  }

  private static func order(_ library: Library, _ words: [String]) throws -> [String] {
    try library.show(library.query(words))
    return try library.albums(in: 0..<library.count()).map(\.title)
  }

  @Test func titlesAndArtistsSortWithAccentsAmongTheirLetters() throws {
    let library = Library.inMemory(seed: Self.albums())
    #expect(try Self.order(library, ["title+"]) == Self.sorted)
    #expect(try Self.order(library, ["artist-"]) == Self.sorted.reversed())
  }

  /// A bulk import inserts without the trigger and marks its rows in one pass.
  @Test func importedAlbumsSortWithAccentsAmongTheirLetters() throws {
    let library = Library.inMemory(seed: [])
    try library.importAlbums(Self.albums())
    #expect(try Self.order(library, ["title+"]) == Self.sorted)
    #expect(try Self.order(library, ["artist+"]) == Self.sorted)
  }

  @Test func anEditedTitleSortsByItsNewKeyAndUndoPutsTheOldOneBack() throws {
    let library = Library.inMemory(seed: Self.albums())
    var zappa = try library.album(at: 0)
    zappa.title = "Ärger"
    try library.edit(zappa)
    #expect(try Self.order(library, ["title+"]).prefix(3) == ["Åkesson", "Alfa", "Ärger"])
    _ = try library.undo()
    #expect(try Self.order(library, ["title+"]) == Self.sorted)
  }

  @Test func completionAndGroupingFoldAccents() throws {
    let library = Library.inMemory(seed: Self.albums())
    #expect(try library.titles(withPrefix: "emi", limit: 5) == ["Émile"])
    #expect(try library.titles(withPrefix: "OY", limit: 5) == ["Øystein"])
    #expect(try library.values(of: .artist, withPrefix: "ola", limit: 5) == ["Ólafur"])
    let stats = try library.statistics(nil)
    #expect(stats.genres.count == 1, "Électro and electro are one genre: \(stats.genres)")
  }

  /// Another program (sqlite3) can still write albums, whatever their titles: the triggers
  /// are plain SQL; bluelib keys what it wrote at its next change.
  @Test func anAlbumAnotherProgramWroteIsKeyedAtTheNextChange() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path, seed: Self.albums())
    try DatabaseQueue(path: path).write { db in
      try db.execute(sql: "INSERT INTO album (title, artist, position) VALUES ('Ærø', 'Ærø', 8)")
    }
    let library = try Library(store: AlbumStore.open(path: path))
    try library.add(Album(title: "Other"))
    let order = try Self.order(library, ["title+"])
    #expect(order.prefix(4) == ["Ærø", "Åkesson", "Alfa", "Echo"], "\(order)")
  }

  /// A library of schema 17 (before the sort keys) gets its albums' keys when it is opened.
  @Test func aVersion17LibraryMigratesWithItsAlbumsKeyed() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("library.sqlite")
    _ = try AlbumStore.open(path: path, seed: Self.albums())
    try DatabaseQueue(path: path).write { db in try Schema.downgrade(to: 17, db) }
    let library = try Library(store: AlbumStore.open(path: path))
    let version = try library.store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    #expect(version == Schema.version)
    #expect(try Self.order(library, ["title+"]) == Self.sorted)
    #expect(try Self.order(library, ["artist+"]) == Self.sorted)
  }
}
