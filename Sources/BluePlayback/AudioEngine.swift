#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What plays audio files: a playlist of paths, played in order. The ``Player`` knows only
/// this protocol; the executable hands it the implementation (libmpv, in `MPVAudio`; an MPD
/// server's player, in `MPDClient`).
///
/// Every method may be called from any thread. Events go to the handler given to
/// ``observe(_:)`` on the engine's own thread, in order, and the handler must only pass them
/// on (a shell queues a line and wakes its terminal's owner): it must not call the engine
/// back.
package protocol AudioEngine: AnyObject, Sendable {
  /// Replaces the playlist with `paths` and plays from the `index`th, unpaused.
  func load(_ paths: [String], from index: Int) throws(PlaybackError)
  /// Adds `paths` after the last entry; plays them when nothing is playing and `start`.
  func append(_ paths: [String], start: Bool) throws(PlaybackError)
  /// Pauses or resumes.
  func setPaused(_ paused: Bool)
  /// Plays the entry `offset` after (before, when negative) the current one; false at the end.
  func skip(by offset: Int) -> Bool
  /// Stops and empties the playlist.
  func stop()
  /// Seeks to `seconds` into the current file, or by `seconds` when `relative`.
  func seek(_ seconds: Double, relative: Bool)
  /// Sets the volume, 0–100.
  func setVolume(_ percent: Int)
  /// What plays now: the playlist index, the time into it and its length, whether paused,
  /// and the volume; nil when nothing plays.
  func status() -> EngineStatus?
  /// The volume, 0–100.
  func volume() -> Int
  /// Sets where events go.
  func observe(_ handler: @escaping @Sendable (EngineEvent) -> Void)
  /// Why the engine will not be given `path`, asked just before it is queued (a local
  /// player refuses what is not a regular audio file: ``TrackProblem/ofLocalFile(at:)``);
  /// nil when it can try it.
  func problem(playing path: String) -> TrackProblem?
  /// Plays the playlist again from its first entry after its last (`on`), or stops there.
  func setRepeat(_ on: Bool)
  /// Evens out loudness by the files' ReplayGain tags (``ReplayGainMode``); a file without
  /// them is played `fallback` decibels quieter or louder.
  func setReplayGain(_ mode: ReplayGainMode, fallback: Double)
  /// The gain applied to what plays now, and whether it comes from the file's tags; nil
  /// when none is (ReplayGain off, or nothing plays).
  func appliedGain() -> AppliedGain?
  /// The devices the engine can play on, its own choice (``AudioSettings/automatic``)
  /// first; empty for an engine whose outputs are not bluelib's to choose (a music
  /// server's).
  func audioDevices() -> [AudioDevice]
  /// Plays on `settings`' device, alone on it or not, through its equalizer; throws when
  /// it cannot (a device it does not list, outputs that are a server's).
  func setAudio(_ settings: AudioSettings) throws(PlaybackError)
  /// Makes the playlist its entries at `order` (their indices now, each at most once), in
  /// that order: an entry left out is removed, and none left stops and empties it. The
  /// entry that plays plays on where it goes; when it is removed, the next one plays.
  /// Throws when the playlist is not the one this process made (a music server's queue
  /// another client changed), or the engine cannot change it.
  func rearrange(_ order: [Int]) throws(PlaybackError)
  /// Throws why the player cannot be reached (a music server gone); asked when
  /// ``status()`` says nothing plays, or a skip found no track, so that is not said of a
  /// player that could not answer.
  func checkReachable() throws(PlaybackError)
}

extension AudioEngine {
  /// Nothing refused: the engine finds out itself (a server plays what it has).
  package func problem(playing path: String) -> TrackProblem? { nil }
}

extension AudioEngine {
  // An engine that cannot repeat or apply ReplayGain (a test's still engine) does neither;
  // `now` then says no gain is applied.
  package func setRepeat(_ on: Bool) {}
  package func setReplayGain(_ mode: ReplayGainMode, fallback: Double) {}
  package func appliedGain() -> AppliedGain? { nil }
  // A test's still engine has no playlist to change.
  package func rearrange(_ order: [Int]) throws(PlaybackError) {
    throw PlaybackError("this player's queue cannot be changed")
  }
  // A player in this process is always there.
  package func checkReachable() throws(PlaybackError) {}
  // A music server plays on outputs of its own, which its configuration chooses.
  package func audioDevices() -> [AudioDevice] { [] }
  package func setAudio(_ settings: AudioSettings) throws(PlaybackError) { throw .serverOutputs }
}

