import AlbumModel
import BlueLibrary
import BluePlayback

// Playing albums from music folders: `play`, `queue`, `pause`, `next`, `prev`, `stop`,
// `seek`, `volume`, `now`. The engine's events come back as status lines above the prompt
// (``NowPlaying``), by the path the cover downloads' lines take.

/// The player of the environment, or the error that says there is none.
private func player(in environment: CommandEnvironment) throws -> Player {
  guard let player = environment.player else { throw CommandError("playback is off in this shell") }
  return player
}

/// The error of a command whose playback failed: for tracks the engine refused, the first
/// one asked for and why; files gone are most often a folder moved or a disk not mounted.
private func failure(_ error: PlaybackError) -> CommandError {
  guard let refusal = error.refusal else { return CommandError(error.description) }
  if refusal.problem == .gone {
    return CommandError(
      "the files of \"\(TextSanitizer.escaped(refusal.track.album))\" are gone "
        + "(\(TextSanitizer.escaped(refusal.track.path)): \(refusal.problem)); 'import DIR' finds them if they moved")
  }
  return CommandError(
    "cannot play \(TextSanitizer.escaped(NowPlaying.fileName(refusal.track.path))): \(refusal.problem)")
}

/// The status lines of playback events.
enum NowPlaying {
  /// `▶ Pink Floyd — The Wall — 1-03 Another Brick in the Wall (3:11)`.
  static func line(_ event: Player.Event) -> String {
    switch event {
    case .started(let track, _, _): "▶ " + describe(track)
    case .failed(let track, let reason):
      "✗ cannot play \(TextSanitizer.escaped(fileName(track.path))): \(TextSanitizer.escaped(reason)); skipped"
    case .endOfQueue: "■ end of the queue"
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

/// The tracks of the album at `index`, or an error saying it has none to play.
private func tracks(ofAlbumAt index: Int, in library: Library) throws -> (album: Album, tracks: [Player.Track]) {
  let album = try library.album(at: index)
  let tracks = try library.playableTracks(of: album)
  guard !tracks.isEmpty else {
    throw CommandError("\(quotedTitle(album)) has no music files to play (it did not come from a music folder)")
  }
  return (album, tracks)
}

/// Where in `tracks` TRACK is, its number in the album's track list (1-based, as `show` lists
/// them): the first track without one, an error for a number the album does not have.
private func place(ofTrack track: Int?, in tracks: [Player.Track], of album: Album) throws(CommandError) -> Int {
  guard let track else { return 0 }
  // Compared as typed, before any arithmetic: the number may be Int.min.
  guard track >= 1 && track <= tracks.count else {
    throw CommandError("\(quotedTitle(album)) has no track \(track) (it has \(tracks.count))")
  }
  return track - 1
}

/// `play [ALBUM] [TRACK]`: play an album (the current one by default) from its first track,
/// or from TRACK; alone, start the waiting queue when nothing plays. `play random [QUERY]`:
/// an album of the view (or of QUERY) picked at random.
struct PlayCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "play", group: .playback, synopsis: "[ALBUM] [TRACK] | random [QUERY]",
    summary: "play an album from a music folder (the current one by default), from TRACK",
    details: """
      Replaces the queue with the album's tracks, in disc and track order, and plays them
      from the first (or from TRACK, its place in the album's track list: 'show' lists
      them). Alone, 'play' plays the current album; it resumes the waiting queue instead
      when nothing plays and the current album is still the one that was current when the
      queue was made or added to ('tap 3; play' plays album 3, whatever waits). A queue
      whose files moved (and were imported again) plays from their new places. A status line above the prompt says what starts; a file
      that cannot be played is skipped with a line naming it. In a script (-c, --script,
      piped), bluelib plays to the end of the queue before it exits. With BLUELIB_PLAYER set
      (say 'mpv --no-video'), that command plays the album instead: its files, in order, are
      its arguments, it has the terminal, and the prompt returns when it exits; SIGTERM and
      SIGHUP are passed on to it, and bluelib leaves at once.
      'play random' plays an album picked at random among the view's (with QUERY, among
      those it matches in the view) that came from a music folder; 'play "Random"' plays
      the album titled Random. 'repeat on' plays the queue again after its end.
      """,
    examples: ["play", "play 3", "play \"The Wall\" 5", "play random", "play random genre:jazz"],
    arguments: [.album])

  let album: AlbumReference?
  let track: Int?
  /// `play random [QUERY]`: the query's words (empty: the whole view).
  let random: [Word]?

  init(arguments: [Word]) throws(CommandError) {
    var words = arguments[...]
    if let first = words.first, !first.isQuoted, first.text.lowercased() == "random" {
      random = Array(words.dropFirst())
      (album, track) = (nil, nil)
      return
    }
    random = nil
    if words.count >= 2, let last = words.last, !last.isQuoted, let number = Int(last.text) {
      track = number
      words = words.dropLast()
    } else {
      track = nil
    }
    album = words.isEmpty ? nil : try AlbumReference(restOfLine: words)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    if let external = processEnvironment()["BLUELIB_PLAYER"], !external.allSatisfy(\.isWhitespace) {
      let (found, tracks) = try tracks(ofAlbumAt: try album.resolve(in: library), in: library)
      let start = try place(ofTrack: track, in: tracks, of: found)
      let played = try ExternalPlayer(command: external).play(
        tracks[start...].map(\.path), isInteractive: environment.isInteractive)
      // Stopped (Ctrl-C, or a signal that ends the run): nothing to say.
      guard played else { return .lines([]) }
      return .lines(["played \(quotedTitle(found)) with '\(TextSanitizer.escaped(external))'"])
    }
    let player = try player(in: environment)
    let selected = try library.selectedAlbum()?.id
    if let random {
      let pick = try RandomAlbums(count: 1, matching: random, in: library)
      let (found, tracks) = pick.picked[0]
      do throws(PlaybackError) { try player.play(tracks) } catch { throw failure(error) }
      player.madeQueue(whileSelected: selected)
      return .lines([
        "playing \(quotedTitle(found)) by \(TextSanitizer.escaped(found.artist)) "
          + "(\(Library.counted(player.queue.count, "track"))), picked at random of \(albumCount(pick.among))"
      ])
    }
    // Alone: the waiting queue, unless another album was picked since it was made.
    if album == nil, track == nil, player.isIdle, !player.queue.isEmpty, player.queueMadeWhileSelected == selected {
      // Files that moved since (and were imported again) are found at their new places.
      player.replaceQueue(library.refound(player.queue))
      do throws(PlaybackError) { try player.playQueue() } catch { throw failure(error) }
      return .lines(["playing the queue (\(Library.counted(player.queue.count, "track")))"])
    }
    let (found, tracks) = try tracks(ofAlbumAt: try album.resolve(in: library), in: library)
    let start = try place(ofTrack: track, in: tracks, of: found)
    do throws(PlaybackError) { try player.play(tracks, from: start) } catch { throw failure(error) }
    player.madeQueue(whileSelected: selected)
    // What is in the queue: a file the player refused is not.
    return .lines(["playing \(quotedTitle(found)) (\(Library.counted(player.queue.count, "track")))"])
  }
}

/// `queue [ALBUM…|all]`: add albums' tracks to the end of the queue; alone, list the queue.
struct QueueCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "queue", group: .playback, synopsis: "[ALBUM…|all] | random N [QUERY]",
    summary: "add albums to the end of the play queue; alone, list the queue",
    details: """
      Adds the tracks of each ALBUM (an index, a range like 2-4, or a title; 'all' is every
      album of the view that came from a music folder) after the last track of the queue.
      Nothing starts playing: 'play' starts the queue. Alone, lists the queue, the playing
      track marked. 'queue random N' adds N different albums picked at random among the
      view's (with QUERY, among those it matches in the view) that came from a music folder.
      """,
    examples: [
      "queue", "queue 3", "queue 2-4", "find artist:bowie; queue all; play", "queue random 5 genre:jazz",
    ],
    arguments: [.album])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    AlbumChoice.completionKinds(at: position)
  }

  let choice: AlbumChoice
  /// `queue random N [QUERY]`: how many albums, and the query's words.
  let random: (count: Int, words: [Word])?

  /// The most albums one `queue random` adds.
  static let maximumRandom = 1000

  init(arguments: [Word]) throws(CommandError) {
    if let first = arguments.first, !first.isQuoted, first.text.lowercased() == "random" {
      guard arguments.count >= 2 else { throw CommandError("missing N: 'queue random N' adds N albums (like 5)") }
      let word = arguments[1]
      guard let count = Int(word.text), (1...Self.maximumRandom).contains(count) else {
        throw CommandError(
          "'queue random' takes a number of albums from 1 to \(Self.maximumRandom), "
            + "not '\(TextSanitizer.escaped(word.text))'")
      }
      random = (count, Array(arguments.dropFirst(2)))
      choice = try AlbumChoice(arguments: [])
      return
    }
    random = nil
    choice = try AlbumChoice(arguments: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try player(in: environment)
    let library = environment.library
    guard !choice.isEmpty || random != nil else { return .lines(Self.listing(player)) }
    var added: [Player.Track] = []
    var albums = 0
    var picked: String?
    if let random {
      let pick = try RandomAlbums(count: random.count, matching: random.words, in: library)
      added = pick.picked.flatMap(\.tracks)
      albums = pick.picked.count
      picked =
        ", picked at random of \(albumCount(pick.among))"
        + (albums < random.count ? " (only \(albums) came from a music folder)" : "")
    } else if choice.all {
      for album in try library.albums(in: 0..<(try library.count())) {
        let tracks = try library.playableTracks(of: album)
        if !tracks.isEmpty { albums += 1 }
        added += tracks
      }
      guard !added.isEmpty else { throw CommandError("no album of the view came from a music folder") }
    } else {
      for index in try choice.indices(in: library) {
        added += try tracks(ofAlbumAt: index, in: library).tracks
        albums += 1
      }
    }
    let queued: Int
    do throws(PlaybackError) { queued = try player.enqueue(added) } catch { throw failure(error) }
    player.madeQueue(whileSelected: try library.selectedAlbum()?.id)
    return .lines([
      "queued \(albumCount(albums)) (\(Library.counted(queued, "track")))\(picked ?? ""); "
        + "\(Library.counted(player.queue.count, "track")) in the queue"
    ])
  }

  /// `  1. Pink Floyd — The Wall — 01 In the Flesh? (3:16)`, the playing one marked `▶`.
  static func listing(_ player: Player) -> [String] {
    let queue = player.queue
    guard !queue.isEmpty else { return ["the queue is empty ('queue ALBUM' adds an album)"] }
    let playing = player.status()?.place
    let width = String(queue.count).count
    return queue.enumerated().map { index, track in
      let number = String(index + 1)
      return (playing == index + 1 ? "▶ " : "  ") + String(repeating: " ", count: width - number.count) + number
        + ". " + NowPlaying.describe(track)
    } + ["\(Library.counted(queue.count, "track")) in the queue"]
  }
}

