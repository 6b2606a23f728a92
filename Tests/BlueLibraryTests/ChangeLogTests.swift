import AlbumModel
import BlueSQL
import Foundation
import Testing

@testable import BlueLibrary

/// The undo log in the library file: two stores opened on one file with two session ids
/// stand for two shells; a store opened afresh stands for the next run.
struct ChangeLogTests {
  let directory: TemporaryDirectory
  let path: String
  let defaults = DefaultCatalogue.albums.map(\.title)

  init() throws {
    directory = try TemporaryDirectory()
    path = directory.file("library.sqlite")
  }

  /// A shell: a store on the shared file and its session id.
  struct Shell {
    let store: AlbumStore
    let session: String

    var origin: ChangeOrigin {
      get throws(LibraryError) { ChangeOrigin(session: session, selection: try store.selectedIndex()) }
    }

    func id(at index: Int) throws -> Int64 { try #require(try store.album(at: index).id) }

    @discardableResult
    func add(_ title: String, at index: Int) throws -> Album {
      try store.add(album(title), at: index, origin: origin).album
    }
    @discardableResult
    func delete(at index: Int) throws -> Album {
      try store.delete(id: id(at: index), selecting: nil, origin: origin).album
    }
    func move(_ index: Int, to target: Int) throws { _ = try store.move(id: id(at: index), to: target, origin: origin) }
    func undo() throws(LibraryError) -> StepResult { try store.undo(session: session) }
    func redo() throws(LibraryError) -> StepResult { try store.redo(session: session) }
  }

  func shell(_ session: String) throws -> Shell {
    Shell(store: try AlbumStore.open(path: path), session: session)
  }

  // MARK: - Identity, beside another shell

