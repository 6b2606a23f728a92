import AlbumModel
import BlueLibrary
import BluePlayback
import BlueSystem
import Foundation
import MusicFolder
import PlaybackTestSupport

@testable import BlueShell

/// The playback verbs in process, against the scripted engine (no libmpv): a shell over
/// "Alpha" (two tracks, by X) and "Beta" (one, by Y), imported from a music folder beside
/// `albums`, whose player plays on ``engine``. The player's events go to a message queue of
/// the fixture's own, as the session's go to its own, and ``statusLines()`` takes them as
/// the terminal's owner does (recording the plays).
final class PlaybackFixture {
  let directory: TemporaryDirectory
  let folder: MusicFolderFixture
  let shell: InProcessShell
  let engine = ScriptedAudioEngine()
  let messages: MessageQueue
  let delivery: MessageDelivery
  private let pipe = WakeUpPipe()

  init(besides albums: [Album] = [], processEnvironment: [String: String] = [:]) throws {
    directory = try TemporaryDirectory()
    folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    for number in 1...2 {
      try folder.track(
        "X/Alpha/0\(number).mp3", TagEdit(album: "Alpha", artist: "X", title: "A\(number)", trackNumber: "\(number)"))
    }
    try folder.track("Y/Beta/01.mp3", TagEdit(album: "Beta", artist: "Y", title: "B1", trackNumber: "1"))
    let engine = engine
    let player = Player { () throws(PlaybackError) -> any AudioEngine in engine }
    let messages = MessageQueue(pipe: pipe)
    player.observe { event in messages.post(event) }
    self.messages = messages
    shell = try InProcessShell(albums: albums, processEnvironment: processEnvironment, player: player)
    try shell.library.importFolder(folder.root, named: "M")
    delivery = MessageDelivery(messages: messages, library: shell.library)
  }

  deinit {
    pipe.close()
  }

  /// The player.
  var player: Player { shell.player! }

  /// The status lines the player's events made since the last call.
  func statusLines() -> [String] { delivery.take() }

  /// What the engine was last told to load.
  func loaded() -> String? { engine.calls.last { $0.hasPrefix("load") } }

  /// The path of a track of the folder.
  func path(_ relative: String) -> String { folder.path(relative) }

  /// Whether the owner was woken: the queue's pipe is readable (then emptied).
  func woken() -> Bool {
    var wake = pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)
    let readable = poll(&wake, 1, 0) == 1
    pipe.drain()
    return readable
  }
}
