import AlbumModel
import BlueSQL
import Foundation
import Testing

@testable import BlueLibrary

/// What `lookup` keeps in the library file (issue 46, item 7): each album found committed
/// on its own into one undo step that grows, and "not found" remembered for 30 days
/// (schema version 16), a date in the future counting as not asked (H18).
struct LookupStoreTests {
  let directory: TemporaryDirectory
  let store: AlbumStore
  let origin = ChangeOrigin(session: "lookup", selection: 0)

  init() throws {
    directory = try TemporaryDirectory()
    store = try AlbumStore.open(path: directory.file("library.sqlite"), seed: [])
    _ = try store.importAlbums(
      (1...4).map { Album(title: "Album \($0)", artist: "X", coverURL: "") } + [
        Album(title: "Covered", artist: "X", coverURL: "https://c.example/a.png"), Album(title: "Nobody's"),
      ], origin: origin)
  }

  private func id(_ title: String) throws -> Int64 {
    try #require(try store.all().first { $0.title == title }?.id)
  }

  private func found(_ title: String, step: Int64?, session: String = "lookup") throws -> Int64 {
    let write = try store.recordLookupFound(
      id: try id(title), title: title, artist: "X", coverURL: "caa:release-group/\(title)", extending: step,
      origin: ChangeOrigin(session: session, selection: 0))
    guard case .written(let step) = write else {
      Issue.record("\(title) was not written")
      return -1
    }
    return step
  }

  private func covers() throws -> [String] {
    try store.all().filter { $0.title.hasPrefix("Album") }.map(\.coverURL)
  }

  @Test func albumsFoundOneByOneAreOneStepThatOneUndoTakesBack() throws {
    let first = try found("Album 1", step: nil)
    #expect(try found("Album 2", step: first) == first)
    #expect(try found("Album 3", step: first) == first)
    #expect(try store.changeLog(limit: 1).first?.summary == "lookup of 3 albums")

    let undone = try store.undo(session: "lookup")

    #expect(undone.step.id == first)
    #expect(try covers() == ["", "", "", ""])
    _ = try store.redo(session: "lookup")
    #expect(
      try covers() == ["caa:release-group/Album 1", "caa:release-group/Album 2", "caa:release-group/Album 3", ""])
  }

  /// Another shell undid the step while the run went on: the next album found is a step of
  /// its own, never one more album of an undone step.
  @Test func aStepUndoneMeanwhileIsNotExtended() throws {
    let first = try found("Album 1", step: nil)
    _ = try store.undo(session: "another shell")
    let next = try found("Album 2", step: first)

    #expect(next != first)
    #expect(try store.changeLog(limit: 1).first?.summary == #"lookup "Album 2""#)
    _ = try store.undo(session: "lookup")
    #expect(try covers() == ["", "", "", ""])
  }

  /// An album given a cover, retitled or deleted by another shell since it was asked
  /// about is left as it is.
  @Test func anAlbumChangedSinceItWasAskedAboutIsLeftAlone() throws {
    let covered = try store.recordLookupFound(
      id: try id("Covered"), title: "Covered", artist: "X", coverURL: "caa:release-group/x", extending: nil,
      origin: origin)
    let retitled = try store.recordLookupFound(
      id: try id("Album 1"), title: "Album One", artist: "X", coverURL: "caa:release-group/x", extending: nil,
      origin: origin)
    #expect(covered == .changedSince && retitled == .changedSince)
    #expect(try covers() == ["", "", "", ""])
  }

  @Test func thePlanLeavesOutWhatHasACoverOrNothingToAskByAndMissesOfTheLast30Days() throws {
    let now: Int64 = 2_000_000_000
    try store.recordLookupNotFound(title: "Album 1", artist: "X", at: now - 86_400)
    try store.recordLookupNotFound(title: "Album 2", artist: "X", at: now - 31 * 86_400)
    // Recorded while the clock was a century ahead: as if never asked (H18).
    try store.recordLookupNotFound(title: "Album 3", artist: "X", at: 4_102_444_800)

    let plan = try store.lookupPlan(among: nil, missesSince: now - Library.lookupNoneStands, now: now)
    #expect(plan.ids == [try id("Album 2"), try id("Album 3"), try id("Album 4")])
    #expect(plan.remembered == 1 && plan.leftAlone == 2)

    // `--retry`, or albums named: every miss asked again; ids in the order given.
    let named = try store.lookupPlan(
      among: [try id("Album 4"), try id("Album 1"), 999_999, try id("Covered")], missesSince: nil, now: now)
    #expect(named.ids == [try id("Album 4"), try id("Album 1")])
    #expect(named.remembered == 0 && named.leftAlone == 1)
  }

  @Test func aFoundAlbumForgetsItsMiss() throws {
    try store.recordLookupNotFound(title: "Album 1", artist: "X", at: 1)
    #expect(try store.lookupFoundNothing(title: "Album 1", artist: "X"))
    _ = try found("Album 1", step: nil)
    #expect(try !store.lookupFoundNothing(title: "Album 1", artist: "X"))
  }

  /// The same rule for the Cover Art Archive's "none" (H18): an answer dated after now is
  /// asked again.
  @Test func aCoverNoneDatedInTheFutureCountsAsNotAsked() throws {
    let now: Int64 = 2_000_000_000
    try store.recordNoCover("caa:release/a", at: now - 60)
    try store.recordNoCover("caa:release/b", at: 4_102_444_800)
    #expect(try store.noCovers(since: now - Library.noCoverStands, now: now) == ["caa:release/a"])
  }

  /// A library of version 14 opens with the table of misses (version 16), empty.
  @Test func aVersion14LibraryGetsTheLookupMemory() throws {
    try store.queue.write { db in try Schema.downgrade(to: 14, db) }
    let tables = "SELECT name FROM sqlite_master WHERE name = 'lookup_none'"
    #expect(try store.queue.read { db in try String.fetchAll(db, sql: tables) }.isEmpty)
    let reopened = try AlbumStore.open(path: directory.file("library.sqlite"))
    #expect(try reopened.queue.read { db in try String.fetchAll(db, sql: tables) } == ["lookup_none"])
    #expect(try reopened.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Schema.version)
    try reopened.recordLookupNotFound(title: "Album 1", artist: "X", at: 1)
    #expect(try reopened.lookupFoundNothing(title: "Album 1", artist: "X"))
  }
}
