import Foundation
import MusicFolder
import TestSupport
import Testing

/// Tags written as they mean (issue 38, item 6): writing an edited album artist also writes
/// the artist of each track that had the old one, so a file's TPE1 and TPE2 (ARTIST and
/// ALBUMARTIST) stay in agreement, as they were; a guest's track keeps its artist.
@Suite(.serialized)
struct TrackArtistWriteTests {
  @Test func theTracksOfTheOldAlbumArtistFollowItAndAGuestKeepsTheirs() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let files = ["01.mp3", "02.flac", "03.ogg", "04.m4a"]
    let paths = try files.enumerated().map { number, file in
      try music.track(
        "Radiohaed/OK Computer/\(file)",
        TagEdit(
          album: "OK Computer", artist: number == 3 ? "Radiohaed feat. Guest" : "Radiohaed", albumArtist: "Radiohaed",
          title: "Song \(number + 1)", trackNumber: "\(number + 1)"))
    }
    let written = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit 1 artist=Radiohead", "-c", "write 1", "-c", "show 1",
    ])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(
      try Mutagen.artists(paths) == [
        "Radiohead|Radiohead", "Radiohead|Radiohead", "Radiohead|Radiohead", "Radiohaed feat. Guest|Radiohead",
      ])
    // `show` lists the tracks by the album's artist; the guest's track by theirs.
    #expect(written.stdout.contains("  Song 1\n"), "\(written.stdout)")
    #expect(written.stdout.contains("Song 4 — Radiohaed feat. Guest\n"), "\(written.stdout)")
    let again = try runner.run(["-c", "import '\(music.root)'", "-c", "show 1"])
    #expect(again.stdout.hasPrefix("imported 1 album (4 tracks) from \(music.root): 1 unchanged\n"), "\(again.stdout)")
    #expect(again.stdout.contains("  Song 1\n") && again.stdout.contains("  Song 3\n"), "\(again.stdout)")

    // Undo writes each file's artists back as they were.
    let undone = try runner.run(["-c", "undo"])
    #expect(undone.stdout.hasPrefix("undid write \"OK Computer\" to 4 files\n"), "\(undone.stdout)\(undone.stderr)")
    #expect(
      try Mutagen.artists(paths) == [
        "Radiohaed|Radiohaed", "Radiohaed|Radiohaed", "Radiohaed|Radiohaed", "Radiohaed feat. Guest|Radiohaed",
      ])
  }

  /// Files with no album-artist tag, whose shared artist made the album artist: both tags
  /// say the new name afterwards (the issue's `edit 1027 artist=Radiohead; write 1027`).
  @Test func filesWithoutAnAlbumArtistTagGetBothTags() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    let paths = try ["1.mp3", "2.flac"].map { (file: String) in
      try music.track("Radiohaed/OK/\(file)", TagEdit(album: "OK", artist: "Radiohaed", title: file))
    }
    let written = try runner.run(["-c", "import '\(music.root)'", "-c", "edit 1 artist=Radiohead", "-c", "write 1"])
    #expect(written.stdout.hasSuffix("wrote \"OK\" to 2 files\n"), "\(written.stdout)\(written.stderr)")
    #expect(try Mutagen.artists(paths) == ["Radiohead|Radiohead", "Radiohead|Radiohead"])
  }
}
