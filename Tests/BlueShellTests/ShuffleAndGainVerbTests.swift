import AlbumModel
import BlueLibrary
import BluePlayback
import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import BlueShell

/// Shuffle by album, repeat and ReplayGain in process, against the scripted engine (issue
/// 38, items 3 and 4): `play random`, `queue random N`, the `random` sort key, `repeat` and
/// `replaygain`.
@Suite struct ShuffleAndGainVerbTests {
  let directory: TemporaryDirectory
  let folder: MusicFolderFixture
  let shell: InProcessShell
  let engine = ScriptedAudioEngine()

  /// "Alpha" (two tracks, by X) and "Beta" (one, by Y) from a music folder, and "Plain",
  /// which came from no folder and has nothing to play.
  init() throws {
    (directory, folder, shell) = try PlaybackVerbTests.alphaAndBeta(
      besides: [Album(title: "Plain", artist: "Z", genre: "Pop", year: 1990, coverURL: "")], playingWith: engine)
  }

  @Test func playRandomPlaysAnAlbumWithFilesPickedAtRandom() throws {
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

  @Test func repeatPlaysTheQueueAgainAfterItsEnd() throws {
    #expect(shell.run("repeat") == [])
    #expect(shell.lines() == ["repeat off"])
    #expect(shell.run("repeat on; tap Beta; play") == [])
    let player = try #require(shell.interpreter.environment.player)
    // Set before the engine existed, given to it when it was made.
    #expect(engine.calls.contains("repeat on"))
    engine.finishCurrent()
    #expect(!player.isIdle)
    #expect(player.status()?.place == 1)
    _ = shell.output()
    #expect(shell.run("now") == [])
    #expect(
      shell.lines().dropFirst().first == "  ReplayGain −6.00 dB (the file has no ReplayGain tags); the queue repeats")
    #expect(shell.run("repeat off") == [])
    #expect(shell.lines() == ["repeat off"])
    engine.finishCurrent()
    #expect(player.isIdle)
    #expect(shell.run("repeat maybe") == ["repeat: repeat is 'on' or 'off', not 'maybe'"])
  }

  @Test func replayGainIsRememberedGivenToTheEngineAndSaidByNow() throws {
    #expect(try shell.library.replayGainMode() == .album)
    let tagged = folder.path("X/Alpha/01.mp3")
    engine.tag(tagged, album: -5.1, track: -7.3)
    #expect(shell.run("tap Alpha; play") == [])
    #expect(engine.calls.contains("replaygain album -6.0"))
    _ = shell.output()
    #expect(shell.run("now") == [])
    #expect(shell.lines().dropFirst().first == "  ReplayGain album −5.10 dB")
    #expect(shell.run("replaygain track; now") == [])
    #expect(
      shell.lines().dropFirst(2).first == "  ReplayGain track −7.30 dB")
    #expect(engine.calls.last == "replaygain track -6.0")
    #expect(try shell.library.replayGainMode() == .track)
    #expect(shell.run("replaygain off; now") == [])
    #expect(shell.lines().dropFirst(2).first == "  ReplayGain off")
    #expect(shell.run("replaygain loud") == ["replaygain: replaygain is 'album', 'track' or 'off', not 'loud'"])
    #expect(try shell.library.replayGainMode() == .off)
  }

  /// For a track with synced lyrics, `now` shows the line sung at that moment (issue 38,
  /// item 5); a track with plain lyrics, none.
  @Test func nowShowsTheSyncedLineSungNow() throws {
    try folder.file("X/Alpha/01.lrc", Array("[ar:X]\n[00:05.00]First line\n[00:10.00]Second line\n".utf8))
    try folder.file("X/Alpha/02.lrc", Array("Plain words\n".utf8))
    #expect(shell.run("tap Alpha; play") == [])
    engine.advance(by: 11)
    _ = shell.output()
    #expect(shell.run("now") == [])
    #expect(shell.lines().last == "  ♪ Second line")
    engine.finishCurrent()
    engine.advance(by: 11)
    #expect(shell.run("now") == [])
    #expect(shell.lines().last?.hasPrefix("  ReplayGain") == true)
  }

  /// `random` orders a view by a shuffle of its own: kept while the view is shown, new at
  /// each `find`; `title:random` still finds the word.
  @Test func theRandomSortKeyShufflesOncePerFind() throws {
    let albums = (1...60).map { Album(title: "T\($0)", artist: "A", genre: "G", year: 1990, coverURL: "") }
    let shell = try InProcessShell(
      albums: albums + [Album(title: "Random Access", artist: "D", genre: "G", coverURL: "")])
    func order() throws -> [String] {
      try shell.library.albums(in: 0..<(try shell.library.count())).map(\.title)
    }
    #expect(shell.run("find artist:A random") == [])
    let first = try order()
    #expect(Set(first) == Set(albums.map(\.title)))
    #expect(first != albums.map(\.title))
    #expect(shell.run("scroll right; tap 3") == [])
    #expect(try order() == first)
    #expect(shell.run("find artist:A random") == [])
    #expect(try order() != first)
    #expect(shell.run("find title:random") == [])
    #expect(try order() == ["Random Access"])
  }
}
