import AlbumModel
import BlueSQL
import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import BlueLibrary

#if canImport(Glibc)
  import Glibc
#endif

/// The write journal on a real library file and real audio files: a write a stopped
/// bluelib left halfway is finished (or, when a file cannot be written, put back), one
/// whose writer still runs is waited for, and a write of an album changed since it was read
/// is refused with a message that says so.
@Suite struct WriteJournalTests {
  let directory: TemporaryDirectory
  let folder: MusicFolderFixture
  let path: String
  let paths: [String]

  /// Four MP3s of the album "Four" by A, imported, and its genre edited to "Jazz".
  init() throws {
    directory = try TemporaryDirectory()
    folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    path = directory.file("library.sqlite")
    let folder = folder
    paths = try (1...4).map { number in
      try folder.track("A/Four/0\(number).mp3", TagEdit(album: "Four", artist: "A", trackNumber: "\(number)"))
    }
    let library = try shell()
    _ = try library.importFolder(folder.root, named: "~/Music")
    var album = try library.album(at: 0)
    album.genre = "Jazz"
    try library.edit(album)
  }

  func shell() throws -> Library {
    try Library(store: AlbumStore.open(path: path), session: UUID().uuidString)
  }

  func genres() -> [String] {
    paths.map { path in
      guard case .track(let tags) = TrackTags.read(path) else { return "unreadable" }
      return tags.genre ?? "-"
    }
  }

