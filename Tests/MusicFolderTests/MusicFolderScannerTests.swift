import BlueSystem
import Foundation
import MusicFolder
import TestSupport
import Testing

@Suite struct MusicFolderScannerTests {
  @Test func everyFormatBecomesAnAlbumWithItsLength() throws {
    let music = try MusicFolderFixture()
    for format in AudioFormat.allCases {
      try music.track("\(format)/track.\(format)", TagEdit(album: "In \(format)", artist: "Tester", date: "2001"))
    }
    let scan = try music.scan()
    #expect(scan.albums.map(\.title) == AudioFormat.allCases.map { "In \($0)" }.sorted())
    for album in scan.albums {
      #expect(album.trackCount == 1)
      #expect(album.duration > 0.9 && album.duration < 1.3, "\(album.title): \(album.duration)")
      #expect(album.year == 2001)
      #expect(album.artist == "Tester")
    }
    #expect(scan.skipped.isEmpty)
    #expect(scan.filesScanned == 5)
  }

  @Test func corruptAndEmptyFilesAreSkippedAndCounted() throws {
    let music = try MusicFolderFixture()
    try music.track("Album/1.mp3", TagEdit(album: "Album"))
    var generator = SeededGenerator(seed: 14)
    let noise = try music.file("Album/2.mp3", (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let empty = try music.file("Album/3.flac", [])
    let truncatedHeader = try music.file("Album/4.m4a", Array("ftypM4A ".utf8))
    let scan = try music.scan()
    #expect(scan.albums.map(\.trackCount) == [1])
    #expect(scan.filesScanned == 4)
    // Each with the size and times the scan's walk read: the files have not changed since.
    #expect(
      scan.skipped == [
        SkippedFile(path: noise, reason: .noAudio, stamp: FileStamp(path: noise)),
        SkippedFile(path: empty, reason: .empty, stamp: FileStamp(path: empty)),
        SkippedFile(path: truncatedHeader, reason: .noAudio, stamp: FileStamp(path: truncatedHeader)),
      ])
    #expect(scan.skipped.map { $0.stamp?.size } == [8192, 0, 8])
  }

  @Test(.enabled(if: geteuid() != 0, "root reads every file"))
  func unreadableFileIsSkippedWithTheReason() throws {
    let music = try MusicFolderFixture()
    let locked = try music.track("A/1.mp3", TagEdit(album: "A"))
    chmod(locked, 0)
    let scan = try music.scan()
    #expect(
      scan.skipped == [SkippedFile(path: locked, reason: .cannotOpen(errno: EACCES), stamp: FileStamp(path: locked))])
  }

  @Test(.timeLimit(.minutes(1)))
  func symlinkLoopsEndAndEachFolderIsScannedOnce() throws {
    let music = try MusicFolderFixture()
    try music.track("Artist/Album/1.flac", TagEdit(album: "Album", artist: "Artist"))
    try music.symlink("Artist/Album/up", to: "../..")  // back to the root
    try music.symlink("Artist/itself", to: ".")
    try music.symlink("Shortcut", to: music.path("Artist/Album"))  // a second path to a folder
    try music.symlink("Artist/Album/dangling.mp3", to: "nowhere.mp3")
    let scan = try music.scan()
    #expect(scan.albums.count == 1)
    #expect(scan.albums.first?.trackCount == 1)
    #expect(scan.filesScanned == 1)
  }

  @Test func nonAudioFilesAreIgnored() throws {
    let music = try MusicFolderFixture()
    try music.track("Album/1.opus", TagEdit(album: "Album"))
    try music.file("Album/notes.txt", Array("liner notes".utf8))
    try music.file("Album/playlist.m3u", Array("1.opus\n".utf8))
    try music.file("Album/1.opus.part", [1, 2, 3])
    try music.file("Album/scan.jpg", TestPicture.jpeg(TestPicture.red))
    try music.file("Album/.hidden.mp3", [1, 2, 3])
    try music.track("Album/extras.mp3/2.opus", TagEdit(album: "Album"))  // a folder named like a file
    let scan = try music.scan()
    #expect(scan.filesScanned == 2)
    #expect(scan.skipped.isEmpty)
    #expect(scan.albums.map(\.trackCount) == [1, 1])
  }

