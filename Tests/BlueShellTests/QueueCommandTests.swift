import AlbumModel
import BlueLibrary
import Testing

@testable import BlueShell

/// `queue` in process, against the scripted engine: albums added after the queue's last
/// track, nothing started, the queue listed with the playing track marked.
@Suite struct QueueCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    // "Plain" came from no folder: `queue all` leaves it out.
    fixture = try PlaybackFixture(besides: [Album(title: "Plain", artist: "Z", genre: "Pop", year: 1990, coverURL: "")])
  }

  @Test func queueAddsAlbumsWithoutPlayingAndAloneListsTheQueue() throws {
    #expect(shell.run("queue") == [])
    #expect(shell.lines() == ["the queue is empty ('queue ALBUM' adds an album)"])
    #expect(shell.run("queue Beta") == [])
    #expect(shell.lines() == ["queued 1 album (1 track); 1 track in the queue"])
    #expect(fixture.engine.calls.last == "append [\(fixture.path("Y/Beta/01.mp3"))]")
    #expect(fixture.player.isIdle)
    #expect(shell.run("queue Alpha; play; next") == [])
    _ = shell.output()
    #expect(shell.run("queue") == [])
    #expect(
      shell.lines() == [
        "  1. Y — Beta — 01 B1 (0:01)", "▶ 2. X — Alpha — 01 A1 (0:01)", "  3. X — Alpha — 02 A2 (0:01)",
        "3 tracks in the queue",
      ])
  }

  @Test func queueAllAddsEveryAlbumOfTheViewThatCameFromAMusicFolder() throws {
    #expect(shell.run("queue all") == [])
    #expect(shell.lines() == ["queued 2 albums (3 tracks); 3 tracks in the queue"])
    #expect(shell.run("find artist:Z; queue all") == ["queue: no album of the view came from a music folder"])
  }

  @Test func queueRandomAddsDistinctAlbumsAndSaysWhenFewerHaveFiles() throws {
    #expect(shell.run("queue random 2") == [])
    #expect(shell.lines().last == "queued 2 albums (3 tracks), picked at random of 3 albums; 3 tracks in the queue")
    // Each album once: Alpha's two tracks and Beta's one, in some order.
    let paths = Set(try #require(shell.interpreter.environment.player).queue.map(\.path))
    #expect(paths.count == 3)
    #expect(shell.run("queue random 5") == [])
    #expect(
      shell.lines().last
        == "queued 2 albums (3 tracks), picked at random of 3 albums (only 2 came from a music folder); "
        + "6 tracks in the queue")
    #expect(shell.run("queue random 0") == ["queue: 'queue random' takes a number of albums from 1 to 1000, not '0'"])
    #expect(shell.run("queue random") == ["queue: missing N: 'queue random N' adds N albums (like 5)"])
    // Quoted, the word is a title again.
    #expect(shell.run("queue \"random\"") == ["queue: no album titled 'random' (try 'list random')"])
  }
}
