import BlueLibrary
import BluePlayback
import BlueSystem

/// `queue [ALBUM…|all]`: add albums' tracks to the end of the queue; alone, list the queue.
/// `queue clear|remove N…|move N to M|shuffle` change it.
struct QueueCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "queue", group: .playback,
    synopsis: "[ALBUM…|all] | random N [QUERY] | FILE | clear | remove N… | move N to M | shuffle",
    summary: "add albums to the end of the play queue, or change it; alone, list the queue",
    details: """
      Adds the tracks of each ALBUM (an index, a range like 2-4, or a title; 'all' is every
      album of the view that came from a music folder) after the last track of the queue.
      Nothing starts playing: 'play' starts the queue. Alone, lists the queue, the playing
      track marked. 'queue random N' adds N different albums picked at random among the
      view's (with QUERY, among those it matches in the view) that came from a music folder.
      'queue FILE' adds the tracks a playlist lists (.m3u, .m3u8, .pls) that the library
      holds, and names once those it lacks. The queue's tracks are numbered as 'queue' lists them: 'queue remove N…' takes tracks
      out (3, 2-5, 1,4,7-9; the one that plays gives way to the next), 'queue move N to M'
      puts track N at place M, 'queue shuffle' shuffles the tracks after the one that plays
      (all of them when none plays), and 'queue clear' stops and empties the queue. With
      --mpd they change the server's queue (refused once another client changed it);
      'undo' is for the library, not the queue.
      """,
    examples: [
      "queue", "queue 3", "queue 2-4", "find artist:bowie; queue all; play", "queue random 5 genre:jazz",
      "queue ~/Music/road-trip.pls", "queue remove 2 5-7", "queue move 9 to 2", "queue shuffle", "queue clear",
    ],
    arguments: [.album])

  /// What follows `queue` first, to change the queue.
  static let subverbs = ["clear", "remove", "move", "shuffle"]

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    if let first = previous.first, !first.isQuoted, subverbs.contains(first.text.lowercased()) {
      return first.text.lowercased() == "move" && position == 2 ? [.keyword(["to"])] : []
    }
    return position == 0 ? [.keyword(["all", "random"] + subverbs), .album] : [.album]
  }

  /// A change of the queue typed (`queue remove 3`), else nil.
  enum Change {
    case clear
    case remove([Int])
    case move(from: Int, to: Int)
    case shuffle
  }

  let choice: AlbumChoice
  /// `queue random N [QUERY]`: how many albums, and the query's words.
  let random: (count: Int, words: [Word])?
  let change: Change?
  /// `queue FILE`: a playlist.
  let playlist: PlaylistArgument?

  /// The most albums one `queue random` adds.
  static let maximumRandom = 1000

  init(arguments: [Word]) throws(CommandError) {
    playlist = PlaylistArgument(arguments)
    if let first = arguments.first, !first.isQuoted, Self.subverbs.contains(first.text.lowercased()) {
      change = try Self.change(first.text.lowercased(), Array(arguments.dropFirst()))
      random = nil
      choice = try AlbumChoice(arguments: [])
      return
    }
    change = nil
    if playlist != nil {
      random = nil
      choice = try AlbumChoice(arguments: [])
      return
    }
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

  /// The change `verb` (`clear`, `remove`, `move`, `shuffle`) with its `words`.
  private static func change(_ verb: String, _ words: [Word]) throws(CommandError) -> Change {
    switch verb {
    case "clear", "shuffle":
      if let extra = words.first { throw .unexpectedArgument(extra) }
      return verb == "clear" ? .clear : .shuffle
    case "remove":
      guard !words.isEmpty else { throw .missing("N", usage: "queue remove N… (as 'queue' numbers the tracks)") }
      if let word = words.first(where: {
        $0.isQuoted || !TrackNumbers.namesTracks($0.text) || $0.text.lowercased() == "all"
      }) {
        throw CommandError(
          "expected a track number of the queue or a range like 2-5, got \(TextSanitizer.quotedWord(word.text))"
            + (word.text.lowercased() == "all" ? " ('queue clear' empties it)" : ""))
      }
      return .remove(try TrackNumbers.places(words.map(\.text), allowingAll: false) ?? [])
    default:
      let usage = "queue move N to M"
      guard words.count == 3, !words[1].isQuoted, words[1].text.lowercased() == "to" else {
        throw CommandError("expected '\(usage)' (as 'queue' numbers the tracks)")
      }
      func place(_ word: Word) throws(CommandError) -> Int {
        guard word.text.count <= 9, let number = Int(word.text), number >= 1 else {
          throw CommandError("expected a track number of the queue, got \(TextSanitizer.quotedWord(word.text))")
        }
        return number
      }
      return .move(from: try place(words[0]), to: try place(words[2]))
    }
  }

  /// Makes `change` to the queue of `player`.
  private func execute(_ change: Change, on player: Player) throws -> CommandOutcome {
    let count = player.queue.count
    func refused(_ places: [Int]) -> CommandError {
      let missing = places.filter { $0 > count }
      return CommandError(
        "the queue has no track\(missing.count == 1 ? "" : "s") \(TrackNumbers.listed(missing)) "
          + "(it has \(Library.counted(count, "track")))")
    }
    switch change {
    case .remove(let places): guard places.allSatisfy({ $0 <= count }) else { throw refused(places) }
    case .move(let from, let to): guard from <= count, to <= count else { throw refused([from, to]) }
    default: break
    }
    do throws(PlaybackError) {
      switch change {
      case .clear:
        guard count > 0 else { return .lines(["the queue is empty already"]) }
        try player.clearQueue()
        return .lines(["cleared the queue (\(Library.counted(count, "track")))"])
      case .remove(let places):
        try player.removeFromQueue(places)
        return .lines([
          "removed \(Library.counted(places.count, "track")) from the queue; "
            + "\(Library.counted(player.queue.count, "track")) in the queue"
        ])
      case .move(let from, let to):
        guard from != to else { return .lines(["track \(from) is at place \(to) already"]) }
        let track = player.queue[from - 1]
        try player.moveInQueue(from: from, to: to)
        return .lines(["moved track \(from) to \(to): " + NowPlaying.describe(track)])
      case .shuffle:
        guard count > 1 else { return .lines([count == 0 ? "the queue is empty" : "one track: nothing to shuffle"]) }
        var generator = SystemRandomNumberGenerator()
        try player.shuffleQueue(using: &generator)
        let playing = player.status()?.place
        return .lines([
          "shuffled \(Library.counted(count - (playing ?? 0), "track"))"
            + (playing.map { " after the one that plays (\($0) of \(count))" } ?? " of the queue")
        ])
      }
    } catch {
      throw CommandError(playback: error)
    }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let player = try environment.requiredPlayer()
    let library = environment.library
    if let change { return try execute(change, on: player) }
    if let playlist {
      let chosen = try library.tracksToPlay(.playlist(path: playlist.path))
      let queued: Int
      do throws(PlaybackError) { queued = try player.enqueue(chosen.tracks) } catch {
        throw CommandError(playback: error)
      }
      player.madeQueue(whileSelected: try library.selectedAlbum()?.id)
      return .lines(
        [
          "queued \(playlist.name) (\(Library.counted(queued, "track"))); "
            + "\(Library.counted(player.queue.count, "track")) in the queue"
        ] + (playlist.missingLine(chosen).map { [$0] } ?? []))
    }
    guard !choice.isEmpty || random != nil else { return .lines(try Self.listing(player)) }
    let chosen: Library.TracksToPlay
    var picked: String?
    if let random {
      chosen = try library.tracksToPlay(
        .random(count: random.count, matching: try TypedQuery(words: random.words).resolve(in: library)))
      picked =
        ", picked at random of \(albumCount(chosen.pickedAmong ?? 0))"
        + (chosen.albums.count < random.count ? " (only \(chosen.albums.count) came from a music folder)" : "")
    } else if choice.all {
      chosen = try library.tracksToPlay(.view)
    } else {
      chosen = try library.tracksToPlay(.albums(at: try choice.indices(in: library)))
    }
    let queued: Int
    do throws(PlaybackError) { queued = try player.enqueue(chosen.tracks) } catch {
      throw CommandError(playback: error)
    }
    player.madeQueue(whileSelected: try library.selectedAlbum()?.id)
    return .lines([
      "queued \(albumCount(chosen.albums.count)) (\(Library.counted(queued, "track")))\(picked ?? ""); "
        + "\(Library.counted(player.queue.count, "track")) in the queue"
    ])
  }

  /// `  1. Pink Floyd — The Wall — 01 In the Flesh? (3:16)`, the playing one marked `▶`.
  static func listing(_ player: Player) throws(PlaybackError) -> [String] {
    let queue = player.queue
    guard !queue.isEmpty else { return ["the queue is empty ('queue ALBUM' adds an album)"] }
    let playing = player.status()?.place
    // A music server gone says so, not a queue it may no longer play.
    if playing == nil { try player.checkReachable() }
    let width = String(queue.count).count
    return queue.enumerated().map { index, track in
      let number = String(index + 1)
      return (playing == index + 1 ? "▶ " : "  ") + String(repeating: " ", count: width - number.count) + number
        + ". " + NowPlaying.describe(track)
    } + ["\(Library.counted(queue.count, "track")) in the queue"]
  }
}
