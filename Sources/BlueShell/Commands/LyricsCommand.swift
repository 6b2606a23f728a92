import AlbumModel
import BlueLibrary
import BlueSystem
import BlueText

/// `lyrics [ALBUM] [TRACK]`: a track's lyrics, from an `.lrc` file beside it or embedded in
/// it, without timestamps; long ones through the pager.
struct LyricsCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "lyrics", group: .playback, synopsis: "[ALBUM] [TRACK]",
    summary: "a track's lyrics: the playing track's, or an album's first track's or TRACK's",
    details: """
      Prints the lyrics of the track that plays (or is paused); with nothing playing, of the
      current album's first track; with ALBUM, of its first track, or of TRACK (its place in
      the album's track list, as 'show' lists it). The lyrics come from an LRC file beside
      the track (the same name with .lrc), else from the track itself (ID3 USLT or SYLT,
      Vorbis LYRICS or UNSYNCEDLYRICS, MP4 ©lyr); synced lyrics are printed without their
      timestamps. At a terminal, lyrics taller than the window go through the pager. The
      lyrics of an MPD server's songs are not read yet.
      """,
    examples: ["lyrics", "lyrics 3", "lyrics \"OK Computer\" 2"],
    arguments: [.album])

  let album: AlbumReference?
  let track: Int?

  init(arguments: [Word]) throws(CommandError) {
    (album, track) = try AlbumReference.withTrack(arguments[...])
  }

  /// The track whose lyrics are asked for, as a now-playing line names it.
  private struct Chosen {
    var title: String
    var artist: String
    var path: String
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let chosen = try choose(in: environment)
    if let server = Self.server(of: chosen.path) {
      throw CommandError(
        "lyrics are not read from \(server.kind) yet (\"\(TextSanitizer.escaped(chosen.title))\" is on "
          + "\(server.kind) at \(TextSanitizer.escaped(server.authority)))")
    }
    let file = NowPlaying.fileName(chosen.path)
    let found = Lyrics.find(forTrack: chosen.path)
    guard let lyrics = found.lyrics else {
      let sidecar = NowPlaying.fileName(Lyrics.sidecarPath(of: chosen.path))
      // An .lrc that is there but not read is said, with why: "there is none" would be wrong.
      let beside =
        found.unread.map {
          "\(TextSanitizer.escaped(NowPlaying.fileName($0.path))) beside it is not read: \($0.reason)"
        }
        .joined(separator: "; ")
      throw CommandError(
        "\"\(TextSanitizer.escaped(chosen.title))\" has no lyrics (none embedded in \(TextSanitizer.escaped(file))"
          + (beside.isEmpty ? ", no \(TextSanitizer.escaped(sidecar)) beside it)" : "; " + beside + ")"))
    }
    let kind = lyrics.isSynced ? "synced lyrics" : "lyrics"
    let whence: String
    switch lyrics.source {
    case .sidecar(let path): whence = "\(kind) from \(TextSanitizer.escaped(NowPlaying.fileName(path)))"
    case .embedded: whence = "\(kind) embedded in \(TextSanitizer.escaped(file))"
    }
    let artist = chosen.artist.isEmpty ? "" : " — " + TextSanitizer.escaped(chosen.artist)
    let header = "\"\(TextSanitizer.escaped(chosen.title))\"\(artist) (\(whence))"
    return .lines([header, ""] + lyrics.text.map(TextSanitizer.escaped))
  }

  /// The kind (`MPD`) and place of the server a track's path names (`mpd://HOST:PORT/…`),
  /// nil for a local file: no local path is ever made of a server's song (`../../etc/…`).
  static func server(of path: String) -> (kind: String, authority: String)? {
    guard !path.hasPrefix("/"), let scheme = path.firstRange(of: "://") else { return nil }
    let authority = path[scheme.upperBound...].prefix { $0 != "/" }
    return (path[..<scheme.lowerBound].uppercased(), authority.percentDecoded ?? String(authority))
  }

  /// The playing track when nothing is named and something plays; else the album's track.
  private func choose(in environment: CommandEnvironment) throws -> Chosen {
    if album == nil, track == nil, let playing = environment.player?.status()?.track {
      return Chosen(title: playing.title, artist: playing.artist, path: playing.path)
    }
    let library = environment.library
    let found = try library.album(at: try album.resolve(in: library))
    guard let tracklist = try library.tracklist(of: found), !tracklist.tracks.isEmpty else {
      throw CommandError("\(quotedTitle(found)) has no music files (it did not come from a music folder)")
    }
    let place = (track ?? 1) - 1
    guard tracklist.tracks.indices.contains(place) else {
      throw CommandError("\(quotedTitle(found)) has no track \(track ?? 0) (it has \(tracklist.tracks.count))")
    }
    let picked = tracklist.tracks[place]
    return Chosen(title: picked.displayTitle, artist: picked.artist ?? found.artist, path: picked.path)
  }
}
