import AlbumModel
import BlueSQL
import Testing

@testable import BlueLibrary

struct AlbumStoreTests {
  let defaults = DefaultCatalogue.albums.map(\.title)
  let origin = ChangeOrigin(session: "test", selection: 0)

  // MARK: - Reading

  @Test func aNewStoreHoldsTheDefaultCatalogueWithTheFirstAlbumSelected() throws {
    let store = AlbumStore.inMemory()
    #expect(try store.count() == 5)
    #expect(try content(store.all()) == DefaultCatalogue.albums.map { content([$0])[0] })
    #expect(try store.all().map(\.position) == [0, 1, 2, 3, 4])
    #expect(try store.all().allSatisfy { $0.id != nil })
    #expect(try store.selectedIndex() == 0)
  }

  @Test func albumAtAnIndexAndAPageOfAlbumsFollowTheScrollerOrder() throws {
    let store = AlbumStore.inMemory()
    #expect(try store.album(at: 3).title == "Staring at the Sun")
    #expect(try store.album(at: 3).position == 3)
    #expect(try store.albums(in: 1..<4).map(\.title) == Array(defaults[1..<4]))
    #expect(try store.albums(in: 5..<5) == [])
  }

  @Test(arguments: [
    (-1, "no album 0 (the library has 5)"),
    (5, "no album 6 (the library has 5)"),
    (Int.max, "no album 9223372036854775807 (the library has 5)"),
  ])
  func anIndexOutsideTheLibraryIsAnError(index: Int, message: String) {
    let store = AlbumStore.inMemory()
    #expect(libraryError { () throws(LibraryError) in try store.album(at: index) }?.description == message)
    #expect(libraryError { () throws(LibraryError) in try store.setSelectedIndex(index) }?.description == message)
    #expect(
      libraryError { () throws(LibraryError) in try store.move(id: 1, to: index, origin: origin) }?.description
        == message)
  }

  @Test func outOfRangeErrorsOnOtherVerbs() {
    let store = AlbumStore.inMemory()
    #expect(
      libraryError { () throws(LibraryError) in try store.add(album("X"), at: 6, origin: origin) }?.description
        == "no album 7 (the library has 5)")
    #expect(
      libraryError { () throws(LibraryError) in try store.add(album("X"), at: -1, origin: origin) }?.description
        == "no album 0 (the library has 5)")
    #expect(
      libraryError { () throws(LibraryError) in try store.albums(in: 3..<7) }?.description
        == "no albums 4 to 7 (the library has 5)")
    #expect(
      libraryError { () throws(LibraryError) in try store.albums(in: 7..<7) }?.description
        == "no album 8 (the library has 5)")
    #expect(
      libraryError { () throws(LibraryError) in try store.albums(in: -2..<1) }?.description
        == "no albums -1 to 1 (the library has 5)")
    let empty = AlbumStore.inMemory(seed: [])
    #expect(
      libraryError { () throws(LibraryError) in try empty.album(at: 0) }?.description
        == "no album 1 (the library is empty)")
  }

  @Test func countIsReadFromThePositionIndexNotAScan() throws {
    let store = AlbumStore.inMemory()
    let countPlan = try store.queryPlan("SELECT MAX(position) FROM album")
    #expect(countPlan == ["SEARCH album USING COVERING INDEX album_position"])
    let atPlan = try store.queryPlan("SELECT \(Album.selection) FROM album WHERE position = 3")
    // The cover ledger adds one primary-key probe per album read, not a scan.
    #expect(
      atPlan == [
        "SEARCH album USING INDEX album_position (position=?)", "CORRELATED SCALAR SUBQUERY 1",
        "SEARCH cover USING PRIMARY KEY (url=?)",
      ])
  }

  @Test func aLargeLibraryAnswersCountAndAlbumAtAnIndexCorrectly() throws {
    let store = AlbumStore.inMemory(seed: [])
    let albums = (0..<100_000).map { album("Album \($0)", year: $0 % 10_000) }
    #expect(try store.importAlbums(albums, origin: origin).range == 0..<100_000)
    #expect(try store.count() == 100_000)
    for index in [0, 1, 49_999, 99_998, 99_999] {
      let found = try store.album(at: index)
      #expect(found.title == "Album \(index)" && found.position == index && found.year == index % 10_000)
    }
    #expect(try store.albums(in: 70_000..<70_003).map(\.title) == ["Album 70000", "Album 70001", "Album 70002"])
    #expect(
      libraryError { () throws(LibraryError) in try store.album(at: 100_000) }
        == .noAlbum(index: 100_000, count: 100_000))
    #expect(try store.storedPositions() == Array(0..<100_000))
  }

  @Test func firstIndexOfATitlePrefersAnExactMatchThenIgnoresCase() throws {
    let store = AlbumStore.inMemory(seed: [album("été"), album("American pie"), album("ÉTÉ"), album("American Pie")])
    #expect(try store.firstIndex(ofTitle: "American Pie") == 3)
    #expect(try store.firstIndex(ofTitle: "AMERICAN PIE") == 1)
    #expect(try store.firstIndex(ofTitle: "ÉTÉ") == 2)
    #expect(try store.firstIndex(ofTitle: "Été") == 0)
    #expect(try store.firstIndex(ofTitle: "American") == nil)
  }

  @Test(arguments: [
    ("sun", ["Nothing Like The Sun", "Staring at the Sun"]),
    ("STING", ["Nothing Like The Sun"]),
    ("2000", ["Staring at the Sun", "American Pie"]),
    ("pop", ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"]),
    ("", ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"]),
    ("%", []),
    ("_", []),
    ("zzz", []),
  ])
  func searchMatchesASubstringOfTitleArtistGenreOrYearIgnoringCase(query: String, titles: [String]) throws {
    #expect(try AlbumStore.inMemory().search(query).map(\.title) == titles)
  }

  @Test func searchTreatsWildcardsLiterallyAndFoldsNonASCIICase() throws {
    let store = AlbumStore.inMemory(seed: [album("100% Hits"), album("Straße"), album("ÉCOLE"), album("a_b")])
    #expect(try store.search("0% h").map(\.title) == ["100% Hits"])
    #expect(try store.search("_").map(\.title) == ["a_b"])
    #expect(try store.search("école").map(\.title) == ["ÉCOLE"])
    // Full case folding: ß folds to ss, as a reader would expect.
    #expect(try store.search("STRASSE").map(\.title) == ["Straße"])
  }

  @Test(arguments: [
    ("bjork", ["Homogenic", "Vespertine"]),
    ("björk jazz", ["Vespertine"]),
    ("jazz björk", ["Vespertine"]),
    ("cafe", ["Café del Mar"]),
    ("CAFÉ", ["Café del Mar"]),
    ("del cafe", ["Café del Mar"]),
    ("1997 bjork", ["Homogenic"]),
    ("bjork rock", []),
    ("東京", ["東京事変"]),
  ])
  func searchMatchesEveryWordIgnoringCaseAndAccents(query: String, titles: [String]) throws {
    let store = AlbumStore.inMemory(seed: [
      Album(title: "Homogenic", artist: "Björk", genre: "Electronic", year: 1997),
      Album(title: "Café del Mar", artist: "Various", genre: "Chill"),
      Album(title: "Vespertine", artist: "Björk", genre: "Jazz", year: 2001),
      Album(title: "東京事変", artist: "Tokyo Incidents"),
      Album(title: "Jazz Standards", artist: "Bill Evans", genre: "Jazz"),
    ])
    #expect(try store.search(query).map(\.title) == titles)
  }

  @Test func searchPagesWithStartAndLimit() throws {
    let store = AlbumStore.inMemory()
    let first = try store.search("pop", limit: 2)
    #expect(first.map(\.position) == [0, 1])
    let next = try store.search("pop", from: first.last!.position + 1, limit: 2)
    #expect(next.map(\.position) == [2, 3])
    #expect(try store.search("é", limit: 0) == [])
  }

  // MARK: - Changing

  @Test func addShiftsLaterAlbumsSelectsTheNewOneAndReturnsItAsStored() throws {
    let store = AlbumStore.inMemory()
    let (stored, step) = try store.add(album("Heroes", year: 1977), at: 1, origin: origin)
    #expect(stored.id != nil && stored.position == 1)
    #expect(step.kind == .add && step.summary == "add \"Heroes\"" && step.session == "test" && !step.isUndone)
    #expect(try store.album(at: 1) == stored)
    #expect(try store.titles() == ["Best of Bowie", "Heroes"] + defaults[1...])
    #expect(try store.storedPositions() == Array(0..<6))
    #expect(try store.selectedIndex() == 1)
  }

  @Test func addAtTheEndAndIntoAnEmptyLibrary() throws {
    let store = AlbumStore.inMemory(seed: [])
    let none = ChangeOrigin(session: "test", selection: nil)
    _ = try store.add(album("A"), at: 0, origin: none)
    _ = try store.add(album("C"), at: 1, origin: none)
    _ = try store.add(album("B"), at: 1, origin: none)
    #expect(try store.titles() == ["A", "B", "C"])
    #expect(try store.storedPositions() == [0, 1, 2])
  }

  @Test func deleteReturnsTheAlbumAndUndoRestoresTheLibraryAndSelection() throws {
    let store = AlbumStore.inMemory()
    let before = try store.all()
    let selected = ChangeOrigin(session: "test", selection: 2)
    let (deleted, step) = try store.delete(id: try #require(before[2].id), selecting: nil, origin: selected)
    #expect(deleted == before[2] && step.summary == "delete \"Nothing Like The Sun\"")
    #expect(try store.titles() == defaults.enumerated().filter { $0.offset != 2 }.map(\.element))
    #expect(try store.storedPositions() == [0, 1, 2, 3])
    #expect(try store.selectedIndex() == 2)
    #expect(try store.undo(session: "test").selection == 2)
    #expect(try store.all() == before)
  }

  @Test func deletingAnotherAlbumKeepsTheSelectedOneSelected() throws {
    let store = AlbumStore.inMemory()
    _ = try store.delete(
      id: try #require(store.album(at: 1).id), selecting: nil, origin: ChangeOrigin(session: "test", selection: 3))
    let selected = try #require(try store.selectedIndex())
    #expect(try store.album(at: selected).title == "Staring at the Sun")
  }

  @Test(arguments: [
    (0, 4, [1, 2, 3, 4, 0]),
    (4, 0, [4, 0, 1, 2, 3]),
    (1, 3, [0, 2, 3, 1, 4]),
    (3, 1, [0, 3, 1, 2, 4]),
    (2, 2, [0, 1, 2, 3, 4]),
  ])
  func moveReordersKeepsPositionsDenseAndUndoPutsItBack(from: Int, to: Int, order: [Int]) throws {
    let store = AlbumStore.inMemory()
    let moved = try store.move(id: try #require(store.album(at: from).id), to: to, origin: origin)
    #expect(moved.from == from && moved.album.position == to)
    #expect(try store.titles() == order.map { defaults[$0] })
    #expect(try store.storedPositions() == [0, 1, 2, 3, 4])
    #expect(try store.selectedIndex() == to)
    _ = try store.undo(session: "test")
    #expect(try store.titles() == defaults)
  }

  @Test func positionsStayDenseThroughAMixOfChanges() throws {
    let store = AlbumStore.inMemory()
    var expected = defaults
    var generator = SystemRandomNumberGenerator()
    for step in 0..<200 {
      let count = expected.count
      let origin = ChangeOrigin(session: "test", selection: count == 0 ? nil : count - 1)
      switch Int.random(in: 0..<4, using: &generator) {
      case 0:
        let index = Int.random(in: 0...count, using: &generator)
        _ = try store.add(album("New \(step)"), at: index, origin: origin)
        expected.insert("New \(step)", at: index)
      case 1 where count > 0:
        let index = Int.random(in: 0..<count, using: &generator)
        _ = try store.delete(id: try #require(store.album(at: index).id), selecting: nil, origin: origin)
        expected.remove(at: index)
      case 2 where count > 0:
        let (from, to) = (Int.random(in: 0..<count, using: &generator), Int.random(in: 0..<count, using: &generator))
        _ = try store.move(id: try #require(store.album(at: from).id), to: to, origin: origin)
        expected.insert(expected.remove(at: from), at: to)
      default:
        _ = try store.importAlbums([album("Appended \(step)")], origin: origin)
        expected.append("Appended \(step)")
      }
      #expect(try store.storedPositions() == Array(0..<expected.count))
    }
    #expect(try store.titles() == expected)
  }

  @Test func editChangesFieldsButNotThePositionOrTheSelection() throws {
    let store = AlbumStore.inMemory()
    var pie = try store.album(at: 4)
    pie.title = "American Pie (Remix)"
    pie.year = 2001
    pie.position = 0
    let edited = try store.edit(pie, origin: ChangeOrigin(session: "test", selection: 3))
    #expect(edited.before == DefaultCatalogue.albums[4].with(id: pie.id, position: 4))
    #expect(edited.after.title == "American Pie (Remix)" && edited.after.year == 2001 && edited.after.position == 4)
    #expect(edited.step.summary == "edit \"American Pie (Remix)\"")
    #expect(try store.album(at: 4) == edited.after)
    #expect(try store.album(at: 0).title == "Best of Bowie")
    #expect(try store.selectedIndex() == 3)
  }

  @Test func editingADeletedAlbumIsAnError() throws {
    let store = AlbumStore.inMemory()
    let deleted = try store.delete(id: try #require(store.album(at: 0).id), selecting: nil, origin: origin).album
    let error = libraryError { () throws(LibraryError) in try store.edit(deleted, origin: origin) }
    #expect(error == .noAlbumWithID(deleted.id!))
    #expect(error?.description == "no album with id \(deleted.id!) (it may have been deleted)")
  }

  @Test func importAppendsKeepsTheSelectionAndUndoRemovesItAsOneStep() throws {
    let store = AlbumStore.inMemory()
    let imported = try store.importAlbums(
      [album("X"), album("Y")], origin: ChangeOrigin(session: "test", selection: 3))
    #expect(imported.range == 5..<7 && imported.step.summary == "import of 2 albums")
    #expect(try store.titles() == defaults + ["X", "Y"])
    #expect(try store.selectedIndex() == 3)
    #expect(try store.importAlbums([album("Z")], origin: origin).step.summary == "import of 1 album")
    _ = try store.undo(session: "test")
    _ = try store.undo(session: "test")
    #expect(try store.titles() == defaults)
    #expect(try store.selectedIndex() == 3)
  }

  @Test func resetReplacesEveryAlbumAndUndoBringsBackTheOldOnesWithTheirIds() throws {
    let store = AlbumStore.inMemory(seed: [album("Mine"), album("Yours")])
    let old = try store.all()
    let reset = try store.reset(to: DefaultCatalogue.albums, origin: ChangeOrigin(session: "test", selection: 1))
    #expect(reset.removed == 2 && reset.step.kind == .reset)
    #expect(try store.titles() == defaults)
    #expect(try store.selectedIndex() == 0)
    #expect(Set(try store.all().compactMap(\.id)).isDisjoint(with: old.compactMap(\.id)))
    #expect(try store.undo(session: "test").selection == 1)
    #expect(try store.all() == old, "ids and positions come back too")
  }

  @Test func deletingTheLastAlbumClearsTheSelection() throws {
    let store = AlbumStore.inMemory(seed: [album("Only")])
    _ = try store.delete(id: try #require(store.album(at: 0).id), selecting: nil, origin: origin)
    #expect(try store.selectedIndex() == nil)
    #expect(try store.count() == 0)
  }

  /// Several albums go in one step, set-based: the step names the first three by position
  /// and the count; undo puts each back at its place with its id; redo takes them again.
  @Test func deletingScatteredAlbumsIsOneStepThatUndoPutsBackInPlace() throws {
    let store = AlbumStore.inMemory(seed: (1...9).map { album("A\($0)") })
    let before = try store.all()
    let ids = [before[7], before[1], before[4], before[2]].compactMap(\.id)
    let (deleted, step) = try store.delete(ids: ids, selecting: nil, origin: origin)
    #expect(deleted.count == 4)
    #expect(deleted.first.map(\.title) == ["A2", "A3", "A5"])
    #expect(step.summary == #"delete 4 albums ("A2", "A3", "A5", …)"#)
    #expect(try store.titles() == ["A1", "A4", "A6", "A7", "A9"])
    #expect(try store.all().map(\.position) == Array(0..<5))
    _ = try store.undo(session: "test")
    #expect(try store.all() == before, "ids and positions come back too")
    _ = try store.redo(session: "test")
    #expect(try store.titles() == ["A1", "A4", "A6", "A7", "A9"])
    _ = try store.undo(session: "test")
    #expect(try store.all() == before)
  }

  /// Undo right after a delete puts every album back where it stood, with its id, whichever
  /// albums went: the first, the last, runs of neighbours, every one.
  @Test(arguments: [[0], [11], [0, 1, 2], [9, 10, 11], [0, 5, 11], [1, 2, 4, 7, 8, 10], Array(0..<12)])
  func undoRightAfterADeletePutsEachAlbumBack(positions: [Int]) throws {
    let store = AlbumStore.inMemory(seed: (1...12).map { album("A\($0)") })
    let before = try store.all()
    _ = try store.delete(ids: positions.compactMap { before[$0].id }, selecting: nil, origin: origin)
    #expect(try store.count() == 12 - positions.count)
    _ = try store.undo(session: "test")
    #expect(try store.all() == before)
  }

  /// Redo of a delete of several albums is refused, changing nothing, once one of them was
  /// changed or deleted since the undo: the first such by position is named.
  @Test func redoOfADeleteOfSeveralAlbumsIsRefusedWhenOneChangedSince() throws {
    let store = AlbumStore.inMemory(seed: (1...6).map { album("A\($0)") })
    let ids = try [1, 3, 4].map { try #require(store.album(at: $0).id) }
    _ = try store.delete(ids: ids, selecting: nil, origin: origin)
    _ = try store.undo(session: "test")
    var changed = try store.album(at: 4)
    changed.year = 1999
    _ = try store.edit(changed, origin: ChangeOrigin(session: "other", selection: 0))
    let restored = try store.all()
    #expect(
      libraryError { () throws(LibraryError) in try store.redo(session: "test") }
        == .changedSince(title: "A5", undoing: false))
    #expect(try store.all() == restored)
    // The edit undone, the albums carry what the undo left, and the redo goes through.
    _ = try store.undo(session: "other")
    _ = try store.redo(session: "test")
    #expect(try store.titles() == ["A1", "A3", "A6"])
  }

  /// Undo gives a deleted album a new id when another shell's album took its old one; the
  /// new id must not be one a later album of the same step still has in the log, or the two
  /// entries become one and redo brings back (or deletes) the wrong albums.
  @Test func undoOfADeleteWhoseIdWasTakenKeepsEachAlbumItsOwnEntry() throws {
    let store = AlbumStore.inMemory(seed: (1...10).map { album("A\($0)") })
    let ids = try [8, 9].map { try #require(store.album(at: $0).id) }
    #expect(ids[1] == ids[0] + 1, "the last two albums have the highest ids")
    _ = try store.delete(ids: ids, selecting: nil, origin: origin)
    let other = ChangeOrigin(session: "other", selection: 0)
    let added = try store.add(album("X"), at: 0, origin: other).album
    #expect(added.id == ids[0], "the new album takes the first deleted id")
    let all = ["X"] + (1...10).map { "A\($0)" }
    _ = try store.undo(session: "test")
    let undone = try store.titles()
    #expect(undone == all)
    _ = try store.redo(session: "test")
    let redone = try store.titles()
    #expect(redone == Array(all.prefix(9)))
    _ = try store.undo(session: "test")
    let again = try store.titles()
    #expect(again == all)
  }

  /// An album gone meanwhile (another shell deleted it) fails the whole delete by its id.
  @Test func deletingAnAlbumThatIsGoneChangesNothing() throws {
    let store = AlbumStore.inMemory()
    let before = try store.all()
    let error = libraryError { () throws(LibraryError) in
      _ = try store.delete(ids: [before[0].id!, 999, before[2].id!], selecting: nil, origin: origin)
    }
    #expect(error == .noAlbumWithID(999))
    #expect(try store.all() == before)
    #expect(try store.changeLog(limit: 10) == [])
  }

  // MARK: - All or nothing

  @Test func aChangeThatFailsIsNotMadeOrLoggedAtAll() throws {
    let store = AlbumStore.inMemory()
    let before = try store.all()
    #expect(libraryError { () throws(LibraryError) in try store.add(album("X"), at: 9, origin: origin) } != nil)
    #expect(libraryError { () throws(LibraryError) in try store.add(Album(title: " "), at: 0, origin: origin) } != nil)
    #expect(libraryError { () throws(LibraryError) in try store.move(id: before[0].id!, to: 5, origin: origin) } != nil)
    #expect(
      libraryError { () throws(LibraryError) in try store.delete(id: 999, selecting: nil, origin: origin) } != nil)
    #expect(try store.all() == before)
    #expect(try store.selectedIndex() == 0)
    #expect(try store.changeLog(limit: 10) == [])
  }

  @Test(arguments: [
    (Album(title: "Bad year", year: 10_000), "year must be between 0 and 9999, got '10000'"),
    (Album(title: ""), "title must not be empty"),
    (Album(title: "Bad cover", coverURL: "ftp://x"), "cover must be an http, https or file URL, got 'ftp://x'"),
  ])
  func anInvalidAlbumMidBatchLeavesTheLibraryUnchanged(bad: Album, message: String) throws {
    let store = AlbumStore.inMemory()
    let before = try store.all()
    let batch = (0..<500).map { album("Good \($0)") } + [bad] + (500..<1000).map { album("Good \($0)") }
    let error = libraryError { () throws(LibraryError) in try store.importAlbums(batch, origin: origin) }
    #expect(error?.description == message)
    #expect(try store.all() == before)
    #expect(try store.selectedIndex() == 0)
    #expect(try store.changeLog(limit: 10) == [])
  }

  @Test func aConstraintViolationMidBatchRollsBackTheRowsBeforeIt() throws {
    let store = AlbumStore.inMemory()
    let before = try store.all()
    var clash = album("Clash")
    clash.id = before[2].id  // the same row id as a stored album: PRIMARY KEY fails
    let batch = (0..<500).map { album("Good \($0)") } + [clash] + [album("After")]
    let error = libraryError { () throws(LibraryError) in
      try store.changing { db in try AlbumStore.insertAll(batch, from: 5, db) }
    }
    #expect(error?.description.hasPrefix("library database error: UNIQUE constraint failed: album.id") == true)
    #expect(try store.all() == before)
    #expect(try store.count() == 5)
  }

  @Test func theSchemaRefusesInvalidRowsEvenFromRawSQL() throws {
    let store = AlbumStore.inMemory()
    #expect(throws: DatabaseError.self) {
      try store.queue.write { db in
        try db.execute(sql: "INSERT INTO album (title, position) VALUES ('', 5)")
      }
    }
    #expect(throws: DatabaseError.self) {
      try store.queue.write { db in
        try db.execute(sql: "INSERT INTO album (title, year, position) VALUES ('x', 12345, 5)")
      }
    }
  }

  // MARK: - Text is stored as given

  @Test(arguments: [
    "\u{1B}[31mred\u{1B}[0m", "bell\u{7}", "tab\tand\r\nnewline", "C1 \u{9B}2J", "del\u{7F}",
    "emoji 🎸 and e\u{301}", "  padded  ", "'quotes' \"and\" \\backslash",
  ])
  func controlAndUnicodeCharactersSurviveStorageUnchanged(title: String) throws {
    let store = AlbumStore.inMemory(seed: [])
    let none = ChangeOrigin(session: "test", selection: nil)
    let stored = try store.add(Album(title: title, artist: title, genre: title), at: 0, origin: none).album
    let read = try store.album(at: 0)
    #expect(read == stored)
    #expect(Array(read.title.utf8) == Array(title.utf8))
    #expect(Array(read.artist.utf8) == Array(title.utf8))
    _ = try store.importAlbums([Album(title: title)], origin: none)
    #expect(Array(try store.album(at: 1).title.utf8) == Array(title.utf8))
  }
}

extension Album {
  fileprivate func with(id: Int64?, position: Int) -> Album {
    var copy = self
    copy.id = id
    copy.position = position
    return copy
  }
}