  /// After a whole write of "Four", the state a writer killed after two files leaves: the
  /// last two files old again, a hidden copy beside them, and the journal open under a
  /// process that is gone.
  func stoppedWrite() throws -> Int64 {
    let library = try shell()
    #expect(try library.writeTags(of: [library.album(at: 0)]).files == 4)
    for path in paths.suffix(2) { try TagEdit(genre: "").write(to: path) }
    #expect(genres() == ["Jazz", "Jazz", "-", "-"])
    try Data("half a copy".utf8).write(to: URL(fileURLWithPath: folder.path("A/Four/.03.mp3.bluelib-Ab12Cd.mp3")))
    let step = try #require(try library.changeLog(limit: 1).first).id
    let gone = ProcessIdentity(pid: Int32.max, start: 1, boot: ProcessIdentity.current.boot)
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: "INSERT INTO write_journal (change_id, direction, owner) VALUES (?, 'write', ?)",
        arguments: [step, gone.text])
    }
    return step
  }

  @Test func aWriteAStoppedWriterLeftHalfwayIsFinished() throws {
    _ = try stoppedWrite()
    let library = try shell()
    #expect(
      try library.finishInterruptedWrites() == [
        "finished 'write \"Four\" to 4 files', which a stopped bluelib left halfway: 2 of 4 files written now"
      ])
    #expect(genres() == ["Jazz", "Jazz", "Jazz", "Jazz"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("A/Four")).sorted() == [
        "01.mp3", "02.mp3", "03.mp3", "04.mp3",
      ])
    #expect(try library.finishInterruptedWrites() == [])
    // The write is one step, as if it had never stopped.
    #expect(try library.undo() == "write \"Four\" to 4 files")
    #expect(genres() == ["-", "-", "-", "-"])
  }

  @Test func aWriteThatCannotBeFinishedIsPutBackAndDropped() throws {
    _ = try stoppedWrite()
    #expect(chmod(paths[3], 0o444) == 0)
    let library = try shell()
    #expect(
      try library.finishInterruptedWrites() == [
        "could not finish 'write \"Four\" to 4 files', which a stopped bluelib left halfway: cannot write "
          + "'\(paths[3])': it is read-only; 3 files put back as before, and the library with them"
      ])
    #expect(genres() == ["-", "-", "-", "-"])
    #expect(try library.changeLog(limit: 1).first?.summary == "edit \"Four\"")
    #expect(try library.album(at: 0).genre == "Jazz")
  }

  @Test func aWriterThatStillRunsIsWaitedFor() throws {
    let library = try shell()
    let album = try library.album(at: 0)
    _ = try library.writeTags(of: [album])
    _ = try library.undo()
    let step = try #require(try library.changeLog(limit: 1).first).id
    let running = try #require(ProcessIdentity.of(getppid()))
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: "INSERT INTO write_journal (change_id, direction, owner) VALUES (?, 'undo', ?)",
        arguments: [step, running.text])
    }
    let other = try shell()
    #expect(try other.finishInterruptedWrites() == [])
    #expect(
      libraryError { () throws(LibraryError) in try other.writeTags(of: [other.album(at: 0)]) }
        == .writeInProgress(summary: "write \"Four\" to 4 files", pid: getppid()))
    #expect(genres() == ["-", "-", "-", "-"])
  }

  @Test func aWriteOfAnAlbumChangedSinceItWasReadIsRefused() throws {
    let first = try shell()
    let read = try first.album(at: 0)
    let second = try shell()
    var changed = try second.album(at: 0)
    changed.genre = "Rock"
    try second.edit(changed)
    let error = libraryError { () throws(LibraryError) in try first.writeTags(of: [read]) }
    #expect(error == .changedBeforeWriting(title: "Four"))
    #expect(error?.description == "\"Four\" was changed since it was read (by another shell?); nothing was written")
    #expect(genres() == ["-", "-", "-", "-"])
  }

  /// A library of schema 8 (before the journal) opens migrated, and its write is undone as
  /// before.
  @Test func aVersion8LibraryMigratesAndUndoesItsWrite() throws {
    let library = try shell()
    #expect(try library.writeTags(of: [library.album(at: 0)]).files == 4)
    try DatabaseQueue(path: path).write { db in
      try Schema.downgrade(to: 9, db)
      try db.execute(sql: "DROP TABLE write_journal; PRAGMA user_version = 8")
    }
    let migrated = try shell()
    let version = try migrated.store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    #expect(version == Schema.version)
    #expect(try migrated.undo() == "write \"Four\" to 4 files")
    #expect(genres() == ["-", "-", "-", "-"])
  }

  /// A write whose writer was putting its files back after a signal cancelled it, and died
  /// doing so, is put back by the next bluelib, not finished (round 5, H21): the step is
  /// dropped, the album keeps the edit, the hidden copy goes.
  @Test func aCancelledWriteAStoppedWriterLeftIsPutBackNotFinished() throws {
    let step = try stoppedWrite()
    try DatabaseQueue(path: path).write { db in
      try db.execute(sql: "UPDATE write_journal SET cancelled = 1 WHERE change_id = ?", arguments: [step])
    }
    let library = try shell()
    #expect(
      try library.finishInterruptedWrites() == [
        "put back 'write \"Four\" to 4 files', which a stopped bluelib was cancelling: 2 files put back as before "
          + "now, and the library with them"
      ])
    #expect(genres() == ["-", "-", "-", "-"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("A/Four")).sorted() == [
        "01.mp3", "02.mp3", "03.mp3", "04.mp3",
      ])
    #expect(try library.finishInterruptedWrites() == [])
    #expect(try library.changeLog(limit: 1).first?.summary == "edit \"Four\"")
    #expect(try library.album(at: 0).genre == "Jazz")
  }

  /// A library of schema 14 (before a write kept the files' rating tags) opens migrated, and
  /// the rating write it recorded is undone as then: the old rating written back as stars.
  @Test func aVersion14LibraryMigratesAndUndoesItsRatingWrite() throws {
    let library = try shell()
    _ = try library.rate(at: [0], stars: 4)
    #expect(try library.writeTags(of: [library.album(at: 0)]).files == 4)
    let kept = try DatabaseQueue(path: path).read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM change_tag WHERE rating_tags IS NOT NULL")
    }
    #expect(kept == 4)
    try DatabaseQueue(path: path).write { db in try Schema.downgrade(to: 14, db) }
    let migrated = try shell()
    let version = try migrated.store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    #expect(version == Schema.version)
    #expect(try migrated.undo() == "write \"Four\" to 4 files")
    #expect(genres() == ["-", "-", "-", "-"])
    let ratings = paths.map { path -> Int? in
      guard case .track(let tags) = TrackTags.read(path) else { return 0 }
      return tags.rating
    }
    #expect(ratings == [nil, nil, nil, nil])
  }
}
