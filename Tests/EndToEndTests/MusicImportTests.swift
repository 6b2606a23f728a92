import CoverArt
import Foundation
import MusicFolder
import TestSupport
import Testing

/// `import DIR` from the built binary: a music folder's albums with their tags, lengths and
/// covers, re-import as an update, one undo step, and covers drawn without `download`
/// (issue 14).
@Suite(.serialized)
struct MusicImportTests {
  /// One album as `export -` shows it, its folder relative to the music folder and its
  /// cover as `embedded FILE`, `file FILE` or `none`.
  struct Row: Equatable, CustomStringConvertible {
    var folder: String
    var title: String
    var artist: String
    var year: String
    var genre: String
    var tracks: Int
    var cover: String

    var description: String { "\(folder) | \(title) | \(artist) | \(year) | \(genre) | \(tracks) | \(cover)" }
  }

  static let expected = [
    Row(
      folder: "ABBA/Greatest Hits", title: "Greatest Hits", artist: "ABBA", year: "1975", genre: "", tracks: 1,
      cover: "none"),
    Row(
      folder: "Björk/Homogenic", title: "Homogenic", artist: "Björk", year: "1997", genre: "", tracks: 2,
      cover: "file Folder.png"),
    Row(
      folder: "Compilations/Britpop", title: "Britpop", artist: "Various Artists", year: "", genre: "", tracks: 2,
      cover: "none"),
    Row(
      folder: "Compilations/Café del Mar", title: "Café del Mar", artist: "José Padilla", year: "", genre: "Chillout",
      tracks: 2, cover: "none"),
    Row(
      folder: "Loose", title: "Blue Train", artist: "John Coltrane", year: "1958", genre: "", tracks: 1, cover: "none"),
    Row(
      folder: "Loose", title: "Kind of Blue", artist: "Miles Davis", year: "1959", genre: "", tracks: 1, cover: "none"),
    Row(
      folder: "Pink Floyd/The Wall", title: "The Wall", artist: "Pink Floyd", year: "1979", genre: "", tracks: 2,
      cover: "none"),
    Row(
      folder: "Portishead/Dummy", title: "Dummy", artist: "Portishead", year: "", genre: "Trip hop", tracks: 1,
      cover: "file front.jpg"),
    Row(
      folder: "Queen/Greatest Hits", title: "Greatest Hits", artist: "Queen", year: "1981", genre: "", tracks: 1,
      cover: "none"),
    Row(
      folder: "Radiohead/OK Computer", title: "OK Computer", artist: "Radiohead", year: "1997", genre: "Alternative",
      tracks: 3, cover: "embedded 01.mp3"),
    Row(
      folder: "Unsorted Tapes", title: "Unsorted Tapes", artist: "Someone", year: "", genre: "", tracks: 1,
      cover: "none"),
    Row(
      folder: "久石譲/千と千尋の神隠し", title: "千と千尋の神隠し", artist: "久石譲", year: "2001", genre: "サウンドトラック", tracks: 1,
      cover: "none"),
  ]

  // MARK: - Import

