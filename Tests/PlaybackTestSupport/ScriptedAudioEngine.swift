import BluePlayback
import Synchronization

/// An ``AudioEngine`` that plays nothing and tells what it was asked, for tests of the
/// playback verbs in process: a playlist of paths, the entry that "plays", paused or not,
/// a volume. A test moves time on with ``finishCurrent()`` (the entry ends and the next
/// starts, or the playlist ends) and reads ``calls``.
///
/// Events go to the observer on the calling thread, in order, as an engine's own thread would
/// hand them: ``Player`` only queues them.
package final class ScriptedAudioEngine: AudioEngine {
  private struct State {
    var playlist: [String] = []
    var index: Int?
    var paused = false
    var volume = 100
    var time = 0.0
    /// Entries of another length than three minutes.
    var durations: [String: Double] = [:]
    var calls: [String] = []
    var handler: (@Sendable (EngineEvent) -> Void)?
    var refused: [String: TrackProblem] = [:]
    var repeats = false
    var gain: (mode: ReplayGainMode, fallback: Double) = (.off, 0)
    /// The ReplayGain tags of a path (album, track), as ``tag(_:album:track:)`` gave them.
    var tags: [String: (album: Double?, track: Double?)] = [:]
  }

  private let state = Mutex(State())

  /// An engine with an empty playlist.
  package init() {}

  /// Every call made to it, in order: `load 2 of [a, b, c]`, `append [d] start`, `pause`,
  /// `resume`, `skip 1`, `stop`, `seek 30.0`, `volume 50`.
  package var calls: [String] { state.withLock { $0.calls } }

  /// The paths it holds, in order.
  package var playlist: [String] { state.withLock { $0.playlist } }

  /// Makes ``problem(playing:)`` refuse `path` with `problem`.
  package func refuse(_ path: String, _ problem: TrackProblem) {
    state.withLock { $0.refused[path] = problem }
  }

  /// Gives `path` ReplayGain tags, as a file's would be read.
  package func tag(_ path: String, album: Double?, track: Double?) {
    state.withLock { $0.tags[path] = (album, track) }
  }

  /// Makes `path` `seconds` long (every entry is three minutes long until told).
  package func setDuration(_ seconds: Double, of path: String) {
    state.withLock { $0.durations[path] = seconds }
  }

  /// The playing entry plays `seconds` on.
  package func advance(by seconds: Double) {
    state.withLock { $0.time += seconds }
  }

  /// The playing entry ends: the next one starts, or the playlist ends (or, repeating, its
  /// first entry starts again).
  package func finishCurrent() {
    let (events, handler) = state.withLock { state -> ([EngineEvent], (@Sendable (EngineEvent) -> Void)?) in
      guard let index = state.index else { return ([], state.handler) }
      state.time = 0
      if index + 1 < state.playlist.count {
        state.index = index + 1
        return ([.finished(index: index), .started(index: index + 1)], state.handler)
      }
      if state.repeats {
        state.index = 0
        return ([.finished(index: index), .started(index: 0)], state.handler)
      }
      state.index = nil
      return ([.finished(index: index), .endOfPlaylist], state.handler)
    }
    for event in events { handler?(event) }
  }

  package func load(_ paths: [String], from index: Int) throws(PlaybackError) {
    let handler = state.withLock { state in
      state.calls.append("load \(index) of [\(paths.joined(separator: ", "))]")
      state.playlist = paths
      state.index = index
      state.paused = false
      state.time = 0
      return state.handler
    }
    handler?(.started(index: index))
  }

  package func append(_ paths: [String], start: Bool) throws(PlaybackError) {
    let started = state.withLock { state -> (Int, (@Sendable (EngineEvent) -> Void)?)? in
      state.calls.append("append [\(paths.joined(separator: ", "))]" + (start ? " start" : ""))
      state.playlist += paths
      guard start, state.index == nil, !paths.isEmpty else { return nil }
      state.index = state.playlist.count - paths.count
      return (state.index!, state.handler)
    }
    if let (index, handler) = started { handler?(.started(index: index)) }
  }

  package func setPaused(_ paused: Bool) {
    state.withLock {
      $0.calls.append(paused ? "pause" : "resume")
      $0.paused = paused
    }
  }

  package func skip(by offset: Int) -> Bool {
    let started = state.withLock { state -> (Int, (@Sendable (EngineEvent) -> Void)?)? in
      state.calls.append("skip \(offset)")
      guard let index = state.index else { return nil }
      var target = index + offset
      // A repeating playlist has no end, as in mpv and MPD: past either end it wraps.
      if state.repeats && !state.playlist.isEmpty {
        target = (target % state.playlist.count + state.playlist.count) % state.playlist.count
      }
      guard state.playlist.indices.contains(target) else { return nil }
      state.index = target
      state.time = 0
      return (target, state.handler)
    }
    guard let (index, handler) = started else { return false }
    handler?(.started(index: index))
    return true
  }

  package func stop() {
    state.withLock {
      $0.calls.append("stop")
      $0.index = nil
    }
  }

  /// Records `rearrange [2, 0, 1]`; as mpv, a removed playing entry gives way to the next.
  package func rearrange(_ order: [Int]) throws(PlaybackError) {
    let started = state.withLock { state -> (Int, (@Sendable (EngineEvent) -> Void)?)? in
      state.calls.append("rearrange [\(order.map(String.init).joined(separator: ", "))]")
      let playing = state.index
      state.playlist = order.map { state.playlist[$0] }
      guard let playing else { return nil }
      if let place = order.firstIndex(of: playing) {
        state.index = place
        return nil
      }
      // The next one after it that stays.
      let next = order.enumerated().first { $0.element > playing }?.offset
      state.index = next
      state.time = 0
      return next.map { ($0, state.handler) }
    }
    if let (index, handler) = started { handler?(.started(index: index)) }
  }

  package func seek(_ seconds: Double, relative: Bool) {
    state.withLock {
      $0.calls.append("seek \(relative ? "by " : "")\(seconds)")
      $0.time = relative ? max(0, $0.time + seconds) : seconds
    }
  }

  package func setVolume(_ percent: Int) {
    state.withLock {
      $0.calls.append("volume \(percent)")
      $0.volume = min(max(percent, 0), 100)
    }
  }

  package func status() -> EngineStatus? {
    state.withLock { state in
      state.index.map { index in
        let duration = state.playlist.indices.contains(index) ? state.durations[state.playlist[index]] : nil
        return EngineStatus(index: index, time: state.time, duration: duration ?? 180, paused: state.paused)
      }
    }
  }

  package func volume() -> Int { state.withLock { $0.volume } }

  package func observe(_ handler: @escaping @Sendable (EngineEvent) -> Void) {
    state.withLock { $0.handler = handler }
  }

  package func problem(playing path: String) -> TrackProblem? {
    state.withLock { $0.refused[path] }
  }

  /// Its own choice, and two devices of its own (as libmpv lists them).
  package func audioDevices() -> [AudioDevice] {
    [
      AudioDevice(name: AudioSettings.automatic, description: "Autoselect device"),
      AudioDevice(name: "alsa/front", description: "Front speakers"), AudioDevice(name: "pulse", description: "Pulse"),
    ]
  }

  /// Records `audio DEVICE exclusive|shared EQUALIZER|flat`; refuses a device it does not list.
  package func setAudio(_ settings: AudioSettings) throws(PlaybackError) {
    guard audioDevices().contains(where: { $0.name == settings.device }) else {
      throw PlaybackError("no audio device of that name")
    }
    let equalizer = settings.equalizer?.text ?? "flat"
    state.withLock {
      $0.calls.append("audio \(settings.device) \(settings.exclusive ? "exclusive" : "shared") \(equalizer)")
    }
  }

  package func setRepeat(_ on: Bool) {
    state.withLock {
      $0.calls.append("repeat \(on ? "on" : "off")")
      $0.repeats = on
    }
  }

  package func setReplayGain(_ mode: ReplayGainMode, fallback: Double) {
    state.withLock {
      $0.calls.append("replaygain \(mode.rawValue) \(fallback)")
      $0.gain = (mode, fallback)
    }
  }

  /// As mpv applies it (``AppliedGain/init(mode:albumGain:trackGain:fallback:)``).
  package func appliedGain() -> AppliedGain? {
    state.withLock { state in
      guard let index = state.index else { return nil }
      let tags = state.tags[state.playlist[index]]
      return AppliedGain(
        mode: state.gain.mode, albumGain: tags?.album, trackGain: tags?.track, fallback: state.gain.fallback)
    }
  }
}
