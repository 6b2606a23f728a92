import AlbumModel
import BlueSQL
import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import BlueLibrary

/// A track's edit in the library file (issue 38, item 6): a step of its album, so an older
/// step of the album cannot be undone over it, and its write is journalled like the others:
/// a write a stopped bluelib left halfway is finished with the track's title too.
@Suite struct TrackEditStoreTests {
  let directory: TemporaryDirectory
  let folder: MusicFolderFixture
  let path: String
  let paths: [String]

  /// Three MP3s of "Three" by A, imported.
  init() throws {
    directory = try TemporaryDirectory()
    folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    path = directory.file("library.sqlite")
    let folder = folder
    paths = try (1...3).map { (number: Int) in
      try folder.track(
        "A/Three/0\(number).mp3",
        TagEdit(album: "Three", artist: "A", title: "Song \(number)", trackNumber: "\(number)"))
    }
    _ = try shell().importFolder(folder.root, named: "~/Music")
  }

  func shell() throws -> Library {
    try Library(store: AlbumStore.open(path: path), session: UUID().uuidString)
  }

  func titles() -> [String] {
    paths.map { path in
      guard case .track(let tags) = TrackTags.read(path) else { return "unreadable" }
      return tags.title ?? "-"
    }
  }

  @Test func aTrackEditIsAStepOfItsAlbum() throws {
    let library = try shell()
    var album = try library.album(at: 0)
    album.genre = "Jazz"
    try library.edit(album)
    // Another shell edits a track: the album carries its step.
    let other = try shell()
    let change = try other.editTrack(ofAlbumAt: 0, track: 2, TrackEdit(title: "Two"))
    #expect(change.changed && change.track.title == "Two" && change.track.fileSays == [.title: "Song 2"])
    // So the first cannot undo its genre from under the track's edit.
    #expect(
      libraryError { () throws(LibraryError) in try library.undo() }
        == .changedSince(title: "Three", undoing: true))
    // The track's edit is undone and redone by the shell that made it.
    #expect(try other.undo() == "edit \"Three\" track 2")
    #expect(try other.tracklist(of: other.album(at: 0))?.tracks[1].title == "Song 2")
    #expect(try other.redo() == "edit \"Three\" track 2")
    #expect(try other.tracklist(of: other.album(at: 0))?.tracks[1].title == "Two")
    // Once it is undone, the genre can be.
    _ = try other.undo()
    #expect(try library.undo() == "edit \"Three\"")
  }

  @Test func aStoppedWriteOfATrackTitleIsFinished() throws {
    let library = try shell()
    _ = try library.editTrack(ofAlbumAt: 0, track: 3, TrackEdit(title: "Three!"))
    #expect(try library.writeTags(of: [library.album(at: 0)]).files == 1)
    #expect(titles() == ["Song 1", "Song 2", "Three!"])
    // As a writer killed before the file was replaced leaves it: old, with the journal open.
    try TagEdit(title: "Song 3").write(to: paths[2])
    let step = try #require(try library.changeLog(limit: 1).first).id
    let gone = ProcessIdentity(pid: Int32.max, start: 1, boot: ProcessIdentity.current.boot)
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: "INSERT INTO write_journal (change_id, direction, owner) VALUES (?, 'write', ?)",
        arguments: [step, gone.text])
    }
    let next = try shell()
    #expect(
      try next.finishInterruptedWrites() == [
        "finished 'write \"Three\" to 1 file', which a stopped bluelib left halfway: 1 of 1 file written now"
      ])
    #expect(titles() == ["Song 1", "Song 2", "Three!"])
    #expect(try next.undo() == "write \"Three\" to 1 file")
    #expect(titles() == ["Song 1", "Song 2", "Song 3"])
    #expect(try next.tracklist(of: next.album(at: 0))?.tracks[2].fileSays == [.title: "Song 3"])
  }

  /// A library of schema 17 (before an album artist was an edit of tracks) opens migrated:
  /// its track edits stand and undo as before, and an album artist can be given.
  @Test func aVersion17LibraryMigratesKeepingItsTrackEdits() throws {
    let library = try shell()
    _ = try library.editTracks(ofAlbumAt: 0, places: [1, 2], TrackEdit(artist: "B"))
    try DatabaseQueue(path: path).write { db in try Schema.downgrade(to: 17, db) }
    let migrated = try shell()
    let version = try migrated.store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    #expect(version == Schema.version)
    #expect(try migrated.tracklist(of: migrated.album(at: 0))?.tracks.map(\.artist) == ["B", "B", "A"])
    #expect(try migrated.undo() == "edit \"Three\" tracks 1, 2")
    #expect(try migrated.tracklist(of: migrated.album(at: 0))?.tracks.map(\.artist) == ["A", "A", "A"])
    let change = try migrated.editAlbumArtist(ofAlbumAt: 0, to: "A", with: migrated.album(at: 0))
    #expect(change.changed && change.tracks.map(\.fileSays) == Array(repeating: [.albumartist: ""], count: 3))
  }
}