/// How a playlist becomes the entries at an order (``AudioEngine/rearrange(_:)``) by the
/// two changes players have: removals, then moves.
package enum PlaylistChanges {
  /// The indices to remove, highest first (so each is still right when it comes), then the
  /// moves, each `from` an index to the index `to` it has after the move (always lower:
  /// what comes before `to` is in place already; mpv's `playlist-move from to` and MPD's
  /// `move from to` both do this), that turn a playlist of `count` entries into `order`.
  package static func of(_ order: [Int], count: Int) -> (removals: [Int], moves: [(from: Int, to: Int)]) {
    let kept = Set(order)
    let removals = (0..<count).reversed().filter { !kept.contains($0) }
    var current = (0..<count).filter { kept.contains($0) }
    var moves: [(from: Int, to: Int)] = []
    for (place, entry) in order.enumerated() where current[place] != entry {
      guard let from = current[place...].firstIndex(of: entry) else { continue }
      current.remove(at: from)
      current.insert(entry, at: place)
      moves.append((from, place))
    }
    return (removals, moves)
  }
}

extension PlaybackError {
  /// What an engine whose outputs are a music server's says to `audio`.
  package static let serverOutputs = PlaybackError(
    "the music server plays on its own outputs (its configuration chooses them)")
}

/// Which ReplayGain tags even out loudness: the album's (the album's tracks keep their
/// loudness against one another; a track without the album's tag uses its own), each
/// track's own, or none.
package enum ReplayGainMode: String, Sendable, CaseIterable {
  case album, track, off

  /// The gain, in decibels, given to a file without ReplayGain tags: -6 dB, about what a
  /// present-day master measures above ReplayGain's 89 dB reference, so an untagged track
  /// is not much louder than its tagged neighbours.
  package static let fallback = -6.0
}

