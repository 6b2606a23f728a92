import BlueSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The play queue: tracks of albums from music folders, played in order by an
/// ``AudioEngine`` made when first needed. Events reach the observer as ``Player/Event``s,
/// naming the track, or the album counted as played, on the engine's thread (on the
/// caller's for a play counted at a skip or a stop); an observer only queues them.
package final class Player: Sendable {
  /// One track of the queue, with what a now-playing line shows.
  package struct Track: Sendable, Equatable {
    package var albumID: Int64?
    package var album: String
    package var artist: String
    /// How many discs its album has (a track is `1-03` on several, `03` on one).
    package var discs: Int
    package var disc: Int?
    package var number: Int?
    package var title: String
    package var duration: Double
    package var path: String
    /// The track's own artist tag, when it has one (``artist`` is the album's).
    package var trackArtist: String?
    /// Its album's cover URL (empty: none), for the desktop's player widget (MPRIS).
    package var coverURL: String
    /// Its MusicBrainz ids, where its tags give them (for ListenBrainz): the recording, and
    /// its album's release and release group.
    package var musicBrainz: MusicBrainzIDs

    package init(
      albumID: Int64?, album: String, artist: String, discs: Int = 1, disc: Int? = nil, number: Int?, title: String,
      duration: Double, path: String, trackArtist: String? = nil, coverURL: String = "",
      musicBrainz: MusicBrainzIDs = MusicBrainzIDs()
    ) {
      (self.albumID, self.album, self.artist, self.discs, self.disc) = (albumID, album, artist, discs, disc)
      (self.number, self.title, self.duration, self.path) = (number, title, duration, path)
      (self.trackArtist, self.coverURL, self.musicBrainz) = (trackArtist, coverURL, musicBrainz)
    }
  }

  /// A track's MusicBrainz ids (nil: its tags do not say).
  package struct MusicBrainzIDs: Sendable, Equatable {
    package var recording: String?
    package var release: String?
    package var releaseGroup: String?

    package init(recording: String? = nil, release: String? = nil, releaseGroup: String? = nil) {
      (self.recording, self.release, self.releaseGroup) = (recording, release, releaseGroup)
    }
  }

  /// Something the observer is told.
  package enum Event: Sendable, Equatable {
    /// `track`, the `place`th of the queue's `count` (1-based), started.
    case started(Track, place: Int, count: Int)
    /// `track` could not be played; the next one plays.
    case failed(Track, reason: String)
    /// The last track of the queue ended.
    case endOfQueue
    /// The album `albumID` counted as played, at `time` (seconds since 1970): a track of
    /// it played past half, once per queue. The shell records it in the library.
    case played(albumID: Int64, at: Int64)
    /// `track`, started at `startedAt` (seconds since 1970), was listened to: it played
    /// half its length or four minutes, whichever came first (``listenMark(duration:)``),
    /// once each time it started. ListenBrainz's listen.
    case listened(Track, startedAt: Int64)
  }

  /// How long a track must play to count as listened to: half its length or four minutes,
  /// whichever is less (ListenBrainz's and Last.fm's rule); four minutes for a track of no
  /// known length.
  package static func listenMark(duration: Double) -> Double {
    duration > 0 && duration.isFinite ? min(duration / 2, 240) : 240
  }

  /// A track the engine refused before it was queued, and why.
  package struct Refusal: Sendable, Equatable {
    package var track: Track
    package var problem: TrackProblem

    package init(track: Track, problem: TrackProblem) {
      self.track = track
      self.problem = problem
    }
  }

  /// What plays now, for `now`.
  package struct Status: Sendable, Equatable {
    package var track: Track
    package var place: Int
    package var count: Int
    package var time: Double
    package var paused: Bool
  }

  private let makeEngine: @Sendable () throws(PlaybackError) -> any AudioEngine
  /// Whether the engine's player is shared with other programs (a music server's): it may
  /// play before this process asks it to, so asking what plays makes the engine.
  private let shared: Bool
  /// Everything that changes, under one lock.
  private let state = Mutex(State())

  private struct State {
    var engine: (any AudioEngine)?
    /// Where events go.
    var observer: (@Sendable (Event) -> Void)?
    /// Told of every change of what plays, its pause, time, volume or repeat (MPRIS).
    var changeObserver: (@Sendable () -> Void)?
    /// Whether nothing plays (never started, stopped, or the queue ended).
    var idle = true
    /// The pipes of the waits for the player to go idle (``waitUntilIdle(wakingOn:timeout:isCancelled:every:)``).
    var waiters: [UInt64: WakeUpPipe] = [:]
    var nextWaiter: UInt64 = 0
    var queue: [Track] = []
    /// Albums counted as played since the queue was last loaded (once each).
    var counted: Set<Int64> = []
    /// The track of the queue that plays, when it started, and whether it was told as
    /// listened to (``Event/listened(_:startedAt:)``).
    var listening: (index: Int, startedAt: Int64, told: Bool)?
    /// The album of the track that plays (the last one started), nil when nothing plays.
    var playingAlbumID: Int64?
    /// The album that was current when the queue was last made or added to (``madeQueue(whileSelected:)``).
    var madeWhileSelected: Int64?
    /// Whether the queue plays again from its first track after its last.
    var repeats = false
    /// Which ReplayGain tags even out loudness (the shell sets the library's).
    var replayGain = ReplayGainMode.album
    /// The output device, exclusive use and equalizer (the shell sets the library's).
    var audio = AudioSettings()

    /// Wakes the waits: written under the lock, so a wait out of ``waiters`` can close its pipe.
    func wakeWaiters() {
      for waiter in waiters.values { waiter.wake() }
    }
  }

  /// A player that makes its engine with `makeEngine` when it first plays, or, when the
  /// engine's player is `shared` with other programs, when first asked what plays.
  package init(
    engine makeEngine: @escaping @Sendable () throws(PlaybackError) -> any AudioEngine, shared: Bool = false
  ) {
    self.makeEngine = makeEngine
    self.shared = shared
  }

  /// Makes the engine of a shared player now, so what other programs make it play is told
  /// from now on; false when it cannot be made (the reason is the next command's to tell).
  @discardableResult
  package func attach() -> Bool {
    (try? engine()) != nil
  }

  /// Sets where events go.
  package func observe(_ observer: @escaping @Sendable (Event) -> Void) {
    state.withLock { $0.observer = observer }
  }

  /// Sets what is told of every change of what plays, its pause, its time, the volume or
  /// repeat (after the change, on the thread that made it): it only passes it on, calling
  /// nothing of the player.
  package func observeChanges(_ observer: @escaping @Sendable () -> Void) {
    state.withLock { $0.changeObserver = observer }
  }

  private func changed() {
    state.withLock { $0.changeObserver }?()
  }

  /// The queue.
  package var queue: [Track] { state.withLock { $0.queue } }

  /// Notes that the queue was made (or added to) while the album `id` was current: `play`
  /// alone resumes the queue only while that album is still current.
  package func madeQueue(whileSelected id: Int64?) {
    state.withLock { $0.madeWhileSelected = id }
  }

  /// The album that was current when the queue was last made or added to.
  package var queueMadeWhileSelected: Int64? { state.withLock { $0.madeWhileSelected } }

  /// Replaces the queue's tracks with `tracks` (the same songs, their files found again),
  /// without playing: for a queue to be played again after its files moved.
  package func replaceQueue(_ tracks: [Track]) {
    state.withLock { $0.queue = tracks }
  }

  // MARK: - Changing the queue

  /// Removes the tracks at `places` (1-based, as `queue` lists them) from the queue; the
  /// track that plays plays on unless it is removed (then the next one plays). Throws,
  /// changing nothing, when a place is not in the queue or the engine cannot change it.
  package func removeFromQueue(_ places: [Int]) throws(PlaybackError) {
    let count = queue.count
    let gone = Set(places.map { $0 - 1 })
    try rearrange((0..<count).filter { !gone.contains($0) })
  }

  /// Moves the track at place `from` to place `to` (1-based); the others keep their order.
  package func moveInQueue(from: Int, to: Int) throws(PlaybackError) {
    var order = Array(0..<queue.count)
    let entry = order.remove(at: from - 1)
    order.insert(entry, at: to - 1)
    try rearrange(order)
  }

  /// Shuffles the tracks of the queue after the one that plays (all of them when none
  /// plays), with `generator`; what has played and what plays keep their places.
  package func shuffleQueue(using generator: inout some RandomNumberGenerator) throws(PlaybackError) {
    let count = queue.count
    let first = status().map { $0.place } ?? 0
    guard first < count else { return }
    var order = Array(0..<count)
    order[first...].shuffle(using: &generator)
    try rearrange(order)
  }

  /// Stops and empties the queue.
  package func clearQueue() throws(PlaybackError) {
    guard let engine = state.withLock({ $0.engine }) else {
      state.withLock { $0.queue = [] }
      return
    }
    countIfPastHalf(engine)
    try rearrange([])
    state.withLock { $0.playingAlbumID = nil }
    setIdle(true)
  }

  /// Makes the queue its tracks at `order` (their indices now, each at most once), the
  /// engine's playlist with it. The queue is changed first, so the events the change
  /// brings (the next track started) name the tracks where they are now.
  private func rearrange(_ order: [Int]) throws(PlaybackError) {
    guard let engine = state.withLock({ $0.engine }) else {
      let queue = self.queue
      state.withLock { $0.queue = order.map { queue[$0] } }
      return
    }
    let before = state.withLock { state in
      let before = state.queue
      state.queue = order.map { before[$0] }
      return before
    }
    do {
      try engine.rearrange(order)
    } catch {
      state.withLock { $0.queue = before }
      throw error
    }
    changed()
  }

  /// The album whose track plays (paused or not): its card is marked. Nil when nothing
  /// plays or the track is of no album of the library.
  package var playingAlbumID: Int64? { state.withLock { $0.playingAlbumID } }

  /// Replaces the queue with `tracks` and plays from the `index`th. A track the engine
  /// refuses (``AudioEngine/problem(playing:)``) is left out and told as failed; when none
  /// from the `index`th on is left, nothing changes and the error names the first refused.
  package func play(_ tracks: [Track], from index: Int = 0) throws(PlaybackError) {
    let engine = try self.engine()
    let (playable, start) = try vet(tracks, from: index, engine)
    countIfPastHalf(engine)
    state.withLock {
      $0.queue = playable
      $0.counted = []
    }
    setIdle(false)
    do {
      try engine.load(playable.map(\.path), from: start)
    } catch {
      setIdle(true)
      throw error
    }
  }

  /// Adds `tracks` after the queue's last; plays them when nothing plays and `start`.
  /// Tracks the engine refuses are left out, as ``play(_:from:)`` leaves them out; returns
  /// how many were added.
  @discardableResult
  package func enqueue(_ tracks: [Track], start: Bool = false) throws(PlaybackError) -> Int {
    let engine = try self.engine()
    let (playable, _) = try vet(tracks, from: 0, engine)
    state.withLock { $0.queue += playable }
    if start { setIdle(false) }
    try engine.append(playable.map(\.path), start: start)
    return playable.count
  }

  /// The tracks of `tracks` the engine takes, and where among them the `index`th is (or
  /// the first taken after it); each refused one is told to the observer as failed, in
  /// order, before anything of them plays. Throws, telling nothing, when none from the
  /// `index`th on is taken.
  private func vet(
    _ tracks: [Track], from index: Int, _ engine: any AudioEngine
  ) throws(PlaybackError) -> (tracks: [Track], start: Int) {
    var playable: [Track] = []
    var refusals: [(place: Int, refusal: Refusal)] = []
    var start: Int?
    for (place, track) in tracks.enumerated() {
      if let problem = engine.problem(playing: track.path) {
        refusals.append((place, Refusal(track: track, problem: problem)))
        continue
      }
      if place >= index && start == nil { start = playable.count }
      playable.append(track)
    }
    guard let start else {
      guard let first = refusals.first(where: { $0.place >= index })?.refusal else {
        throw PlaybackError("nothing to play")
      }
      let name = first.track.path.split(separator: "/").last.map(String.init) ?? first.track.path
      throw PlaybackError("cannot play \(name): \(first.problem)", refusal: first)
    }
    if let observer = state.withLock({ $0.observer }) {
      for (_, refusal) in refusals { observer(.failed(refusal.track, reason: refusal.problem.description)) }
    }
    return (playable, start)
  }

  /// Plays the queue from its first track (after `stop`, or a queue built with `queue`).
  package func playQueue() throws(PlaybackError) {
    let tracks = queue
    guard !tracks.isEmpty else { throw PlaybackError("the queue is empty") }
    try play(tracks, from: 0)
  }

  /// What plays now; nil when nothing does.
  package func status() -> Status? {
    guard let engine = state.withLock({ $0.engine }) ?? (shared ? try? self.engine() : nil),
      let status = engine.status()
    else { return nil }
    if let other = status.other {
      return Status(
        track: Self.track(other.track), place: status.index + 1, count: other.count, time: status.time,
        paused: status.paused)
    }
    let queue = self.queue
    guard queue.indices.contains(status.index) else { return nil }
    return Status(
      track: queue[status.index], place: status.index + 1, count: queue.count, time: status.time, paused: status.paused)
  }

  /// Throws why the engine cannot be reached (a music server gone, at this moment or since
  /// the start): for `now` and `next` to say, rather than that nothing plays.
  package func checkReachable() throws(PlaybackError) {
    guard let engine = state.withLock({ $0.engine }) else {
      // A shared player's engine is made when first asked: its failure says why.
      if shared { try engine().checkReachable() }
      return
    }
    try engine.checkReachable()
  }

  /// Pauses what plays, or resumes it; returns whether it is paused now (nil: nothing plays).
  package func togglePause() -> Bool? {
    guard let engine = state.withLock({ $0.engine }), let status = engine.status() else { return nil }
    engine.setPaused(!status.paused)
    changed()
    return !status.paused
  }

  /// Pauses what plays, or resumes it; false when nothing plays.
  @discardableResult
  package func setPaused(_ paused: Bool) -> Bool {
    guard let engine = state.withLock({ $0.engine }), engine.status() != nil else { return false }
    engine.setPaused(paused)
    changed()
    return true
  }

  /// Plays the next (`offset` 1) or previous (-1) track; false when there is none.
  package func skip(by offset: Int) -> Bool {
    guard let engine = state.withLock({ $0.engine }) else { return false }
    countIfPastHalf(engine)
    return engine.skip(by: offset)
  }

  /// Stops; the queue stays, for `play` to start again.
  package func stop() {
    guard let engine = state.withLock({ $0.engine }) else { return }
    countIfPastHalf(engine)
    engine.stop()
    state.withLock { $0.playingAlbumID = nil }
    setIdle(true)
    changed()
  }

  /// Counts the track that plays when it is past half of it (before a skip or a stop),
  /// and tells it listened to when it is past its mark.
  private func countIfPastHalf(_ engine: any AudioEngine) {
    guard let status = engine.status() else { return }
    let duration = status.duration ?? 0
    if duration > 0 && status.time >= duration / 2 { count(status.index) }
    if status.other == nil && status.time >= Self.listenMark(duration: duration) { tellListened(status.index) }
  }

  /// Tells the track that plays listened to once it played its mark (``listenMark(duration:)``);
  /// returns the seconds of play it still needs, or nil when there is nothing to wait for
  /// (nothing plays, or it was told). For a thread that waits for the mark: it asks again
  /// when that time has passed (later, if it was paused meanwhile). Never from the observer.
  package func checkListened() -> Double? {
    guard let engine = state.withLock({ $0.engine }), let status = engine.status(), status.other == nil else {
      return nil
    }
    let pending = state.withLock { state -> Bool in
      guard let listening = state.listening else { return false }
      return listening.index == status.index && !listening.told
    }
    guard pending else { return nil }
    let mark = Self.listenMark(duration: status.duration ?? 0)
    if status.time >= mark {
      tellListened(status.index)
      return nil
    }
    return mark - status.time
  }

  /// Tells the observer the queue's `index`th track, which plays, was listened to, once.
  private func tellListened(_ index: Int) {
    let told = state.withLock { state -> (Event, (@Sendable (Event) -> Void)?)? in
      guard let listening = state.listening, listening.index == index, !listening.told,
        state.queue.indices.contains(index)
      else { return nil }
      state.listening?.told = true
      return (.listened(state.queue[index], startedAt: listening.startedAt), state.observer)
    }
    guard let (event, observer) = told else { return }
    observer?(event)
  }

  /// Counts the album of the queue's `index`th track as played, once per queue, and tells
  /// the observer (``Event/played(albumID:at:)``).
  private func count(_ index: Int) {
    let told = state.withLock { state -> (Int64, (@Sendable (Event) -> Void)?)? in
      guard state.queue.indices.contains(index), let id = state.queue[index].albumID,
        state.counted.insert(id).inserted
      else { return nil }
      return (id, state.observer)
    }
    guard let (id, observer) = told else { return }
    observer?(.played(albumID: id, at: Int64(time(nil))))
  }

  /// Seeks in the current track.
  package func seek(_ seconds: Double, relative: Bool) {
    state.withLock { $0.engine }?.seek(seconds, relative: relative)
    changed()
  }

  /// The volume, 0–100 (100 before anything played).
  package var volume: Int { state.withLock { $0.engine }?.volume() ?? 100 }

  /// Sets the volume, 0–100.
  package func setVolume(_ percent: Int) throws(PlaybackError) {
    try engine().setVolume(percent)
    changed()
  }

  /// Whether the queue plays again from its first track after its last (`repeat on`).
  package var repeats: Bool { state.withLock { $0.repeats } }

  /// Plays the queue again after its last track, or not; applies to what plays now.
  package func setRepeat(_ on: Bool) {
    let engine = state.withLock { state in
      state.repeats = on
      return state.engine
    }
    engine?.setRepeat(on)
    changed()
  }

  /// The output device, exclusive use and equalizer chosen (the engine's own until set).
  package var audio: AudioSettings { state.withLock { $0.audio } }

  /// Takes `settings` for when the engine is made (the library's, at the start), without
  /// making it.
  package func remember(_ settings: AudioSettings) {
    state.withLock { $0.audio = settings }
  }

  /// Plays on `settings`' device and through its equalizer, from now on. A device chosen
  /// is checked by the engine, made for it if it was not (it must be one the engine lists);
  /// the rest waits for the engine when there is none yet. A shared player's outputs are
  /// its server's: it throws. Nothing changes when it throws.
  package func setAudio(_ settings: AudioSettings) throws(PlaybackError) {
    if shared { throw .serverOutputs }
    let (existing, chosen) = state.withLock { ($0.engine, $0.audio.device) }
    if let existing {
      try existing.setAudio(settings)
    } else if settings.device != chosen && settings.device != AudioSettings.automatic {
      try engine().setAudio(settings)
    }
    state.withLock { $0.audio = settings }
  }

  /// The devices the engine can play on (it is made if it was not); empty for a music
  /// server's player.
  package func audioDevices() throws(PlaybackError) -> [AudioDevice] {
    if shared { throw .serverOutputs }
    return try engine().audioDevices()
  }

  /// Which ReplayGain tags even out loudness (``ReplayGainMode/album`` until set).
  package var replayGain: ReplayGainMode { state.withLock { $0.replayGain } }

  /// Evens out loudness by `mode`'s tags (untagged files by ``ReplayGainMode/fallback``),
  /// from the track that plays on.
  package func setReplayGain(_ mode: ReplayGainMode) {
    let engine = state.withLock { state in
      state.replayGain = mode
      return state.engine
    }
    engine?.setReplayGain(mode, fallback: ReplayGainMode.fallback)
  }

  /// The ReplayGain applied to what plays now; nil when none is or nothing plays.
  package func appliedGain() -> AppliedGain? {
    state.withLock { $0.engine }?.appliedGain()
  }

  /// Whether nothing plays (never started, stopped, or the queue ended).
  package var isIdle: Bool { state.withLock { $0.idle } }

  /// Blocks until the queue ends or is stopped, `isCancelled` says true, or `timeout`
  /// seconds pass; `every` is called once before the wait sleeps, each time it wakes, and
  /// once as it ends (to deliver the status lines and record the plays).
  ///
  /// The wait sleeps in `poll` on a pipe of its own, which the player writes to when it goes
  /// idle, and on `wakingOn` (the shell's wake-up pipe, which its signal handlers write to,
  /// and its message queue, given the events: a line, an album played); each time it wakes,
  /// it empties the pipe, calls `every`, then asks `isCancelled`.
  ///
  /// - Important: For a thread outside Swift concurrency (the shell's main thread), or a
  ///   thread of its own; never from the observer (events wait for it to return).
  package func waitUntilIdle(
    wakingOn waker: WakeUpPipe? = nil, timeout: Double? = nil, isCancelled: () -> Bool, every: () -> Void
  ) {
    defer { every() }
    if isIdle || isCancelled() { return }
    every()
    let own = WakeUpPipe()
    guard own.isOpen else { return }
    let id = state.withLock { state -> UInt64? in
      guard !state.idle else { return nil }
      state.nextWaiter += 1
      state.waiters[state.nextWaiter] = own
      return state.nextWaiter
    }
    // The player writes under the lock, so once this wait is out of the list no write can
    // reach its pipe, and the pipe can be closed.
    defer {
      if let id { state.withLock { _ = $0.waiters.removeValue(forKey: id) } }
      own.close()
    }
    guard id != nil else { return }
    let deadline = timeout.map { ContinuousClock.now.advanced(by: .seconds($0)) }
    var fds = [pollfd(fd: own.readEnd, events: Int16(POLLIN), revents: 0)]
    if let waker { fds.append(pollfd(fd: waker.readEnd, events: Int16(POLLIN), revents: 0)) }
    while true {
      var milliseconds: Int32 = -1
      if let deadline {
        let left = deadline - ContinuousClock.now
        if left <= .zero { return }
        milliseconds = left.pollMilliseconds
      }
      for index in fds.indices { fds[index].revents = 0 }
      // A signal cuts the poll short and it is made again: its handler wrote to `wakingOn`.
      guard (try? syscall("poll", { poll(&fds, nfds_t(fds.count), milliseconds) })) != nil else { return }
      if fds[0].revents != 0 {
        own.drain()
        if isIdle { return }
      }
      if let waker, fds[1].revents != 0 { waker.drain() }
      every()
      if isCancelled() { return }
    }
  }

  // MARK: - The engine

  private func engine() throws(PlaybackError) -> any AudioEngine {
    if let engine = state.withLock({ $0.engine }) { return engine }
    let engine = try makeEngine()
    engine.observe { [weak self] event in self?.handle(event) }
    let (made, settings) = state.withLock { state -> (any AudioEngine, (Bool, ReplayGainMode, AudioSettings)?) in
      if let existing = state.engine { return (existing, nil) }
      state.engine = engine
      return (engine, (state.repeats, state.replayGain, state.audio))
    }
    // The settings chosen before anything played (the library's ReplayGain mode and audio
    // settings); a shared player keeps its own until a command here changes them.
    if !shared, let (repeats, replayGain, audio) = settings {
      made.setReplayGain(replayGain, fallback: ReplayGainMode.fallback)
      if repeats { made.setRepeat(true) }
      if audio != AudioSettings() {
        // A device no longer there (unplugged since) gives way to the engine's choice;
        // the rest still applies.
        var fallback = audio
        fallback.device = AudioSettings.automatic
        if (try? made.setAudio(audio)) == nil { try? made.setAudio(fallback) }
      }
    }
    return made
  }

  private func handle(_ event: EngineEvent) {
    let queue = self.queue
    let translated: Event?
    switch event {
    case .started(let index):
      state.withLock {
        $0.playingAlbumID = $0.queue.indices.contains(index) ? $0.queue[index].albumID : nil
        $0.listening = $0.queue.indices.contains(index) ? (index, Int64(time(nil)), false) : nil
      }
      translated = queue.indices.contains(index) ? .started(queue[index], place: index + 1, count: queue.count) : nil
    case .finished(let index):
      count(index)
      // Played to its end: past any mark.
      tellListened(index)
      translated = nil
    case .failed(let index, let reason):
      translated = queue.indices.contains(index) ? .failed(queue[index], reason: reason) : nil
    case .endOfPlaylist:
      state.withLock { $0.playingAlbumID = nil }
      translated = .endOfQueue
    case .startedOther(let track, let index, let count):
      state.withLock {
        $0.playingAlbumID = nil
        $0.listening = nil
      }
      translated = .started(Self.track(track), place: index + 1, count: count)
    }
    if let translated { state.withLock { $0.observer }?(translated) }
    changed()
    // Idle once the observer has the queue's end: a wait woken by it then finds its line.
    if event == .endOfPlaylist { setIdle(true) }
  }

  /// A track of no album of the library, as the engine knows it.
  private static func track(_ track: EngineTrack) -> Track {
    Track(
      albumID: nil, album: track.album, artist: track.artist, discs: max(track.disc ?? 1, 1), disc: track.disc,
      number: track.number, title: track.title, duration: track.duration, path: track.path)
  }

  /// Sets whether nothing plays; going idle wakes the waits.
  private func setIdle(_ value: Bool) {
    state.withLock { state in
      state.idle = value
      if value { state.wakeWaiters() }
    }
  }
}
