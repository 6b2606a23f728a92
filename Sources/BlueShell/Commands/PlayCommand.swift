import AlbumModel
import BlueLibrary
import BluePlayback
import BlueSystem

/// `play [ALBUM] [TRACK]`: play an album (the current one by default) from its first track,
/// or from TRACK; alone, start the waiting queue when nothing plays. `play random [QUERY]`:
/// an album of the view (or of QUERY) picked at random.
struct PlayCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "play", group: .playback, synopsis: "[ALBUM] [TRACK] | random [QUERY] | FILE",
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
      'play FILE' plays a playlist (FILE ends in .m3u, .m3u8 or .pls): the tracks it lists
      that the library holds, in its order (M3U's relative paths are the playlist folder's;
      file:// URLs are paths); one line names the tracks it lists that the library lacks.
      """,
    examples: [
      "play", "play 3", "play \"The Wall\" 5", "play random", "play random genre:jazz", "play ~/Music/road-trip.m3u",
    ],
    arguments: [.album])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    // `play random [QUERY]`: after `random`, a query.
    if let first = previous.first, !first.isQuoted, first.text.lowercased() == "random" { return [.query] }
    return position == 0 ? [.keyword(["random"]), .album] : []
  }

  let album: AlbumReference?
  let track: Int?
  /// `play random [QUERY]`: the query's words (empty: the whole view).
  let random: [Word]?
  /// `play FILE`: a playlist.
  let playlist: PlaylistArgument?

  init(arguments: [Word]) throws(CommandError) {
    playlist = PlaylistArgument(arguments)
    if playlist != nil {
      (album, track, random) = (nil, nil, nil)
      return
    }
    let words = arguments[...]
    if let first = words.first, !first.isQuoted, first.text.lowercased() == "random" {
      random = Array(words.dropFirst())
      (album, track) = (nil, nil)
      return
    }
    random = nil
    (album, track) = try AlbumReference.withTrack(words)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    if let external = environment.processEnvironment["BLUELIB_PLAYER"], !external.allSatisfy(\.isWhitespace) {
      let chosen = try library.tracksToPlay(.album(at: try album.resolve(in: library), fromTrack: track))
      let played = try ExternalPlayer(command: external, environment: environment.processEnvironment).play(
        chosen.tracks[chosen.start...].map(\.path), isInteractive: environment.isInteractive)
      // Stopped (Ctrl-C, or a signal that ends the run): nothing to say.
      guard played else { return .lines([]) }
      return .lines(["played \(quotedTitle(chosen.albums[0])) with '\(TextSanitizer.escaped(external))'"])
    }
    let player = try environment.requiredPlayer()
    let selected = try library.selectedAlbum()?.id
    if let playlist {
      let chosen = try library.tracksToPlay(.playlist(path: playlist.path))
      do throws(PlaybackError) { try player.play(chosen.tracks) } catch { throw CommandError(playback: error) }
      player.madeQueue(whileSelected: selected)
      return .lines(
        ["playing \(playlist.name) (\(Library.counted(player.queue.count, "track")))"]
          + (playlist.missingLine(chosen).map { [$0] } ?? []))
    }
    if let random {
      let chosen = try library.tracksToPlay(
        .random(count: 1, matching: try TypedQuery(words: random).resolve(in: library)))
      let found = chosen.albums[0]
      do throws(PlaybackError) { try player.play(chosen.tracks) } catch { throw CommandError(playback: error) }
      player.madeQueue(whileSelected: selected)
      return .lines([
        "playing \(quotedTitle(found)) by \(TextSanitizer.escaped(found.artist)) "
          + "(\(Library.counted(player.queue.count, "track"))), picked at random of \(albumCount(chosen.pickedAmong ?? 0))"
      ])
    }
    // Alone: the waiting queue, unless another album was picked since it was made.
    if album == nil, track == nil, player.isIdle, !player.queue.isEmpty, player.queueMadeWhileSelected == selected {
      // Files that moved since (and were imported again) are found at their new places.
      player.replaceQueue(library.refound(player.queue))
      do throws(PlaybackError) { try player.playQueue() } catch { throw CommandError(playback: error) }
      return .lines(["playing the queue (\(Library.counted(player.queue.count, "track")))"])
    }
    let chosen = try library.tracksToPlay(.album(at: try album.resolve(in: library), fromTrack: track))
    do throws(PlaybackError) { try player.play(chosen.tracks, from: chosen.start) } catch {
      throw CommandError(playback: error)
    }
    player.madeQueue(whileSelected: selected)
    // What is in the queue: a file the player refused is not.
    return .lines(["playing \(quotedTitle(chosen.albums[0])) (\(Library.counted(player.queue.count, "track")))"])
  }
}
