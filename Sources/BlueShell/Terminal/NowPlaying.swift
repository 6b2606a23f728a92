import AlbumModel
import BlueLibrary
import BluePlayback
import BlueSystem

/// The status lines of playback events: what the ``MessageQueue`` prints above the prompt
/// as a track starts, fails or the queue ends, and how `queue` and `now` name a track.
enum NowPlaying {
  /// `▶ Pink Floyd — The Wall — 1-03 Another Brick in the Wall (3:11)`; nil for a play
  /// counted, which is recorded, not told.
  static func line(_ event: Player.Event) -> String? {
    switch event {
    case .started(let track, _, _): "▶ " + describe(track)
    case .failed(let track, let reason):
      "✗ cannot play \(TextSanitizer.escaped(fileName(track.path))): \(TextSanitizer.escaped(reason)); skipped"
    case .endOfQueue: "■ end of the queue"
    case .played, .listened: nil
    }
  }

  /// `Pink Floyd — The Wall — 1-03 Another Brick in the Wall (3:11)`.
  static func describe(_ track: Player.Track) -> String {
    var number = track.number.map { $0 < 10 ? "0\($0)" : String($0) }
    if let digits = number, track.discs > 1, let disc = track.disc { number = "\(disc)-\(digits)" }
    let artist = track.artist.isEmpty ? "" : TextSanitizer.escaped(track.artist) + " — "
    return artist + TextSanitizer.escaped(track.album) + " — " + (number.map { $0 + " " } ?? "")
      + TextSanitizer.escaped(track.title) + " (\(Album.length(track.duration)))"
  }

  static func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }
}
