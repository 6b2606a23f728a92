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

  /// The queue's titles in order, as the player holds it, and the engine's playlist in step.
  private func titles() throws -> [String] {
    let queue = fixture.player.queue
    #expect(queue.map(\.path) == fixture.engine.playlist)
    return queue.map(\.title)
  }

  /// Issue 50, item 6: tracks removed (the one that plays gives way to the next), moved and
  /// the queue cleared, the engine's playlist changed with it; numbers the queue lacks are
  /// one line naming them, nothing changed.
  @Test func queueRemoveMoveAndClearChangeTheQueueAndThePlaylist() throws {
    #expect(shell.run("queue Alpha; queue Beta; queue Alpha; play") == [])
    _ = shell.output()
    #expect(try titles() == ["A1", "A2", "B1", "A1", "A2"])
    #expect(shell.run("queue remove 2 4-5") == [])
    #expect(shell.lines() == ["removed 3 tracks from the queue; 2 tracks in the queue"])
    #expect(try titles() == ["A1", "B1"])
    #expect(shell.run("queue move 2 to 1") == [])
    #expect(shell.lines() == ["moved track 2 to 1: Y — Beta — 01 B1 (0:01)"])
    #expect(try titles() == ["B1", "A1"])
    // What played (A1) plays on, at its new place.
    #expect(fixture.player.status()?.place == 2)
    #expect(shell.run("queue remove 2") == [])
    _ = shell.output()
    #expect(try titles() == ["B1"])
    #expect(
      shell.run("queue remove 1,3 7-9") == ["queue: the queue has no tracks 3, 7-9 (it has 1 track)"])
    #expect(shell.run("queue move 1 to 4") == ["queue: the queue has no track 4 (it has 1 track)"])
    #expect(try titles() == ["B1"])
    #expect(
      shell.run("queue remove all") == [
        "queue: expected a track number of the queue or a range like 2-5, got 'all' ('queue clear' empties it)"
      ])
    #expect(shell.run("queue move 1 2") == ["queue: expected 'queue move N to M' (as 'queue' numbers the tracks)"])
    #expect(shell.run("queue clear") == [])
    #expect(shell.lines() == ["cleared the queue (1 track)"])
    #expect(fixture.player.queue.isEmpty && fixture.player.isIdle)
    #expect(fixture.engine.calls.last == "rearrange []")
    #expect(shell.run("queue clear") == [])
    #expect(shell.lines() == ["the queue is empty already"])
  }

  /// `queue shuffle` shuffles tracks, not albums: those after the one that plays, which
  /// plays on where it is.
  @Test func queueShuffleShufflesTheTracksAfterTheOneThatPlays() throws {
    for _ in 1...10 { #expect(shell.run("queue Alpha") == []) }
    #expect(shell.run("queue Beta; play; next") == [])
    _ = shell.output()
    let before = try titles()
    #expect(shell.run("queue shuffle") == [])
    #expect(shell.lines() == ["shuffled 19 tracks after the one that plays (2 of 21)"])
    let after = try titles()
    #expect(after.prefix(2) == before.prefix(2))
    #expect(after.sorted() == before.sorted())
    // The engine was given a new order of the 19 (all of them in place: 1 in 19!).
    let identity = "rearrange [" + (0..<21).map(String.init).joined(separator: ", ") + "]"
    let call = try #require(fixture.engine.calls.last)
    #expect(call.hasPrefix("rearrange [0, 1, ") && call != identity, "\(call)")
    #expect(fixture.player.status()?.place == 2)
  }
}