/// `pause`: pause what plays, or resume it.
struct PauseCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "pause", group: .playback, synopsis: "", summary: "pause what plays, or resume it",
    details: "Toggles: a second 'pause' resumes.", examples: ["pause"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    guard let paused = try player(in: environment).togglePause() else { throw CommandError("nothing is playing") }
    return .lines([paused ? "paused" : "playing"])
  }
}

/// `next` and `prev`: the next or previous track of the queue.
struct NextCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "next", group: .playback, synopsis: "", summary: "play the next track of the queue",
    details: "At the last track of the queue, says there is no next one.", examples: ["next"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    guard try player(in: environment).skip(by: 1) else { throw CommandError("no next track in the queue") }
    return .lines([])
  }
}

/// `prev`: the previous track of the queue.
struct PrevCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "prev", group: .playback, synopsis: "", summary: "play the previous track of the queue",
    details: "At the first track of the queue, says there is no previous one.", examples: ["prev"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    guard try player(in: environment).skip(by: -1) else { throw CommandError("no previous track in the queue") }
    return .lines([])
  }
}

/// `stop`: stop playing; the queue stays.
struct StopCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "stop", group: .playback, synopsis: "", summary: "stop playing (the queue stays for 'play')",
    details: "Stops at once; 'play' alone starts the queue again from its first track.", examples: ["stop"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try player(in: environment)
    guard !player.isIdle else { throw CommandError("nothing is playing") }
    player.stop()
    return .lines(["stopped"])
  }
}

