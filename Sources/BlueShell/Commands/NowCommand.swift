import AlbumModel
import BlueLibrary
import BluePlayback
import BlueSystem

/// `now`: what plays, where in it, and its place in the queue.
struct NowCommand: PlayerCommand {
  static let configuration = CommandConfiguration(
    verb: "now", group: .playback, synopsis: "",
    summary: "what plays now: the track, how far in, its place in the queue",
    details: """
      `▶ Pink Floyd — The Wall — 03 Another Brick in the Wall (3:11), 1:02 of 3:11, track 3 of 26`,
      then the ReplayGain applied (`ReplayGain album −7.30 dB`; a music server's mode,
      `ReplayGain album (the server's)`; see 'replaygain') and
      whether the queue repeats; the audio device, exclusive output and equalizer where
      they are not the default (see 'audio'); for a track with synced lyrics, the line sung now.
      """,
    examples: ["now"])

  func execute(on player: Player) throws -> CommandOutcome {
    guard let status = player.status() else {
      try player.checkReachable()
      return .lines(["nothing is playing"])
    }
    var lines = [
      (status.paused ? "⏸ " : "▶ ") + NowPlaying.describe(status.track)
        + ", \(Album.length(status.time)) of \(Album.length(status.track.duration)), track \(status.place) of \(status.count)"
    ]
    let gain = player.appliedGain().map(\.description) ?? "ReplayGain off"
    lines.append("  " + gain + (player.repeats ? "; the queue repeats" : ""))
    if let audio = AudioCommand.summary(player.audio) { lines.append("  " + audio) }
    if let lyrics = Lyrics.read(forTrack: status.track.path), lyrics.isSynced,
      let sung = lyrics.line(at: status.time), !sung.isEmpty
    {
      lines.append("  ♪ " + TextSanitizer.escaped(sung))
    }
    return .lines(lines)
  }
}
