import BluePlayback
import BlueSystem
import CMPV
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An ``AudioEngine`` on libmpv: audio only (no video, no window, no terminal, no input
/// bindings, no scripts, none of the user's mpv configuration), a playlist of files.
///
/// mpv's events are read on a thread of this engine's own (`mpv_wait_event`), turned into
/// ``EngineEvent``s and handed to the observer there; nothing here writes to a terminal.
/// libmpv is loaded when the first engine is made (``MPVLibrary``, whose functions the
/// `mpv_…` calls here are).
package final class MPVEngine: AudioEngine, Sendable {
  private let handle: Handle
  /// The one `http(s)://host:port` whose URLs `loadfile` is given besides absolute paths
  /// (a music server's streams); nil: files only.
  private let streamOrigin: String?
  private let shared = Shared()
  private let finished = DispatchSemaphore(value: 0)

  /// What the engine and its event thread share.
  private final class Shared: Sendable {
    let handler = Mutex<(@Sendable (EngineEvent) -> Void)?>(nil)
    let tracking = Mutex(Tracking())
    /// The ReplayGain mode and fallback last set (mpv starts with none).
    let gain = Mutex((mode: ReplayGainMode.off, fallback: 0.0))
    /// Held while a file's gain is set (by the event thread in the hook, or by a change of
    /// mode while it plays).
    let settingGain = Mutex(())
    /// The equalizer's ffmpeg filters (``Equalizer/filters``), before any limiter; empty
    /// for none.
    let equalizer = Mutex<[String]>([])
  }

  /// The mpv handle: used from any thread, as libmpv's client API allows.
  private struct Handle: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// Which playlist entry plays, for the events that name it by id.
  private struct Tracking {
    var entry: Int64 = -1
    var index = -1
    /// Set by ``stop()``: the idle state that follows is not the end of the playlist.
    var stopping = false
    /// Whether an entry started since the playlist was loaded (the idle state at start-up
    /// is not the end of one).
    var playing = false
    /// The highest playlist entry id when the engine was last stopped or loaded: events of
    /// entries up to it come from before (mpv's ids only grow), and are not the new playing.
    var stale: Int64 = 0
    /// The gain given to the file being loaded or played (``gainHook``), nil before.
    var gain: AppliedGain?
  }

  /// Creates and starts an engine; `audioOutput` is mpv's `ao` (`null` plays silently,
  /// for tests and machines without sound), nil for mpv's choice. `options` are more of
  /// mpv's options, set after these (the benchmark's `ao-null-untimed`). Unless it is
  /// `null`, the audio output must open first (``checkAudioOutput(_:_:)``): an
  /// error says so once, and `isCancelled` (asked as it waits) stops the wait.
  ///
  /// `streamOrigin` (`https://music.example.org:443`, a music server's) lets URLs of exactly
  /// that origin be played besides files; no other URL, and no protocol but `http` and
  /// `https` (and what they ride on) inside one.
  package init(
    audioOutput: String? = nil, options extra: [(String, String)] = [], streamOrigin: String? = nil,
    isCancelled: () -> Bool = { false }
  ) throws(PlaybackError) {
    try MPVLibrary.load()
    self.streamOrigin = try streamOrigin.map { origin throws(PlaybackError) in
      let lowered = origin.lowercased()
      guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), !lowered.dropFirst(8).contains("/"),
        !origin.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
      else { throw PlaybackError("mpv plays streams of an http or https origin only, not '\(origin)'") }
      return lowered
    }
    let audioOutput = audioOutput == "null" ? audioOutput : try Self.checkAudioOutput(audioOutput, isCancelled)
    guard let pointer = mpv_create() else { throw PlaybackError("libmpv could not be started") }
    handle = Handle(pointer: pointer)
    let options: [(String, String)] =
      [
        ("config", "no"), ("video", "no"), ("vo", "null"), ("audio-display", "no"), ("terminal", "no"),
        ("input-default-bindings", "no"), ("input-vo-keyboard", "no"), ("osc", "no"), ("load-scripts", "no"),
        ("ytdl", "no"), ("idle", "yes"), ("keep-open", "no"), ("gapless-audio", "weak"),
        // A file opens that file and nothing else: no playlist (M3U, PLS, HLS…) in its place
        // is followed to its URLs, and no file beside it is loaded.
        ("access-references", "no"), ("autoload-files", "no"),
        // Inside a stream, FFmpeg opens no protocol but these (no `file:`, no `concat:`, no
        // playlist protocol), whatever the server answers, and follows no redirect: a stream
        // of the music server's origin stays there (a `302` to another host is an error).
        ("stream-lavf-o", "protocol_whitelist=[http,https,tcp,tls],max_redirects=0"),
      ] + (audioOutput.map { [("ao", $0)] } ?? []) + extra
    for (name, value) in options {
      let status = mpv_set_option_string(pointer, name, value)
      let reason = status < 0 ? String(cString: mpv_error_string(status)) : ""
      if status < 0 && name == "ao" {
        mpv_terminate_destroy(pointer)
        throw PlaybackError("mpv has no audio output '\(value)': \(reason)")
      } else if status < 0 && extra.contains(where: { $0.0 == name }) {
        mpv_terminate_destroy(pointer)
        throw PlaybackError("mpv refused the option \(name)=\(value): \(reason)")
      }
    }
    let status = mpv_initialize(pointer)
    guard status >= 0 else {
      mpv_terminate_destroy(pointer)
      throw PlaybackError("libmpv could not be started: \(String(cString: mpv_error_string(status)))")
    }
    // Each file's ReplayGain is decided before its audio starts (``applyGain``).
    mpv_hook_add(pointer, 0, Self.gainHook, 0)
    DetachedThread.start(name: "mpv events") { [handle, shared, finished] in
      Self.readEvents(handle, shared)
      finished.signal()
    }
  }

  deinit {
    command(["quit"])
    finished.wait()
    mpv_terminate_destroy(handle.pointer)
  }

  package func observe(_ handler: @escaping @Sendable (EngineEvent) -> Void) {
    shared.handler.withLock { $0 = handler }
  }

  package func load(_ paths: [String], from index: Int) throws(PlaybackError) {
    beginStopping()
    command(["stop"])
    try append(paths, start: false)
    setPaused(false)
    let status = command(["playlist-play-index", String(index)])
    guard status >= 0 else { throw PlaybackError("mpv could not play: \(String(cString: mpv_error_string(status)))") }
  }

  package func append(_ paths: [String], start: Bool) throws(PlaybackError) {
    let idle = flag("idle-active")
    for path in paths {
      try Self.check(path, streamOrigin: streamOrigin)
      let status = command(["loadfile", path, "append"])
      guard status >= 0 else {
        throw PlaybackError("mpv could not queue '\(path)': \(String(cString: mpv_error_string(status)))")
      }
    }
    if start && idle, let count = integer("playlist-count") {
      setPaused(false)
      command(["playlist-play-index", String(count - Int64(paths.count))])
    }
  }

  package func setPaused(_ paused: Bool) {
    var value: Int32 = paused ? 1 : 0
    mpv_set_property(handle.pointer, "pause", MPV_FORMAT_FLAG, &value)
  }

  package func skip(by offset: Int) -> Bool {
    guard let position = integer("playlist-pos"), position >= 0, let count = integer("playlist-count") else {
      return false
    }
    var target = position + Int64(offset)
    // A repeating playlist (`loop-playlist`, not `no`) has no end: past either end it wraps.
    if !(0..<count).contains(target) && count > 0 && (Self.string(handle, "loop-playlist") ?? "no") != "no" {
      target = (target % count + count) % count
    }
    guard target >= 0 && target < count else { return false }
    return command(["playlist-play-index", String(target)]) >= 0
  }

  package func stop() {
    beginStopping()
    command(["stop"])
  }

  package func rearrange(_ order: [Int]) throws(PlaybackError) {
    guard !order.isEmpty else {
      stop()
      return
    }
    let (removals, moves) = PlaylistChanges.of(order, count: Int(integer("playlist-count") ?? 0))
    for index in removals { command(["playlist-remove", String(index)]) }
    for (from, to) in moves { command(["playlist-move", String(from), String(to)]) }
    // The entry that plays is named by its index in the events: its index now.
    let position = Int(integer("playlist-pos") ?? -1)
    shared.tracking.withLock { if $0.index >= 0 && position >= 0 { $0.index = position } }
  }

  /// Marks what follows as a stop, not the end of the playlist, until an entry added after
  /// it starts: events of the entries there were (a start mpv sent just before the stop and
  /// the event thread reads after it) neither end the stop nor say a track started.
  private func beginStopping() {
    let last = lastEntryID()
    shared.tracking.withLock {
      $0.stopping = true
      $0.playing = false
      $0.index = -1
      $0.entry = -1
      $0.stale = max($0.stale, last)
    }
  }

  /// The id of the playlist's last entry (the highest: entries are only appended), 0 for none.
  private func lastEntryID() -> Int64 {
    guard let count = integer("playlist-count"), count > 0 else { return 0 }
    return integer("playlist/\(count - 1)/id") ?? 0
  }

  package func seek(_ seconds: Double, relative: Bool) {
    command(["seek", String(seconds), relative ? "relative" : "absolute"])
  }

  package func setVolume(_ percent: Int) {
    var value = Double(min(max(percent, 0), 100))
    mpv_set_property(handle.pointer, "volume", MPV_FORMAT_DOUBLE, &value)
  }

  package func volume() -> Int { Int((double("volume") ?? 100).rounded()) }

  package func status() -> EngineStatus? {
    guard !flag("idle-active"), let position = integer("playlist-pos"), position >= 0 else { return nil }
    return EngineStatus(
      index: Int(position), time: double("time-pos") ?? 0, duration: double("duration"), paused: flag("pause"))
  }

  package func problem(playing path: String) -> TrackProblem? {
    // A stream is checked by its server as it plays.
    if let streamOrigin, path.lowercased().hasPrefix(streamOrigin + "/") { return nil }
    return TrackProblem.ofLocalFile(at: path)
  }

  /// mpv's `loop-playlist`: `inf` plays the playlist again after its last entry.
  package func setRepeat(_ on: Bool) {
    command(["set", "loop-playlist", on ? "inf" : "no"])
  }

  /// mpv's `replaygain` (`album`, `track` or `no`) and `replaygain-fallback` (0 when off:
  /// mpv applies the fallback to untagged files even with `replaygain=no`), held as
  /// ``applyGain`` says: for the next files, and for the file that plays now.
  package func setReplayGain(_ mode: ReplayGainMode, fallback: Double) {
    shared.gain.withLock { $0 = (mode, mode == .off ? 0 : fallback) }
    command(["set", "replaygain-fallback", String(mode == .off ? 0 : fallback)])
    command(["set", "replaygain", mode == .off ? "no" : mode.rawValue])
    if !flag("idle-active") { _ = Self.applyGain(handle, shared) }
  }

  /// libmpv's `audio-device-list`: `auto` (its choice) first, then the devices of each
  /// audio output it was built with.
  package func audioDevices() -> [AudioDevice] {
    // The outputs asked for their devices write what they lack on standard error (PipeWire's
    // `can't load config client.conf`, line after line): not on the user's screen.
    let quiet = SilencedStandardError()
    defer { quiet.restore() }
    let count = integer("audio-device-list/count") ?? 0
    return (0..<max(count, 0)).compactMap { index in
      guard let name = Self.string(handle, "audio-device-list/\(index)/name") else { return nil }
      return AudioDevice(name: name, description: Self.string(handle, "audio-device-list/\(index)/description") ?? name)
    }
  }

  /// libmpv's `audio-device` and `audio-exclusive` (the output opens again on them), and
  /// the equalizer as ffmpeg filters ahead of any limiter (``applyGain``), for the file
  /// that plays now and the next ones.
  package func setAudio(_ settings: AudioSettings) throws(PlaybackError) {
    if settings.device != AudioSettings.automatic, !audioDevices().contains(where: { $0.name == settings.device }) {
      throw PlaybackError("mpv lists no audio device of that name")
    }
    for (name, value) in [("audio-device", settings.device), ("audio-exclusive", settings.exclusive ? "yes" : "no")]
    where Self.string(handle, name) != value {
      let status = mpv_set_property_string(handle.pointer, name, value)
      guard status >= 0 else {
        throw PlaybackError("mpv refused \(name)=\(value): \(String(cString: mpv_error_string(status)))")
      }
    }
    shared.equalizer.withLock { $0 = settings.equalizer?.filters ?? [] }
    if !flag("idle-active") { _ = Self.applyGain(handle, shared) }
  }

  /// The gain given to the file that plays (``applyGain``).
  package func appliedGain() -> AppliedGain? {
    let mode = shared.gain.withLock { $0.mode }
    guard mode != .off, status() != nil else { return nil }
    // Decided before the file's audio starts; until then (a few milliseconds after `play`),
    // what its tags ask.
    return shared.tracking.withLock { $0.gain } ?? Self.gain(of: handle, shared)
  }

  /// The hook in which each file's gain is set: after its tags are read, before its audio
  /// is decoded (mpv waits for ``applyGain`` to continue it).
  private static let gainHook = "on_preloaded"

  /// Sets the gain of the file mpv is about to play from its ReplayGain tags
  /// (``AppliedGain``: held by the tag's peak and by ``AppliedGain/ceiling``). A gain of 0 dB
  /// or less is mpv's own (it holds it by the peak too). A positive one is never mpv's:
  /// mpv trusts a peak tag, and a wrong one lets it raise a file past full scale; bluelib's
  /// held gain is applied instead by ffmpeg's `alimiter` (its input level), which also
  /// keeps the samples below full scale whatever the file's true peak (a lookahead limiter
  /// that leaves a signal under its limit as it is). Only this file's options change
  /// (`file-local-options`).
  @discardableResult
  private static func applyGain(_ handle: Handle, _ shared: Shared) -> AppliedGain? {
    shared.settingGain.withLock { _ in
      let (mode, fallback) = shared.gain.withLock { $0 }
      let gain = Self.gain(of: handle, shared)
      func set(_ name: String, _ value: String) {
        mpv_set_property_string(handle.pointer, "file-local-options/" + name, value)
      }
      // The equalizer first, then the limiter that a raised gain needs.
      var filters = shared.equalizer.withLock { $0 }
      if let gain, gain.fromTags, gain.decibels > 0 {
        set("replaygain", "no")
        set("replaygain-fallback", "0")
        let level = pow(10, gain.decibels / 20)
        filters.append("alimiter=level_in=\(level):limit=\(limiterCeiling):level=disabled:latency=enabled")
      } else {
        set("replaygain", mode == .off ? "no" : mode.rawValue)
        set("replaygain-fallback", String(fallback))
      }
      set("af", filters.isEmpty ? "" : "lavfi=[" + filters.joined(separator: ",") + "]")
      shared.tracking.withLock { $0.gain = gain }
      return gain
    }
  }

  /// The gain the current ReplayGain mode gives the file loaded (``AppliedGain``), nil when off.
  private static func gain(of handle: Handle, _ shared: Shared) -> AppliedGain? {
    let (mode, fallback) = shared.gain.withLock { $0 }
    // Before the file plays no track is selected (`current-tracks` comes later): its first
    // audio track, the one mpv selects in an audio file.
    let count = integer(handle, "track-list/count") ?? 0
    let audio = (0..<max(count, 0)).first { string(handle, "track-list/\($0)/type") == "audio" }
    func double(_ name: String) -> Double? {
      guard let audio else { return nil }
      var value = 0.0
      return mpv_get_property(handle.pointer, "track-list/\(audio)/" + name, MPV_FORMAT_DOUBLE, &value) >= 0
        ? value : nil
    }
    return AppliedGain(
      mode: mode, albumGain: double("replaygain-album-gain"), albumPeak: double("replaygain-album-peak"),
      trackGain: double("replaygain-track-gain"), trackPeak: double("replaygain-track-peak"), fallback: fallback)
  }

  /// What the limiter keeps the samples under: −0.5 dBFS, headroom for the conversion to
  /// the output's format.
  static let limiterCeiling = 0.944

  /// mpv opens any string it is given as a URL, a protocol or a playlist where it can:
  /// only absolute paths reach `loadfile`, whoever calls, and URLs of `streamOrigin` (a
  /// music server's streams) when there is one: `ORIGIN/…`, no blank or control character.
  static func check(_ path: String, streamOrigin: String?) throws(PlaybackError) {
    if path.hasPrefix("/"), !path.utf8.contains(0) { return }
    if let streamOrigin, path.lowercased().hasPrefix(streamOrigin + "/"),
      !path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
    {
      return
    }
    let shown = path.count > 80 ? String(path.prefix(80)) + "…" : path
    throw PlaybackError(
      streamOrigin == nil
        ? "mpv is given only absolute paths of files, not '\(shown)'"
        : "mpv is given only absolute paths of files and streams of \(streamOrigin!), not '\(shown)'")
  }

  // MARK: - The audio output

  /// Opens mpv's audio output `name` (nil: mpv's choice) once, before the engine's own core
  /// exists, and returns the one that opened, for that core to try no other: a tenth of a
  /// second of silence plays in a core of its own, with standard error sent nowhere
  /// meanwhile. Without it, on a machine with no sound device, every track said it started,
  /// then failed, and ALSA and PipeWire wrote a dozen lines each time over the terminal.
  private static func checkAudioOutput(_ name: String?, _ isCancelled: () -> Bool) throws(PlaybackError) -> String {
    guard let core = mpv_create() else { throw PlaybackError("libmpv could not be started") }
    let quiet = SilencedStandardError()
    var waiting = false
    defer {
      if waiting {
        // Still opening the output (a sound server that does not answer): destroying the
        // core would wait for it.
        DetachedThread.start { [probe = Handle(pointer: core)] in mpv_terminate_destroy(probe.pointer) }
      } else {
        // Stopped first: destroyed while it plays, the core waited for the silence to end.
        command(Handle(pointer: core), ["stop"])
        mpv_terminate_destroy(core)
      }
      quiet.restore()
    }
    // `keep-open`: at its end the silence stays loaded, paused, and the output open, so the
    // output's name is told whenever mpv gets to it. Without it an output that writes as
    // fast as it can (`pcm`, into a file) could finish the silence and close before the
    // name was told: the end came first and a working output was called none (a test of
    // ReplayGain failed so on a loaded machine).
    let settings = [
      ("config", "no"), ("video", "no"), ("terminal", "no"), ("audio-display", "no"), ("load-scripts", "no"),
      ("ytdl", "no"), ("idle", "yes"), ("input-default-bindings", "no"), ("keep-open", "yes"),
    ]
    for (option, value) in settings + (name.map { [("ao", $0)] } ?? []) {
      let status = mpv_set_option_string(core, option, value)
      if status < 0 && option == "ao" {
        throw PlaybackError("mpv has no audio output '\(value)': \(String(cString: mpv_error_string(status)))")
      }
    }
    let started = mpv_initialize(core)
    guard started >= 0 else {
      throw PlaybackError("libmpv could not be started: \(String(cString: mpv_error_string(started)))")
    }
    func failure(_ reason: String) -> PlaybackError {
      PlaybackError(
        name.map { "no audio output '\($0)' (mpv: \(reason)); set BLUELIB_AUDIO_OUTPUT to another" }
          ?? "no audio output (mpv: \(reason)); set BLUELIB_AUDIO_OUTPUT")
    }
    // The output's name comes as an event: a property read waits for the core, which
    // waits for the output to open — forever for one that never does (a FIFO nobody
    // reads), and then neither the deadline nor a signal could end the wait.
    mpv_observe_property(core, 0, "current-ao", MPV_FORMAT_STRING)
    command(Handle(pointer: core), ["loadfile", silence])
    waiting = true
    let deadline = ContinuousClock.now + .seconds(5)
    while ContinuousClock.now < deadline {
      if isCancelled() { throw PlaybackError("stopped while the audio output opened") }
      guard let event = mpv_wait_event(core, 0.02)?.pointee else { continue }
      switch event.event_id {
      case MPV_EVENT_PROPERTY_CHANGE:
        guard let change = event.data?.assumingMemoryBound(to: mpv_event_property.self).pointee,
          change.format == MPV_FORMAT_STRING,
          let opened = change.data?.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee
        else { continue }
        let output = String(cString: opened)
        guard !output.isEmpty else { continue }
        waiting = false
        return output
      case MPV_EVENT_END_FILE:
        waiting = false
        let end = event.data?.assumingMemoryBound(to: mpv_event_end_file.self).pointee
        throw failure(
          end?.reason == MPV_END_FILE_REASON_ERROR
            ? String(cString: mpv_error_string(end?.error ?? 0)) : "no audio output opened")
      default:
        continue
      }
    }
    throw failure("the audio output did not open within 5 s")
  }

  /// A WAV file of a tenth of a second of silence (8 kHz, mono, 16-bit) in a `hex://` URL,
  /// which mpv reads from the URL itself.
  private static let silence: String = {
    let samples = 800
    var bytes: [UInt8] = Array("RIFF".utf8)
    func word(_ value: Int, _ size: Int) {
      for shift in 0..<size { bytes.append(UInt8((value >> (8 * shift)) & 0xFF)) }
    }
    word(36 + 2 * samples, 4)
    bytes += Array("WAVEfmt ".utf8)
    for (value, size) in [(16, 4), (1, 2), (1, 2), (8000, 4), (16000, 4), (2, 2), (16, 2)] { word(value, size) }
    bytes += Array("data".utf8)
    word(2 * samples, 4)
    bytes += [UInt8](repeating: 0, count: 2 * samples)
    let digits = Array("0123456789abcdef".utf8)
    return "hex://" + String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
  }()

  // MARK: - mpv

  @discardableResult
  private func command(_ arguments: [String]) -> Int32 {
    Self.command(handle, arguments)
  }

  @discardableResult
  private static func command(_ handle: Handle, _ arguments: [String]) -> Int32 {
    var strings = arguments.map { strdup($0) }
    defer { for string in strings { free(string) } }
    strings.append(nil)
    return strings.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
        mpv_command(handle.pointer, $0)
      }
    }
  }

  private func integer(_ name: String) -> Int64? { Self.integer(handle, name) }

  private static func integer(_ handle: Handle, _ name: String) -> Int64? {
    var value: Int64 = 0
    return mpv_get_property(handle.pointer, name, MPV_FORMAT_INT64, &value) >= 0 ? value : nil
  }

  private static func string(_ handle: Handle, _ name: String) -> String? {
    var value: UnsafeMutablePointer<CChar>?
    guard mpv_get_property(handle.pointer, name, MPV_FORMAT_STRING, &value) >= 0, let value else { return nil }
    defer { mpv_free(value) }
    return String(cString: value)
  }

  private func double(_ name: String) -> Double? {
    var value = 0.0
    return mpv_get_property(handle.pointer, name, MPV_FORMAT_DOUBLE, &value) >= 0 ? value : nil
  }

  private func flag(_ name: String) -> Bool {
    var value: Int32 = 0
    return mpv_get_property(handle.pointer, name, MPV_FORMAT_FLAG, &value) >= 0 && value != 0
  }

  /// The event loop: until mpv shuts down.
  private static func readEvents(_ handle: Handle, _ shared: Shared) {
    func send(_ event: EngineEvent) { shared.handler.withLock { $0 }?(event) }
    let tracking = shared
    while true {
      guard let event = mpv_wait_event(handle.pointer, -1)?.pointee else { continue }
      switch event.event_id {
      case MPV_EVENT_SHUTDOWN:
        return
      case MPV_EVENT_START_FILE:
        tracking.tracking.withLock { $0.gain = nil }
        let entry = event.data?.assumingMemoryBound(to: mpv_event_start_file.self).pointee.playlist_entry_id ?? -1
        let index = Int(integer(handle, "playlist-pos") ?? -1)
        tracking.tracking.withLock {
          // An entry from before the last stop or load: late news, not what plays now.
          guard entry > $0.stale else { return }
          $0.entry = entry
          $0.index = index
          $0.playing = true
          // A stop's idle state came before this (events are in order), or never came
          // (stopped while idle): either way the next idle state is the playlist's end.
          $0.stopping = false
        }
      case MPV_EVENT_FILE_LOADED:
        // Loaded, about to play: a file that cannot be played never gets here.
        let index = tracking.tracking.withLock { $0.index }
        if index >= 0 { send(.started(index: index)) }
      case MPV_EVENT_END_FILE:
        guard let end = event.data?.assumingMemoryBound(to: mpv_event_end_file.self).pointee else { continue }
        let index = tracking.tracking.withLock { $0.entry == end.playlist_entry_id ? $0.index : -1 }
        guard index >= 0 else { continue }
        if end.reason == MPV_END_FILE_REASON_ERROR {
          send(.failed(index: index, reason: String(cString: mpv_error_string(end.error))))
        } else if end.reason == MPV_END_FILE_REASON_EOF {
          send(.finished(index: index))
        }
      case MPV_EVENT_HOOK:
        guard let hook = event.data?.assumingMemoryBound(to: mpv_event_hook.self).pointee else { continue }
        if let name = hook.name, String(cString: name) == gainHook {
          applyGain(handle, shared)
        }
        mpv_hook_continue(handle.pointer, hook.id)
      case MPV_EVENT_IDLE:
        let ended = tracking.tracking.withLock { tracking in
          defer {
            tracking.playing = false
            tracking.stopping = false
          }
          return tracking.playing && !tracking.stopping
        }
        if ended { send(.endOfPlaylist) }
      default:
        continue
      }
    }
  }
}
