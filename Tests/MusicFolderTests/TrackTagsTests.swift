import Foundation
import MusicFolder
import TestSupport
import Testing

@Suite struct TrackTagsTests {
  /// A tag loses the blanks and control characters around it (the NULs some taggers leave),
  /// Unicode spaces too, and keeps what is inside; a tag that starts and ends printable is
  /// taken whole, without a walk through its characters.
  @Test(arguments: [
    ("River", "River"), ("  River \0\0", "River"), ("\u{3000}川\u{3000}", "川"), ("\tA b\r\n", "A b"),
    ("e\u{301}", "e\u{301}"), ("x\u{2003}", "x"), ("\u{2003}", ""), ("", ""), ("a", "a"), ("~ ~", "~ ~"),
    ("\u{1}x\u{7F}", "x\u{7F}"),
  ])
  func aTagIsTrimmedOfBlanksAndControlCharacters(tag: String, trimmed expected: String) {
    #expect(String(trimmed(tag)) == expected)
  }

  /// A Vorbis comment's field may go by another name: `ALBUM ARTIST` when there is no
  /// `ALBUMARTIST`, `ORIGINALDATE` when there is no `DATE`; the first name wins when both
  /// are there, and several values of one field are joined by "; ".
  @Test(
    arguments: [
      (["ALBUM ARTIST": ["Spaced"], "ORIGINALDATE": ["1969"]], "Spaced", "1969"),
      (
        ["ALBUMARTIST": ["Joined"], "ALBUM ARTIST": ["Spaced"], "DATE": ["1970"], "ORIGINALDATE": ["1969"]], "Joined",
        "1970"
      ),
      (["ALBUMARTIST": ["A", "B"]], "A; B", nil),
    ] as [([String: [String]], String?, String?)])
  func aFieldIsReadUnderItsOtherNameWhenItsOwnIsMissing(
    comments: [String: [String]], albumArtist: String?, date: String?
  ) throws {
    let music = try MusicFolderFixture()
    let path = try music.track("track.flac", TagEdit(album: "Blue", title: "River"))
    let assignments = comments.map { key, values in
      "f['\(key)'] = [" + values.map { "'\($0)'" }.joined(separator: ", ") + "]"
    }.joined(separator: "\n")
    _ = try Mutagen.run("import sys, mutagen\nf = mutagen.File(sys.argv[1])\n\(assignments)\nf.save()", [path])
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("no audio read")
      return
    }
    #expect(tags.album == "Blue")
    #expect(tags.title == "River")
    #expect(tags.albumArtist == albumArtist)
    #expect(tags.date == date)
  }

  @Test(arguments: AudioFormat.allCases)
  func everyFormatReadsItsTagsAndLength(format: AudioFormat) throws {
    let music = try MusicFolderFixture()
    let path = try music.track(
      "track.\(format)",
      TagEdit(
        album: "Blue", artist: "Joni Mitchell", albumArtist: "Joni Mitchell & Friends", title: "River",
        trackNumber: "3/10", date: "1971-06-22", genre: "Folk"))
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("\(format): no audio read")
      return
    }
    #expect(tags.album == "Blue")
    #expect(tags.artist == "Joni Mitchell")
    #expect(tags.albumArtist == "Joni Mitchell & Friends")
    #expect(tags.title == "River")
    #expect(tags.trackNumber == 3)
    #expect(tags.date == "1971-06-22")
    #expect(tags.year == 1971)
    #expect(tags.genre == "Folk")
    // One second of silence; MP3 and AAC round up to whole frames.
    #expect(tags.duration > 0.9 && tags.duration < 1.3, "\(format): \(tags.duration) s")
    #expect(!tags.hasPicture)
  }

  @Test(arguments: AudioFormat.allCases)
  func cjkTagsSurviveEveryFormat(format: AudioFormat) throws {
    let music = try MusicFolderFixture()
    let path = try music.track(
      "曲.\(format)", TagEdit(album: "千と千尋の神隠し", artist: "久石譲", title: "あの夏へ", genre: "사운드트랙"))
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("\(format): no audio read")
      return
    }
    #expect(tags.album == "千と千尋の神隠し")
    #expect(tags.artist == "久石譲")
    #expect(tags.title == "あの夏へ")
    #expect(tags.genre == "사운드트랙")
  }

  @Test func id3v23DateIsReadFromTYER() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("old.mp3", TagEdit(album: "Old", date: "1997", id3v2Version: 3))
    // The file really carries an ID3v2.3 tag with a TYER frame, not a v2.4 TDRC.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes.prefix(4) == Data([0x49, 0x44, 0x33, 0x03]))
    #expect(bytes.range(of: Data("TYER".utf8)) != nil)
    #expect(bytes.range(of: Data("TDRC".utf8)) == nil)
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("no audio read")
      return
    }
    #expect(tags.year == 1997)
  }

  @Test func id3v1OnlyMP3IsRead() throws {
    let music = try MusicFolderFixture()
    // The 128-byte ID3v1 tag at the end of the file: fixed-width Latin-1 fields.
    func field(_ text: String, _ width: Int) -> [UInt8] {
      Array(text.utf8) + [UInt8](repeating: 0, count: width - text.utf8.count)
    }
    let tag =
      Array("TAG".utf8) + field("Wonderwall", 30) + field("Oasis", 30) + field("Morning Glory", 30)
      + Array("1995".utf8) + field("", 28) + [0, 4] + [17]  // comment, track 4, genre 17 (Rock)
    let fixture = try Data(contentsOf: URL(fileURLWithPath: AudioFormat.mp3.fixture))
    let path = try music.file("v1.mp3", Array(fixture) + tag)
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("no audio read")
      return
    }
    #expect(tags.album == "Morning Glory")
    #expect(tags.artist == "Oasis")
    #expect(tags.title == "Wonderwall")
    #expect(tags.trackNumber == 4)
    #expect(tags.year == 1995)
    #expect(tags.genre == "Rock")
  }

  @Test func untaggedFileHasAudioAndNoTags() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("bare.flac")
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("no audio read")
      return
    }
    #expect(tags.album == nil && tags.artist == nil && tags.albumArtist == nil && tags.date == nil)
    #expect(tags.duration > 0.9)
  }

  @Test func randomBytesNamedMP3HaveNoAudio() throws {
    let music = try MusicFolderFixture()
    var generator = SeededGenerator(seed: 14)
    let path = try music.file("noise.mp3", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
    #expect(TrackTags.read(path) == .noAudio)
    #expect(TrackTags.read(try music.file("empty.flac", [])) == .noAudio)
  }

  /// A zero-filled (sparse) `.mp3` of 1 GiB, and one behind a valid ID3v2 tag: no frame sync
  /// where the audio must start, so no audio — decided from the first bytes. TagLib alone
  /// read such a file to its end looking for a frame (30 s for 256 MiB).
  @Test func aZeroFilledMP3IsNotAudioWithoutReadingItAll() throws {
    let music = try MusicFolderFixture()
    let zeros = try music.file("zeros.mp3", [])
    #expect(truncate(zeros, 1 << 30) == 0)
    #expect(TrackTags.read(zeros) == .noAudio)
    // "ID3", version 4, no flags, a tag of 100 bytes, then zeros.
    let tagged = try music.file(
      "tagged-zeros.mp3", Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 100] + [UInt8](repeating: 0, count: 100))
    #expect(truncate(tagged, 1 << 30) == 0)
    #expect(TrackTags.read(tagged) == .noAudio)
    // A real MP3 still reads.
    #expect(TrackTags.mayHoldAudio(AudioFormat.mp3.fixture))
  }

  @Test(
    arguments: [
      ("1997-05-21", 1997), ("1997", 1997), ("2003-01-01T00:00:00Z", 2003), (" 1999 ", 1999), ("97", nil),
      ("12345", nil), ("", nil), ("c. 1965", 1965),
    ] as [(String, Int?)])
  func yearIsTheFirstFourDigitRunOfTheDate(date: String, year: Int?) {
    #expect(TrackTags.year(in: date) == year)
  }

  // MARK: - Files that must not be read (round 3, F6 and F7)

  /// Reads `path` on another thread; nil when it has not returned within `seconds`.
  private func readWithin(_ seconds: Double, _ path: String) -> TrackTags.Outcome? {
    let result = LockedBox<TrackTags.Outcome?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let outcome = TrackTags.read(path)
      result.update { $0 = outcome }
      done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.value
  }

  /// A FIFO where a track was listed (swapped in during a scan) is skipped at once: opening
  /// it blocked the reader for good, ignoring SIGTERM.
  @Test(arguments: ["01.mp3", "01.flac", "01.m4a", "01.ogg"])
  func aFIFOInPlaceOfATrackIsNotARegularFileAndDoesNotBlock(name: String) throws {
    let music = try MusicFolderFixture()
    let path = music.path(name)
    #expect(mkfifo(path, 0o644) == 0)
    let outcome = readWithin(5, path)
    if outcome == nil {
      // Let the blocked reader go before failing.
      let writer = open(path, O_WRONLY | O_NONBLOCK)
      if writer >= 0 { close(writer) }
    }
    #expect(outcome == .notRegularFile)
  }

  /// A sparse MP4 whose `ilst` declares a cover of gigabytes (28 KB on disk) is skipped from
  /// its atom headers: TagLib would read the whole atom into memory (5 GB for two such files).
  @Test func anMP4DeclaringGigabytesOfMetadataIsSkippedFromItsHeaders() throws {
    let music = try MusicFolderFixture()
    let cover: UInt64 = 5 << 29  // 2.5 GiB of picture, never written: a hole
    func atom(_ name: String, _ body: [UInt8], size: UInt64? = nil) -> [UInt8] {
      let total = size ?? UInt64(8 + body.count)
      return withUnsafeBytes(of: UInt32(total).bigEndian, Array.init) + Array(name.utf8) + body
    }
    let covr = atom("covr", atom("data", [0, 0, 0, 13, 0, 0, 0, 0], size: 16 + cover), size: 24 + cover)
    let ilst = atom("ilst", covr, size: 8 + 24 + cover)
    let meta = atom("meta", [0, 0, 0, 0] + ilst, size: 12 + 8 + 24 + cover)
    let udta = atom("udta", meta, size: 8 + 12 + 8 + 24 + cover)
    let moov = atom("moov", udta, size: 8 + 8 + 12 + 8 + 24 + cover)
    let ftyp = atom("ftyp", Array("M4A \0\0\0\0M4A mp42isom".utf8))
    let path = try music.file("big.m4a", ftyp + moov)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(ftyp.count) + 8 + 8 + 12 + 8 + 24 + cover)
    try handle.close()

    let start = ContinuousClock.now
    #expect(readWithin(10, path) == .metadataTooLarge(bytes: Int64(24 + cover)))
    #expect(ContinuousClock.now - start < .seconds(2))
  }

  /// FLAC metadata blocks are at most 16 MiB each, but there may be any number of them.
  @Test func aFLACDeclaringTooManyMetadataBytesIsSkippedFromItsHeaders() throws {
    let music = try MusicFolderFixture()
    let block = (1 << 24) - 1
    var header = Array("fLaC".utf8)
    var offset = header.count
    let path = try music.file("big.flac", header)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    for number in 0..<5 {
      header = [UInt8(number == 4 ? 0x86 : 0x06), 0xFF, 0xFF, 0xFF]  // type 6 (picture), last flag on the fifth
      try handle.seek(toOffset: UInt64(offset))
      try handle.write(contentsOf: Data(header))
      offset += 4 + block
    }
    try handle.truncate(atOffset: UInt64(offset))
    try handle.close()
    #expect(readWithin(10, path) == .metadataTooLarge(bytes: Int64(5 * block)))
  }
}
