import AlbumArchive
import AlbumModel
import BlueSQL
import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import BlueLibrary

/// The track table: what `import DIR` read from each file, kept in the library file, shown
/// by `show`, matched by queries, and what lets a re-import open only the files that changed.
@Suite struct TrackTableTests {
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

  /// "The Wall" on two discs (FLAC, with MusicBrainz ids) and "Loose" (an MP3 and an Ogg
  /// Vorbis file, one without a number, by another artist).
  func makeLibraryFolder() throws {
    let wall = { (disc: String, number: String, title: String) in
      TagEdit(
        album: "The Wall", artist: "Pink Floyd", title: title, trackNumber: number, date: "1979", discNumber: disc,
        musicBrainzTrackID: "track-\(disc)-\(number)", musicBrainzAlbumID: "release-wall",
        musicBrainzReleaseGroupID: "group-wall")
    }
    try track("Pink Floyd/The Wall/01.flac", wall("1", "1", "In the Flesh?"))
    try track("Pink Floyd/The Wall/02.flac", wall("1", "2", "The Thin Ice"))
    try track("Pink Floyd/The Wall/21.flac", wall("2", "1", "Hey You"))
    try track("Loose/b.ogg", TagEdit(album: "Loose", artist: "Anna", title: "Second", trackNumber: "2"))
    try track("Loose/a.mp3", TagEdit(album: "Loose", artist: "Bert"))
    try track("Loose/c.mp3", TagEdit(album: "Loose", artist: "Bert", title: "Third", trackNumber: "3"))
  }

  func shell(_ session: String = "A") throws -> Library {
    try Library(store: AlbumStore.open(path: path), session: session)
  }

  func album(_ title: String, in library: Library) throws -> Album {
    try #require(try library.allAlbums().first { $0.title == title })
  }

  // MARK: - Tracks as data

  @Test func anImportedAlbumListsItsTracksInDiscAndTrackOrder() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    let wall = try #require(try library.tracklist(of: try album("The Wall", in: library)))
    #expect(wall.tracks.map(\.displayTitle) == ["In the Flesh?", "The Thin Ice", "Hey You"])
    #expect(wall.tracks.map(\.disc) == [1, 1, 2])
    #expect(wall.tracks.map(\.number) == [1, 2, 1])
    #expect(wall.tracks.allSatisfy { $0.format == "FLAC" && $0.duration > 0.9 && $0.size > 0 && $0.modified > 0 })
    #expect(wall.tracks.map(\.musicBrainzTrackID) == ["track-1-1", "track-1-2", "track-2-1"])
    #expect(wall.discs == 2)
    #expect(wall.musicBrainzAlbumID == "release-wall" && wall.musicBrainzReleaseGroupID == "group-wall")
    #expect(wall.tracks[0].path == music + "/Pink Floyd/The Wall/01.flac")

    // A track without a number after the numbered one; without a title, by its file name.
    let loose = try #require(try library.tracklist(of: try album("Loose", in: library)))
    #expect(loose.tracks.map(\.displayTitle) == ["Second", "Third", "a.mp3"])
    #expect(loose.tracks.map(\.artist) == ["Anna", "Bert", "Bert"])
    #expect(loose.tracks.map(\.format) == ["OGG", "MP3", "MP3"])
    #expect(loose.discs == 1 && loose.musicBrainzAlbumID == nil)

