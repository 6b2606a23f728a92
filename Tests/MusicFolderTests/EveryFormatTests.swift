import BlueSystem
import Foundation
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every format TagLib 1.13 opens, each with a committed fixture (Tests/Fixtures/music, made
/// by make-fixtures.sh and make-handmade.py): about a second of silence, untagged.
enum TagLibFormat: String, CaseIterable, Sendable, CustomStringConvertible {
  case mp3, flac, m4a, m4b, ogg, oga, opus, spx, mpc, wv, tta, wma, aiff, wav, ape, mod, s3m, it, xm

  var fixture: String { AudioFormat.fixtures + "/silence." + rawValue }

  /// The format's name as a track says it.
  var name: String {
    switch self {
    case .mp3: "MP3"
    case .flac: "FLAC"
    case .m4a, .m4b: "AAC"
    case .ogg: "OGG"
    case .oga: "Ogg FLAC"
    case .opus: "Opus"
    case .spx: "Speex"
    case .mpc: "MPC"
    case .wv: "WavPack"
    case .tta: "TrueAudio"
    case .wma: "WMA"
    case .aiff: "AIFF"
    case .wav: "WAV"
    case .ape: "APE"
    case .mod: "MOD"
    case .s3m: "S3M"
    case .it: "IT"
    case .xm: "XM"
    }
  }

  /// A tracker module: a title is the one tag it holds, and TagLib gives it no length.
  var isModule: Bool { [.mod, .s3m, .it, .xm].contains(self) }

  var description: String { rawValue }
}

@Suite struct EveryFormatTests {
  /// Copies the fixture of `format` to `root/relative` and writes `edit` into the copy.
  func copy(_ format: TagLibFormat, to path: String, _ edit: TagEdit) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: format.fixture, toPath: path)
    try edit.write(to: path)
  }

  static func tags(for format: TagLibFormat) -> TagEdit {
    format.isModule
      ? TagEdit(title: "Tone")
      : TagEdit(album: "Every", artist: "TagLib", title: "Tone", trackNumber: "2/9", genre: "Test", discNumber: "1/2")
  }

  @Test(arguments: TagLibFormat.allCases)
  func everyFormatTagLibOpensIsReadAsATrack(format: TagLibFormat) throws {
    let music = try MusicFolderFixture()
    let path = music.path("track.\(format)")
    try copy(format, to: path, Self.tags(for: format))
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("\(format): no audio read")
      return
    }
    #expect(tags.format == format.name)
    #expect(tags.title == "Tone")
    if format.isModule {
      #expect(tags.duration == 0)
    } else {
      #expect(tags.album == "Every" && tags.artist == "TagLib" && tags.genre == "Test")
      #expect(tags.trackNumber == 2 && tags.discNumber == 1)
      #expect(tags.duration > 0.9 && tags.duration < 1.3, "\(format): \(tags.duration) s")
      #expect(tags.bitrate > 0)
    }
    #expect(TrackTags.mayHoldAudio(path))
  }

  /// The measured case of the issue: files TagLib reads were skipped by a list of eight
  /// extensions of bluelib's own. A folder holding one file of each format is one album
  /// and one album of modules (which have no album tag), every file a track.
  @Test func aFolderOfEveryFormatImportsEveryFile() throws {
    let music = try MusicFolderFixture()
    for format in TagLibFormat.allCases {
      try copy(format, to: music.path("Mixed/\(format).\(format)"), Self.tags(for: format))
    }
    let scan = try music.scan()
    #expect(scan.skipped == [])
    #expect(scan.filesScanned == TagLibFormat.allCases.count)
    let albums = Dictionary(uniqueKeysWithValues: scan.albums.map { ($0.title, $0) })
    #expect(albums["Every"]?.trackCount == TagLibFormat.allCases.filter { !$0.isModule }.count)
    #expect(albums["Mixed"]?.trackCount == 4)
    #expect(Set(scan.albums.flatMap(\.tracks).map(\.tags.format)) == Set(TagLibFormat.allCases.map(\.name)))
  }

  /// A zero-filled file of 256 MiB under each extension whose reader would look through all
  /// of it (or, for Musepack, take the zeros for a 27-hour stream): not audio, from its
  /// first bytes.
  @Test(arguments: ["mp3", "ogg", "oga", "opus", "spx", "flac", "ape", "mpc", "mod", "wow"])
  func aZeroFilledFileIsNotAudio(fileExtension: String) throws {
    let music = try MusicFolderFixture()
    let zeros = try music.file("zeros.\(fileExtension)", [])
    #expect(truncate(zeros, 256 << 20) == 0)
    #expect(!TrackTags.mayHoldAudio(zeros))
    #expect(TrackTags.read(zeros) == .noAudio)
  }

  /// An `.mp3` is audio when a frame sync (0xFF, then three set bits) starts within its
  /// first 64 KiB, wherever in them, across the 4 KiB reads too; past them, it is not.
  @Test(arguments: [(0, true), (4095, true), (10_000, true), (65_534, true), (65_535, false), (70_000, false)])
  func anMP3sFrameSyncIsFoundWithinItsFirst64KiB(offset: Int, isAudio: Bool) throws {
    let music = try MusicFolderFixture()
    var bytes = [UInt8](repeating: 0, count: 80_000)
    bytes[offset] = 0xFF
    bytes[offset + 1] = 0xE2
    let path = try music.file("sync.mp3", bytes)
    #expect(TrackTags.mayHoldAudio(path) == isAudio)
  }

  /// The MusicBrainz ids, written as each tag family stores them (MusicBrainz Picard's
  /// names; the file's bytes hold the family's own key), are read back from all three.
  @Test(arguments: [
    (TagLibFormat.mp3, "MusicBrainz Album Id"), (.flac, "MUSICBRAINZ_ALBUMID"),
    (.m4a, "----"), (.ogg, "MUSICBRAINZ_ALBUMID"),
  ])
  func musicBrainzIDsAreReadFromEveryTagFamily(format: TagLibFormat, key: String) throws {
    let music = try MusicFolderFixture()
    let path = music.path("track.\(format)")
    let (release, group, recording) = (
      "f5093c06-23e3-404f-aeaa-40f72885ee3a", "1e0eee38-a9f6-49bf-84d0-45d0647799af",
      "6b9a9e04-abd7-4666-86ba-bb220ef4c3b2"
    )
    if format == .mp3 {
      // As Picard writes them: TXXX frames named in mixed case and a UFID frame, in an
      // ID3v2.4 tag before the (untagged) audio.
      let tag = Self.id3v2Tag([
        ("TALB", [3] + Array("The Wall".utf8)),
        ("TXXX", [3] + Array("MusicBrainz Album Id".utf8) + [0] + Array(release.utf8)),
        ("TXXX", [3] + Array("MusicBrainz Release Group Id".utf8) + [0] + Array(group.utf8)),
        ("UFID", Array("http://musicbrainz.org".utf8) + [0] + Array(recording.utf8)),
      ])
      try Data(tag + Array(try Data(contentsOf: URL(fileURLWithPath: format.fixture))))
        .write(to: URL(fileURLWithPath: path))
    } else {
      try copy(
        format, to: path,
        TagEdit(
          album: "The Wall", musicBrainzTrackID: recording, musicBrainzAlbumID: release,
          musicBrainzReleaseGroupID: group))
    }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes.range(of: Data(key.utf8)) != nil, "\(format) stores no \(key)")
    if format == .m4a {
      #expect(bytes.range(of: Data("com.apple.iTunes".utf8)) != nil)
      #expect(bytes.range(of: Data("MusicBrainz Release Group Id".utf8)) != nil)
    }
    guard case .track(let tags) = TrackTags.read(path) else {
      Issue.record("\(format): no audio read")
      return
    }
    #expect(tags.album == "The Wall")
    #expect(tags.musicBrainzAlbumID == release)
    #expect(tags.musicBrainzReleaseGroupID == group)
    #expect(tags.musicBrainzTrackID == recording)
  }

  /// An ID3v2.4 tag of `frames` (each its id and body), sizes written as 7-bit bytes.
  static func id3v2Tag(_ frames: [(id: String, body: [UInt8])]) -> [UInt8] {
    let synchsafe = { (size: Int) -> [UInt8] in (0..<4).reversed().map { UInt8((size >> ($0 * 7)) & 0x7F) } }
    var body: [UInt8] = []
    for frame in frames { body += Array(frame.id.utf8) + synchsafe(frame.body.count) + [0, 0] + frame.body }
    return Array("ID3".utf8) + [4, 0, 0] + synchsafe(body.count) + body
  }

  // MARK: - Tracks of an album

  /// Disc tags order the tracks before their numbers; tracks without a number come after
  /// those with one, by file name; the album counts its discs and takes the release id
  /// most tracks carry.
  @Test func tracksAreInDiscAndTrackOrderWithUnnumberedOnesByName() throws {
    let music = try MusicFolderFixture()
    let wall = { (disc: String?, number: String?, title: String) in
      TagEdit(
        album: "The Wall", artist: "Pink Floyd", title: title, trackNumber: number, discNumber: disc,
        musicBrainzAlbumID: "release")
    }
    try music.track("Wall/a.mp3", wall("2", "1", "Hey You"))
    try music.track("Wall/b.mp3", wall("1", "2", "The Thin Ice"))
    try music.track("Wall/c.mp3", wall("1/2", "1", "In the Flesh?"))
    try music.track("Wall/zz.mp3", wall("1", nil, "Hidden"))
    try music.track("Wall/aa.mp3", wall("1", nil, "Intro"))
    let album = try #require(try music.scan().albums.first)
    #expect(album.tracks.map(\.tags.title) == ["In the Flesh?", "The Thin Ice", "Intro", "Hidden", "Hey You"])
    #expect(album.tracks.map(\.disc) == [1, 1, 1, 1, 2])
    #expect(album.discs == 2)
    #expect(album.musicBrainzAlbumID == "release")
  }

  /// A track without a disc tag is on disc 1, beside tracks tagged disc 1 (review).
  @Test func tracksWithAndWithoutADiscTagShareDiscOne() throws {
    let music = try MusicFolderFixture()
    try music.track("A/a.mp3", TagEdit(album: "A", title: "three", trackNumber: "3"))
    try music.track("A/b.mp3", TagEdit(album: "A", title: "one", trackNumber: "1", discNumber: "1"))
    try music.track("A/c.mp3", TagEdit(album: "A", title: "two", trackNumber: "2"))
    #expect(try music.scan().albums.first?.tracks.map(\.tags.title) == ["one", "two", "three"])
  }

  /// The fingerprint a scan hands over changes when a file's inode changes (a `chmod` that
  /// makes a skipped file readable changes no modification time), and not otherwise.
  @Test func theFingerprintSeesAChangeOfPermissions() throws {
    let music = try MusicFolderFixture()
    let path = try music.track("A/1.flac", TagEdit(album: "A"))
    func fingerprint() throws -> String {
      let earlier = KnownScan()
      _ = try MusicFolderScanner().scan(music.root, earlier: earlier)
      return try #require(earlier.fingerprints.first)
    }
    let first = try fingerprint()
    #expect(first.count == 16)
    #expect(try fingerprint() == first)
    usleep(10_000)
    #expect(chmod(path, 0o600) == 0)
    #expect(try fingerprint() != first)
  }

  /// Disc folders without disc tags give their tracks the folder's place as their disc.
  @Test func discFoldersWithoutDiscTagsAreDiscsInFolderOrder() throws {
    let music = try MusicFolderFixture()
    for disc in 1...2 {
      for number in 1...2 {
        try music.track(
          "Set/CD\(disc)/\(number).flac",
          TagEdit(album: "Set", artist: "X", title: "\(disc)-\(number)", trackNumber: "\(number)"))
      }
    }
    let album = try #require(try music.scan().albums.first)
    #expect(album.tracks.map(\.tags.title) == ["1-1", "1-2", "2-1", "2-2"])
    #expect(album.tracks.map(\.disc) == [1, 1, 2, 2])
    #expect(album.discs == 2)
    // One folder without disc tags: a single disc, no disc number.
    let single = try MusicFolderFixture()
    try single.track("One/1.ogg", TagEdit(album: "One"))
    #expect(try single.scan().albums.first?.tracks.map(\.disc) == [nil])
    #expect(try single.scan().albums.first?.discs == 1)
  }

  // MARK: - Files known from an earlier scan

  /// A scan given what an earlier one read opens only the files whose size or modification
  /// time changed, and finds the same albums.
  @Test func knownUnchangedFilesAreNotOpened() throws {
    let music = try MusicFolderFixture()
    for number in 1...3 {
      try music.track("A/\(number).mp3", TagEdit(album: "A", artist: "X", title: "T\(number)"))
    }
    let first = try music.scan()
    #expect(first.filesOpened == 3)
    let known = Dictionary(uniqueKeysWithValues: first.albums.flatMap(\.tracks).map { ($0.path, $0) })
    let earlier = KnownScan(tracks: known)
    let again = try MusicFolderScanner().scan(music.root, earlier: earlier)
    #expect(earlier.asked == ["fingerprint " + music.root, "tracks " + music.root])
    #expect(earlier.fingerprints == [first.fingerprint])
    #expect(again.filesOpened == 0)
    #expect(again.albums == first.albums)

    // A retagged file (new size and time) is opened again; the others are not.
    try TagEdit(title: "Renamed").write(to: music.path("A/2.mp3"))
    let changed = try MusicFolderScanner().scan(music.root, earlier: KnownScan(tracks: known))
    #expect(changed.filesOpened == 1)
    #expect(changed.albums.first?.tracks.map(\.tags.title) == ["T1", "Renamed", "T3"])
  }

  /// A scan whose earlier scan saw the same fingerprint reads no file and builds no album,
  /// and does not ask for the tracks; the files that scan skipped are the caller's to name,
  /// and the walk says their sizes and times. One fingerprint further on, it reads again.
  @Test func aFolderAsTheEarlierScanSawItIsNotRead() throws {
    let music = try MusicFolderFixture()
    try music.track("A/1.mp3", TagEdit(album: "A", artist: "X"))
    let noise = try music.file("A/3.mp3", Array("not audio".utf8))
    let first = try music.scan()
    #expect(first.skipped.map(\.path) == [noise])
    #expect(first.stamps(of: [noise]).isEmpty, "a scan that read the files: its skipped files carry them")
    let earlier = KnownScan(seen: first.fingerprint)
    let again = try MusicFolderScanner().scan(music.root, earlier: earlier)
    #expect(again.isUnchanged && again.albums.isEmpty && again.filesOpened == 0 && again.filesScanned == 2)
    #expect(again.fingerprint == first.fingerprint)
    #expect(earlier.asked == ["fingerprint " + music.root])
    #expect(again.skipped.isEmpty)
    let stamp = try #require(first.skipped.first?.stamp)
    #expect(again.stamps(of: [noise, music.path("A/none.mp3")]) == [noise: stamp])
    try music.track("A/2.mp3", TagEdit(album: "A", artist: "X"))
    let grown = try MusicFolderScanner().scan(music.root, earlier: KnownScan(seen: first.fingerprint))
    #expect(!grown.isUnchanged && grown.trackCount == 2 && grown.filesOpened == 3)
  }
}

/// An earlier scan given in full: `tracks` read, and the fingerprint it `seen`; notes what
/// the scanner asks of it.
final class KnownScan: EarlierScan {
  let tracks: [String: MusicTrack]
  let seen: String?
  /// Each question, `fingerprint ROOT` or `tracks ROOT`, in order.
  private(set) var asked: [String] = []
  /// The fingerprints the scanner gave.
  private(set) var fingerprints: [String] = []

  init(tracks: [String: MusicTrack] = [:], seen: String? = nil) {
    self.tracks = tracks
    self.seen = seen
  }

  func sawFingerprint(_ fingerprint: String, of root: String) -> Bool {
    asked.append("fingerprint " + root)
    fingerprints.append(fingerprint)
    return fingerprint == seen
  }

  func takeTracks(under root: String) -> [String: MusicTrack] {
    asked.append("tracks " + root)
    return tracks
  }
}
