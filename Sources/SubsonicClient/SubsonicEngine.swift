import BluePlayback
import Dispatch
import FoundationEssentials
import MusicSource
import Synchronization

/// An ``AudioEngine`` that plays a Subsonic server's tracks through another engine (libmpv's,
/// made to play the server's origin only): each track's `stream` URL is built here, for the
/// configured server alone, and what plays is told to the server as Subsonic clients tell it
/// — "now playing" (`scrobble submission=false`) when a track starts, a play
/// (`scrobble submission=true`) when it counts as played (it ended, or was left past half,
/// as the library counts an album played).
///
/// The stream URLs carry the credentials (a token, or `p=enc:`): they go to the engine only,
/// and no error or line says them (an engine's error naming one is reworded).
package final class SubsonicEngine: AudioEngine, Sendable {
  private let server: SubsonicServer
  private let inner: any AudioEngine
  private let state = Mutex(State())
  /// Where the scrobbles go, one at a time, off the engine's thread.
  private let scrobbles = DispatchQueue(label: "bluelib.subsonic.scrobble")

  private struct State {
    /// The song ids of the playlist, in its order.
    var songs: [String] = []
    /// The entry that plays, and whether it was told as played.
    var playing: Int?
    var counted = false
  }

  /// The player of `server`'s tracks, through `engine` (which must take the server's
  /// ``SubsonicAddress/origin``).
  package init(server: SubsonicServer, engine: any AudioEngine) {
    self.server = server
    self.inner = engine
  }

  /// The stream URL of the track filed at `path` (`subsonic://…/ALBUM/SONG.SUFFIX`): its
  /// file as it is (`format=raw`: no transcoding), from the configured server.
  func streamURL(of path: String) throws(PlaybackError) -> (url: String, song: String) {
    let prefix = server.root + "/"
    guard path.hasPrefix(prefix), let ids = SubsonicServer.ids(ofPath: String(path.dropFirst(prefix.count))),
      let song = ids.song
    else {
      let name = path.split(separator: "/").last.map(String.init) ?? path
      throw PlaybackError("'\(name)' is not a track of \(server.name), which plays only its own")
    }
    return (server.url("stream", [("id", song), ("format", "raw")]), song)
  }

  private func streams(_ paths: [String]) throws(PlaybackError) -> (urls: [String], songs: [String]) {
    var urls: [String] = []
    var songs: [String] = []
    for path in paths {
      let (url, song) = try streamURL(of: path)
      urls.append(url)
      songs.append(song)
    }
    return (urls, songs)
  }

  /// `error` without the URLs it may name (they carry the credentials).
  private func reworded(_ error: PlaybackError) -> PlaybackError {
    guard error.description.contains(server.address.origin) else { return error }
    return PlaybackError("mpv could not play a stream of \(server.name)")
  }

  package func load(_ paths: [String], from index: Int) throws(PlaybackError) {
    let (urls, songs) = try streams(paths)
    tellPlayedIfPastHalf()
    state.withLock { state in
      state.songs = songs
      state.playing = nil
    }
    do throws(PlaybackError) {
      try inner.load(urls, from: index)
    } catch {
      throw reworded(error)
    }
  }

  package func append(_ paths: [String], start: Bool) throws(PlaybackError) {
    let (urls, songs) = try streams(paths)
    state.withLock { $0.songs += songs }
    do throws(PlaybackError) {
      try inner.append(urls, start: start)
    } catch {
      throw reworded(error)
    }
  }

  package func setPaused(_ paused: Bool) { inner.setPaused(paused) }

  package func skip(by offset: Int) -> Bool {
    tellPlayedIfPastHalf()
    return inner.skip(by: offset)
  }

  package func stop() {
    tellPlayedIfPastHalf()
    inner.stop()
  }

  /// The queue is this process's, played by libmpv: it changes there, and the song ids with it.
  package func rearrange(_ order: [Int]) throws(PlaybackError) {
    if order.isEmpty { tellPlayedIfPastHalf() }
    try inner.rearrange(order)
    state.withLock { state in
      let playing = state.playing
      state.songs = order.compactMap { state.songs.indices.contains($0) ? state.songs[$0] : nil }
      state.playing = playing.flatMap { order.firstIndex(of: $0) }
    }
  }

  package func seek(_ seconds: Double, relative: Bool) { inner.seek(seconds, relative: relative) }
  package func setVolume(_ percent: Int) { inner.setVolume(percent) }
  package func status() -> EngineStatus? { inner.status() }
  package func volume() -> Int { inner.volume() }
  package func setRepeat(_ on: Bool) { inner.setRepeat(on) }
  package func setReplayGain(_ mode: ReplayGainMode, fallback: Double) {
    inner.setReplayGain(mode, fallback: fallback)
  }
  package func appliedGain() -> AppliedGain? { inner.appliedGain() }
  // The server's streams play here, through libmpv: the device and equalizer are this
  // machine's.
  package func audioDevices() -> [AudioDevice] { inner.audioDevices() }
  package func setAudio(_ settings: AudioSettings) throws(PlaybackError) { try inner.setAudio(settings) }

  /// A stream is checked by the server as it plays.
  package func problem(playing path: String) -> TrackProblem? { nil }

  package func checkReachable() throws(PlaybackError) {
    do throws(SourceError) {
      try server.check()
    } catch  where !error.refused {
      throw PlaybackError(error.description)
    } catch {
      // It answered (with a refusal): it is there.
    }
  }

  package func observe(_ handler: @escaping @Sendable (EngineEvent) -> Void) {
    inner.observe { [weak self] event in
      if let self {
        switch event {
        case .started(let index):
          self.started(index)
        case .finished(let index):
          self.finished(index)
        case .endOfPlaylist:
          // The last track's play is told before the end is (a script ends with it).
          self.scrobbles.sync {}
        case .failed(let index, let reason) where reason.contains(self.server.address.origin):
          handler(.failed(index: index, reason: "the stream failed"))
          return
        default:
          break
        }
      }
      handler(event)
    }
  }

  // MARK: - Scrobbles

  private func started(_ index: Int) {
    let song = state.withLock { state -> String? in
      state.playing = index
      state.counted = false
      return state.songs.indices.contains(index) ? state.songs[index] : nil
    }
    if let song { scrobble(song, submission: false) }
  }

  private func finished(_ index: Int) {
    let song = state.withLock { state -> String? in
      guard state.playing == index, !state.counted, state.songs.indices.contains(index) else { return nil }
      state.counted = true
      return state.songs[index]
    }
    if let song { scrobble(song, submission: true) }
  }

  /// Tells the server the track that plays was played when it is past half of it (before
  /// a skip, a stop, another queue).
  private func tellPlayedIfPastHalf() {
    guard let status = inner.status(), let duration = status.duration, duration > 0, status.time >= duration / 2
    else { return }
    finished(status.index)
  }

  /// `scrobble` of `song` (`submission=true`: played; false: now playing), in the background;
  /// a failure said once.
  private func scrobble(_ song: String, submission: Bool) {
    let time = String(Int64(Date().timeIntervalSince1970 * 1000))
    scrobbles.async { [server] in
      do throws(SubsonicError) {
        _ = try server.call(
          "scrobble", [("id", song), ("time", time), ("submission", submission ? "true" : "false")])
      } catch {
        server.notifyOnce("scrobble: \(error.description)")
      }
    }
  }
}
