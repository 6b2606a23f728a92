import AlbumModel
import BlueLibrary
import BluePlayback
import Foundation
import MusicFolder
import Testing

@testable import BlueShell

/// `lyrics` alone names the track that plays, read from the player's state (issue 38, item 5).
@Suite struct LyricsDefaultTests {
  /// An engine that plays nothing, and says it plays the second entry of what it was given.
  final class StillEngine: AudioEngine, Sendable {
    private let loaded = LockedBox<Bool>(false)
    func load(_ paths: [String], from index: Int) throws(PlaybackError) { loaded.update { $0 = true } }
    func append(_ paths: [String], start: Bool) throws(PlaybackError) {}
    func setPaused(_ paused: Bool) {}
    func skip(by offset: Int) -> Bool { false }
    func stop() { loaded.update { $0 = false } }
    func seek(_ seconds: Double, relative: Bool) {}
    func setVolume(_ percent: Int) {}
    func status() -> EngineStatus? {
      loaded.value ? EngineStatus(index: 1, time: 3, duration: 60, paused: false) : nil
    }
    func volume() -> Int { 100 }
    func observe(_ handler: @escaping @Sendable (EngineEvent) -> Void) {}
  }

  @Test func lyricsAloneShowsThePlayingTrackElseTheCurrentAlbumsFirst() throws {
    let music = try MusicFolderFixture()
    for (number, title) in [(1, "One"), (2, "Two")] {
      let path = try music.track(
        "A/Album/\(number).mp3", TagEdit(album: "Album", artist: "A", title: title, trackNumber: "\(number)"))
      try Data("Words of \(title)\n".utf8).write(to: URL(fileURLWithPath: Lyrics.sidecarPath(of: path)))
    }
    let library = Library.inMemory(seed: [])
    _ = try library.importFolder(music.root, named: "M")
    let environment = CommandEnvironment(
      library: library, output: discardedOutput(),
      player: Player { () throws(PlaybackError) -> any AudioEngine in StillEngine() })

    func lyrics() throws -> [String] {
      guard case .lines(let lines) = try LyricsCommand(arguments: []).execute(in: environment) else { return [] }
      return Array(lines)
    }
    #expect(try lyrics().last == "Words of One")
    try environment.player?.play(try library.playableTracks(of: library.album(at: 0)), from: 1)
    #expect(try lyrics() == ["\"Two\" — A (lyrics from 2.lrc)", "", "Words of Two"])
    environment.player?.stop()
    #expect(try lyrics().last == "Words of One")
  }
}
