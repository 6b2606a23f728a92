import BlueCovers
import BluePlayback
import CSDBus
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// bluelib on the session bus as an MPRIS player (`org.mpris.MediaPlayer2.bluelib`): the
/// desktop's media keys and player widgets see what plays, from the library (the album's
/// artist, the track's, the cached cover), and pause, skip, seek, set the volume and repeat.
///
/// Nothing happens until music first plays: then libsystemd is loaded (sd-bus, through
/// `CSDBus`) and one thread of its own serves the bus. Only where a session bus is
/// (`DBUS_SESSION_BUS_ADDRESS`); a failure to load or connect is one line, once.
package final class MediaPlayerBus: Sendable {
  private let player: Player
  private let coverCache: CoverCache?
  /// A line for above the prompt: what the desktop asked for, or why the bus is off.
  private let say: @Sendable (String) -> Void
  private let started = Atomic<Bool>(false)

  /// A bus for `player` where `environment` names a session bus; nil elsewhere.
  package init?(
    player: Player, environment: [String: String], coverCache: CoverCache?, say: @escaping @Sendable (String) -> Void
  ) {
    guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else { return nil }
    (self.player, self.coverCache, self.say) = (player, coverCache, say)
  }

  /// The player changed (``Player/observeChanges(_:)``): the bus is told, or, at the first
  /// play, started.
  package func playerChanged() {
    guard started.load(ordering: .acquiring) else {
      guard !player.isIdle, !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
      // The bus keeps this object for the process's life.
      let context = Unmanaged.passRetained(self).toOpaque()
      csdbus_start(
        csdbus_callbacks(
          context: context, refresh: { context, state in MediaPlayerBus.from(context).fill(state) },
          position: { context in MediaPlayerBus.from(context).position() },
          act: { context, action, track, number, value in
            MediaPlayerBus.from(context).act(action, track: track, number: number, value: value)
          },
          failed: { context, why in MediaPlayerBus.from(context).say("MPRIS is off: " + String(cString: why!)) }))
      return
    }
    csdbus_changed()
  }

  private static func from(_ context: UnsafeMutableRawPointer?) -> MediaPlayerBus {
    Unmanaged<MediaPlayerBus>.fromOpaque(context!).takeUnretainedValue()
  }

  // MARK: - On the bus thread

  /// What the player shows now.
  private func fill(_ state: UnsafeMutablePointer<csdbus_state>?) {
    guard let state else { return }
    state.pointee.volume = Double(player.volume) / 100
    state.pointee.loop = player.repeats ? 1 : 0
    guard let status = player.status() else {
      state.pointee.status = Int32(CSDBUS_STOPPED)
      return
    }
    let track = status.track
    state.pointee.status = Int32(status.paused ? CSDBUS_PAUSED : CSDBUS_PLAYING)
    state.pointee.track = Int64(status.place)
    state.pointee.length = Int64((max(track.duration, 0) * 1_000_000).rounded())
    state.pointee.number = Int32(clamping: track.number ?? 0)
    csdbus_copy(&state.pointee.title, track.title)
    csdbus_copy(&state.pointee.album, track.album)
    let artist = track.trackArtist.flatMap { $0.isEmpty ? nil : $0 } ?? track.artist
    if !artist.isEmpty { csdbus_copy(&state.pointee.artist, artist) }
    if !track.artist.isEmpty { csdbus_copy(&state.pointee.album_artist, track.artist) }
    if let art = artFile(of: track.coverURL) { csdbus_copy(&state.pointee.art_url, LocalCover.fileURL(art)) }
  }

  /// The file of the cover `url` names: its copy in the cache, or the folder's image
  /// itself; nil when neither is there.
  private func artFile(of url: String) -> String? {
    guard !url.isEmpty else { return nil }
    if let coverCache, coverCache.contains(url) { return coverCache.path(for: url) }
    guard url.hasPrefix("file:"), let path = try? LocalCover.path(of: url), access(path, R_OK) == 0 else { return nil }
    return path
  }

  /// Microseconds into what plays.
  private func position() -> Int64 {
    Int64(((player.status()?.time ?? 0) * 1_000_000).rounded())
  }

  /// `1:05`: minutes and seconds into a track.
  private static func clock(_ seconds: Double) -> String {
    let whole = Int(max(0, seconds.isFinite ? seconds : 0).rounded())
    return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
  }

  /// Does what the desktop asked, and says so above the prompt.
  private func act(_ action: Int32, track: Int64, number: Int64, value: Double) {
    let status = player.status()
    switch Int(action) {
    case CSDBUS_PLAY:
      if let status {
        if status.paused, player.setPaused(false) { say("playing (asked by the desktop)") }
      } else if (try? player.playQueue()) != nil {
        say("playing the queue (asked by the desktop)")
      }
    case CSDBUS_PAUSE:
      if status?.paused == false, player.setPaused(true) { say("paused (asked by the desktop)") }
    case CSDBUS_PLAY_PAUSE:
      if status == nil {
        act(Int32(CSDBUS_PLAY), track: track, number: number, value: value)
      } else if let paused = player.togglePause() {
        say((paused ? "paused" : "playing") + " (asked by the desktop)")
      }
    case CSDBUS_NEXT:
      if player.skip(by: 1) { say("next track (asked by the desktop)") }
    case CSDBUS_PREVIOUS:
      if player.skip(by: -1) { say("previous track (asked by the desktop)") }
    case CSDBUS_STOP:
      guard status != nil else { return }
      player.stop()
      say("stopped (asked by the desktop)")
    case CSDBUS_SEEK:
      guard let status else { return }
      player.seek(Double(number) / 1_000_000, relative: true)
      say("at \(Self.clock(status.time + Double(number) / 1_000_000)) (asked by the desktop)")
    case CSDBUS_SET_POSITION:
      // Another track's id, or a place past the end, is ignored (as the specification says).
      guard let status, Int64(status.place) == track, number >= 0,
        Double(number) / 1_000_000 <= status.track.duration
      else { return }
      player.seek(Double(number) / 1_000_000, relative: false)
      say("at \(Self.clock(Double(number) / 1_000_000)) (asked by the desktop)")
    case CSDBUS_SET_VOLUME:
      guard value.isFinite else { return }
      let percent = Int((min(max(value, 0), 1) * 100).rounded())
      guard (try? player.setVolume(percent)) != nil else { return }
      say("volume \(percent)% (asked by the desktop)")
    case CSDBUS_SET_LOOP:
      player.setRepeat(number != 0)
      say("repeat \(number != 0 ? "on" : "off") (asked by the desktop)")
    default:
      return
    }
  }
}