  /// An edit of several albums (issue 26, item 2) is one step; its undo and its redo are
  /// refused, changing none of them, when another shell changed one of them since.
  @Test func anEditOfSeveralAlbumsIsUndoneWholeOrNotAtAll() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    let before = try a.store.all()
    let edited = before.prefix(3).map { album in
      var album = album
      album.genre = "Jazz"
      return album
    }
    #expect(try a.store.edit(edited, origin: a.origin).step.summary == "edit of 3 albums")
    var second = try b.store.album(at: 1)
    second.artist = "Someone else"
    _ = try b.store.edit(second, origin: b.origin)
    #expect(
      libraryError { () throws(LibraryError) in try a.undo() } == .changedSince(title: "It's My Life", undoing: true))
    #expect(try a.store.all().prefix(3).map(\.genre) == ["Jazz", "Jazz", "Jazz"])
    _ = try b.undo()
    #expect(try a.undo().step.summary == "edit of 3 albums")
    #expect(try a.store.all() == before)
    // Redo, once another shell changed one of them again, is refused too.
    var third = try b.store.album(at: 2)
    third.year = 1
    _ = try b.store.edit(third, origin: b.origin)
    #expect(
      libraryError { () throws(LibraryError) in try a.redo() }
        == .changedSince(title: "Nothing Like The Sun", undoing: false))
    #expect(try a.store.all().map(\.genre) == before.map(\.genre))
  }

  @Test func undoOfAddRemovesOurAlbumNotTheOneAnotherShellAddedSince() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    let ours = try a.add("Ours", at: 1)
    try b.add("Theirs", at: 1)
    #expect(try a.store.titles() == ["Best of Bowie", "Theirs", "Ours"] + defaults[1...])
    let result = try a.undo()
    #expect(result.step.summary == "add \"Ours\"" && result.step.kind == .add && result.step.isUndone)
    #expect(try a.store.titles() == ["Best of Bowie", "Theirs"] + defaults[1...])
    #expect(try b.store.storedPositions() == Array(0..<6))
    #expect(try a.store.redo(session: "A").selection == 2)
    #expect(try a.store.album(at: 2).id == ours.id, "redo puts the same album back")
  }

  @Test func undoOfDeleteAfterAnotherShellAddedPutsItBackBetweenItsOldNeighboursWithItsId() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    try a.store.setSelectedIndex(2)
    let deleted = try a.delete(at: 2)
    try b.add("Theirs", at: 0)
    let result = try a.undo()
    #expect(result.step.summary == "delete \"Nothing Like The Sun\"")
    #expect(try a.store.titles() == ["Theirs"] + defaults)
    #expect(try a.store.album(at: 3) == deleted.with(position: 3), "same id and fields")
    #expect(result.selection == 3, "the restored album is selected")
    #expect(try a.store.selectedIndex() == 3)
  }

  @Test func redoOfDeleteAfterAnotherShellMovedDeletesThatAlbumNotTheOneNowAtItsIndex() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    try a.delete(at: 2)
    _ = try a.undo()
    try b.move(4, to: 0)
    #expect(
      try a.store.titles() == [
        "American Pie", "Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun",
      ])
    let result = try a.redo()
    #expect(!result.step.isUndone)
    #expect(try a.store.titles() == ["American Pie", "Best of Bowie", "It's My Life", "Staring at the Sun"])
  }

  @Test func undoOfMoveAfterAnotherShellDeletedTheAlbumIsRefusedAndChangesNothing() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    try a.move(4, to: 0)
    try b.delete(at: 0)
    let before = try a.store.all()
    let selection = try a.store.selectedIndex()
    let error = libraryError { () throws(LibraryError) in try a.undo() }
    #expect(error == .deletedSince(title: "American Pie", undoing: true))
    #expect(error?.description == "\"American Pie\" was deleted since (by another shell?); nothing undone")
    #expect(try a.store.all() == before)
    #expect(try a.store.selectedIndex() == selection)
    #expect(try a.store.changeLog(limit: 10).map(\.isUndone) == [false, false], "both steps still stand")
  }

  @Test func undoOfMoveAfterAnotherShellAddedBeforeItPutsItBackAfterItsOldNeighbour() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    try a.move(1, to: 4)
    try b.add("Theirs", at: 0)
    _ = try a.undo()
    #expect(
      try a.store.titles() == [
        "Theirs", "Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie",
      ])
    _ = try a.redo()
    #expect(
      try a.store.titles() == [
        "Theirs", "Best of Bowie", "Nothing Like The Sun", "Staring at the Sun", "American Pie", "It's My Life",
      ])
  }

  @Test func undoOfResetAfterAnotherShellAddedRestoresTheOldAlbumsFirstAndKeepsTheirs() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    _ = try a.store.importAlbums([album("Mine 1"), album("Mine 2"), album("Mine 3")], origin: a.origin)
    let old = try a.store.all()
    let reset = try a.store.reset(to: DefaultCatalogue.albums, origin: a.origin)
    #expect(reset.removed == 8 && reset.step.summary == "reset")
    #expect(try a.store.titles() == defaults)
    try b.add("Theirs", at: 2)
    _ = try a.undo()
    #expect(try a.store.all().prefix(8) == old[...], "the old albums, ids and positions included")
    #expect(try a.store.titles() == old.map(\.title) + ["Theirs"])
    #expect(try a.store.storedPositions() == Array(0..<9))
    _ = try a.redo()
    #expect(try a.store.titles() == defaults + ["Theirs"])
  }

  @Test func undoOfImportAfterAnotherShellAddedRemovesExactlyTheImportedAlbums() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    let imported = try a.store.importAlbums([album("I1"), album("I2"), album("I3")], origin: a.origin)
    #expect(imported.range == 5..<8 && imported.step.summary == "import of 3 albums")
    try b.add("Inside", at: 6)
    try b.add("After", at: 9)
    let result = try a.undo()
    #expect(result.step.kind == .import)
    #expect(try a.store.titles() == defaults + ["Inside", "After"])
    #expect(try a.store.storedPositions() == Array(0..<7))
    _ = try a.redo()
    #expect(try a.store.titles() == defaults + ["Inside", "After", "I1", "I2", "I3"])
    _ = try a.undo()
    #expect(try a.store.titles() == defaults + ["Inside", "After"], "undo after redo finds the albums again")
  }

  @Test func undoOfDeleteWhoseIdWasTakenSinceGivesTheAlbumAFreshId() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    let pie = try a.delete(at: 4)
    // Without AUTOINCREMENT, SQLite gives the next album the largest id + 1: the deleted one's.
    let newcomer = try b.add("Newcomer", at: 0)
    try #require(newcomer.id == pie.id)
    _ = try a.undo()
    let restored = try a.store.album(at: 5)
    #expect(restored.title == "American Pie" && restored.id != pie.id)
    #expect(try a.store.album(at: 0) == newcomer)
    _ = try a.redo()
    #expect(try a.store.titles() == ["Newcomer"] + defaults[..<4], "redo deletes the restored album, not the newcomer")
  }

  // MARK: - The next run

  @Test func aNewRunUndoesTheLastRunsDelete() throws {
    let deleted: Album
    do {
      let run = try shell("run 1")
      try run.store.setSelectedIndex(1)
      deleted = try run.delete(at: 1)
    }
    let next = try shell("run 2")
    let result = try next.undo()
    #expect(result.step.session == "run 1" && result.step.summary == "delete \"It's My Life\"")
    #expect(try next.store.album(at: 1) == deleted)
    #expect(result.selection == 1)
    #expect(try next.redo().selection == 1)
    #expect(try next.store.titles() == defaults.filter { $0 != "It's My Life" })
  }

  @Test func anImportAndAResetAreUndoneAfterReopeningWithTheAlbumsInOrder() throws {
    let albums = (0..<300).map { (index: Int) in album("Album \(index)", year: index) }
    let before: [Album]
    do {
      let run = try shell("run 1")
      _ = try run.store.importAlbums(albums, origin: run.origin)
      before = try run.store.all()
      _ = try run.store.reset(to: DefaultCatalogue.albums, origin: run.origin)
      #expect(try run.store.count() == 5)
    }
    let next = try shell("run 2")
    #expect(try next.undo().step.kind == .reset)
    #expect(try next.store.count() == 305)
    #expect(try next.store.all() == before)
    #expect(try next.undo().step.kind == .import)
    #expect(try next.store.titles() == defaults)
  }

  // MARK: - Conflicts and the order of steps

  @Test func undoOfAnEditThatAnotherShellEditedSinceIsRefusedUntilTheyUndoTheirs() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    var pie = try a.store.album(at: 4)
    pie.year = 2001
    _ = try a.store.edit(pie, origin: a.origin)
    pie.title = "American Pie\u{1B}[2J"
    let theirs = try b.store.edit(pie, origin: b.origin)
    #expect(theirs.before.year == 2001 && theirs.step.summary == "edit \"American Pie\u{1B}[2J\"")
    let error = libraryError { () throws(LibraryError) in try a.undo() }
    #expect(error?.description == "\"American Pie\" was changed since (by another shell?); nothing undone")
    #expect(try a.store.album(at: 4).title == "American Pie\u{1B}[2J")
    #expect(
      LibraryError.changedSince(title: "American Pie\u{1B}[2J", undoing: false).description
        == "\"American Pie\\u{1B}[2J\" was changed since (by another shell?); nothing redone")
    _ = try b.undo()
    #expect(try a.store.album(at: 4).title == "American Pie")
    #expect(try a.store.album(at: 4).year == 2001)
    _ = try a.undo()
    #expect(try a.store.album(at: 4) == DefaultCatalogue.albums[4].with(id: pie.id, position: 4))
    // b's step is undone and a's too: b's redo would skip a's, so it is refused.
    #expect(
      libraryError { () throws(LibraryError) in try b.redo() } == .changedSince(title: "American Pie", undoing: false))
  }

  @Test func undoTakesThisSessionsLatestStepAndRedoTheMostRecentlyUndone() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    try a.add("A1", at: 0)
    try a.add("A2", at: 0)
    try b.add("B1", at: 0)
    #expect(try a.undo().step.summary == "add \"A2\"")
    #expect(try a.undo().step.summary == "add \"A1\"")
    #expect(libraryError { () throws(LibraryError) in try a.undo() } == .nothingToUndo, "b's step is b's")
    #expect(try a.redo().step.summary == "add \"A1\"")
    #expect(try a.store.titles() == ["B1", "A1"] + defaults)
    #expect(try b.undo().step.summary == "add \"B1\"")
    #expect(try a.store.changeLog(limit: 5).map(\.summary) == ["add \"B1\"", "add \"A2\"", "add \"A1\""])
    #expect(try a.store.changeLog(limit: 5).map(\.isUndone) == [true, true, false])
  }

  @Test func undoSelectsWhatWasSelectedBeforeAndRedoWhatWasSelectedAfter() throws {
    let a = try shell("A")
    try a.store.setSelectedIndex(3)
    try a.add("New", at: 1)
    #expect(try a.store.selectedIndex() == 1)
    let undone = try a.undo()
    #expect(undone.selection == 3)
    #expect(try a.store.album(at: 3).title == "Staring at the Sun")
    try a.store.setSelectedIndex(0)
    #expect(try a.redo().selection == 1)
    #expect(try a.store.selectedIndex() == 1)
  }

  @Test func aNewChangeClearsThatShellsRedoButNotAnotherShells() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    try a.add("X", at: 0)
    _ = try a.undo()
    try b.add("Y", at: 0)
    _ = try b.undo()
    try a.add("Z", at: 0)
    #expect(libraryError { () throws(LibraryError) in try a.redo() } == .nothingToRedo)
    #expect(try a.store.changeLog(limit: 10).map(\.summary) == ["add \"Z\"", "add \"Y\""])
    #expect(try b.redo().step.summary == "add \"Y\"")
    try b.add("W", at: 0)
    #expect(try a.store.titles() == ["W", "Z", "Y"] + defaults, "Y goes back before its old next neighbour")
  }

  @Test func aNewChangeClearsTheRedoOfAStepThisShellUndidForAnother() throws {
    do { try shell("run 1").add("Old", at: 0) }
    let next = try shell("run 2")
    _ = try next.undo()
    try next.add("New", at: 0)
    #expect(libraryError { () throws(LibraryError) in try next.redo() } == .nothingToRedo)
    let third = try shell("run 3")
    #expect(libraryError { () throws(LibraryError) in try third.redo() } == .nothingToRedo)
  }

  @Test func nothingToUndoOrRedoInAFreshLibrary() throws {
    let a = try shell("A")
    #expect(libraryError { () throws(LibraryError) in try a.undo() }?.description == "nothing to undo")
    #expect(libraryError { () throws(LibraryError) in try a.redo() }?.description == "nothing to redo")
  }

  @Test func theLogKeepsTheLast1000Steps() throws {
    let store = AlbumStore.inMemory(seed: [])
    let origin = ChangeOrigin(session: "A", selection: nil)
    for step in 0..<1_001 {
      _ = try store.add(album("Album \(step)"), at: 0, origin: origin)
    }
    let log = try store.changeLog(limit: 2_000)
    #expect(log.count == 1_000)
    #expect(log.last?.summary == "add \"Album 1\"")
    let rows = try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM change_album") }
    #expect(rows == 1_000)
    for _ in 0..<1_000 { _ = try store.undo(session: "A") }
    #expect(try store.titles() == ["Album 0"])
    #expect(libraryError { () throws(LibraryError) in try store.undo(session: "A") } == .nothingToUndo)
  }

  @Test func aFailedChangeLogsNothing() throws {
    let a = try shell("A")
    let bad = [album("Good")] + [Album(title: "Bad", year: 12_345)]
    #expect(libraryError { () throws(LibraryError) in try a.store.importAlbums(bad, origin: a.origin) } != nil)
    #expect(libraryError { () throws(LibraryError) in try a.store.add(album("X"), at: 9, origin: a.origin) } != nil)
    #expect(try a.store.changeLog(limit: 10) == [])
    #expect(try a.store.titles() == defaults)
  }

  @Test func dataVersionChangesWhenAnotherShellCommits() throws {
    let (a, b) = (try shell("A"), try shell("B"))
    let first = try a.store.dataVersion()
    try a.add("Ours", at: 0)
    #expect(try a.store.dataVersion() == first, "our own commits do not count")
    try b.add("Theirs", at: 0)
    #expect(try a.store.dataVersion() != first)
  }

  // MARK: - Migration

  @Test func aVersion1LibraryMigratesKeepingItsAlbumsAndCanUndo() throws {
    try DatabaseQueue(path: path).writeWithoutTransaction { db in
      try db.inTransaction {
        try Schema.migrations[0](db)
        try db.execute(sql: "PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 1")
        for (index, title) in ["Old 1", "Old 2", "Old 3"].enumerated() {
          try db.execute(sql: "INSERT INTO album (title, position) VALUES (?, ?)", arguments: [title, index])
        }
        try db.execute(sql: "INSERT INTO state (key, value) VALUES ('selectedIndex', 2)")
        return .commit
      }
    }
    let a = try shell("A")
    #expect(try a.store.titles() == ["Old 1", "Old 2", "Old 3"])
    #expect(try a.store.selectedIndex() == 2)
    let version = try a.store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    #expect(version == Schema.version)
    try a.delete(at: 1)
    _ = try a.undo()
    #expect(try a.store.titles() == ["Old 1", "Old 2", "Old 3"])
  }
}

