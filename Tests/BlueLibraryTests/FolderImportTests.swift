import AlbumArchive
import AlbumModel
import BlueSQL
import CoverArt
import CoverTestSupport
import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import BlueCovers
@testable import BlueLibrary

/// `import DIR` in the library: the albums of a music folder as one logged step, updated in
/// place on a second import, undone and redone by identity, and their covers read locally.
@Suite struct FolderImportTests {
  let directory: TemporaryDirectory
  let folder: MusicFolderFixture
  let music: String
  let path: String

  init() throws {
    directory = try TemporaryDirectory()
    folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    music = folder.root
    path = directory.file("library.sqlite")
  }

  /// Copies the fixture of `relative`'s extension to `music/relative` and tags the copy.
  func track(_ relative: String, _ edit: TagEdit) throws {
    try folder.track(relative, edit)
  }

  /// Two albums: "Loud" (two MP3s embedding a red JPEG) and "Quiet" (a FLAC).
  func makeTwoAlbums() throws {
    let red = TestPicture.jpeg(TestPicture.red)
    for number in 1...2 {
      try track(
        "A/Loud/\(number).mp3",
        TagEdit(album: "Loud", artist: "A", date: "1997", genre: "Rock", picture: (red, "image/jpeg")))
    }
    try track("B/Quiet Times/1.flac", TagEdit(album: "Quiet", artist: "B", genre: "Jazz"))
  }

  func shell(_ session: String) throws -> Library {
    try Library(store: AlbumStore.open(path: path), session: session)
  }

