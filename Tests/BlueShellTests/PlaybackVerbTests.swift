import AlbumModel
import BlueLibrary
import BluePlayback
import Foundation
import MusicFolder
import TestSupport
import Testing

@testable import BlueShell

/// The playback verbs in process, against the scripted engine (no libmpv): which album
/// `play` plays, and a queue whose files moved (issue 38, item 1).
@Suite struct PlaybackVerbTests {
  let directory: TemporaryDirectory
  let folder: MusicFolderFixture
  let shell: InProcessShell
  let engine = ScriptedAudioEngine()

  /// "Alpha" (two tracks) and "Beta" (one), imported from a music folder.
  init() throws {
    (directory, folder, shell) = try Self.alphaAndBeta(besides: [], playingWith: engine)
  }

  /// "Alpha" (two tracks, by X) and "Beta" (one, by Y) imported from a music folder into a
  /// shell holding `albums`, whose player plays on `engine`.
  static func alphaAndBeta(
    besides albums: [Album], playingWith engine: ScriptedAudioEngine
  ) throws -> (TemporaryDirectory, MusicFolderFixture, InProcessShell) {
    let directory = try TemporaryDirectory()
    let folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    for number in 1...2 {
      try folder.track(
        "X/Alpha/0\(number).mp3", TagEdit(album: "Alpha", artist: "X", title: "A\(number)", trackNumber: "\(number)"))
    }
    try folder.track("Y/Beta/01.mp3", TagEdit(album: "Beta", artist: "Y", title: "B1", trackNumber: "1"))
    let shell = try InProcessShell(albums: albums)
    try shell.library.importFolder(folder.root, named: "M")
    shell.interpreter.environment.player = Player { () throws(PlaybackError) -> any AudioEngine in engine }
    return (directory, folder, shell)
  }

  func played() -> String? { engine.calls.last { $0.hasPrefix("load") } }

  @Test func playAloneResumesTheQueueOnlyWhileItsAlbumIsCurrent() throws {
    #expect(shell.run("tap Alpha; play") == [])
    #expect(played() == "load 0 of [\(folder.root)/X/Alpha/01.mp3, \(folder.root)/X/Alpha/02.mp3]")
    #expect(shell.run("stop; play") == [])
    #expect(shell.lines().last == "playing the queue (2 tracks)")
    // Another album picked since the queue was made: `play` plays it (the issue: the
    // previous queue played again).
    #expect(shell.run("stop; tap Beta; play") == [])
    #expect(shell.lines().last == "playing \"Beta\" (1 track)")
    #expect(played() == "load 0 of [\(folder.root)/Y/Beta/01.mp3]")
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
    try FileManager.default.moveItem(atPath: folder.path("X"), toPath: folder.path("Moved"))
    try shell.library.importFolder(folder.root, named: "M")
    _ = shell.output()
    #expect(shell.run("play") == [])
    #expect(shell.lines().last == "playing the queue (2 tracks)")
    #expect(played() == "load 0 of [\(folder.root)/Moved/Alpha/01.mp3, \(folder.root)/Moved/Alpha/02.mp3]")
  }
}