extension Album {
  fileprivate func with(id: Int64? = nil, position: Int) -> Album {
    var copy = self
    if let id { copy.id = id }
    copy.position = position
    return copy
  }
}

extension RunsAlone {
  /// A million albums, reset and undone: the log copies them inside SQLite.
  struct ChangeLogMemoryTests {
    /// The process's peak resident set since the last ``resetPeak()``, in bytes (Linux's VmHWM).
    static func peakResidentBytes() throws -> Int {
      let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
      let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
      return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }

    static func residentBytes() throws -> Int {
      let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
      let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
      return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }

    /// A library file in `directory` of `count` albums: the five samples, then `Album 5`,
    /// `Album 6`, … written by SQLite itself (no `Album` in this process).
    static func store(ofAlbums count: Int, in directory: TemporaryDirectory) throws -> AlbumStore {
      let path = directory.file("library.sqlite")
      _ = try AlbumStore.open(path: path)
      try DatabaseQueue(path: path).write { db in
        try db.execute(
          sql: """
            WITH RECURSIVE n(i) AS (SELECT 5 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO album (title, artist, genre, year, coverUrl, position)
            SELECT 'Album ' || i, 'Artist ' || (i % 1000), 'Genre', i % 10000, '', i FROM n
            """,
          arguments: [count - 1])
      }
      return try AlbumStore.open(path: path)
    }