  @Test func importOfTheIssueFolderGivesEveryAlbumItsTagsLengthAndCover() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture.issueCases(in: runner.home)
    let result = try runner.run(["-c", "import '\(music.root)'"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        imported 12 albums (18 tracks) from \(music.root): 12 added
          added: Greatest Hits — ABBA, Homogenic — Björk, Britpop — Various Artists and 9 more
        the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)
        skipped 1 file (empty): Broken/empty.flac
        skipped 1 file (no readable audio): Broken/noise.mp3

        """)
    // Script mode: no progress line, no escape sequence.
    #expect(!result.stdout.contains("\r") && !result.stdout.contains("\u{1B}") && !result.stdout.contains("scanning"))

    let albums = try exported(runner)
    #expect(albums.count == 12)
    let music12 = albums
    #expect(music12.map { row($0, in: music) } == Self.expected)
    // Lengths: one second of silence per track, give or take the codec's padding.
    for album in music12 {
      let tracks = try #require((album["tracks"] as? [Any])?.count)
      let duration = try #require(album["duration"] as? Double)
      #expect(duration > 0.9 * Double(tracks) && duration < 1.3 * Double(tracks), "\(album)")
    }
    #expect(
      albums[9]["coverUrl"] as? String == "embedded:file://\(music.root)/Radiohead/OK%20Computer/01.mp3")
    #expect(albums[1]["coverUrl"] as? String == "file://\(music.root)/Bj%C3%B6rk/Homogenic/Folder.png")

    let shown = try runner.run(["-c", "show 10", "-c", "list radiohead", "-c", "show 7"])
    #expect(
      shown.stdout == """
        Artist: Radiohead
        Album: OK Computer
        Genre: Alternative
        Year: 1997
        Tracks: 3
        Length: 0:03
        Cover: embedded in 01.mp3 (local)
        Folder: \(music.root)/Radiohead/OK Computer
        Format: FLAC+MP3
        Bitrate: 7 kb/s
        Sample rate: 8 kHz

           1  0:01  01.mp3
           2  0:01  02.mp3
           3  0:01  03.flac
          10. OK Computer — Radiohead (1997, Alternative) · cover: local
        1 of 12 albums match 'radiohead'
        Artist: Pink Floyd
        Album: The Wall
        Genre:\u{20}
        Year: 1979
        Tracks: 2
        Length: 0:02
        Cover: (none)
        Folder: \(music.root)/Pink Floyd/The Wall
        Discs: 2
        Format: FLAC+MP3
        Bitrate: 6 kb/s
        Sample rate: 8 kHz

        Disc 1
           1  0:01  1.mp3
        Disc 2
           1  0:01  1.flac

        """)
  }

  /// An audio file given to `import` is named as one, with the folder to import instead of
  /// a CSV error about its bytes (round 3, F22).
  @Test(arguments: ["mp3", "flac", "m4a", "ogg"])
  func importOfOneAudioFileSaysToImportItsFolder(format: String) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let folder = runner.home.appendingPathComponent("Music").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let fixture = AudioFormat.fixtures + "/silence.\(format)"
    try FileManager.default.copyItem(atPath: fixture, toPath: folder + "/01.\(format)")
    let result = try runner.run(["-c", "import \(folder)/01.\(format)"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("01.\(format)' is an audio file"), "\(result.stderr)")
    #expect(result.stderr.hasSuffix("import its folder: import \(folder)\n"), "\(result.stderr)")
  }

  @Test func reimportChangesNothingAndUndoTakesTheWholeImportBack() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture.issueCases(in: runner.home)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    let imported = try runner.run(["-c", "export -"]).stdout

    let again = try runner.run(["-c", "import '\(music.root)'", "-c", "undo --list"])
    #expect(again.status == 0)
    #expect(
      again.stdout == """
        imported 12 albums (18 tracks) from \(music.root): 12 unchanged
        skipped the same 2 files as before (empty, no readable audio)
          1  import from \(music.root): 12 added, in place of the 5 sample albums

        """)
    #expect(try runner.run(["-c", "export -"]).stdout == imported)

    let undone = try runner.run(["-c", "undo", "-c", "list"])
    // The first import took the samples' place: undo brings them back.
    #expect(undone.stdout.hasPrefix("undid import from \(music.root): 12 added, in place of the 5 sample albums\n"))
    #expect(undone.stdout.hasSuffix("5 albums\n"))
    let redone = try runner.run(["-c", "redo"])
    #expect(redone.stdout.hasPrefix("redid import from \(music.root): 12 added, in place of the 5 sample albums\n"))
    #expect(try runner.run(["-c", "export -"]).stdout == imported)
  }

  @Test func reimportUpdatesChangedAlbumsInPlaceAndAddsNewOnesAsOneStep() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture.issueCases(in: runner.home)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    let imported = try runner.run(["-c", "export -"]).stdout
    try TagEdit(genre: "Rock").write(to: music.path("Queen/Greatest Hits/1.mp3"))
    try music.track("Queen/Innuendo/1.flac", TagEdit(album: "Innuendo", artist: "Queen", date: "1991"))

    let again = try runner.run(["-c", "import '\(music.root)'", "-c", "list queen"])
    #expect(
      again.stdout == """
        imported 13 albums (19 tracks) from \(music.root): 1 added, 1 updated, 11 unchanged
          added: Innuendo — Queen
          updated: Greatest Hits — Queen (genre)
        skipped the same 2 files as before (empty, no readable audio)
           9. Greatest Hits — Queen (1981, Rock) · cover: no cover
          13. Innuendo — Queen (1991) · cover: no cover
        2 of 13 albums match 'queen'

        """)

    let undone = try runner.run(["-c", "undo", "-c", "list queen"])
    #expect(
      undone.stdout.hasPrefix("undid import from \(music.root): 1 added, 1 updated\n"),
      "\(undone.stdout)\(undone.stderr)")
    #expect(
      undone.stdout.hasSuffix("  9. Greatest Hits — Queen (1981) · cover: no cover\n1 of 12 albums match 'queen'\n"))
    // The albums are as they were; the track list still describes the files as they are
    // (undo gives back the library's fields, it does not retag the files).
    let afterUndo = try exported(runner)
    #expect(Self.withTrackCounts(afterUndo) as NSArray == Self.withTrackCounts(try albums(in: imported)) as NSArray)
    let queen = try #require(afterUndo.first { $0["folder"] as? String == music.path("Queen/Greatest Hits") })
    #expect(queen["genre"] as? String == "")
    #expect((queen["tracks"] as? [[String: Any]])?.first?["genre"] as? String == "Rock")

    let redone = try runner.run(["-c", "redo", "-c", "list queen"])
    #expect(
      redone.stdout.hasSuffix(
        " 9. Greatest Hits — Queen (1981, Rock) · cover: no cover\n  13. Innuendo — Queen (1991) · cover: no cover\n2 of 13 albums match 'queen'\n"
      ))
  }

  // MARK: - Edits stick

  /// The issue's case: `edit` fixes an artist; the next import keeps it and `show` says
  /// what the files say; `unedit` lets it follow the files again, as one step for undo.
  @Test func anEditSurvivesTheNextImportAndUneditFollowsTheFilesAgain() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("Radiohaed/OK Computer/01.mp3", TagEdit(album: "OK Computer", artist: "Radiohaed", date: "1997"))
    _ = try runner.run(["-c", "import '\(music.root)'"])
    let edited = try runner.run([
      "-c", "edit 1 artist=Radiohead", "-c", "import '\(music.root)'", "-c", "show 1",
    ])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("imported 1 album (1 track) from \(music.root): 1 unchanged\n"))
    #expect(edited.stdout.contains("Artist: Radiohead (edited; the files say Radiohaed)\nAlbum: OK Computer\n"))
    #expect(edited.stdout.contains("Year: 1997\n"))

    let followed = try runner.run(["-c", "unedit 1"])
    #expect(followed.status == 0, "\(followed.stderr)")
    #expect(
      followed.stdout.hasPrefix(
        "\"OK Computer\" follows its files again: artist\n[1/1] >1 OK Computer<\nArtist: Radiohaed\n"))
    let undone = try runner.run(["-c", "undo", "-c", "show 1"])
    #expect(undone.stdout.hasPrefix("undid edit \"OK Computer\"\n"))
    #expect(undone.stdout.contains("Artist: Radiohead (edited; the files say Radiohaed)\n"))

    let nothing = try runner.run(["-c", "unedit 1 year"])
    #expect(nothing.stdout == "\"OK Computer\" year was not edited; nothing changed\n")
  }

  /// An album deleted on purpose is left out of the next import, and the summary says how to
  /// bring it back.
  @Test func aDeletedAlbumStaysDeletedAndTheSummarySaysHowToBringItBack() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("A/One/1.flac", TagEdit(album: "One", artist: "A"))
    try music.track("B/Two/1.ogg", TagEdit(album: "Two", artist: "B"))
    _ = try runner.run(["-c", "import '\(music.root)'"])
    #expect(try runner.run(["-c", "delete One"]).stdout.hasPrefix("deleted \"One\" (1 album left)\n"))
    let result = try runner.run(["-c", "import '\(music.root)'"])
    #expect(
      result.stdout == """
        imported 2 albums (2 tracks) from \(music.root): 1 unchanged, 1 left out
          left out: One — A
        'import --with-deleted \(music.root)' brings back the 1 album you deleted from the library

        """)
    let back = try runner.run(["-c", "import --with-deleted '\(music.root)'"])
    #expect(back.stdout == "imported 2 albums (2 tracks) from \(music.root): 1 added, 1 unchanged\n  added: One — A\n")
  }

  // MARK: - Moves and files gone

  /// The issue's case: a folder renamed is the same album, its index, edits and history
  /// kept, and the summary says it moved; undo takes the move back and the next import
  /// finds it moved again, never a second album.
  @Test func aRenamedFolderIsTheSameAlbumWithItsPlaceAndItsEdits() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("Pink Floyd/The Wall/1.flac", TagEdit(album: "The Wall", artist: "Pink Floyd", trackNumber: "1"))
    try music.track("Pink Floyd/The Wall/2.flac", TagEdit(album: "The Wall", artist: "Pink Floyd", trackNumber: "2"))
    try music.track("Queen/Innuendo/1.mp3", TagEdit(album: "Innuendo", artist: "Queen"))
    _ = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 genre=Rock"])
    try FileManager.default.moveItem(
      atPath: music.path("Pink Floyd/The Wall"), toPath: music.path("Pink Floyd/The Wall (1979)"))

    let moved = try runner.run(["-c", "import '\(music.root)'", "-c", "show 1", "-c", "list"])
    #expect(moved.status == 0, "\(moved.stderr)")
    #expect(
      moved.stdout.hasPrefix(
        """
        imported 2 albums (3 tracks) from \(music.root): 1 moved, 1 unchanged
          moved: The Wall — Pink Floyd (from Pink Floyd/The Wall)
        Artist: Pink Floyd
        Album: The Wall
        Genre: Rock (edited; the files say nothing)

        """), "\(moved.stdout)")
    #expect(moved.stdout.contains("Folder: \(music.path("Pink Floyd/The Wall (1979)"))\n"))
    #expect(moved.stdout.hasSuffix("2 albums\n"))

    let undone = try runner.run(["-c", "undo", "-c", "show 1"])
    #expect(undone.stdout.hasPrefix("undid import from \(music.root): 1 moved\n"))
    #expect(undone.stdout.contains("Folder: \(music.path("Pink Floyd/The Wall"))\n"))
    let again = try runner.run(["-c", "import '\(music.root)'", "-c", "list"])
    #expect(again.stdout.hasPrefix("imported 2 albums (3 tracks) from \(music.root): 1 moved, 1 unchanged\n"))
    #expect(again.stdout.hasSuffix("2 albums\n"))
    let unchanged = try runner.run(["-c", "import '\(music.root)'"])
    #expect(unchanged.stdout == "imported 2 albums (3 tracks) from \(music.root): 2 unchanged\n")
  }

  /// An album with a MusicBrainz album id is known by it: moved to another artist's folder
  /// with its files renamed, it is still the one album.
  @Test func anAlbumMovedWithItsFilesRenamedIsKnownByItsMusicBrainzID() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let id = "f5093c06-23e3-404f-aeaa-40f72885ee3a"
    for number in 1...2 {
      try music.track(
        "Incoming/\(number).ogg",
        TagEdit(album: "Homogenic", artist: "Björk", trackNumber: "\(number)", musicBrainzAlbumID: id))
    }
    _ = try runner.run(["-c", "import '\(music.root)'"])
    try FileManager.default.createDirectory(atPath: music.path("Björk"), withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: music.path("Incoming"), toPath: music.path("Björk/Homogenic"))
    for number in 1...2 {
      try FileManager.default.moveItem(
        atPath: music.path("Björk/Homogenic/\(number).ogg"), toPath: music.path("Björk/Homogenic/0\(number) Track.ogg"))
    }
    let moved = try runner.run(["-c", "import '\(music.root)'", "-c", "list björk"])
    #expect(
      moved.stdout == """
        imported 1 album (2 tracks) from \(music.root): 1 moved
          moved: Homogenic — Björk (from Incoming)
        * 1. Homogenic — Björk · cover: not downloaded
        1 of 1 album match 'björk'

        """, "\(moved.stderr)")
  }

  /// Files gone: an album none of whose files is left stays, is named once in the summary
  /// and found by `missing:true`; `show` says so and still lists its tracks. An album that
  /// lost one of its files says how many. When the files are back, nothing is missing.
  @Test func albumsWhoseFilesAreGoneStayAndAreFoundByMissing() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("A/One/1.flac", TagEdit(album: "One", artist: "A", trackNumber: "1"))
    try music.track("A/One/2.flac", TagEdit(album: "One", artist: "A", trackNumber: "2"))
    try music.track("B/Two/1.mp3", TagEdit(album: "Two", artist: "B", title: "Only Track"))
    _ = try runner.run(["-c", "import '\(music.root)'"])
    let aside = runner.home.appendingPathComponent("aside.mp3").path
    try FileManager.default.moveItem(atPath: music.path("B/Two/1.mp3"), toPath: aside)
    try FileManager.default.removeItem(atPath: music.path("A/One/2.flac"))

    let gone = try runner.run(["-c", "import '\(music.root)'", "-c", "list missing:true", "-c", "show 2"])
    #expect(gone.status == 0, "\(gone.stderr)")
    #expect(
      gone.stdout.hasPrefix(
        """
        imported 1 album (1 track) from \(music.root): 1 updated, 1 gone
          updated: One — A (tracks, length)
          gone: Two — B (all 1 file)
          files gone: One — A (1 of 2 files)
        'find missing:true' lists the albums whose files are gone; they stay until you delete them
          2. Two — B · cover: no cover
        1 of 2 albums match 'missing:true'

        """), "\(gone.stdout)")
    #expect(gone.stdout.contains("Files: gone: the last import found none of them"))
    #expect(gone.stdout.contains("Only Track"))

    // Said once: the next import has nothing new to say about them.
    let again = try runner.run(["-c", "import '\(music.root)'"])
    #expect(again.stdout == "imported 1 album (1 track) from \(music.root): 1 unchanged\n")

    try FileManager.default.moveItem(atPath: aside, toPath: music.path("B/Two/1.mp3"))
    let back = try runner.run(["-c", "import '\(music.root)'", "-c", "list missing:true", "-c", "list ^missing:true"])
    #expect(
      back.stdout.hasPrefix(
        "imported 2 albums (2 tracks) from \(music.root): 2 unchanged\n0 of 2 albums match 'missing:true'\n"),
      "\(back.stdout)")
    #expect(back.stdout.hasSuffix("2 of 2 albums match '^missing:true'\n"))
  }

  /// A folder that cannot be read (as a user other than root: root reads everything)
  /// changes nothing for the albums under it: not updated, not gone, and the summary says
  /// which folder and that its albums were left as they were.
  @Test func aFolderThatCannotBeReadChangesNothingUnderIt() throws {
    var runner = BinaryRunner()
    defer { runner.cleanUp() }
    runner.user = 65534
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("A/One/1.flac", TagEdit(album: "One", artist: "A"))
    try music.track("B/Two/1.mp3", TagEdit(album: "Two", artist: "B", title: "Only Track"))
    if geteuid() == 0 {
      #expect(chmod(runner.home.path, 0o777) == 0)
      let owned = try #require(FileManager.default.enumerator(atPath: runner.home.path))
      for case let relative as String in owned {
        #expect(chown(runner.home.appendingPathComponent(relative).path, 65534, 65534) == 0)
      }
      #expect(chown(runner.home.path, 65534, 65534) == 0)
    }
    #expect(try runner.run(["-c", "import '\(music.root)'"]).status == 0)
    #expect(chmod(music.path("B"), 0) == 0)
    defer { chmod(music.path("B"), 0o755) }

    let result = try runner.run(["-c", "import '\(music.root)'", "-c", "list missing:true", "-c", "show 2"])
    #expect(
      result.stdout.hasPrefix(
        """
        imported 1 album (1 track) from \(music.root): 1 unchanged
        could not read 1 folder (permission denied): B; 1 album with files under it left as they were
        0 of 2 albums match 'missing:true'

        """), "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("Only Track"))

    chmod(music.path("B"), 0o755)
    let readable = try runner.run(["-c", "import '\(music.root)'"])
    #expect(readable.stdout == "imported 2 albums (2 tracks) from \(music.root): 2 unchanged\n")
  }

  // MARK: - Covers

  @Test func coverDrawsEmbeddedAndFolderArtWithoutADownload() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture.issueCases(in: runner.home)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    // 10: OK Computer (embedded), 2: Homogenic (Folder.png), 8: Dummy (front.jpg).
    let expected = [(10, TestPicture.red), (2, TestPicture.green), (8, TestPicture.blue)]
    for (index, color) in expected {
      let drawn = try runner.run(
        ["-c", "cover \(index) --force --size 4x2"], environment: ["COLORTERM": "truecolor"])
      #expect(drawn.status == 0, "\(drawn.stderr)")
      #expect(drawn.stderr == "")
      let colors = trueColors(in: drawn.stdout)
      // One colour, sent once (a colour is sent only when it changes).
      #expect(!colors.isEmpty, "cover \(index): \(drawn.stdout.debugDescription)")
      #expect(colors.allSatisfy { close($0, color) }, "cover \(index): \(colors) is not \(color)")
    }
    // Read into the cache as a download would be, without one: no status line, no 'download'.
    let listed = try runner.run(["-c", "list homogenic", "-c", "downloads"])
    #expect(
      listed.stdout == """
           2. Homogenic — Björk (1997)
        1 of 12 albums match 'homogenic'
        no downloads yet ('download all' starts them)

        """)

    let none = try runner.run(["-c", "cover 1 --force"])
    #expect(none.status == 1)
    #expect(
      none.stderr
        == "bluelib: -c:1: cover: \"Greatest Hits\" has no cover (no picture in its audio files, no cover image in its folder)\n"
    )
  }

  @Test func aLocalCoverWhoseFileIsGoneSaysWhy() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture.issueCases(in: runner.home)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    try FileManager.default.removeItem(atPath: music.path("Portishead/Dummy/front.jpg"))
    let result = try runner.run(["-c", "cover 8 --force"])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "bluelib: -c:1: cover: cannot read the cover of \"Dummy\": no such file \(music.root)/Portishead/Dummy/front.jpg "
        + "(once the file is fixed, 'download 8' reads it again)\n")
  }

  // MARK: - Archives

  @Test func jsonAndCSVExportAndImportKeepTracksLengthAndFolder() throws {
    let first = BinaryRunner()
    defer { first.cleanUp() }
    let music = try MusicFolderFixture.issueCases(in: first.home)
    let json = first.home.appendingPathComponent("albums.json").path
    let csv = first.home.appendingPathComponent("albums.csv").path
    let written = try first.run(["-c", "import '\(music.root)'", "-c", "export '\(json)'", "-c", "export '\(csv)'"])
    #expect(written.status == 0)
    let original = try exported(first) as NSArray
    // JSON: each album's tracks as an array of objects.
    let radiohead = try #require(try exported(first).first { $0["title"] as? String == "OK Computer" })
    let tracks = try #require(radiohead["tracks"] as? [[String: Any]])
    #expect(tracks.map { $0["number"] as? Int } == [1, 2, 3])
    #expect(tracks.map { $0["format"] as? String } == ["MP3", "MP3", "FLAC"])
    #expect(tracks.first?["path"] as? String == music.path("Radiohead/OK Computer/01.mp3"))
    #expect(
      try String(contentsOfFile: csv, encoding: .utf8).hasPrefix(
        "title,artist,genre,year,coverUrl,tracks,duration,folder\r\n"))

    for file in [json, csv] {
      let second = BinaryRunner()
      defer { second.cleanUp() }
      let result = try second.run(["-c", "import '\(file)'"])
      #expect(result.status == 0, "\(result.stderr)")
      // The 12 imported, in the samples' place: the same as they were exported (from CSV,
      // one row per album, the track counts).
      let expected = file == csv ? Self.withTrackCounts(original as! [[String: Any]]) as NSArray : original
      #expect(try exported(second) as NSArray == expected, "\(file)")
      // The folder links them to the music folder again: importing it updates, not duplicates.
      let again = try second.run(["-c", "import '\(music.root)'"])
      #expect(again.stdout.hasPrefix("imported 12 albums (18 tracks) from \(music.root): 12 unchanged\n"), "\(file)")
    }
  }

  // MARK: - At a terminal

  @Test func ctrlCDuringTheScanCancelsItAndChangesNothing() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("Band/Album/1.mp3", TagEdit(album: "Album", artist: "Band"))
    // One MPEG frame header, then zeros: TagLib searches them for the next frame to the
    // file's end, a fraction of a second per sparse 4 MiB, which leaves time to see the
    // progress and press Ctrl-C. (A file of zeros alone is ruled out from its first bytes.)
    for number in 1...40 {
      let path = music.path("Slow/\(number).mp3")
      try FileManager.default.createDirectory(
        atPath: music.path("Slow"), withIntermediateDirectories: true)
      #expect(FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xFB, 0x90, 0x00])))
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: 4 << 20)
      try handle.close()
    }
    let terminal = try PseudoTerminal(
      arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1"]))
    #expect(terminal.waitFor("bluelib> "))
    let mark = terminal.mark
    terminal.type("import \(music.root)\r")
    #expect(terminal.waitFor("scanning \(music.root): ", after: mark))
    terminal.type("\u{3}")
    #expect(terminal.waitFor("error: import: cancelled; nothing was imported", after: mark))
    // The progress line was erased before the error.
    let transcript = String(terminal.transcript[mark...])
    #expect(transcript.contains("\r\u{1B}[K"))
    terminal.type("list\r")
    #expect(terminal.waitFor("5 albums", after: mark))
    terminal.type("undo --list\r")
    #expect(terminal.waitFor("(no changes in the log yet)", after: mark))
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func cardsDrawALocalCoverWithoutADownload() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture.issueCases(in: runner.home)
    _ = try runner.run(["-c", "import '\(music.root)'"])
    // Colours on (no NO_COLOR): art is drawn with 256-colour cells, which no other card
    // shows (a cover of one colour is spaces on that background).
    let art = "\u{1B}[48;5;"
    let terminal = try PseudoTerminal(arguments: ["--home", runner.home.path], environment: runner.environment())
    #expect(terminal.waitFor("Type 'help' for commands"))
    #expect(terminal.waitFor("1 of 12"))
    terminal.settle()
    let before = terminal.mark
    #expect(!terminal.transcript.contains(art + "160m"), "OK Computer's cover is not drawn yet")
    terminal.type("tap 10\r")
    #expect(terminal.waitFor("10 of 12", after: before))
    let drawn = String(terminal.transcript[before...])
    // OK Computer's embedded cover is red: xterm colour 160 (rgb 215, 0, 0) is the nearest.
    #expect(drawn.contains(art + "160m"), "the embedded cover of OK Computer is drawn on its card")
    #expect(!drawn.contains("cover of"), "no download status line")
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  // MARK: - Helpers

  private func exported(_ runner: BinaryRunner) throws -> [[String: Any]] {
    try albums(in: try runner.run(["-c", "export -"]).stdout)
  }

  private func albums(in json: String) throws -> [[String: Any]] {
    try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
  }

  /// `albums` with each `tracks` array replaced by its count, as CSV keeps it.
  static func withTrackCounts(_ albums: [[String: Any]]) -> [[String: Any]] {
    albums.map { album in
      var album = album
      if let tracks = album["tracks"] as? [Any] { album["tracks"] = tracks.count }
      return album
    }
  }

  private func row(_ album: [String: Any], in music: MusicFolderFixture) -> Row {
    let folder = (album["folder"] as? String) ?? ""
    let cover = (album["coverUrl"] as? String) ?? ""
    let file = cover.split(separator: "/").last.map { $0.removingPercentEncoding ?? String($0) } ?? ""
    return Row(
      folder: folder.hasPrefix(music.root + "/") ? String(folder.dropFirst(music.root.count + 1)) : folder,
      title: album["title"] as? String ?? "", artist: album["artist"] as? String ?? "",
      year: album["year"] as? String ?? "", genre: album["genre"] as? String ?? "",
      tracks: (album["tracks"] as? [Any])?.count ?? album["tracks"] as? Int ?? -1,
      cover: cover.isEmpty ? "none" : cover.hasPrefix("embedded:") ? "embedded \(file)" : "file \(file)")
  }

  /// The colours of `38;2;R;G;B` and `48;2;R;G;B` sequences in `text`.
  private func trueColors(in text: String) -> [RGB] {
    let pattern = try! NSRegularExpression(pattern: "\u{1B}\\[[34]8;2;(\\d+);(\\d+);(\\d+)m")
    let range = NSRange(text.startIndex..., in: text)
    return pattern.matches(in: text, range: range).map { match in
      let value = { (group: Int) in UInt8(text[Range(match.range(at: group), in: text)!])! }
      return RGB(value(1), value(2), value(3))
    }
  }

  private func close(_ a: RGB, _ b: RGB) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= 12 && abs(Int(a.green) - Int(b.green)) <= 12 && abs(Int(a.blue) - Int(b.blue)) <= 12
  }
}