  /// Another connection to the library file, as another bluelib changing it: `BEGIN
  /// IMMEDIATE` on it holds the write lock until its `ROLLBACK`.
  func lockingQueue() throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.allowsUnsafeTransactions = true
    return try DatabaseQueue(path: path, configuration: configuration)
  }

  // MARK: - Import and re-import

  /// Sets the access and modification times of the file at `path` (seconds since 1970).
  func setTimes(of path: String, accessed: timespec, modified: timespec) throws {
    var times = [accessed, modified]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
  }

  /// The last scans of a version-16 library (its `scan ROOT` and `skipped ROOT` state rows)
  /// become its `source` rows (version 17, issue 47), and its skipped file is told as the one
  /// skipped before. Version 21 forgets the fingerprint once (its files are read again for
  /// their sample rates and composers, issue 50); the import after that finds the folder
  /// unchanged without a file opened.
  @Test func aVersion16LibraryKeepsItsLastScansAsSources() throws {
    try makeTwoAlbums()
    try Data("not audio".utf8).write(to: URL(fileURLWithPath: music + "/A/Loud/3.mp3"))
    let first = try shell("A").importFolder(music, named: "M")
    #expect(first.added == 2 && first.skipped.count == 1)
    let root = try #require(realpath(music, nil).map { String(cString: $0) })
    let store = try AlbumStore.open(path: path)
    try store.queue.write { db in
      try Schema.downgrade(to: 16, db)
      try db.execute(sql: "PRAGMA user_version = 16")
    }
    let states = "SELECT key FROM state WHERE key LIKE 'scan %' OR key LIKE 'skipped %' ORDER BY key"
    #expect(try store.queue.read { db in try String.fetchAll(db, sql: states) } == ["scan " + root, "skipped " + root])
    let migrated = try shell("B")
    #expect(try migrated.store.queue.read { db in try String.fetchAll(db, sql: states) }.isEmpty)
    let source = try #require(try migrated.store.source(root))
    #expect(source.kind == .folder && source.fingerprint == nil && source.skippedDigest != nil)
    #expect(source.skippedFiles.map(\.path) == [root + "/A/Loud/3.mp3"])
    // Version 21 reads each file once more for its sample rate and composer (the skipped one
    // too: it is no track); then none.
    let again = try migrated.importFolder(music, named: "M")
    #expect(again.unchanged == 2 && again.filesOpened == 4 && again.skippedAsBefore, "\(again)")
    let third = try migrated.importFolder(music, named: "M")
    #expect(third.unchanged == 2 && third.filesOpened == 0 && third.skippedAsBefore)
  }

  /// A library whose tracks were read before the sample rate and composer were (version 17)
  /// gets them at the next import of the folder (issue 50, item 4), which reads those files
  /// again and only those: a file added since is read once, as any new file; the import after
  /// opens none.
  @Test func aVersion17LibraryGetsTheSampleRatesAndComposersAtTheNextImport() throws {
    try track("A/Loud/1.mp3", TagEdit(album: "Loud", artist: "A"))
    try track("A/Loud/2.mp3", TagEdit(album: "Loud", artist: "A"))
    let first = try shell("A").importFolder(music, named: "M")
    #expect(first.added == 1 && first.filesOpened == 2)
    let store = try AlbumStore.open(path: path)
    try store.queue.write { db in
      try Schema.downgrade(to: 17, db)
      try db.execute(sql: "PRAGMA user_version = 17")
    }
    try track("B/Quiet/1.flac", TagEdit(album: "Quiet", artist: "B"))
    _ = try Mutagen.run(
      "import sys, mutagen\nf = mutagen.File(sys.argv[1], easy=True)\nf['composer'] = ['Bach']\nf.save()",
      [folder.path("A/Loud/2.mp3")])
    let migrated = try shell("B")
    let rates = "SELECT path, samplerate, composer FROM track ORDER BY path"
    #expect(
      try migrated.store.queue.read { db in try Row.fetchAll(db, sql: rates) }.allSatisfy { ($0[1] as Int?) == nil })
    let again = try migrated.importFolder(music, named: "M")
    #expect(again.added == 1 && again.filesOpened == 3)
    let rows = try migrated.store.queue.read { db in try Row.fetchAll(db, sql: rates) }
    #expect(rows.map { $0[1] as Int? } == [8_000, 8_000, 8_000])
    #expect(rows.map { $0[2] as String? } == [nil, "Bach", nil])
    let loud = try #require(try migrated.storedTracklist(of: try migrated.album(at: 0)))
    #expect(loud.composer == "Bach" && loud.sampleRates != nil)
    let third = try migrated.importFolder(music, named: "M")
    #expect(third.filesOpened == 0)
  }

  /// A file dated after 2262-04-11 (past nanoseconds in 64 bits: a camera's bogus date,
  /// `touch -d`) is imported like any other, and found unchanged the next time (round 4,
  /// G3: the scan trapped on an arithmetic overflow).
  @Test func aFileDatedAfter2262IsImportedAndThenUnchanged() throws {
    for number in 1...2 { try track("A/Far/0\(number).mp3", TagEdit(album: "Far", artist: "A")) }
    let late = timespec(tv_sec: 9_300_000_000, tv_nsec: 5)  // in 2264
    try setTimes(of: folder.path("A/Far/02.mp3"), accessed: late, modified: late)
    let library = try shell("A")
    let result = try library.importFolder(music, named: "M")
    #expect(result.albums == 1 && result.tracks == 2 && result.added == 1)
    // Read from the track rows this time, not the fingerprint: the scan compares each file.
    try FileManager.default.createDirectory(atPath: folder.path("B"), withIntermediateDirectories: true)
    let again = try shell("B").importFolder(music, named: "M")
    #expect(again.unchanged == 1 && again.filesOpened == 0)
  }

  /// A tagger that keeps the size and puts the modification time back (Picard's "preserve
  /// timestamps", Mp3tag's) is still seen at the next import: the change time and the inode
  /// are compared too (round 4, G14: the retag was never seen, the library kept "Old").
  @Test func aRetagThatKeepsSizeAndModificationTimeIsSeenAtTheNextImport() throws {
    for number in 1...2 { try track("A/Album/0\(number).mp3", TagEdit(album: "Old", artist: "X")) }
    let library = try shell("A")
    try library.importFolder(music, named: "M")
    #expect(try library.album(at: 0).title == "Old")
    for number in 1...2 {
      let path = folder.path("A/Album/0\(number).mp3")
      var before = stat()
      stat(path, &before)
      try TagEdit(album: "New").write(to: path)
      try setTimes(of: path, accessed: before.st_atim, modified: before.st_mtim)
      var after = stat()
      stat(path, &after)
      // What makes the case: size and modification time as they were.
      #expect(after.st_size == before.st_size)
      #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    }
    let again = try shell("B").importFolder(music, named: "M")
    #expect(again.updated == 1 && again.filesOpened == 2)
    #expect(try library.album(at: 0).title == "New")
  }

  @Test func aFolderImportAppendsItsAlbumsWithTheirMusicFieldsAsOneStep() throws {
    try makeTwoAlbums()
    let library = try shell("A")
    let result = try library.importFolder(music, named: "~/Music")
    #expect(result.albums == 2 && result.tracks == 3 && result.added == 2 && result.updated == 0)
    #expect(result.summary == "import from ~/Music: 2 added, in place of the 5 sample albums")
    let loud = try library.album(at: 0)
    #expect(loud.title == "Loud" && loud.artist == "A" && loud.year == 1997 && loud.genre == "Rock")
    #expect(loud.tracks == 2 && loud.folder == music + "/A/Loud")
    #expect((loud.duration ?? 0) > 1.8 && (loud.duration ?? 0) < 2.6)
    #expect(loud.coverURL == "embedded:file://" + music + "/A/Loud/1.mp3")
    let quiet = try library.album(at: 1)
    #expect(quiet.coverURL == "" && quiet.folder == music + "/B/Quiet Times")
    #expect(
      try library.changeLog(limit: 10).map(\.summary) == [
        "import from ~/Music: 2 added, in place of the 5 sample albums"
      ])
  }

  @Test func importingAnUnchangedFolderAgainWritesAndLogsNothing() throws {
    try makeTwoAlbums()
    let library = try shell("A")
    try library.importFolder(music, named: "M")
    let version = try library.store.dataVersion()
    let before = try AlbumStore.open(path: path).all()
    let again = try shell("B").importFolder(music, named: "M")
    #expect(again.added == 0 && again.updated == 0 && again.unchanged == 2 && again.summary == nil)
    #expect(try AlbumStore.open(path: path).all() == before)
    #expect(try library.store.dataVersion() == version, "nothing was committed")
    #expect(try library.changeLog(limit: 10).count == 1)
  }

  @Test func reimportUpdatesInPlaceAndUndoRedoRestoreBothSides() throws {
    try makeTwoAlbums()
    let library = try shell("A")
    try library.importFolder(music, named: "M")
    try library.add(Album(title: "After"))  // added since (after the current album): stays where it is
    let imported = try library.allAlbums()
    try TagEdit(genre: "Blues").write(to: music + "/B/Quiet Times/1.flac")
    try track("C/New/1.ogg", TagEdit(album: "New", artist: "C"))

    let result = try library.importFolder(music, named: "M")
    #expect(result.added == 1 && result.updated == 1 && result.unchanged == 1)
    #expect(result.summary == "import from M: 1 added, 1 updated")
    let updated = try library.allAlbums()
    #expect(updated.map(\.title) == ["Loud", "After", "Quiet", "New"])
    #expect(updated[2].genre == "Blues" && updated[2].id == imported[2].id)

    #expect(try library.undo() == "import from M: 1 added, 1 updated")
    #expect(try library.allAlbums() == imported)
    #expect(try library.redo() == "import from M: 1 added, 1 updated")
    #expect(try library.allAlbums().map(\.title) == updated.map(\.title))
    #expect(try library.allAlbums()[2].genre == "Blues")
    // Twice round: the copies redo kept are not left behind to be inserted twice.
    _ = try library.undo()
    _ = try library.redo()
    #expect(try library.allAlbums().map(\.title) == updated.map(\.title))
    #expect(try library.count() == 4)
  }

  @Test func undoOfAnImportRefusesWhenAnAlbumItUpdatedWasEditedSince() throws {
    try makeTwoAlbums()
    let a = try shell("A")
    try a.importFolder(music, named: "M")
    try TagEdit(genre: "Blues").write(to: music + "/B/Quiet Times/1.flac")
    try a.importFolder(music, named: "M")
    let b = try shell("B")
    var quiet = try b.album(at: 1)
    quiet.artist = "Someone else"
    try b.edit(quiet)
    let before = try a.allAlbums()

    #expect(libraryError { () throws(LibraryError) in try a.undo() } == .changedSince(title: "Quiet", undoing: true))
    #expect(try a.allAlbums() == before)

    // Once the edit is taken back, the import (an update only) can be undone and redone.
    #expect(try b.undo() == "edit \"Quiet\"")
    #expect(try a.undo() == "import from M: 1 updated")
    #expect(try a.album(at: 1).genre == "Jazz")
    #expect(try a.redo() == "import from M: 1 updated")
    #expect(try a.album(at: 1).genre == "Blues" && a.count() == 2)
  }

  /// An import undone in one run, the folder imported again in the next, then `redo` in a
  /// third: the redo would insert every album a second time (round 3, F8). It is refused,
  /// naming an album, and the library keeps one copy of each. Also for a first import that
  /// took the untouched sample albums out (a `reset` step).
  @Test(arguments: [false, true])
  func redoOfAnUndoneImportWhoseFolderWasImportedAgainIsRefused(samplesTouched: Bool) throws {
    try makeTwoAlbums()
    if samplesTouched { try shell("zeroth").delete(at: 4) }
    try shell("first").importFolder(music, named: "M")
    let samples = samplesTouched ? "" : ", in place of the 5 sample albums"
    #expect(try shell("second").undo() == "import from M: 2 added" + samples)
    try shell("third").importFolder(music, named: "M")
    let before = try shell("fourth").allAlbums()
    #expect(before.count == (samplesTouched ? 6 : 2))

    let fifth = try shell("fifth")
    let redo = libraryError { () throws(LibraryError) in _ = try fifth.redo() }
    #expect(redo == .importedSince(title: "Loud"))
    #expect(redo?.description == "\"Loud\" was imported again since; nothing redone")
    #expect(try shell("sixth").allAlbums() == before)
  }

  /// A tag of one huge character (a letter and 5,000 combining accents) is cut to the
  /// byte limit like any long tag, at a scalar's end (round 3, F13).
  @Test func aTagOfOneHugeCharacterIsCutToTheByteLimit() throws {
    let huge = "Z" + String(repeating: "\u{301}", count: 5_000)
    try track("A/1.mp3", TagEdit(album: huge, artist: "A"))
    let library = try shell("A")
    try library.importFolder(music, named: "M")
    let title = try library.album(at: 0).title
    #expect(title.utf8.count <= Album.maximumTextBytes && title.utf8.count > Album.maximumTextBytes - 2)
    #expect(title.unicodeScalars.first == "Z")
  }

  /// The files a scan skips are said once: a re-import that skips the very same files (same
  /// reasons, sizes, times) says so; a changed one is listed again (issue 26, item 7).
  @Test func aReimportKnowsTheFilesItSkippedBefore() throws {
    try makeTwoAlbums()
    try Data("not audio".utf8).write(to: URL(fileURLWithPath: music + "/A/Loud/3.mp3"))
    let library = try shell("A")
    let first = try library.importFolder(music, named: "M")
    #expect(first.skipped.count == 1 && !first.skippedAsBefore)
    #expect(try library.importFolder(music, named: "M").skippedAsBefore)
    try Data("still not audio".utf8).write(to: URL(fileURLWithPath: music + "/A/Loud/3.mp3"))
    let changed = try library.importFolder(music, named: "M")
    #expect(changed.skipped.count == 1 && !changed.skippedAsBefore)
    #expect(try shell("B").importFolder(music, named: "M").skippedAsBefore, "another shell, the same library")
  }

  /// A skipped file is remembered with the size and time the scan read, not those a second
  /// `stat` finds after the import: one that changes once it was read is listed again by the
  /// next import, which finds it changed (issue 37, item 3).
  @Test func aSkippedFileIsRememberedAsTheScanFoundIt() throws {
    try makeTwoAlbums()
    let noise = URL(fileURLWithPath: music + "/A/Loud/3.mp3")
    try Data("not audio".utf8).write(to: noise)
    let library = try shell("A")
    var changed = false
    let first = try library.importFolder(
      music, named: "M",
      progress: { progress in
        // Every file read: the scan's last report.
        guard progress.filesFound > 0, progress.filesScanned == progress.filesFound, !changed else { return }
        changed = (try? Data("still not audio".utf8).write(to: noise)) != nil
      })
    #expect(changed)
    #expect(first.skipped.count == 1 && !first.skippedAsBefore)
    let second = try library.importFolder(music, named: "M")
    #expect(second.skipped.count == 1 && !second.skippedAsBefore, "changed after the scan read it")
    #expect(try library.importFolder(music, named: "M").skippedAsBefore)
  }

  /// The files an import skipped are remembered by the commit that brings in its albums, not
  /// by a write of their own after it: another bluelib that begins a change just as the
  /// import commits (and holds the library past the busy timeout) does not make the next
  /// import list them again, when the user was told of them (issue 37, item 3).
  @Test func theSkippedFilesAreRememberedWithTheAlbums() throws {
    try makeTwoAlbums()
    try Data("not audio".utf8).write(to: URL(fileURLWithPath: music + "/A/Loud/3.mp3"))
    let library = try shell("A")
    let other = try lockingQueue()
    let commits = CommitLog { try? other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") } }
    library.store.queue.add(transactionObserver: commits, extent: .observerLifetime)
    let first = try library.importFolder(music, named: "M")
    try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    #expect(commits.albumCommits == 1)
    #expect(first.added == 2 && first.skipped.count == 1 && !first.skippedAsBefore)
    #expect(try library.importFolder(music, named: "M").skippedAsBefore)
  }

  /// An import that fails after its scan (another bluelib holds the library's write lock)
  /// remembers no skipped files: the next one lists them, as the user was never told of
  /// them (issue 37, item 3).
  @Test func anImportThatFailsRemembersNoSkippedFiles() throws {
    try makeTwoAlbums()
    try Data("not audio".utf8).write(to: URL(fileURLWithPath: music + "/A/Loud/3.mp3"))
    let library = try shell("A")
    let other = try lockingQueue()
    try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
    let failed = libraryError { () throws(LibraryError) in try library.importFolder(music, named: "M") }
    try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    #expect(failed != nil)
    let root = try #require(realpath(music, nil).map { String(cString: $0) })
    #expect(try library.store.source(root)?.skippedDigest == nil)
    #expect(try library.count() == 5)
    let next = try library.importFolder(music, named: "M")
    #expect(next.added == 2 && next.skipped.count == 1 && !next.skippedAsBefore)
  }

  /// A deep folder of CJK names (3 KB of path, 9 KB percent-encoded) keeps its embedded
  /// cover: the 8 KiB limit of cover URLs dropped it without a word (round 3, F20).
  @Test func aDeepFolderOfCJKNamesKeepsItsCover() throws {
    let red = TestPicture.jpeg(TestPicture.red)
    let deep = Array(repeating: String(repeating: "音", count: 60), count: 17).joined(separator: "/")
    // Tagged where TagLib can write it, then moved down.
    try track("shallow/1.mp3", TagEdit(album: "Deep", artist: "A", picture: (red, "image/jpeg")))
    try FileManager.default.createDirectory(atPath: music + "/" + deep, withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: music + "/shallow/1.mp3", toPath: music + "/" + deep + "/1.mp3")
    let (loader, _) = makeLoader(in: directory)
    let library = try Library(store: AlbumStore.open(path: path), covers: loader, session: "A")
    try library.importFolder(music, named: "M")
    let album = try library.album(at: 0)
    #expect(album.title == "Deep")
    #expect(album.coverURL.utf8.count > Album.maximumCoverBytes)
    #expect(album.coverURL.hasPrefix("embedded:file://"))
    let bytes = try #require(library.loadLocalCover(of: album), "\(library.coverState(of: album))")
    #expect(try ImageDecoder.decode([UInt8](bytes)).pixels[0] > 200)
  }

  @Test func aCancelledScanChangesNothing() throws {
    try makeTwoAlbums()
    let library = try shell("A")
    #expect(
      libraryError { () throws(LibraryError) in try library.importFolder(music, named: "M", isCancelled: { true }) }
        == .cancelled)
    #expect(try library.count() == 5)
    #expect(try library.changeLog(limit: 10).isEmpty)
  }

  @Test func aPathThatIsNotAFolderCannotBeScanned() throws {
    let library = try shell("A")
    #expect(
      libraryError { () throws(LibraryError) in try library.importFolder(music + "/missing", named: "x") }
        == .cannotScan(path: music + "/missing", reason: "no such file or directory"))
  }

  @Test func anAlbumExportedAndImportedAsJSONIsUpdatedByTheNextFolderImport() throws {
    try makeTwoAlbums()
    let first = try shell("A")
    try first.importFolder(music, named: "M")
    let json = LibraryArchive.encodeJSON(Array(try first.allAlbums().suffix(2)))
    let other = try Library(store: .inMemory(), session: "other")
    try other.importAlbums(try LibraryArchive.decode(json, fileName: "albums.json"))
    #expect(try other.allAlbums().suffix(2).map(\.tracks) == [2, 1])
    let again = try other.importFolder(music, named: "M")
    #expect(again.added == 0 && again.unchanged == 2)
  }

  @Test(arguments: ["albums.json", "albums.csv"])
  func anAlbumExportedToAFileAndImportedFromItIsUpdatedByTheNextFolderImport(name: String) throws {
    try makeTwoAlbums()
    let first = try shell("A")
    try first.importFolder(music, named: "M")
    let exported = Array(try first.allAlbums().suffix(2))
    let file = directory.file(name)
    let bytes = name.hasSuffix(".csv") ? LibraryArchive.encodeCSV(exported) : LibraryArchive.encodeJSON(exported)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    // What `import FILE` runs: the streaming import, not a decoded array.
    let other = try Library(store: .inMemory(), session: "other")
    try other.importAlbums(fromFile: file)
    let imported = Array(try other.allAlbums().suffix(2))
    #expect(imported.map(\.tracks) == exported.map(\.tracks))
    #expect(imported.map(\.duration) == exported.map(\.duration))
    #expect(imported.map(\.folder) == exported.map(\.folder))
    #expect(imported.map(\.sourceKey) == exported.map(\.sourceKey))
    let again = try other.importFolder(music, named: "M")
    #expect(again.added == 0 && again.unchanged == 2)
    #expect(try other.count() == 2)
  }

  // MARK: - Migration

  @Test func aVersion3LibraryMigratesAndTakesAFolderImport() throws {
    try DatabaseQueue(path: path).writeWithoutTransaction { db in
      try db.inTransaction {
        for migration in Schema.migrations.prefix(3) { try migration(db) }
        try db.execute(sql: "PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 3")
        try db.execute(sql: "INSERT INTO album (title, position) VALUES ('Old', 0)")
        return .commit
      }
    }
    try makeTwoAlbums()
    let library = try shell("A")
    let version = try library.store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    #expect(version == Schema.version)
    let old = try library.album(at: 0)
    #expect(old.title == "Old" && old.tracks == nil && old.duration == nil && old.folder == nil)
    try library.importFolder(music, named: "M")
    #expect(try library.allAlbums().map(\.tracks) == [nil, 2, 1])
    // The migrated file holds exactly what a new one does: it opens again.
    #expect(try AlbumStore.open(path: path).count() == 3)
    let objects = try library.store.queue.read { db in try Schema.objects(in: db) }
    #expect(objects == (try Schema.objects(atVersion: Schema.version)))
  }

  @Test func undoOfAnEditRestoresTheMusicFields() throws {
    try makeTwoAlbums()
    let library = try shell("A")
    try library.importFolder(music, named: "M")
    var loud = try library.album(at: 0)
    let original = loud
    loud.title = "Louder"
    try library.edit(loud)
    try library.delete(at: 0)
    _ = try library.undo()
    _ = try library.undo()
    #expect(try library.album(at: 0).hasSameFields(as: original))
  }

  // MARK: - Local covers

  @Test func anEmbeddedCoverIsReadIntoTheCacheWithoutADownload() throws {
    try makeTwoAlbums()
    let (loader, events) = makeLoader(in: directory)
    let library = try Library(store: AlbumStore.open(path: path), covers: loader, session: "A")
    try library.importFolder(music, named: "M")
    let loud = try library.album(at: 0)
    #expect(library.coverState(of: loud) == .local)
    let bytes = try #require(library.loadLocalCover(of: loud))
    let image = try ImageDecoder.decode([UInt8](bytes))
    #expect(image.pixels[0] > 200 && image.pixels[1] < 60)
    #expect(library.coverState(of: loud) == .cached)
    #expect(try library.album(at: 0).coverCached, "recorded in the ledger")
    #expect(events.events.isEmpty, "no event, so no status line")
    // Not local: left to 'download'.
    #expect(library.loadLocalCover(of: Album(title: "Web", coverURL: "https://example.com/web.png")) == nil)
  }

  @Test func importingAgainRereadsACoverWhoseFileChanged() throws {
    try makeTwoAlbums()
    let image = music + "/B/Quiet Times/cover.png"
    let png = { (color: RGB) in Data(ImageEncoder.png(RGBImage(width: 4, height: 4, filledWith: color))) }
    try png(RGB(0, 0, 255)).write(to: URL(fileURLWithPath: image))
    let (loader, _) = makeLoader(in: directory)
    let library = try Library(store: AlbumStore.open(path: path), covers: loader, session: "A")
    try library.importFolder(music, named: "M")
    let blue = try ImageDecoder.decode([UInt8](try #require(library.loadLocalCover(of: try library.album(at: 1)))))
    #expect(blue.pixels[2] == 255)

    try png(RGB(0, 255, 0)).write(to: URL(fileURLWithPath: image))
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: image)
    let again = try library.importFolder(music, named: "M")
    #expect(again.unchanged == 2, "the same URL: the album is unchanged, its cover is read again")
    let quiet = try library.album(at: 1)
    #expect(!quiet.coverCached && library.coverState(of: quiet) == .local)
    let green = try ImageDecoder.decode([UInt8](try #require(library.loadLocalCover(of: quiet))))
    #expect(green.pixels[1] == 255 && green.pixels[2] == 0)
  }

  @Test func anEmbeddedCoverOverTheSizeCapFails() throws {
    try makeTwoAlbums()
    let (loader, _) = makeLoader(in: directory, maxBytes: 100)
    let library = try Library(store: AlbumStore.open(path: path), covers: loader, session: "A")
    try library.importFolder(music, named: "M")
    let loud = try library.album(at: 0)
    #expect(library.loadLocalCover(of: loud) == nil)
    #expect(library.coverState(of: loud) == .failed(.tooLarge(maxBytes: 100)))
  }

  @Test func localCoverURLsArePercentEncodedAndValid() throws {
    let url = LocalCover.fileURL("/home/me/Music/Sigur Rós/()%#?.jpg")
    #expect(url == "file:///home/me/Music/Sigur%20R%C3%B3s/%28%29%25%23%3F.jpg")
    #expect(try FileCoverSource.path(of: url) == "/home/me/Music/Sigur Rós/()%#?.jpg")
    #expect(try Album(title: "x", coverURL: "embedded:" + url).validated().coverURL == "embedded:" + url)
    #expect(LocalCover.isLocal(url) && LocalCover.isLocal("embedded:" + url) && !LocalCover.isLocal("http://x/y"))
  }
}

/// Counts the commits on a connection that changed the `album` table, and calls `afterFirst`
/// once, after the first of them.
private final class CommitLog: TransactionObserver, @unchecked Sendable {
  private let afterFirst: () -> Void
  private var changedAlbums = false
  private(set) var albumCommits = 0

  init(afterFirst: @escaping () -> Void) { self.afterFirst = afterFirst }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "album" }
  func databaseDidChange(with event: DatabaseEvent) { changedAlbums = true }
  func databaseDidCommit(_ db: Database) {
    guard changedAlbums else { return }
    changedAlbums = false
    albumCommits += 1
    if albumCommits == 1 { afterFirst() }
  }
  func databaseDidRollback(_ db: Database) { changedAlbums = false }
}
