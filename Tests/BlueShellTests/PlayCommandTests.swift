import AlbumModel
import BlueLibrary
import Foundation
import Testing

@testable import BlueShell

/// `play` in process, against the scripted engine: which album plays and from which track,
/// the queue played again, tracks the engine refuses, and a queue whose files moved (issue
/// 38, item 1).
@Suite struct PlayCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func playPlaysAnAlbumFromItsFirstTrackOrFromTrack() throws {
    #expect(shell.run("play Beta") == [])
    #expect(shell.lines() == ["playing \"Beta\" (1 track)"])
    #expect(fixture.statusLines() == ["▶ Y — Beta — 01 B1 (0:01)"])
    #expect(shell.run("play Alpha 2") == [])
    #expect(shell.lines() == ["playing \"Alpha\" (2 tracks)"])
    #expect(fixture.loaded() == "load 1 of [\(fixture.path("X/Alpha/01.mp3")), \(fixture.path("X/Alpha/02.mp3"))]")
    #expect(fixture.statusLines() == ["▶ X — Alpha — 02 A2 (0:01)"])
    // The current album by default; an index names one too.
    #expect(shell.run("tap Beta; play; play 1") == [])
    #expect(
      fixture.engine.calls.suffix(2) == [
        "load 0 of [\(fixture.path("Y/Beta/01.mp3"))]",
        "load 0 of [\(fixture.path("X/Alpha/01.mp3")), \(fixture.path("X/Alpha/02.mp3"))]",
      ])
  }

  @Test func playAloneResumesTheQueueOnlyWhileItsAlbumIsCurrent() throws {
    #expect(shell.run("tap Alpha; play") == [])
    #expect(
      fixture.loaded() == "load 0 of [\(fixture.folder.root)/X/Alpha/01.mp3, \(fixture.folder.root)/X/Alpha/02.mp3]")
    #expect(shell.run("stop; play") == [])
    #expect(shell.lines().last == "playing the queue (2 tracks)")
    // Another album picked since the queue was made: `play` plays it (the issue: the
    // previous queue played again).
    #expect(shell.run("stop; tap Beta; play") == [])
    #expect(shell.lines().last == "playing \"Beta\" (1 track)")
    #expect(fixture.loaded() == "load 0 of [\(fixture.folder.root)/Y/Beta/01.mp3]")
    // A queue added to while Alpha is current waits for `play` there.
    #expect(shell.run("stop; tap Alpha; queue Alpha") == [])
    _ = shell.output()
    #expect(shell.run("play") == [])
    #expect(shell.lines().last == "playing the queue (3 tracks)")
  }

  /// A queue made before its album's folder moved, and was imported again, plays the files
  /// at their new place (the issue: "cannot play … loading failed; skipped" ×10).
  @Test func aQueueWhoseFilesMovedPlaysThemWhereTheyAreNow() throws {
    #expect(shell.run("tap Alpha; play; stop") == [])
    try FileManager.default.moveItem(atPath: fixture.folder.path("X"), toPath: fixture.folder.path("Moved"))
    try shell.library.importFolder(fixture.folder.root, named: "M")
    _ = shell.output()
    #expect(shell.run("play") == [])
    #expect(shell.lines().last == "playing the queue (2 tracks)")
    #expect(
      fixture.loaded()
        == "load 0 of [\(fixture.folder.root)/Moved/Alpha/01.mp3, \(fixture.folder.root)/Moved/Alpha/02.mp3]")
  }

  @Test func playRandomPlaysAnAlbumWithFilesPickedAtRandom() throws {
    // "Plain" came from no folder and has nothing to play.
    let fixture = try PlaybackFixture(besides: [
      Album(title: "Plain", artist: "Z", genre: "Pop", year: 1990, coverURL: "")
    ])
    let shell = fixture.shell
    let folder = fixture.folder
    let engine = fixture.engine
    var picked: Set<String> = []
    for _ in 0..<40 {
      #expect(shell.run("play random") == [])
      let line = try #require(shell.lines().last)
      #expect(line.hasSuffix("picked at random of 3 albums"), "\(line)")
      picked.insert(String(line.dropFirst("playing \"".count).prefix { $0 != "\"" }))
    }
    // Both albums with files come up (each missing 40 times: 2 × 2^-40); Plain never.
    #expect(picked == ["Alpha", "Beta"])
    // Within a query: only what it matches.
    #expect(shell.run("play random artist:Y") == [])
    #expect(shell.lines().last == "playing \"Beta\" by Y (1 track), picked at random of 1 album")
    #expect(engine.calls.last == "load 0 of [\(folder.root)/Y/Beta/01.mp3]")
    // In a view: only the view's albums.
    #expect(shell.run("find artist:X; play random") == [])
    #expect(shell.lines().last == "playing \"Alpha\" by X (2 tracks), picked at random of 1 album")
    #expect(shell.run("find") == [])
    // Nothing to pick: each says why.
    #expect(shell.run("play random genre:nothing") == ["play: no album to pick from: what the query matches is empty"])
    #expect(
      shell.run("play random artist:Z")
        == ["play: no album of what the query matches came from a music folder (1 album, none with music files)"])
  }

  /// A track number outside the album, the smallest and largest integers included, is an
  /// error naming it, on the engine's path and on BLUELIB_PLAYER's, and nothing plays
  /// (round 4, G12: `Int.min - 1` trapped).
  @Test(arguments: [[:], ["BLUELIB_PLAYER": "true"]] as [[String: String]])
  func aTrackNumberOutsideTheAlbumIsAnErrorEvenAtTheEndsOfInt(environment: [String: String]) throws {
    let fixture = try PlaybackFixture(processEnvironment: environment)
    for (track, message) in [
      ("-9223372036854775808", "play: \"Alpha\" has no track -9223372036854775808 (it has 2)"),
      ("9223372036854775807", "play: \"Alpha\" has no track 9223372036854775807 (it has 2)"),
      ("0", "play: \"Alpha\" has no track 0 (it has 2)"),
      ("3", "play: \"Alpha\" has no track 3 (it has 2)"),
    ] {
      #expect(fixture.shell.run("play Alpha \(track)") == [message])
    }
    #expect(fixture.shell.output() == "")
    #expect(fixture.engine.calls == [])
  }

  @Test func anAlbumFromNoMusicFolderHasNothingToPlay() throws {
    let fixture = try PlaybackFixture(besides: [Album(title: "Plain", artist: "Z")])
    #expect(
      fixture.shell.run("play Plain")
        == ["play: \"Plain\" has no music files to play (it did not come from a music folder)"])
    #expect(fixture.engine.calls == [])
  }

  /// A track the engine refuses is told as failed and left out, and the rest plays; when
  /// it refuses every track, one error names the first (files gone: how to find them
  /// again), and nothing changes.
  @Test func tracksTheEngineRefusesAreSkippedAndAllRefusedIsOneError() throws {
    fixture.engine.refuse(fixture.path("X/Alpha/01.mp3"), .noAudio)
    #expect(shell.run("play Alpha") == [])
    #expect(shell.lines() == ["playing \"Alpha\" (1 track)"])
    #expect(
      fixture.statusLines() == ["✗ cannot play 01.mp3: no readable audio; skipped", "▶ X — Alpha — 02 A2 (0:01)"])
    #expect(fixture.player.queue.map(\.title) == ["A2"])
    fixture.engine.refuse(fixture.path("Y/Beta/01.mp3"), .gone)
    #expect(
      shell.run("play Beta")
        == [
          "play: the files of \"Beta\" are gone (\(fixture.path("Y/Beta/01.mp3")): no such file); "
            + "'import DIR' finds them if they moved"
        ])
    fixture.engine.refuse(fixture.path("X/Alpha/02.mp3"), .notRegularFile)
    #expect(shell.run("play Alpha 2") == ["play: cannot play 02.mp3: not a regular file"])
    #expect(fixture.statusLines() == [])
    #expect(fixture.player.queue.map(\.title) == ["A2"])
  }
}