  @Test func extensionsMatchInAnyCase() throws {
    let music = try MusicFolderFixture()
    try music.track("Album/1.MP3", TagEdit(album: "Album"))
    try music.track("Album/2.Flac", TagEdit(album: "Album"))
    #expect(try music.scan().albums.map(\.trackCount) == [2])
    // TagLib's own list (TagLib 1.13's `FileRef::defaultFileExtensions()`), not one of ours.
    #expect(
      MusicFolderScanner.audioExtensions == [
        "ogg", "flac", "oga", "opus", "mp3", "mpc", "wv", "spx", "tta", "m4a", "m4r", "m4b", "m4p", "3g2", "mp4",
        "m4v", "wma", "asf", "aif", "aiff", "afc", "aifc", "wav", "ape", "mod", "module", "nst", "wow", "s3m", "it",
        "xm",
      ])
  }

  @Test func rootIsReportedByItsRealPathAndMustBeADirectory() throws {
    let music = try MusicFolderFixture()
    let track = try music.track("Album/1.mp3", TagEdit(album: "Album"))
    try music.symlink("link", to: music.path("Album"))
    let scan = try MusicFolderScanner().scan(music.path("link"))
    #expect(scan.folder == music.path("Album"))
    #expect(scan.albums.first?.folder == music.path("Album"))
    #expect(throws: MusicFolderError.notADirectory(track)) { try MusicFolderScanner().scan(track) }
    #expect(throws: MusicFolderError.cannotOpen(music.path("missing"), errno: ENOENT)) {
      try MusicFolderScanner().scan(music.path("missing"))
    }
    #expect(MusicFolderError.notADirectory("/x/a.mp3").description == "'/x/a.mp3' is not a directory")
  }

  @Test func progressIsReportedAndEndsWithTheExactCounts() throws {
    let music = try MusicFolderFixture()
    for disc in 1...2 {
      for number in 1...5 { try music.track("Set/CD\(disc)/\(number).mp3", TagEdit(album: "Set", artist: "X")) }
    }
    let reports = LockedBox<[MusicScanProgress]>([])
    let scan = try MusicFolderScanner(progressInterval: .zero).scan(music.root) { progress in
      reports.update { $0.append(progress) }
    }
    let seen = reports.value
    #expect(seen.count > 2)
    #expect(seen.last == MusicScanProgress(filesFound: 10, filesScanned: 10, albumsFound: 1))
    #expect(seen.map(\.filesScanned) == seen.map(\.filesScanned).sorted())
    #expect(scan.albums.count == 1)
    // The default interval keeps a short scan to its final report.
    let few = LockedBox(0)
    _ = try MusicFolderScanner(progressInterval: .seconds(60)).scan(music.root) { _ in few.update { $0 += 1 } }
    #expect(few.value == 1)
  }

  @Test func cancellingStopsTheScan() throws {
    let music = try MusicFolderFixture()
    for number in 1...20 { try music.track("A/\(number).flac", TagEdit(album: "A")) }
    // Asked before each of the two folders, then before each file the calling thread reads.
    var asked = 0
    #expect(throws: MusicFolderError.cancelled) {
      try MusicFolderScanner().scan(
        music.root,
        isCancelled: {
          asked += 1
          return asked == 3
        })
    }
    #expect(asked == 3)
  }

  @Test func cancellingTheTaskStopsTheScan() async throws {
    let music = try MusicFolderFixture()
    for number in 1...5 { try music.track("A/\(number).ogg", TagEdit(album: "A")) }
    let root = music.root
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return Result { () throws(MusicFolderError) in try MusicFolderScanner().scan(root) }
    }
    await #expect(throws: MusicFolderError.cancelled) { try await task.value.get() }
  }

  @Test func oneWorkerGivesTheSameResultAsTwo() throws {
    let music = try MusicFolderFixture()
    for album in 1...6 {
      for number in 1...4 {
        try music.track(
          "Artist \(album % 2)/Album \(album)/\(number).\(AudioFormat.allCases[number % 5])",
          TagEdit(album: "Album \(album)", artist: "Artist \(album % 2)", trackNumber: "\(number)"))
      }
    }
    let two = try MusicFolderScanner(workers: 2).scan(music.root)
    let one = try MusicFolderScanner(workers: 1).scan(music.root)
    #expect(two.albums == one.albums)
    #expect(two.albums.count == 6)
    #expect(two.trackCount == 24)
  }

  /// A folder or file whose name is not UTF-8 (a Latin-1 "Café") was skipped without a word:
  /// its repaired name named no file (round 3, F19). Now it is listed, its bad bytes shown.
  @Test func namesThatAreNotUTF8AreReportedNotDroppedSilently() throws {
    let music = try MusicFolderFixture()
    _ = try music.track("Fine/01.mp3")
    let folder: [UInt8] = Array((music.root + "/Caf").utf8) + [0xE9]
    let folderPath = folder + [0]
    let made = folderPath.withUnsafeBufferPointer {
      mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755)
    }
    #expect(made == 0)
    let file: [UInt8] = Array((music.root + "/Fine/").utf8) + [0xFF, 0xFE] + Array(" bad.mp3".utf8) + [0]
    let fd = file.withUnsafeBufferPointer {
      open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644)
    }
    #expect(fd >= 0)
    close(fd)

    let scan = try music.scan()
    #expect(scan.albums.count == 1)
    let skipped = scan.skipped.filter { $0.reason == .nameNotUTF8 }.map(\.path).sorted()
    #expect(skipped == [music.root + "/Caf\\xE9", music.root + "/Fine/\\xFF\\xFE bad.mp3"])
  }
}
