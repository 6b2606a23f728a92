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

  /// `count` copies of one tagged MP3 in `Big/` (`Big/001.mp3` …), imported: the paths.
  static func bigAlbum(_ count: Int, in runner: BinaryRunner) throws -> (music: MusicFolderFixture, paths: [String]) {
    let music = try MusicFolderFixture(in: runner.home)
    let paths = (1...count).map { music.path("Big/\(String(format: "%03d", $0)).mp3") }
    try music.track("Big/001.mp3", TagEdit(album: "Big", artist: "Old", trackNumber: "1"))
    let first = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
    for path in paths.dropFirst() { try first.write(to: URL(fileURLWithPath: path)) }
    #expect(try runner.run(["-c", "import '\(music.root)'"]).status == 0)
    return (music, paths)
  }

  /// The files' modification times.
  static func modified(_ paths: [String]) -> [timespec] {
    paths.map { path -> timespec in
      var info = stat()
      stat(path, &info)
      return info.st_mtim
    }
  }

  /// Starts the binary with `arguments` and returns once it has replaced at least `atLeast`
  /// of `paths` (their modification times moved on from `before`), or once it ended.
  static func start(
    _ arguments: [String], in runner: BinaryRunner, until atLeast: Int, of paths: [String], from before: [timespec],
    output: FileHandle = .nullDevice
  ) throws -> Process {
    let process = Process()
    process.executableURL = BinaryRunner.executable
    process.arguments = ["--home", runner.home.path] + arguments
    process.environment = runner.environment()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    var changed = 0
    while process.isRunning && changed < atLeast {
      changed =
        zip(paths, before).filter { path, before in
          var info = stat()
          return stat(path, &info) == 0
            && (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) != (before.tv_sec, before.tv_nsec)
        }.count
    }
    return process
  }

  /// Kills `process` with SIGKILL; whether it was still running (else nothing was tested midway).
  static func kill9(_ process: Process) -> Bool {
    let running = process.isRunning
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return running
  }

  /// How many of `paths` have each album artist (`-` for none), read by TagLib; a file that
  /// does not read as audio, or is no longer the fixture's length, is an issue.
  static func albumArtists(_ paths: [String], length: Double) -> [String: Int] {
    var counts: [String: Int] = [:]
    for path in paths {
      guard case .track(let tags) = TrackTags.read(path) else {
        Issue.record("\(path) is damaged")
        continue
      }
      #expect(tags.duration == length, "\(path)")
      counts[tags.albumArtist ?? "-", default: 0] += 1
    }
    return counts
  }

  /// The hidden files in `folder` (a copy being written is one).
  static func hidden(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
  }

  /// `kill -9` while `write` is halfway through 500 files: each file is whole (TagLib reads
  /// its audio, of the same length) and carries either the old tags or the new ones; the
  /// next start finishes the write from its journal (round 4, G6: the files stayed mixed
  /// for good, the log had no step, and `write` said there was nothing to write), removes
  /// the hidden copy, and the write is one step that undo takes back.
  @Test(.timeLimit(.minutes(3)))
  func killDuringAWriteIsFinishedByTheNextStart() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let count = 500
    let (music, paths) = try Self.bigAlbum(count, in: runner)
    guard case .track(let original) = TrackTags.read(paths[0]) else {
      Issue.record("the fixture does not read as audio")
      return
    }
    #expect(try runner.run(["-c", "edit 1 artist=New"]).status == 0)
    let process = try Self.start(
      ["-c", "write 1"], in: runner, until: count / 5, of: paths, from: Self.modified(paths))
    #expect(Self.kill9(process), "the write ended before the kill: nothing was tested mid-way")
    let mixed = Self.albumArtists(paths, length: original.duration)
    #expect(mixed.values.reduce(0, +) == count && mixed.count == 2, "\(mixed)")
    #expect(try Self.hidden(in: music.path("Big")).count <= 1)

    let next = try runner.run(["-c", "undo --list 2"])
    #expect(
      next.stderr.contains(
        "bluelib: finished 'write \"Big\" to 500 files', which a stopped bluelib left halfway: \(mixed["-"] ?? 0) of 500 files written now"
      ),
      "\(next.stderr)")
    #expect(Self.albumArtists(paths, length: original.duration) == ["New": count])
    #expect(try Self.hidden(in: music.path("Big")) == [])
    #expect(next.stdout.contains("write \"Big\" to 500 files"), "\(next.stdout)")
    let again = try runner.run(["-c", "write 1", "-c", "import '\(music.root)'"])
    #expect(again.stdout.hasPrefix("\"Big\": its files already say what the album says; nothing to write\n"))
    #expect(again.stdout.contains("1 unchanged"), "\(again.stdout)")
    let undone = try runner.run(["-c", "undo"])
    #expect(undone.stdout.hasPrefix("undid write \"Big\" to 500 files\n"), "\(undone.stdout)\(undone.stderr)")
    #expect(Self.albumArtists(paths, length: original.duration) == ["-": count])
  }

  /// `kill -9` during the undo of a write: the next start finishes the undo (G6: the step
  /// stayed "done" and undo refused it for good), and redo writes the files again.
  @Test(.timeLimit(.minutes(3)))
  func killDuringTheUndoOfAWriteIsFinishedByTheNextStart() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let count = 400
    let (_, paths) = try Self.bigAlbum(count, in: runner)
    guard case .track(let original) = TrackTags.read(paths[0]) else { return }
    let written = try runner.run(["-c", "edit 1 artist=New", "-c", "write 1"])
    #expect(written.stdout.hasSuffix("wrote \"Big\" to 400 files\n"), "\(written.stdout)\(written.stderr)")
    let process = try Self.start(["-c", "undo"], in: runner, until: count / 5, of: paths, from: Self.modified(paths))
    #expect(Self.kill9(process), "the undo ended before the kill: nothing was tested mid-way")
    #expect(Self.albumArtists(paths, length: original.duration).count == 2)

    let next = try runner.run(["-c", "show 1"])
    #expect(
      next.stderr.contains(
        "bluelib: finished the undo of 'write \"Big\" to 400 files', which a stopped bluelib left halfway:"),
      "\(next.stderr)")
    #expect(Self.albumArtists(paths, length: original.duration) == ["-": count])
    let redone = try runner.run(["-c", "redo"])
    #expect(redone.stdout.hasPrefix("redid write \"Big\" to 400 files\n"), "\(redone.stdout)\(redone.stderr)")
    #expect(Self.albumArtists(paths, length: original.duration) == ["New": count])
  }

  /// An album "W" of two WAVs, imported, its genre edited: a second of silence, then 300 MB
  /// of it, so that a signal sent once the first file is written comes while the second is.
  /// The paths.
  static func albumWithAHugeFile(in runner: BinaryRunner) throws -> (music: MusicFolderFixture, paths: [String]) {
    let music = try MusicFolderFixture(in: runner.home)
    let paths = [music.path("W/01.wav"), music.path("W/02.wav")]
    try music.track("W/01.wav", TagEdit(album: "W", artist: "R", trackNumber: "1"))
    let ffmpeg = try Process.run(
      URL(fileURLWithPath: "/usr/bin/ffmpeg"),
      arguments: [
        "-loglevel", "error", "-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo", "-t", "1800", "-c:a", "pcm_s16le",
        paths[1],
      ])
    ffmpeg.waitUntilExit()
    #expect(ffmpeg.terminationStatus == 0)
    try TagEdit(album: "W", artist: "R", trackNumber: "2").write(to: paths[1])
    let edited = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 genre=Huge"])
    #expect(edited.status == 0, "\(edited.stderr)")
    for path in paths {
      guard case .track(let tags) = TrackTags.read(path), tags.genre == nil else {
        Issue.record("\(path) is not an untagged WAV")
        continue
      }
    }
    return (music, paths)
  }

  /// After a cancelled write of `albumWithAHugeFile`: the files as `untouched`, no hidden copy,
  /// and the next start — a `show` — writes nothing, the album still edited.
  static func expectNothingWritten(
    _ paths: [String], untouched: [TrackTags.Outcome], in music: MusicFolderFixture, runner: BinaryRunner
  ) throws {
    #expect(paths.map { TrackTags.read($0) } == untouched)
    #expect(try Self.hidden(in: music.path("W")) == [])
    let next = try runner.run(["-c", "show 1", "-c", "undo --list 2"])
    #expect(next.stderr == "", "\(next.stderr)")
    #expect(next.stdout.contains("Genre: Huge (edited; the files say nothing)\n"), "\(next.stdout)")
    #expect(!next.stdout.contains("write"), "\(next.stdout)")
    #expect(paths.map { TrackTags.read($0) } == untouched)
  }

  /// A signal during `write` cancels it: the file already written is put back, the one being
  /// copied is left as it was, the step is dropped, and the next start — a `show` — writes
  /// nothing (round 5, H21: it said "stopped after 1 of 2 files …; the next start of bluelib …
  /// finishes it", and the next `show 1` carried the write out).
  @Test(.timeLimit(.minutes(3)), arguments: [SIGTERM, SIGINT])
  func aSignalDuringAWriteCancelsItAndTheNextStartWritesNothing(signal: Int32) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.albumWithAHugeFile(in: runner)
    let untouched = paths.map { TrackTags.read($0) }
    let errors = runner.home.appendingPathComponent("errors.txt")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    let process = try Self.start(
      ["-c", "write 1"], in: runner, until: 1, of: paths, from: Self.modified(paths),
      output: try FileHandle(forWritingTo: errors))
    let running = process.isRunning
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(running, "the write ended before the signal: nothing was tested mid-way")
    #expect(process.terminationStatus == 128 + signal)
    let said = try String(contentsOf: errors, encoding: .utf8)
    #expect(said.contains("bluelib: -c:1: write: cancelled; nothing was changed\n"), "\(said)")
    try Self.expectNothingWritten(paths, untouched: untouched, in: music, runner: runner)
  }

  /// Ctrl-C at a terminal cancels a `write` as a signal does in a script, and the shell goes
  /// on (before, Ctrl-C did not stop it).
  @Test(.timeLimit(.minutes(3)))
  func ctrlCDuringAWriteAtATerminalCancelsIt() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (music, paths) = try Self.albumWithAHugeFile(in: runner)
    let untouched = paths.map { TrackTags.read($0) }
    let terminal = try PseudoTerminal(
      arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1"]))
    #expect(terminal.waitFor("bluelib> "))
    terminal.settle()
    let mark = terminal.mark
    let before = Self.modified(paths)
    terminal.type("write 1\r")
    while Self.modified(paths).elementsEqual(before, by: { $0.tv_sec == $1.tv_sec && $0.tv_nsec == $1.tv_nsec }) {
      guard !terminal.transcript[mark...].contains("wrote") else { break }
      terminal.readAvailable(timeout: 0.001)
    }
    terminal.type("\u{3}")
    #expect(terminal.waitFor("error: write: cancelled; nothing was changed", after: mark))
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
    try Self.expectNothingWritten(paths, untouched: untouched, in: music, runner: runner)
  }

  /// A write of another tag leaves a POPM play count of 2³² and more as it was, and so does
  /// its undo (round 5, H14: `edit 1 genre=Jazz; write 1` gave it the count 16,777,216).
  @Test func aPlayCountOfTwoToThe32StaysThroughAGenreWriteAndItsUndo() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let path = try music.track("A/01.mp3", TagEdit(album: "A", artist: "R"))
    let add = """
      import sys
      from mutagen.id3 import ID3, POPM
      tags = ID3(sys.argv[1])
      tags.add(POPM(email='Windows Media Player 9 Series', rating=255, count=2**32 + 5))
      tags.save(sys.argv[1])
      """
    _ = try Self.python(add, [path])
    let read =
      "import sys\nfrom mutagen.id3 import ID3\nprint(ID3(sys.argv[1]).getall('POPM'), ID3(sys.argv[1]).getall('TCON'))"
    let written = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 genre=Jazz", "-c", "write 1"])
    #expect(written.stdout.hasSuffix("wrote \"A\" to 1 file\n"), "\(written.stdout)\(written.stderr)")
    #expect(
      try Self.python(read, [path])
        == "[POPM(email='Windows Media Player 9 Series', rating=255, count=4294967301)] "
        + "[TCON(encoding=<Encoding.UTF8: 3>, text=['Jazz'])]\n")
    #expect(try runner.run(["-c", "undo"]).stdout.hasPrefix("undid write \"A\" to 1 file\n"))
    #expect(
      try Self.python(read, [path])
        == "[POPM(email='Windows Media Player 9 Series', rating=255, count=4294967301)] []\n")
  }

  /// Two shells write one album: the second is refused while the first writes, and touches
  /// no file; the first's write stands (G2: the loser's roll-back put the old tags back over
  /// the winner's files, and said "nothing redone"). The second's edit is kept, and its
  /// write, once the first is done, goes through.
  @Test(.timeLimit(.minutes(3)))
  func aSecondWriterIsRefusedWhileTheFirstWrites() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let count = 800
    let (_, paths) = try Self.bigAlbum(count, in: runner)
    guard case .track(let original) = TrackTags.read(paths[0]) else { return }
    #expect(try runner.run(["-c", "edit 1 artist=First"]).status == 0)
    let first = try Self.start(["-c", "write 1"], in: runner, until: 1, of: paths, from: Self.modified(paths))
    let second = try runner.run(["-c", "edit 1 artist=Second", "-c", "write 1"])
    let overlapped = first.isRunning
    first.waitUntilExit()
    #expect(overlapped, "the first write ended before the second started: nothing was tested")
    #expect(first.terminationStatus == 0)
    #expect(
      second.stderr.contains(
        "write: another bluelib (process \(first.processIdentifier)) is writing the files of 'write \"Big\" to 800 files'; nothing was changed (try again when it is done)"
      ),
      "\(second.stderr)")
    #expect(Self.albumArtists(paths, length: original.duration) == ["First": count])
    let show = try runner.run(["-c", "show 1"])
    #expect(show.stdout.contains("Artist: Second (edited; the files say First)"), "\(show.stdout)")
    let again = try runner.run(["-c", "write 1"])
    #expect(again.stdout.hasSuffix("wrote \"Big\" to 800 files\n"), "\(again.stdout)\(again.stderr)")
    #expect(Self.albumArtists(paths, length: original.duration) == ["Second": count])
  }

  /// Each file is compared with the album, not the album with what most files say (G6): a
  /// file without the album's genre gets it; a track's own genre is kept unless you edit it.
  @Test func eachFileIsComparedWithTheAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let genres: [String?] = ["New", "New", nil, "Pop", "New"]
    for (index, genre) in genres.enumerated() {
      try music.track("Mixed/0\(index + 1).mp3", TagEdit(album: "Mixed", artist: "A", genre: genre))
    }
    let paths = genres.indices.map { music.path("Mixed/0\($0 + 1).mp3") }
    let written = try runner.run(["-c", "import '\(music.root)'", "-c", "show 1", "-c", "write 1"])
    #expect(written.stdout.contains("Genre: New\n"), "\(written.stdout)")
    #expect(written.stdout.hasSuffix("wrote \"Mixed\" to 1 file\n"), "\(written.stdout)\(written.stderr)")
    #expect(
      try Self.mutagenTags(paths).map { $0.split(separator: "|").last.map(String.init) } == [
        "New", "New", "New", "Pop", "New",
      ])
    let edited = try runner.run(["-c", "edit 1 genre=Jazz", "-c", "write 1"])
    #expect(edited.stdout.hasSuffix("wrote \"Mixed\" to 5 files\n"), "\(edited.stdout)\(edited.stderr)")
    #expect(Set(try Self.mutagenTags(paths)) == ["Mixed|-|-|Jazz"])
  }

  /// Year 0 is refused for `write` (G16: written as the date 0000, which reads as no year,
  /// the next import took the year away).
  @Test func yearZeroIsRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let path = try music.track("A/01.mp3", TagEdit(album: "Y", date: "1997"))
    let result = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 year=0", "-c", "write 1"])
    #expect(
      result.stderr.contains(
        "write: cannot write '\(music.path("A"))': year 0 cannot be written to a tag (a date of 0000 reads as no year); nothing was written"
      ),
      "\(result.stdout)\(result.stderr)")
    #expect(try Self.mutagenTags([path]) == ["Y|-|1997|-"])
  }

  /// Giving an album the title and artist of the album in the folder beside it is refused:
  /// the next import would join the two (a two-disc set) and leave a ghost (G5).
  @Test func theTitleAndArtistOfTheAlbumBesideAreRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    var paths: [String] = []
    for disc in 1...2 {
      for number in 1...2 {
        paths.append(
          try music.track(
            "The Wall/CD\(disc)/0\(number).mp3",
            TagEdit(album: "The Wall (Disc \(disc))", albumArtist: "Pink Floyd", trackNumber: "\(number)")))
      }
    }
    let before = try Self.mutagenTags(paths)
    let result = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 2 title='The Wall'", "-c", "write all"])
    #expect(
      result.stderr.contains(
        "write: cannot write '\(music.path("The Wall/CD1"))': the folder beside it, '\(music.path("The Wall/CD2"))', holds \"The Wall\" by Pink Floyd too, and the next import would join them into one album; nothing was written"
      ),
      "\(result.stdout)\(result.stderr)")
    #expect(try Self.mutagenTags(paths) == before)
    // One album at a time, the same.
    let one = try runner.run([
      "-c", "edit 2 title='The Wall (Disc 2)'", "-c", "edit 1 title='The Wall (Disc 2)'", "-c", "write 1",
    ])
    #expect(one.stderr.contains("holds \"The Wall (Disc 2)\" by Pink Floyd too"), "\(one.stderr)")
    #expect(try Self.mutagenTags(paths) == before)
  }
}