    // An album that did not come from a music folder has none.
    #expect(try library.tracklist(of: library.add(Album(title: "Typed in")).album) == nil)
  }

  /// The track list describes the files: deleting the album keeps it, so undoing the
  /// delete shows the tracks again.
  @Test func deletingAnAlbumAndUndoingItKeepsItsTracks() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    let wall = try album("The Wall", in: library)
    try library.delete(at: wall.position)
    _ = try library.undo()
    #expect(try library.tracklist(of: try album("The Wall", in: library))?.tracks.count == 3)
  }

  // MARK: - Re-import

  /// An unchanged folder is imported again without opening one audio file; a retagged file
  /// is opened (and its new title listed), a new one added, a removed one dropped.
  @Test func aReimportOpensOnlyTheFilesThatChanged() throws {
    try makeLibraryFolder()
    let library = try shell()
    let first = try library.importFolder(music, named: "M")
    #expect(first.filesOpened == 6)

    let again = try library.importFolder(music, named: "M")
    #expect(again.filesOpened == 0)
    #expect(again.unchanged == 2 && again.added == 0 && again.updated == 0)
    #expect(again.tracks == 6)
    let rows = try library.store.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM track") }
    #expect(rows == 6)

    try TagEdit(title: "Mother").write(to: music + "/Pink Floyd/The Wall/02.flac")
    try track("Pink Floyd/The Wall/03.flac", TagEdit(album: "The Wall", artist: "Pink Floyd", trackNumber: "3"))
    try FileManager.default.removeItem(atPath: music + "/Loose/c.mp3")
    let changed = try library.importFolder(music, named: "M")
    #expect(changed.filesOpened == 2)
    #expect(changed.updated == 2)
    let wall = try #require(try library.tracklist(of: try album("The Wall", in: library)))
    #expect(wall.tracks.map(\.displayTitle) == ["In the Flesh?", "Mother", "03.flac", "Hey You"])
    #expect(
      try library.tracklist(of: try album("Loose", in: library))?.tracks.map(\.displayTitle) == ["Second", "a.mp3"])
    let left = try library.store.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM track") }
    #expect(left == 6)
  }

  /// A folder whose files did not change is not re-grouped: its albums are the last scan's,
  /// and the import still does what it does (an edited field stays); a new cover image, a subfolder imported on its
  /// own, or tracks from an exported file make the next import read the folder again.
  @Test func anUnchangedFolderGivesTheLastScansAlbumsAndTheImportActsAsBefore() throws {
    try makeLibraryFolder()
    for disc in 1...2 { try track("Set/CD\(disc)/1.mp3", TagEdit(album: "Set", artist: "X")) }
    let library = try shell()
    let first = try library.importFolder(music, named: "M")
    let fields = try library.allAlbums().map { [$0.title, $0.artist, "\($0.tracks ?? -1)", $0.coverURL] }
    var wall = try album("The Wall", in: library)
    wall.genre = "Prog"
    try library.edit(wall)

    let again = try library.importFolder(music, named: "M")
    #expect(again.filesOpened == 0)
    #expect(again.added == 0 && again.updated == 0 && again.unchanged == 3)
    #expect(again.albums == first.albums && again.tracks == first.tracks)
    #expect(try library.allAlbums().map { [$0.title, $0.artist, "\($0.tracks ?? -1)", $0.coverURL] } == fields)
    // The edit sticks (issue "Your edits are yours").
    #expect(try album("The Wall", in: library).genre == "Prog")
    #expect(try library.tracklist(of: try album("Loose", in: library))?.tracks.count == 3)

    // A cover image beside the tracks: the folder is read again, and the cover found.
    try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: music + "/Loose/cover.jpg"))
    let withCover = try library.importFolder(music, named: "M")
    #expect(withCover.filesOpened == 0 && withCover.updated == 1)
    #expect(try album("Loose", in: library).coverURL.hasSuffix("/Loose/cover.jpg"))

    // One disc folder on its own (an album of its own), then the whole folder: the
    // folder's albums, not the disc's album as well.
    let disc = try library.importFolder(music + "/Set/CD1", named: "CD1")
    #expect(disc.added == 1)
    let whole = try library.importFolder(music, named: "M")
    #expect(whole.added == 0 && whole.albums == 3 && whole.unchanged == 3)
    #expect(try library.count() == 4, "the folder's 3 and the disc's own (the sample albums made room)")
  }

  /// Importing a subfolder, or a sibling folder whose name extends this one's, leaves the
  /// tracks of the rest alone.
  @Test func aReimportOfOneFolderLeavesOtherFoldersTracks() throws {
    try makeLibraryFolder()
    try track("../Music2/X/1.mp3", TagEdit(album: "Elsewhere"))
    let library = try shell()
    try library.importFolder(music, named: "M")
    try library.importFolder(music + "2", named: "M2")
    try library.importFolder(music + "/Loose", named: "Loose")
    let count = try library.store.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM track") }
    #expect(count == 7)
    #expect(try library.tracklist(of: try album("Elsewhere", in: library))?.tracks.count == 1)
    #expect(try library.tracklist(of: try album("The Wall", in: library))?.tracks.count == 3)
  }

  // MARK: - Edits stick

  /// The issue's case: an album's artist edited by hand stays when the folder is imported
  /// again, whether or not its files changed; a field not edited follows the files; undoing
  /// the edit (or `unedit`'s edit back to what the files say) lets it follow them again.
  @Test func anEditedFieldSurvivesAReimport() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    var wall = try album("The Wall", in: library)
    wall.artist = "Radiohead"
    wall.year = 1980
    try library.edit(wall)

    let unchanged = try library.importFolder(music, named: "M")
    #expect(unchanged.updated == 0 && unchanged.unchanged == 2)
    #expect(try album("The Wall", in: library).artist == "Radiohead")

    // The files change: the genre (not edited) follows them, the artist and year stay.
    for file in ["01", "02", "21"] {
      try TagEdit(date: "2011", genre: "Rock").write(to: music + "/Pink Floyd/The Wall/\(file).flac")
    }
    let changed = try library.importFolder(music, named: "M")
    #expect(changed.updated == 1 && changed.added == 0)
    wall = try album("The Wall", in: library)
    #expect(wall.artist == "Radiohead" && wall.year == 1980 && wall.genre == "Rock")
    let filesSay = try #require(try library.filesSay(of: wall))
    #expect(filesSay.artist == "Pink Floyd" && filesSay.year == 2011)
    #expect(wall.editedFields(comparedWith: filesSay) == [.artist, .year])

    // Following the files again: the artist as they say it, kept by the next import.
    try library.edit(wall.followingFiles(filesSay, in: [.artist]))
    #expect(try library.importFolder(music, named: "M").updated == 0)
    #expect(try album("The Wall", in: library).artist == "Pink Floyd")
    #expect(try album("The Wall", in: library).year == 1980)
  }

  // MARK: - Deletions stick

  /// The issue's case: an album deleted on purpose does not come back at the next import,
  /// which says it left it out; undoing the delete brings it back as before, and so does an
  /// import with `withDeleted`. An import that was undone is not a delete: importing the
  /// folder again adds its albums.
  @Test func aDeletedAlbumIsLeftOutOfTheNextImport() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    try library.delete(at: try album("The Wall", in: library).position)

    let again = try library.importFolder(music, named: "M")
    #expect(again.leftOut == 1 && again.added == 0 && again.unchanged == 1)
    #expect(try library.allAlbums().contains { $0.title == "The Wall" } == false)
    // Files that changed since: still left out.
    try TagEdit(genre: "Rock").write(to: music + "/Pink Floyd/The Wall/01.flac")
    #expect(try library.importFolder(music, named: "M").leftOut == 1)

    _ = try library.undo()  // the delete
    #expect(try library.allAlbums().contains { $0.title == "The Wall" })
    try library.delete(at: try album("The Wall", in: library).position)
    let back = try library.importFolder(music, named: "M", withDeleted: true)
    #expect(back.added == 1 && back.leftOut == 0)
    #expect(try library.importFolder(music, named: "M").leftOut == 0)

  }

  /// A folder that is empty for a while (an unmounted share) loses no edit and no delete:
  /// once it is back, the edited field is kept and the deleted album left out (review).
  @Test func aFolderEmptyForAWhileKeepsYourEditsAndDeletes() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    var wall = try album("The Wall", in: library)
    wall.artist = "Floyd"
    try library.edit(wall)
    try library.delete(at: try album("Loose", in: library).position)

    let away = directory.file("away")
    try FileManager.default.moveItem(atPath: music, toPath: away)
    try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
    #expect(try library.importFolder(music, named: "M").albums == 0)
    try FileManager.default.removeItem(atPath: music)
    try FileManager.default.moveItem(atPath: away, toPath: music)

    let back = try library.importFolder(music, named: "M")
    #expect(back.leftOut == 1 && back.added == 0)
    #expect(try album("The Wall", in: library).artist == "Floyd")
  }

  /// Undoing a re-import gives the albums their old fields without making them look edited:
  /// the next import takes what the files say again (review).
  @Test func anUndoneReimportIsNotAnEdit() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    for file in ["01", "02", "21"] {
      try TagEdit(genre: "Rock").write(to: music + "/Pink Floyd/The Wall/\(file).flac")
    }
    #expect(try library.importFolder(music, named: "M").updated == 1)
    _ = try library.undo()
    let wall = try album("The Wall", in: library)
    #expect(wall.genre == "")
    #expect(try library.filesSay(of: wall).map { wall.editedFields(comparedWith: $0) } == [])
    let again = try library.importFolder(music, named: "M")
    #expect(again.updated == 1)
    #expect(try album("The Wall", in: library).genre == "Rock")
  }

  /// An import that was undone is not a delete: importing the folder again adds its albums.
  @Test func anUndoneImportIsNotADelete() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    _ = try library.undo()
    #expect(try library.count() == 5)
    let again = try library.importFolder(music, named: "M")
    #expect(again.added == 2 && again.leftOut == 0)
  }

  // MARK: - Queries

  @Test func queriesReachTracksDiscsFormatsAndMusicBrainzIDs() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    func titles(_ words: String...) throws -> [String] {
      try library.albums(ids: library.listing(try library.query(words)).map(\.id)).map(\.title)
    }
    #expect(try titles("track:thin") == ["The Wall"])
    #expect(try titles("track:anna") == ["Loose"])
    #expect(try titles("-track:thin", "tracks:1..") == ["Loose"])
    #expect(try titles("discs:2..") == ["The Wall"])
    #expect(try titles("format:flac") == ["The Wall"])
    #expect(try titles("format:=OGG") == ["Loose"])
    #expect(try titles("mb_albumid:release-wall") == ["The Wall"])
    #expect(try titles("mb_releasegroupid:=group-wall") == ["The Wall"])
    #expect(try library.values(of: .format, withPrefix: "f", limit: 5) == ["FLAC"])
  }

  // MARK: - Export and import

  /// A track whose path holds a line break cannot be written in M3U: the export says how
  /// many were left out, and an album none of whose tracks could be written is not counted
  /// as exported (round 4, G24: "exported 2 albums", one track in the file).
  @Test func anM3UExportCountsTheTracksALineBreakLeavesOut() throws {
    try track("A/a\nb.mp3", TagEdit(album: "A", artist: "X", trackNumber: "1"))
    try track("A/02.mp3", TagEdit(album: "A", artist: "X", trackNumber: "2"))
    try track("New\nLine/01.mp3", TagEdit(album: "Broken", artist: "Y"))
    let library = try shell()
    try library.importFolder(music, named: "M")
    let file = directory.file("out.m3u")
    let exported = try LibraryArchive.export(library, to: file, csv: false, playlist: true)
    #expect(exported == LibraryArchive.Exported(albums: 1, tracks: 1, tracksLeftOut: 2))
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("/") } == ["\(music)/A/02.mp3"])
  }

  /// JSON `export` writes each folder album's tracks as an array, and `import` of that
  /// file into another library reads them back: the same track list, discs and ids, and a
  /// later import of the folder there finds its albums unchanged without opening a file.
  @Test func jsonExportAndImportKeepTheTracks() throws {
    try makeLibraryFolder()
    let library = try shell()
    try library.importFolder(music, named: "M")
    try library.add(Album(title: "Typed in"))
    let file = directory.file("library.json")
    _ = try LibraryArchive.export(library, to: file, csv: false)
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]]
    let exportedWall = try #require(json?.first { $0["title"] as? String == "The Wall" })
    let tracks = try #require(exportedWall["tracks"] as? [[String: Any]])
    #expect(tracks.map { $0["title"] as? String } == ["In the Flesh?", "The Thin Ice", "Hey You"])
    #expect(tracks.map { $0["disc"] as? Int } == [1, 1, 2])
    #expect(tracks.first?["mb_trackid"] as? String == "track-1-1")
    #expect(tracks.first?["format"] as? String == "FLAC")
    #expect(tracks.first?["path"] as? String == music + "/Pink Floyd/The Wall/01.flac")
    // Albums that did not come from a music folder keep the original shape.
    #expect(json?.first { $0["title"] as? String == "Typed in" }?["tracks"] == nil)

    let otherPath = directory.file("other.sqlite")
    let other = try Library(store: AlbumStore.open(path: otherPath), session: "B")
    try other.importAlbums(fromFile: file)
    for title in ["The Wall", "Loose"] {
      #expect(
        try other.tracklist(of: try album(title, in: other))
          == (try library.tracklist(of: try album(title, in: library))))
    }
    #expect(try album("The Wall", in: other).tracks == 3)
    let again = try other.importFolder(music, named: "M")
    #expect(again.unchanged == 2 && again.added == 0 && again.filesOpened == 0)

    // CSV stays one row per album, with the count.
    let csv = directory.file("library.csv")
    _ = try LibraryArchive.export(library, to: csv, csv: true)
    let rows = try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline)
    #expect(rows.count == 1 + 3)
    #expect(rows.contains { $0.hasPrefix("The Wall,Pink Floyd,,1979,,3,") })
  }

  /// A malformed track in the JSON names the element and the track, and nothing is imported.
  @Test func aBadTrackInTheJSONIsAnErrorNamingIt() throws {
    let file = directory.file("bad.json")
    try Data(
      """
      [{"title": "A", "folder": "/m/A", "tracks": [{"path": "/m/A/1.mp3"}, {"path": "/m/A/2.mp3", "number": "two"}]}]
      """.utf8
    ).write(to: URL(fileURLWithPath: file))
    let library = try shell()
    #expect {
      try library.importAlbums(fromFile: file)
    } throws: { error in
      "\(error)".contains("element 1: track 2: 'number' must be a number, found a string")
    }
    #expect(try library.count() == 5)

    // A key given twice in one track, as in an album (review).
    try Data(#"[{"title": "A", "folder": "/m/A", "tracks": [{"path": "/m/A/1.mp3", "path": "/m/A/2.mp3"}]}]"#.utf8)
      .write(to: URL(fileURLWithPath: file))
    #expect {
      try library.importAlbums(fromFile: file)
    } throws: { error in
      "\(error)".contains("element 1: track 1: duplicate key 'path'")
    }
  }

  // MARK: - Migration

  /// A library made by the release before tracks (schema 5), holding a folder import,
  /// upgrades in place: its albums stay, and the next import of the folder matches them
  /// (nothing added or updated) and fills in their tracks.
  @Test func aVersion5LibraryWithAFolderImportUpgradesInPlace() throws {
    try makeLibraryFolder()
    let scan = try MusicFolderScanner().scan(music)
    try DatabaseQueue(path: path).writeWithoutTransaction { db in
      try db.inTransaction {
        for migration in Schema.migrations.prefix(5) { try migration(db) }
        try db.execute(sql: "PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 5")
        // The columns of that release, as it stored them.
        for (position, music) in scan.albums.enumerated() {
          let album = Album(music: music, key: music.key)
          try db.execute(
            sql: """
              INSERT INTO album (title, artist, genre, year, coverUrl, position, tracks, duration, folder, source_key)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              """,
            arguments: [
              album.title, album.artist, album.genre, album.year, album.coverURL, position, album.tracks,
              album.duration, album.folder, music.key,
            ])
        }
        return .commit
      }
    }
    let library = try shell()
    let version = try library.store.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    #expect(version == Schema.version)
    #expect(try library.count() == 2)
    #expect(try library.tracklist(of: library.album(at: 0)) == nil)
    let result = try library.importFolder(music, named: "M")
    #expect(result.unchanged == 2 && result.added == 0 && result.updated == 0)
    #expect(try library.tracklist(of: try album("The Wall", in: library))?.tracks.count == 3)
    let objects = try library.store.queue.read { db in try Schema.objects(in: db) }
    #expect(objects == (try Schema.objects(atVersion: Schema.version)))
  }
}
