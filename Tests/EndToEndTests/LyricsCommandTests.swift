import Foundation
import MusicFolder
import TestSupport
import Testing

/// `lyrics` from the built binary (issue 38, item 5): an `.lrc` beside a track printed without
/// its stamps, embedded lyrics, and one clear line when there are none.
@Suite(.serialized)
struct LyricsCommandTests {
  @Test func lyricsPrintsTheSidecarOrTheEmbeddedLyricsWithoutTimestamps() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let first = try music.track(
      "Radiohead/OK Computer/01 Airbag.mp3",
      TagEdit(album: "OK Computer", artist: "Radiohead", title: "Airbag", trackNumber: "1"))
    let second = try music.track(
      "Radiohead/OK Computer/02 Paranoid Android.flac",
      TagEdit(album: "OK Computer", artist: "Radiohead", title: "Paranoid Android", trackNumber: "2"))
    try music.track(
      "Radiohead/OK Computer/03 Subterranean.ogg",
      TagEdit(album: "OK Computer", artist: "Radiohead", title: "Subterranean", trackNumber: "3"))
    try Data("[ar:Radiohead]\n[00:12.50]In the next world war\n[00:15.00]In a jackknifed juggernaut\n".utf8)
      .write(to: URL(fileURLWithPath: music.path("Radiohead/OK Computer/01 Airbag.lrc")))
    _ = try Mutagen.run(
      "import sys, mutagen\nf = mutagen.File(sys.argv[1])\nf['LYRICS'] = 'Please could you stop the noise'\nf.save()",
      [second])
    _ = first

    let result = try runner.run([
      "-c", "import '\(music.root)'", "-c", "lyrics", "-c", "lyrics 1 2", "-c", "lyrics \"OK Computer\" 3",
      "-c", "lyrics 1 9", "-c", "lyrics 2",
    ])
    #expect(result.status == 1)
    #expect(
      result.stdout.hasSuffix(
        """
        "Airbag" — Radiohead (synced lyrics from 01 Airbag.lrc)

        In the next world war
        In a jackknifed juggernaut
        "Paranoid Android" — Radiohead (lyrics embedded in 02 Paranoid Android.flac)

        Please could you stop the noise

        """), "\(result.stdout)")
    #expect(
      result.stderr.contains(
        "lyrics: \"Subterranean\" has no lyrics (none embedded in 03 Subterranean.ogg, no 03 Subterranean.lrc beside it)"
      ), "\(result.stderr)")
    #expect(result.stderr.contains("lyrics: \"OK Computer\" has no track 9 (it has 3)"))
    #expect(result.stderr.contains("lyrics: no album 2 (the library has 1 album)"))

    let fresh = BinaryRunner()
    defer { fresh.cleanUp() }
    let samples = try fresh.run(["-c", "lyrics"])
    #expect(
      samples.stderr.contains("lyrics: \"Best of Bowie\" has no music files (it did not come from a music folder)"))
  }

  /// An `.lrc` that is there but not read — too large, a FIFO, a folder, a link to a device,
  /// random bytes, empty — is said with why (issue 46, H11: "no 01.lrc beside it" was said of
  /// each); and a line with 100,000 stamps prints its text 64 times, not 100,000 (H20).
  @Test func anLRCFileThatIsNotReadIsSaidWithWhy() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let cases: [(album: String, make: (String) throws -> Void, reason: String)] = [
      (
        "Big", { try Data(repeating: 0x61, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: $0)) },
        "larger than 1 MiB"
      ),
      ("Fifo", { #expect(mkfifo($0, 0o644) == 0) }, "not a regular file but a FIFO"),
      (
        "Folder", { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) },
        "a folder, not a file"
      ),
      (
        "Zero", { try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: "/dev/zero") },
        "not a regular file but a device"
      ),
      (
        "Noise",
        { path in
          var generator = SeededGenerator(seed: 46)
          try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
            to: URL(fileURLWithPath: path))
        }, "not text"
      ),
      ("Empty", { try Data().write(to: URL(fileURLWithPath: $0)) }, "empty"),
    ]
    for (album, make, _) in cases {
      try music.track("R/\(album)/01.mp3", TagEdit(album: album, artist: "R", title: album))
      try make(music.path("R/\(album)/01.lrc"))
    }
    try music.track("R/Chorus/01.mp3", TagEdit(album: "Chorus", artist: "R", title: "Chorus"))
    try Data((String(repeating: "[00:01]", count: 100_000) + "la la\n").utf8)
      .write(to: URL(fileURLWithPath: music.path("R/Chorus/01.lrc")))
    #expect(try runner.run(["-c", "import '\(music.root)'"]).status == 0)
    for (album, _, reason) in cases {
      let result = try runner.run(["-c", "lyrics \(album)"])
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "bluelib: -c:1: lyrics: \"\(album)\" has no lyrics (none embedded in 01.mp3; 01.lrc beside it is not "
          + "read: \(reason))\n")
    }
    let chorus = try runner.run(["-c", "lyrics Chorus"])
    #expect(chorus.status == 0, "\(chorus.stderr)")
    let lines = chorus.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "\"Chorus\" — R (synced lyrics from 01.lrc)")
    #expect(lines.filter { $0 == "la la" }.count == 64)
  }
}