/// `seek [+|-]TIME`: to a time in the track, or by one.
struct SeekCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "seek", group: .playback, synopsis: "[+|-]TIME",
    summary: "go to TIME in the playing track, or by +TIME / -TIME",
    details: "TIME is seconds (90) or M:SS (1:30); a sign makes it relative: 'seek +10', 'seek -0:30'.",
    examples: ["seek 1:30", "seek +10", "seek -30"])

  let seconds: Double
  let relative: Bool

  init(arguments: [Word]) throws(CommandError) {
    guard let word = arguments.first else { throw CommandError("missing TIME (like 1:30, +10 or -30)") }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    var text = Substring(word.text)
    var sign = 0.0
    if let first = text.first, first == "+" || first == "-" {
      sign = first == "+" ? 1 : -1
      text = text.dropFirst()
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
      let last = Double(parts[parts.count - 1]), parts.count == 1 || last < 60
    else {
      throw CommandError("'\(TextSanitizer.escaped(word.text))' is not a time (like 90, 1:30, +10 or -0:30)")
    }
    let total = (parts.count == 2 ? (Double(parts[0]) ?? 0) * 60 : 0) + last
    seconds = sign == 0 ? total : sign * total
    relative = sign != 0
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try player(in: environment)
    guard let status = player.status() else { throw CommandError("nothing is playing") }
    let target = max(0, min(relative ? status.time + seconds : seconds, status.track.duration))
    player.seek(target, relative: false)
    return .lines(["at \(Album.length(target)) of \(Album.length(status.track.duration))"])
  }
}

