/// What plays audio files: a playlist of paths, played in order. The ``Player`` knows only
/// this protocol; the executable hands it the implementation (libmpv, in `MPVAudio`; an MPD
/// server's player, in `MPDClient`).
///
/// Every method may be called from any thread. Events go to the handler given to
/// ``observe(_:)`` on the engine's own thread, in order, and the handler must only pass them
/// on (a shell queues a line and wakes its terminal's owner): it must not call the engine
/// back.
public protocol AudioEngine: AnyObject, Sendable {
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
  /// Throws why the player cannot be reached (a music server gone); asked when
  /// ``status()`` says nothing plays, or a skip found no track, so that is not said of a
  /// player that could not answer.
  func checkReachable() throws(PlaybackError)
}

extension AudioEngine {
  /// Nothing refused: the engine finds out itself (a server plays what it has).
  public func problem(playing path: String) -> TrackProblem? { nil }
}

extension AudioEngine {
  // An engine that cannot repeat or apply ReplayGain (a test's still engine) does neither;
  // `now` then says no gain is applied.
  public func setRepeat(_ on: Bool) {}
  public func setReplayGain(_ mode: ReplayGainMode, fallback: Double) {}
  public func appliedGain() -> AppliedGain? { nil }
  // A player in this process is always there.
  public func checkReachable() throws(PlaybackError) {}
}

/// Which ReplayGain tags even out loudness: the album's (the album's tracks keep their
/// loudness against one another; a track without the album's tag uses its own), each
/// track's own, or none.
public enum ReplayGainMode: String, Sendable, CaseIterable {
  case album, track, off

  /// The gain, in decibels, given to a file without ReplayGain tags: -6 dB, about what a
  /// present-day master measures above ReplayGain's 89 dB reference, so an untagged track
  /// is not much louder than its tagged neighbours.
  public static let fallback = -6.0
}

/// The ReplayGain applied to what plays.
public struct AppliedGain: Sendable, Equatable, CustomStringConvertible {
  public var decibels: Double
  /// Whether it is the file's tag (else it is the fallback for untagged files).
  public var fromTags: Bool
  /// The tag it comes from (album or track), when it comes from one.
  public var mode: ReplayGainMode

  public init(decibels: Double, fromTags: Bool, mode: ReplayGainMode) {
    (self.decibels, self.fromTags, self.mode) = (decibels, fromTags, mode)
  }

  /// The gain `mode` applies to a file with these tags, as mpv applies it: the tags count
  /// only with a track gain, and an album gain missing is the track's; without them, the
  /// fallback. Nil for `off`.
  public init?(mode: ReplayGainMode, albumGain: Double?, trackGain: Double?, fallback: Double) {
    guard mode != .off else { return nil }
    guard let trackGain else {
      self.init(decibels: fallback, fromTags: false, mode: mode)
      return
    }
    self.init(decibels: mode == .album ? albumGain ?? trackGain : trackGain, fromTags: true, mode: mode)
  }

  /// `ReplayGain album -7.30 dB`, `ReplayGain -6.00 dB (no tags)`.
  public var description: String {
    let hundredths = Int((abs(decibels) * 100).rounded())
    let cents = hundredths % 100
    let figure = (decibels < 0 ? "−" : "+") + "\(hundredths / 100).\(cents < 10 ? "0" : "")\(cents) dB"
    return fromTags ? "ReplayGain \(mode.rawValue) \(figure)" : "ReplayGain \(figure) (the file has no ReplayGain tags)"
  }
}

/// Something that happened in an ``AudioEngine``.
public enum EngineEvent: Sendable, Equatable {
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
public struct EngineTrack: Sendable, Equatable {
  public var path: String
  public var title: String
  public var artist: String
  public var album: String
  public var number: Int?
  public var disc: Int?
  public var duration: Double

  public init(
    path: String, title: String, artist: String = "", album: String = "", number: Int? = nil, disc: Int? = nil,
    duration: Double = 0
  ) {
    (self.path, self.title, self.artist, self.album) = (path, title, artist, album)
    (self.number, self.disc, self.duration) = (number, disc, duration)
  }
}

/// What an ``AudioEngine`` plays now.
public struct EngineStatus: Sendable, Equatable {
  public var index: Int
  public var time: Double
  public var duration: Double?
  public var paused: Bool
  /// The entry that plays and the playlist's length, when the engine's playlist is not the
  /// one this process loaded (another client of a shared player changed it); else nil.
  public var other: (track: EngineTrack, count: Int)?

  public init(index: Int, time: Double, duration: Double?, paused: Bool, other: (track: EngineTrack, count: Int)? = nil)
  {
    (self.index, self.time, self.duration, self.paused, self.other) = (index, time, duration, paused, other)
  }

  public static func == (left: EngineStatus, right: EngineStatus) -> Bool {
    (left.index, left.time, left.duration, left.paused) == (right.index, right.time, right.duration, right.paused)
      && left.other?.track == right.other?.track && left.other?.count == right.other?.count
  }
}

/// Why playback could not start.
public struct PlaybackError: Error, Equatable, CustomStringConvertible {
  public var description: String
  /// When nothing could be played because the engine refused the tracks: the first one
  /// asked for, and why.
  public var refusal: Player.Refusal?

  public init(_ description: String, refusal: Player.Refusal? = nil) {
    self.description = description
    self.refusal = refusal
  }
}