    /// Writing 5 to `clear_refs` resets VmHWM to the current resident set.
    static func resetPeak() throws {
      try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs"), "needs Linux's clear_refs"))
    func resettingAndUndoingAMillionAlbumsStaysUnder64MiB() throws {
      let directory = try TemporaryDirectory()
      let store = try Self.store(ofAlbums: 1_000_005, in: directory)
      let origin = ChangeOrigin(session: "A", selection: 0)
      let last = try store.album(at: 1_000_004)
      try Self.resetPeak()
      let baseline = try Self.residentBytes()
      #expect(try store.reset(to: DefaultCatalogue.albums, origin: origin).removed == 1_000_005)
      #expect(try store.count() == 5)
      _ = try store.undo(session: "A")
      let growth = try Self.peakResidentBytes() - baseline
      #expect(growth < 64 << 20, "peak grew by \(growth >> 20) MiB")
      #expect(try store.count() == 1_000_005)
      #expect(try store.album(at: 1_000_004) == last)
      #expect(try store.titles(withPrefix: "Best of", limit: 1) == ["Best of Bowie"])
    }

    /// `delete all` of 300,005 albums, its undo (set-based, nothing logged since), redo, and an
    /// undo after another shell's step (each album placed by its neighbours, a page of the log
    /// at a time): none loads the albums (it was about 250 MiB for each at this size).
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs"), "needs Linux's clear_refs"))
    func deletingAndUndoingEveryAlbumStaysUnder64MiB() throws {
      let directory = try TemporaryDirectory()
      let store = try Self.store(ofAlbums: 300_005, in: directory)
      let before = try store.albums(in: 299_995..<300_005)
      let ids = try store.albumIDs(matching: .all)
      try Self.resetPeak()
      let baseline = try Self.residentBytes()
      let deleted = try store.delete(ids: ids, selecting: nil, origin: ChangeOrigin(session: "A", selection: 0))
      #expect(deleted.albums.count == 300_005)
      _ = try store.undo(session: "A")
      #expect(try store.albums(in: 299_995..<300_005) == before)
      _ = try store.redo(session: "A")
      #expect(try store.count() == 0)
      _ = try store.add(Album(title: "Another shell's"), at: 0, origin: ChangeOrigin(session: "B", selection: nil))
      _ = try store.undo(session: "A")
      let growth = try Self.peakResidentBytes() - baseline
      #expect(growth < 64 << 20, "peak grew by \(growth >> 20) MiB")
      // The first album had no neighbour before it: it goes back to the top, and the rest
      // follow it, so the other shell's album ends up last.
      #expect(try store.count() == 300_006)
      #expect(try store.albums(in: 299_995..<300_005) == before)
      #expect(try store.album(at: 300_005).title == "Another shell's")
    }
  }
}
