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
}
