import Foundation
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `write` from the built binary (issue "Your edits are yours", item 6): an album's fields
/// into the tags of its files, read back by mutagen (a second reader, not TagLib); `undo`
/// writes the old tags back; a read-only file stops it with nothing written; `kill -9` in
/// the middle of 500 files leaves each one whole, old or new.
@Suite(.serialized)
struct WriteTagsTests {
  /// The tags `write` sets, as mutagen's easy interface reads them from each file (`-` for
  /// a tag the file lacks): `album|albumartist|date|genre`.
  static func mutagenTags(_ paths: [String]) throws -> [String] {
    let script = """
      import sys, mutagen
      for path in sys.argv[1:]:
          tags = mutagen.File(path, easy=True).tags or {}
          print("|".join(tags[k][0] if k in tags else "-" for k in ("album", "albumartist", "date", "genre")))
      """
    return try python(script, paths).split(separator: "\n").map(String.init)
  }

  /// An album of four files in four formats, one of them readable by its owner only.
  static func radiohaed(in runner: BinaryRunner) throws -> (music: MusicFolderFixture, paths: [String]) {
    let music = try MusicFolderFixture(in: runner.home)
    let files = ["01.mp3", "02.flac", "03.ogg", "04.m4a"]
    for (number, file) in files.enumerated() {
      try music.track(
        "Radiohaed/OK Computer/\(file)",
        TagEdit(album: "OK Computer", artist: "Radiohaed", trackNumber: "\(number + 1)", date: "1997-06-16"))
    }
    let paths = files.map { music.path("Radiohaed/OK Computer/\($0)") }
    #expect(chmod(paths[1], 0o600) == 0)
    return (music, paths)
  }

  @Test func writeSetsTheTagsMutagenReadsAndUndoWritesTheOldOnesBack() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.radiohaed(in: runner)
    let lengths = paths.map { path -> Double in
      guard case .track(let tags) = TrackTags.read(path) else { return -1 }
      return tags.duration
    }
    let old = try Self.mutagenTags(paths)
    #expect(old == Array(repeating: "OK Computer|-|1997-06-16|-", count: 4))