/// `volume [0-100]`: say or set the volume.
struct VolumeCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "volume", group: .playback, synopsis: "[0-100]", summary: "say the volume, or set it (0-100)",
    details: "The player's own volume, not the system's.", examples: ["volume", "volume 60"])

  let level: Int?

  init(arguments: [Word]) throws(CommandError) {
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    guard let word = arguments.first else {
      level = nil
      return
    }
    guard let number = Int(word.text), (0...100).contains(number) else {
      throw CommandError("volume is 0 to 100, got '\(TextSanitizer.escaped(word.text))'")
    }
    level = number
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try player(in: environment)
    if let level {
      do throws(PlaybackError) { try player.setVolume(level) } catch { throw failure(error) }
    }
    return .lines(["volume \(level ?? player.volume)"])
  }
}

/// `now`: what plays, where in it, and its place in the queue.
struct NowCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "now", group: .playback, synopsis: "",
    summary: "what plays now: the track, how far in, its place in the queue",
    details: """
      `▶ Pink Floyd — The Wall — 03 Another Brick in the Wall (3:11), 1:02 of 3:11, track 3 of 26`,
      then the ReplayGain applied (`ReplayGain album −7.30 dB`; see 'replaygain') and
      whether the queue repeats; for a track with synced lyrics, the line sung now.
      """,
    examples: ["now"])

  init(arguments: [Word]) throws(CommandError) {
    if let extra = arguments.first { throw .unexpectedArgument(extra) }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try player(in: environment)
    guard let status = player.status() else { return .lines(["nothing is playing"]) }
    var lines = [
      (status.paused ? "⏸ " : "▶ ") + NowPlaying.describe(status.track)
        + ", \(Album.length(status.time)) of \(Album.length(status.track.duration)), track \(status.place) of \(status.count)"
    ]
    let gain = player.appliedGain().map(\.description) ?? "ReplayGain off"
    lines.append("  " + gain + (player.repeats ? "; the queue repeats" : ""))
    if let lyrics = Lyrics.read(forTrack: status.track.path), lyrics.isSynced,
      let sung = lyrics.line(at: status.time), !sung.isEmpty
    {
      lines.append("  ♪ " + TextSanitizer.escaped(sung))
    }
    return .lines(lines)
  }
}
