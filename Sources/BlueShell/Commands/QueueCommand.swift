import BlueLibrary
import BluePlayback
import BlueSystem

/// `queue [ALBUM…|all]`: add albums' tracks to the end of the queue; alone, list the queue.
struct QueueCommand: AlbumChoosingCommand {
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
    let player = try environment.requiredPlayer()
    let library = environment.library
    guard !choice.isEmpty || random != nil else { return .lines(try Self.listing(player)) }
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
        added += try library.tracksToPlay(ofAlbumAt: index).tracks
        albums += 1
      }
    }
    let queued: Int
    do throws(PlaybackError) { queued = try player.enqueue(added) } catch { throw CommandError(playback: error) }
    player.madeQueue(whileSelected: try library.selectedAlbum()?.id)
    return .lines([
      "queued \(albumCount(albums)) (\(Library.counted(queued, "track")))\(picked ?? ""); "
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