    let written = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1 artist=Radiohead genre=Rock year=1998", "-c", "write 1",
    ])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.hasSuffix("wrote \"OK Computer\" to 4 files\n"), "\(written.stdout)")
    #expect(try Self.mutagenTags(paths) == Array(repeating: "OK Computer|Radiohead|1998|Rock", count: 4))
    // The audio is as it was, and so are the permissions.
    for (path, length) in zip(paths, lengths) {
      guard case .track(let tags) = TrackTags.read(path) else {
        Issue.record("\(path) no longer reads as audio")
        continue
      }
      #expect(tags.duration == length)
    }
    var info = stat()
    #expect(stat(paths[1], &info) == 0 && info.st_mode & 0o777 == 0o600)
    // No copy is left beside them.
    #expect(try FileManager.default.contentsOfDirectory(atPath: music.path("Radiohaed/OK Computer")).count == 4)

    // What the files say is what the album says: nothing to change, nothing marked edited.
    let again = try runner.run(["-c", "import '\(music.root)'", "-c", "show 1"])
    #expect(again.stdout.hasPrefix("imported 1 album (4 tracks) from \(music.root): 1 unchanged\n"))
    #expect(!again.stdout.contains("edited"), "\(again.stdout)")

    let undone = try runner.run(["-c", "undo", "-c", "import '\(music.root)'", "-c", "show 1"])
    #expect(undone.stdout.hasPrefix("undid write \"OK Computer\" to 4 files\n"), "\(undone.stdout)\(undone.stderr)")
    #expect(try Self.mutagenTags(paths) == old)
    #expect(undone.stdout.contains("imported 1 album (4 tracks) from \(music.root): 1 unchanged\n"))
    #expect(undone.stdout.contains("Artist: Radiohead (edited; the files say Radiohaed)\n"))
    #expect(undone.stdout.contains("Year: 1998 (edited; the files say 1997)\n"))

    let redone = try runner.run(["-c", "redo", "-c", "import '\(music.root)'"])
    #expect(redone.stdout.hasPrefix("redid write \"OK Computer\" to 4 files\n"))
    #expect(redone.stdout.hasSuffix("imported 1 album (4 tracks) from \(music.root): 1 unchanged\n"))
    #expect(try Self.mutagenTags(paths) == Array(repeating: "OK Computer|Radiohead|1998|Rock", count: 4))

    let nothing = try runner.run(["-c", "write 1", "-c", "add Typed", "-c", "write Typed"])
    #expect(nothing.stdout.hasPrefix("\"OK Computer\": its files already say what the album says; nothing to write\n"))
    #expect(
      nothing.stderr.contains(
        "write: \"Typed\" has no music files to write to (not from a music folder, or its files are gone)"),
      "\(nothing.stderr)")
  }

  /// A read-only file stops the step before any file is touched: every file keeps its
  /// bytes, the error names the file, and nothing is logged for undo.
  @Test func aReadOnlyFileStopsTheWriteWithNothingWritten() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.radiohaed(in: runner)
    _ = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 genre=Rock"])
    #expect(chmod(paths[2], 0o444) == 0)
    let before = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }

    let refused = try runner.run(["-c", "write 1", "-c", "undo"])
    #expect(refused.status != 0 || refused.stderr.contains("cannot write"))
    #expect(
      refused.stderr.contains("write: cannot write '\(paths[2])': it is read-only; nothing was written"),
      "\(refused.stderr)")
    #expect(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
    // The last step is still the edit.
    #expect(refused.stdout.contains("undid edit \"OK Computer\""), "\(refused.stdout)")

    // A read-only folder, the same.
    #expect(chmod(paths[2], 0o644) == 0)
    #expect(chmod(music.path("Radiohaed/OK Computer"), 0o555) == 0)
    defer { chmod(music.path("Radiohaed/OK Computer"), 0o755) }
    let folder = try runner.run(["-c", "edit 1 genre=Rock", "-c", "write 1"])
    #expect(
      folder.stderr.contains(
        "write: cannot write '\(paths[0])': the folder '\(music.path("Radiohaed/OK Computer"))' is read-only"),
      "\(folder.stderr)")
    #expect(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
  }

  /// An MP3's other tags stay: its ID3v1 and APE tags are kept (and updated), and its
  /// ID3v2.3 tag stays 2.3; undo too.
  @Test func anMP3KeepsItsID3v1AndAPETagsAndItsID3Version() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("A/Old/01.mp3", TagEdit(album: "Old", artist: "A", date: "1990", id3v2Version: 3))
    let path = music.path("A/Old/01.mp3")
    let script = """
      import sys, mutagen.id3, mutagen.apev2
      tags = mutagen.id3.ID3(sys.argv[1])
      tags.save(sys.argv[1], v1=2, v2_version=3)
      ape = mutagen.apev2.APEv2()
      ape["REPLAYGAIN_TRACK_GAIN"] = "-6.5 dB"
      ape.save(sys.argv[1])
      """
    #expect(try Self.python(script, path) == "")
    let inspect = """
      import sys, mutagen.id3, mutagen.apev2
      data = open(sys.argv[1], "rb").read()
      tags = mutagen.id3.ID3(sys.argv[1])
      v1 = data[-128:].startswith(b"TAG") or b"TAG" in data[-300:]
      print(tags.version[1], v1, mutagen.apev2.APEv2(sys.argv[1])["REPLAYGAIN_TRACK_GAIN"], tags.get("TCON"))
      """
    #expect(try Self.python(inspect, path) == "3 True -6.5 dB None\n")
    let written = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 genre=Jazz", "-c", "write 1"])
    #expect(written.stdout.hasSuffix("wrote \"Old\" to 1 file\n"), "\(written.stdout)\(written.stderr)")
    #expect(try Self.python(inspect, path) == "3 True -6.5 dB Jazz\n")
    _ = try runner.run(["-c", "undo"])
    #expect(try Self.python(inspect, path) == "3 True -6.5 dB None\n")
  }

  /// Undo does not write over tags another program changed since the write, and a
  /// hard-linked file is refused (a new copy would leave its other names old).
  @Test func undoRefusesFilesChangedSinceAndAHardLinkIsRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.radiohaed(in: runner)
    _ = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 genre=Rock", "-c", "write 1"])
    try TagEdit(genre: "Picard's choice").write(to: paths[3])
    let undone = try runner.run(["-c", "undo"])
    #expect(
      undone.stderr.contains(
        "undo: cannot write '\(paths[3])': its tags changed since the write (another program?); nothing undone"),
      "\(undone.stderr)")
    #expect(
      try Self.mutagenTags([paths[0], paths[3]]) == [
        "OK Computer|-|1997-06-16|Rock", "OK Computer|-|1997-06-16|Picard's choice",
      ])

    #expect(link(paths[0], runner.home.appendingPathComponent("elsewhere.mp3").path) == 0)
    let linked = try runner.run(["-c", "edit 1 genre=Jazz", "-c", "write 1"])
    #expect(
      linked.stderr.contains(
        "write: cannot write '\(paths[0])': it has 2 hard links, and a new copy would leave the others as they are"),
      "\(linked.stderr)")
  }

  /// Two albums of one folder may not be given one title and artist by `write`: the next
  /// import would make them one album.
  @Test func writingAnotherAlbumsTitleAndArtistIsRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("A/1.flac", TagEdit(album: "X", artist: "A"))
    try music.track("A/2.flac", TagEdit(album: "X (Bonus)", artist: "A"))
    let result = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 2 title=X", "-c", "write 2"])
    #expect(
      result.stderr.contains(
        "write: cannot write '\(music.path("A"))': another album of this folder is \"X\" by A; its files would make them one album. Nothing was written"
      ),
      "\(result.stdout)\(result.stderr)")
    #expect(try Self.mutagenTags([music.path("A/2.flac")]) == ["X (Bonus)|-|-|-"])
  }

  /// Runs `script` with Debian's python3 (and its mutagen) on `arguments`; its output.
  static func python(_ script: String, _ arguments: String...) throws -> String {
    try python(script, arguments)
  }

  /// Runs `script` with Debian's python3 on `arguments`; its output (a failure is an issue).
  static func python(_ script: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "python3 failed on \(arguments)")
    return String(decoding: data, as: UTF8.self)
  }

  /// A track that is a symbolic link stays one: the file it points to gets the tags.
  @Test func aSymbolicLinkStaysALinkAndItsFileGetsTheTags() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    try music.track("Elsewhere/real.flac", TagEdit(album: "Linked", artist: "Someone"))
    try music.symlink("Someone/Linked/01.flac", to: music.path("Elsewhere/real.flac"))
    let result = try runner.run([
      "-c", "import '\(music.path("Someone"))'", "-c", "edit 1 genre=Jazz", "-c", "write 1",
    ])
    #expect(result.stdout.hasSuffix("wrote \"Linked\" to 1 file\n"), "\(result.stdout)\(result.stderr)")
    let link = try FileManager.default.destinationOfSymbolicLink(atPath: music.path("Someone/Linked/01.flac"))
    #expect(link == music.path("Elsewhere/real.flac"))
    #expect(try Self.mutagenTags([music.path("Elsewhere/real.flac")]) == ["Linked|-|-|Jazz"])
  }

  /// `kill -9` while `write` is halfway through 500 files: each file is whole (TagLib reads
  /// its audio, of the same length) and carries either the old tags or the new ones.
  @Test(.timeLimit(.minutes(2)))
  func killDuringAWriteOfFiveHundredFilesLeavesEveryFileOldOrNew() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let count = 500
    let paths = (1...count).map { music.path("Big/\(String(format: "%03d", $0)).mp3") }
    try music.track("Big/001.mp3", TagEdit(album: "Big", artist: "Old", trackNumber: "1"))
    let first = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
    for path in paths.dropFirst() { try first.write(to: URL(fileURLWithPath: path)) }
    guard case .track(let original) = TrackTags.read(paths[0]) else {
      Issue.record("the fixture does not read as audio")
      return
    }
    #expect(try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 artist=New"]).status == 0)
    let modified = paths.map { path -> timespec in
      var info = stat()
      stat(path, &info)
      return info.st_mtim
    }

    let process = Process()
    process.executableURL = BinaryRunner.executable
    process.arguments = ["--home", runner.home.path, "-c", "write 1"]
    process.environment = runner.environment()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Killed once some files are written, well before the last.
    var changed = 0
    while process.isRunning && changed < count / 5 {
      changed =
        zip(paths, modified).filter { path, before in
          var info = stat()
          return stat(path, &info) == 0
            && (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) != (before.tv_sec, before.tv_nsec)
        }.count
    }
    let killedMidway = process.isRunning
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(killedMidway, "the write ended before the kill: nothing was tested mid-way")

    var old = 0
    var new = 0
    for path in paths {
      guard case .track(let tags) = TrackTags.read(path) else {
        Issue.record("\(path) is damaged")
        continue
      }
      #expect(tags.duration == original.duration, "\(path)")
      switch tags.albumArtist {
      case nil: old += 1
      case "New": new += 1
      default: Issue.record("\(path) has album artist \(tags.albumArtist ?? "")")
      }
    }
    #expect(old + new == count)
    #expect(new > 0 && old > 0, "old \(old), new \(new)")
    // At most the one copy being written when it was killed is left, hidden.
    let strays = try FileManager.default.contentsOfDirectory(atPath: music.path("Big")).filter { $0.hasPrefix(".") }
    #expect(strays.count <= 1, "\(strays)")
  }
}
