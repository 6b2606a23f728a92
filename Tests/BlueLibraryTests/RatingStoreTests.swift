import BlueSQL
import Foundation
import Testing

@testable import BlueLibrary

/// Ratings and favourites in the library file (issue 38, item 2): one step each, nothing
/// logged when nothing changes, and a library from before them (schema 9) migrates with its
/// undo log working.
@Suite struct RatingStoreTests {
  let directory: TemporaryDirectory
  let path: String

  init() throws {
    directory = try TemporaryDirectory()
    path = directory.file("library.sqlite")
  }

  func shell() throws -> Library {
    try Library(store: AlbumStore.open(path: path), session: UUID().uuidString)
  }

  @Test func aRatingIsOneStepAndARatingAlreadyGivenLogsNone() throws {
    let library = try shell()
    #expect(try library.rate(at: [0, 2], stars: 4).map(\.title) == ["Best of Bowie", "Nothing Like The Sun"])
    #expect(try library.changeLog(limit: 5).map(\.summary) == ["rate 2 albums 4 stars"])
    #expect(try library.rate(at: [0], stars: 4).isEmpty)
    #expect(try library.setFavourite(at: [1], true).map(\.favourite) == [true])
    #expect(try library.setFavourite(at: [1], true).isEmpty)
    #expect(try library.changeLog(limit: 5).map(\.summary) == ["fav \"It's My Life\"", "rate 2 albums 4 stars"])
    // Stored, and read back by every path an album takes.
    let again = try shell()
    #expect(try again.album(at: 0).rating == 4)
    #expect(try again.albums(in: 0..<3).map(\.rating) == [4, nil, 4])
    #expect(try again.album(at: 1).favourite)
    #expect(try again.undo() == "fav \"It's My Life\"")
    #expect(try again.album(at: 1).favourite == false)
    #expect(try again.undo() == "rate 2 albums 4 stars")
    #expect(try again.albums(in: 0..<3).map(\.rating) == [nil, nil, nil])
    // A deleted album comes back with its rating.
    _ = try again.rate(at: [4], stars: 2)
    _ = try again.delete(at: 4)
    _ = try again.undo()
    #expect(try again.album(at: 4).rating == 2)
  }

  @Test func aVersion9LibraryMigratesAndItsOldStepsStillUndo() throws {
    let library = try shell()
    _ = try library.delete(at: 1)
    try DatabaseQueue(path: path).write { db in try Schema.downgrade(to: 9, db) }
    let migrated = try shell()
    let version = try migrated.store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    #expect(version == Schema.version)
    #expect(try migrated.undo() == "delete \"It's My Life\"")
    let back = try migrated.album(at: 1)
    #expect(back.title == "It's My Life" && back.rating == nil && !back.favourite)
    #expect(try migrated.rate(at: [1], stars: 5).first?.rating == 5)
  }
}
