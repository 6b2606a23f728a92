import Foundation
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// The queue edited and playlists played from the built binary, with real libmpv on its
  /// null audio output (issue 50, item 6).
  @Suite(.serialized)
  struct QueueEditingTests {
    /// An M3U beside the music (relative paths, one file the library lacks) after
    /// ``PlaybackTests/music(in:)`` is imported: its path.
    static func playlist(in runner: BinaryRunner) throws -> String {
      let music = try PlaybackTests.music(in: runner)
      _ = try runner.run(["-c", "import '\(music.root)'"])
      return try music.file(
        "mix.m3u",
        Array(
          """
          #EXTM3U
          #EXTINF:1,Pink Floyd - In the Flesh?
          Pink Floyd/The Wall/CD1/1.ogg
          Queen/Innuendo/2.flac
          Elsewhere/gone.flac
          Queen/Innuendo/1.mp3

          """.utf8))
    }

    @Test(.timeLimit(.minutes(1)))
    func aPlaylistIsQueuedAndTheQueueMovedRemovedAndListed() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let path = try Self.playlist(in: runner)
      let result = try runner.run(
        [
          "-c", "queue '\(path)'", "-c", "queue move 3 to 1", "-c", "queue remove 2", "-c", "queue remove 5",
          "-c", "queue",
        ], environment: PlaybackTests.silent)
      #expect(result.status == 1, "\(result.stderr)")
      #expect(
        result.stdout == """
          queued mix.m3u (3 tracks); 3 tracks in the queue
          1 of 4 tracks is not in the library: gone.flac
          moved track 3 to 1: Queen — Innuendo — 01 Innuendo (0:01)
          removed 1 track from the queue; 2 tracks in the queue
            1. Queen — Innuendo — 01 Innuendo (0:01)
            2. Queen — Innuendo — 02 Headlong (0:01)
          2 tracks in the queue

          """, "\(result.stderr)")
      #expect(result.stderr == "bluelib: -c:4: queue: the queue has no track 5 (it has 2 tracks)\n")
    }

    /// `play FILE` plays the playlist's tracks; the playing one removed, the next plays;
    /// `queue clear` stops, and the script ends there (it does not play on).
    @Test(.timeLimit(.minutes(1)))
    func aPlaylistPlaysAndRemovingThePlayingTrackPlaysTheNext() throws {
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let path = try Self.playlist(in: runner)
      let result = try runner.run(
        ["-c", "play '\(path)'", "-c", "queue remove 1", "-c", "queue", "-c", "queue clear"],
        environment: PlaybackTests.silent)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.hasPrefix("playing mix.m3u (3 tracks)\n1 of 4 tracks is not in the library: gone.flac\n"))
      #expect(result.stdout.contains("removed 1 track from the queue; 2 tracks in the queue\n"), "\(result.stdout)")
      #expect(result.stdout.contains("1. Queen — Innuendo — 02 Headlong (0:01)\n"), "\(result.stdout)")
      #expect(result.stdout.contains("cleared the queue (2 tracks)\n"), "\(result.stdout)")
    }
  }
}