/// The ReplayGain applied to what plays.
///
/// A tag's gain is never applied past what its peak allows (the gain that takes the peak to
/// full scale) nor past ``ceiling``: a file's tags may claim `+60 dB` with a peak of `0.001`
/// (a mistake, or a hostile file), and mpv trusts the peak alone, which would amplify a
/// tone at −6 dBFS into a full-scale square wave.
package struct AppliedGain: Sendable, Equatable, CustomStringConvertible {
  /// The gain applied, in decibels.
  package var decibels: Double
  /// Whether it is the file's tag (else it is the fallback for untagged files).
  package var fromTags: Bool
  /// The tag it comes from (album or track), when it comes from one.
  package var mode: ReplayGainMode
  /// The gain the tag asked for, when more than ``decibels`` was asked: what held it is
  /// ``heldBy``.
  package var asked: Double?
  /// What held the gain below the tag's: the ceiling, or the tag's peak.
  package var heldBy: Hold?
  /// The mode of a music server that applies the gain itself (MPD's `replay_gain_mode`:
  /// `album`, `track`, `auto`), whose decibels it does not say; nil for a gain of this
  /// process.
  package var serverMode: String?

  /// What keeps a gain below what a tag asks.
  package enum Hold: Sendable, Equatable {
    /// ``AppliedGain/ceiling``.
    case ceiling
    /// The tag's peak (a fraction of full scale): no more gain than brings it to full scale.
    case peak(Double)
  }

  /// The most any tag may raise a file by: louder than the quietest mastering ReplayGain
  /// meets in practice (old and classical recordings ask up to about +12 dB), and a
  /// bound on what a wrong peak tag can do.
  package static let ceiling = 15.0

  package init(decibels: Double, fromTags: Bool, mode: ReplayGainMode, asked: Double? = nil, heldBy: Hold? = nil) {
    (self.decibels, self.fromTags, self.mode, self.asked, self.heldBy) = (decibels, fromTags, mode, asked, heldBy)
  }

  /// A music server's gain, applied there in its `mode` (`album`, `track`, `auto`: escaped
  /// by whoever reads it from the server), its decibels unknown here.
  package init(serverMode mode: String) {
    self.init(decibels: 0, fromTags: true, mode: ReplayGainMode(rawValue: mode) ?? .album)
    serverMode = mode
  }

  /// The gain `mode` applies to a file with these tags: the tags count only with a finite
  /// track gain (as mpv reads them), an album gain missing is the track's (with its peak);
  /// without them, the fallback. The gain is held at the peak's limit and at ``ceiling``.
  /// Nil for `off`.
  package init?(
    mode: ReplayGainMode, albumGain: Double?, albumPeak: Double? = nil, trackGain: Double?, trackPeak: Double? = nil,
    fallback: Double
  ) {
    guard mode != .off else { return nil }
    guard let trackGain, trackGain.isFinite else {
      self.init(decibels: fallback, fromTags: false, mode: mode)
      return
    }
    let useAlbum = mode == .album && albumGain?.isFinite == true
    let asked = useAlbum ? albumGain! : trackGain
    let peak = useAlbum ? albumPeak : trackPeak
    var applied = asked
    var hold: Hold?
    if let peak, peak.isFinite, peak > 0 {
      let limit = -20 * log10(peak)
      if limit < applied { (applied, hold) = (limit, .peak(peak)) }
    }
    if applied > Self.ceiling { (applied, hold) = (Self.ceiling, .ceiling) }
    self.init(
      decibels: applied, fromTags: true, mode: mode, asked: hold == nil ? nil : asked, heldBy: hold)
  }

  /// `ReplayGain album −7.30 dB`, `ReplayGain −6.00 dB (no tags)`, `ReplayGain album +15.00
  /// dB (the tags ask +60.00 dB: held at the ceiling)`; a server's, `ReplayGain album (the
  /// server's)`.
  package var description: String {
    if let serverMode { return "ReplayGain \(serverMode) (the server's)" }
    guard fromTags else { return "ReplayGain \(Self.figure(decibels)) (the file has no ReplayGain tags)" }
    var text = "ReplayGain \(mode.rawValue) \(Self.figure(decibels))"
    if let asked, let heldBy {
      switch heldBy {
      case .ceiling: text += " (the tags ask \(Self.figure(asked)): held at the ceiling)"
      case .peak(let peak):
        text += " (the tags ask \(Self.figure(asked)): held by the peak \(Self.decimal(peak)))"
      }
    }
    return text
  }

  /// `+15.00 dB`, `−7.30 dB`.
  private static func figure(_ decibels: Double) -> String {
    let hundredths = Int((min(abs(decibels), 1e6) * 100).rounded())
    let cents = hundredths % 100
    return (decibels < 0 ? "−" : "+") + "\(hundredths / 100).\(cents < 10 ? "0" : "")\(cents) dB"
  }

  /// `0.001`, `0.5`: up to six decimals, no trailing zeros.
  private static func decimal(_ value: Double) -> String {
    let millionths = Int((min(value, 1e6) * 1_000_000).rounded())
    var fraction = String(millionths % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(millionths / 1_000_000)" + (fraction.isEmpty ? "" : "." + fraction)
  }
}

/// Something that happened in an ``AudioEngine``.
package enum EngineEvent: Sendable, Equatable {
  /// The playlist entry `index` started.
  case started(index: Int)
  /// The playlist entry `index` played to its end.
  case finished(index: Int)
  /// The playlist entry `index` could not be played.
  case failed(index: Int, reason: String)
  /// The last entry ended: nothing plays.
  case endOfPlaylist
  /// An entry this process did not load started, the `index`th of the engine's `count`:
  /// another client of a shared player (an MPD server) changed its playlist.
  case startedOther(EngineTrack, index: Int, count: Int)
}

/// What an engine knows of an entry of its playlist it did not load (``EngineEvent/startedOther(_:index:count:)``).
package struct EngineTrack: Sendable, Equatable {
  package var path: String
  package var title: String
  package var artist: String
  package var album: String
  package var number: Int?
  package var disc: Int?
  package var duration: Double

  package init(
    path: String, title: String, artist: String = "", album: String = "", number: Int? = nil, disc: Int? = nil,
    duration: Double = 0
  ) {
    (self.path, self.title, self.artist, self.album) = (path, title, artist, album)
    (self.number, self.disc, self.duration) = (number, disc, duration)
  }
}

/// What an ``AudioEngine`` plays now.
package struct EngineStatus: Sendable, Equatable {
  package var index: Int
  package var time: Double
  package var duration: Double?
  package var paused: Bool
  /// The entry that plays and the playlist's length, when the engine's playlist is not the
  /// one this process loaded (another client of a shared player changed it); else nil.
  package var other: (track: EngineTrack, count: Int)?

  package init(
    index: Int, time: Double, duration: Double?, paused: Bool, other: (track: EngineTrack, count: Int)? = nil
  ) {
    (self.index, self.time, self.duration, self.paused, self.other) = (index, time, duration, paused, other)
  }

  package static func == (left: EngineStatus, right: EngineStatus) -> Bool {
    (left.index, left.time, left.duration, left.paused) == (right.index, right.time, right.duration, right.paused)
      && left.other?.track == right.other?.track && left.other?.count == right.other?.count
  }
}

/// Why playback could not start.
package struct PlaybackError: Error, Equatable, CustomStringConvertible {
  package var description: String
  /// When nothing could be played because the engine refused the tracks: the first one
  /// asked for, and why.
  package var refusal: Player.Refusal?

  package init(_ description: String, refusal: Player.Refusal? = nil) {
    self.description = description
    self.refusal = refusal
  }
}
