import BluePlayback
import BlueSystem
import MusicSource
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An ``AudioEngine`` that is an MPD server's player: its queue and outputs play, on the
/// server, the songs of the albums the library holds from it (track paths under the
/// server's ``MPDServer/root``).
///
/// What happens to the player reaches the observer from the server's `idle player mixer
/// playlist`, whoever made it happen: a track another client (mpc, another bluelib) skips
/// to is told as one this engine started. While the queue is the one this engine loaded
/// (MPD's queue version says so), entries are told by their index; once another client
/// changed it, by what MPD says of the song (``EngineEvent/startedOther(_:index:count:)``).
///
/// Leaving the shell leaves the server playing, as leaving mpc does.
package final class MPDEngine: AudioEngine, Sendable {
  private let server: MPDServer
  private let state = Mutex(State())
  /// Serializes this engine's changes of the queue with the listener's reading of them, so
  /// the listener sees the queue version a change of ours made as ours.
  private let changing = Mutex(())

  private struct State {
    var handler: (@Sendable (EngineEvent) -> Void)?
    /// The queue version (`status`'s `playlist`) right after this engine last changed it;
    /// nil until it does. Another version: another client changed the queue.
    var ownVersion: Int?
    /// What the player did when last looked at.
    var last = PlayerState()
    /// Set when this engine moved the player itself (a skip, a stop): the change that
    /// follows is not a track played to its end.
    var movedByUs = false
  }

  /// The parts of `status` the engine follows, each within its bounds whatever the server
  /// said: the song within the queue (nil otherwise), the times finite, from 0 to the
  /// song's length (at most a year), the volume 0–100.
  struct PlayerState: Equatable {
    var state = "stop"
    var song: Int?
    var songID: Int?
    var version = 0
    var length = 0
    var elapsed = 0.0
    var duration: Double?
    var volume: Int?
    /// MPD's `repeat`: the queue plays again from its first song after its last.
    var repeats = false

    init() {}

    /// The longest queue believed: MPD's own holds at most `max_playlist_length` songs
    /// (16,384 by default).
    static let longestQueue = 1 << 24

    init(_ pairs: [(name: String, value: String)]) {
      // `time: ELAPSED:LENGTH`, whole seconds: the length where no `duration` is given
      // (Mopidy); 0 is none (a stream).
      var songLength: Double?
      for (name, value) in pairs {
        switch name {
        case "state": state = value
        case "song": song = Int(value)
        case "repeat": repeats = value == "1"
        case "songid": songID = Int(value)
        case "playlist": version = Int(value) ?? 0
        case "playlistlength": length = min(max(Int(value) ?? 0, 0), Self.longestQueue)
        case "elapsed": elapsed = Self.seconds(value) ?? 0
        case "duration": duration = Self.seconds(value)
        case "time":
          songLength = value.split(separator: ":").dropFirst().first.flatMap { Self.seconds(String($0)) }
            .flatMap { $0 > 0 ? $0 : nil }
        case "volume": volume = Int(value).map { min(max($0, 0), 100) }
        default: break
        }
      }
      duration = duration ?? songLength
      if let song, !(0..<length).contains(song) { self.song = nil }
      elapsed = min(elapsed, duration ?? MPDServer.longestSong)
    }

    /// A time in seconds, from 0 to a year; nil when it is not a finite number.
    static func seconds(_ text: String) -> Double? {
      guard let seconds = Double(text), seconds.isFinite else { return nil }
      return min(max(seconds, 0), MPDServer.longestSong)
    }

    var isPlaying: Bool { state == "play" || state == "pause" }
  }

  /// The player of `server`; starts listening to it.
  package init(server: MPDServer) throws(PlaybackError) {
    self.server = server
    do throws(MPDError) {
      let now = PlayerState(try server.run("status"))
      state.withLock { $0.last = now }
    } catch {
      throw PlaybackError(error.description)
    }
    server.observePlayer { [weak self] changed in self?.playerChanged(changed) }
  }

  package func observe(_ handler: @escaping @Sendable (EngineEvent) -> Void) {
    state.withLock { $0.handler = handler }
  }

  // MARK: - Commands

  package func load(_ paths: [String], from index: Int) throws(PlaybackError) {
    let uris = try songs(paths)
    try change(
      [MPDCommand("clear")] + uris.map { MPDCommand("add", $0) } + [MPDCommand("play", String(index))])
  }

  package func append(_ paths: [String], start: Bool) throws(PlaybackError) {
    let uris = try songs(paths)
    let before = state.withLock { $0.last }
    var commands = uris.map { MPDCommand("add", $0) }
    if start && !before.isPlaying { commands.append(MPDCommand("play", String(before.length))) }
    try change(commands)
  }

  /// MPD's `delete` and `move`, as one command list; `clear` for none left. Refused once
  /// another client changed the queue: the indices here are no longer the server's.
  package func rearrange(_ order: [Int]) throws(PlaybackError) {
    let now: PlayerState
    do throws(MPDError) { now = PlayerState(try server.run("status")) } catch { throw PlaybackError(error.description) }
    guard state.withLock({ $0.ownVersion == now.version }) else {
      throw PlaybackError(
        "the queue on \(server.name) is not the one bluelib made (another client changed it); "
          + "'play ALBUM' makes one of bluelib's again")
    }
    guard !order.isEmpty else {
      try change([MPDCommand("clear")])
      return
    }
    let (removals, moves) = PlaylistChanges.of(order, count: now.length)
    let commands =
      removals.map { MPDCommand("delete", String($0)) }
      + moves.map { MPDCommand("move", String($0.from), String($0.to)) }
    if !commands.isEmpty { try change(commands) }
  }

  package func setPaused(_ paused: Bool) {
    background("pause") { server throws(MPDError) in try server.run("pause", paused ? "1" : "0") }
  }

  package func skip(by offset: Int) -> Bool {
    // The song is within the queue (``PlayerState``): no sum here can overflow.
    guard let now = try? PlayerState(server.run("status")), now.isPlaying, let song = now.song,
      case (var target, let overflow) = song.addingReportingOverflow(offset), !overflow
    else { return false }
    // A repeating queue has no end: past either end it wraps (played by position).
    let wraps = !(0..<now.length).contains(target) && now.repeats && now.length > 0
    if wraps { target = (target % now.length + now.length) % now.length }
    guard (0..<now.length).contains(target) else { return false }
    state.withLock { $0.movedByUs = true }
    return background("next") { server throws(MPDError) in
      try server.withConnection { connection throws(MPDError) in
        if wraps {
          try connection.run(MPDCommand("play", String(target)))
        } else if offset == 1 {
          try connection.run(MPDCommand("next"))
        } else if offset == -1 {
          try connection.run(MPDCommand("previous"))
        } else {
          try connection.run(MPDCommand("play", String(target)))
        }
        _ = try Self.settled(after: now, connection)
      }
    }
  }

  package func stop() {
    state.withLock { $0.movedByUs = true }
    background("stop") { server throws(MPDError) in try server.run("stop") }
  }

  package func seek(_ seconds: Double, relative: Bool) {
    let target = relative ? (seconds < 0 ? String(seconds) : "+" + String(seconds)) : String(max(seconds, 0))
    background("seek") { server throws(MPDError) in try server.run("seekcur", target) }
  }

  /// MPD's `repeat`: the queue plays again from its first song after its last.
  package func setRepeat(_ on: Bool) {
    background("repeat") { server throws(MPDError) in try server.run("repeat", on ? "1" : "0") }
  }

  /// MPD's `replay_gain_mode`. The gain for files without tags is the server's own
  /// (`replaygain_missing_preamp` in its configuration): `fallback` does not reach it. A
  /// server without it (Mopidy answers `Not implemented`) is said to have none, once: it is
  /// not asked again.
  package func setReplayGain(_ mode: ReplayGainMode, fallback: Double) {
    guard server.knownFeatures?.has("replay_gain_mode") != false else { return }
    do throws(MPDError) {
      try server.run("replay_gain_mode", mode.rawValue)
    } catch  where error.absentCommand != nil {
      server.notify("\(server.name) has no ReplayGain ('replay_gain_mode' refused): it plays the files as they are")
    } catch {
      server.notify("replaygain: \(error.description)")
    }
  }

  /// The server's `replay_gain_mode` (`replay_gain_status`), nil when off: MPD applies the
  /// gain itself and does not say how much.
  package func appliedGain() -> AppliedGain? {
    guard let mode = try? server.run("replay_gain_status").first(where: { $0.name == "replay_gain_mode" })?.value,
      !mode.isEmpty, mode != "off"
    else { return nil }
    return AppliedGain(serverMode: TextSanitizer.escaped(String(mode.prefix(20))))
  }

  package func setVolume(_ percent: Int) {
    background("volume") { server throws(MPDError) in try server.run("setvol", String(min(max(percent, 0), 100))) }
  }

  package func status() -> EngineStatus? {
    guard let now = try? PlayerState(server.run("status")), now.isPlaying, let song = now.song else { return nil }
    var status = EngineStatus(index: song, time: now.elapsed, duration: now.duration, paused: now.state == "pause")
    // Another client's queue (or one of an earlier run): what MPD says of the song.
    if state.withLock({ $0.ownVersion != now.version }) {
      guard let track = currentTrack() else { return nil }
      status.other = (track, now.length)
    }
    return status
  }

  package func checkReachable() throws(PlaybackError) {
    do throws(MPDError) {
      try server.run("ping")
    } catch  where error.meansServerGone {
      throw PlaybackError(error.description)
    } catch {
      // It answered (with a refusal): it is there.
    }
  }

  package func volume() -> Int {
    (try? PlayerState(server.run("status")).volume).flatMap { $0 } ?? 100
  }

  /// The URIs on the server of `paths` (the library's track paths under the server's root).
  private func songs(_ paths: [String]) throws(PlaybackError) -> [String] {
    let prefix = server.root + "/"
    var uris: [String] = []
    for path in paths {
      guard path.hasPrefix(prefix) else {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        throw PlaybackError("'\(name)' is not a song of \(server.name), which plays only its own")
      }
      uris.append(MPDServer.uri(ofPlace: String(path.dropFirst(prefix.count))))
    }
    return uris
  }

  /// Runs `commands` as one command list, then reads the status: its queue version is this
  /// engine's from now on. When the list starts playing, the status is read until it
  /// plays (``settled(after:_:)``).
  private func change(_ commands: [MPDCommand]) throws(PlaybackError) {
    let before = state.withLock { $0.last }
    let starts = commands.contains { $0.verb == "play" }
    do throws(MPDError) {
      try changing.withLock { _ throws(MPDError) in
        let after = try server.withConnection { connection throws(MPDError) in
          try connection.runList(commands)
          return starts
            ? try Self.settled(after: before, connection) : PlayerState(try connection.run(MPDCommand("status")))
        }
        state.withLock { state in
          state.ownVersion = after.version
          state.movedByUs = true
        }
      }
    } catch {
      throw PlaybackError(error.description)
    }
  }

  /// The longest a change of the song waits to be seen in `status`.
  static let settling = Duration.seconds(2)

  /// The status once a `play`, `next` or `previous` sent on `connection` shows in it: MPD's
  /// at once; Mopidy's a little later (it starts playing on a thread of its own: for 0.1 to
  /// 0.3 s its status still says `stop`, or the song before), so `now` right after `play`
  /// would say nothing plays, and the end of the song before would look like the end of
  /// the queue. Read again every 20 ms while it plays nothing or the song of `before`, up
  /// to ``settling`` (a song the server cannot play stays stopped) or a signal.
  private static func settled(after before: PlayerState, _ connection: MPDConnection) throws(MPDError) -> PlayerState {
    let deadline = ContinuousClock.now + settling
    while true {
      let now = PlayerState(try connection.run(MPDCommand("status")))
      let moved = now.isPlaying && (!before.isPlaying || now.songID != before.songID || now.version != before.version)
      let stop = connection.cancellation
      if moved || ContinuousClock.now >= deadline || stop.stopsWaitOnThisThread() { return now }
      // 20 ms before the next look, less when a signal asks to stop (on the terminal's thread).
      if stop.sleep(for: .milliseconds(20)) { return now }
    }
  }

  /// Runs a request whose failure the ``AudioEngine`` call cannot return: the shell shows it
  /// as a line (`pause: MPD at …: cannot connect: connection refused`). True when it worked.
  @discardableResult
  private func background(_ what: String, _ body: (MPDServer) throws(MPDError) -> Void) -> Bool {
    do throws(MPDError) {
      try body(server)
      return true
    } catch {
      server.notify("\(what): \(error.description)")
      return false
    }
  }

  // MARK: - Events

  /// The listener saw the player, the mixer or the queue change: tells the observer what
  /// started or ended.
  private func playerChanged(_ subsystems: Set<String>) {
    guard subsystems.contains("player") || subsystems.contains("playlist") else { return }
    changing.withLock { _ in
      guard let now = try? PlayerState(server.run("status")) else { return }
      let (before, ours, movedByUs, handler) = state.withLock { state in
        defer {
          state.last = now
          state.movedByUs = false
        }
        return (state.last, state.ownVersion == now.version, state.movedByUs, state.handler)
      }
      guard let handler else { return }
      let songChanged = now.songID != before.songID || (now.isPlaying && !before.isPlaying)
      if before.isPlaying, let previous = before.song, !movedByUs, songChanged || !now.isPlaying {
        // The track before played to its end (nobody skipped or stopped it).
        if before.version == now.version { handler(.finished(index: previous)) }
      }
      if now.isPlaying, songChanged, let song = now.song {
        if ours {
          handler(.started(index: song))
        } else if let track = currentTrack() {
          handler(.startedOther(track, index: song, count: now.length))
        }
      } else if !now.isPlaying, before.isPlaying, !movedByUs, let previous = before.song,
        previous == before.length - 1
      {
        // Stopped after the last entry: the queue played to its end.
        handler(.endOfPlaylist)
      }
    }
  }

  /// What MPD says of the song that plays.
  private func currentTrack() -> EngineTrack? {
    guard let pairs = try? server.run("currentsong") else { return nil }
    func value(_ name: String) -> String? { pairs.first { $0.name == name }?.value }
    guard let file = value("file") else { return nil }
    // At most nine digits: a number any arithmetic can take.
    let number = value("Track").flatMap { Int($0.prefix { $0.isASCII && $0.isNumber }.prefix(9)) }
    let disc = value("Disc").flatMap { Int($0.prefix { $0.isASCII && $0.isNumber }.prefix(9)) }
    return EngineTrack(
      path: server.root + "/" + MPDServer.place(ofURI: file),
      title: value("Title") ?? String(file.split(separator: "/").last ?? Substring(file)),
      artist: value("AlbumArtist") ?? value("Artist") ?? "", album: value("Album") ?? "", number: number,
      disc: disc, duration: (value("duration") ?? value("Time")).flatMap(PlayerState.seconds) ?? 0)
  }
}
