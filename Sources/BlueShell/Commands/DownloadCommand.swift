import AlbumModel
import BlueCovers
import BlueLibrary
import BlueSystem

/// `download [ALBUM…|all]`: start cover downloads in the background and return at once.
struct DownloadCommand: AlbumChoosingCommand {
  static let configuration = CommandConfiguration(
    verb: "download", group: .covers, synopsis: "[--retry] [ALBUM…|all]",
    summary: "download covers in the background (the current album's by default)",
    details: """
      Returns at once; a status line reports each finished download (bytes, or the reason it
      failed). Covers are cached on disk, so a cached cover is not fetched again; a failed one
      can be retried with 'download' again. 'wait' blocks until they are done. ALBUM is an
      index, a range (2-4) or a title, several at once; 'all' is every album of the view. A
      cover in an album's files or folder is read, not downloaded: a line says so only when
      it cannot be read. An album of a music folder with no art of its own whose tags carry
      MusicBrainz ids gets the Cover Art Archive's cover (BLUELIB_COVERART_URL: a mirror).
      A batch ends with a line summing it up. An album the archive had no cover for, or
      (--mpd) whose songs have no picture on the server and no cover file in their folder, is
      remembered: 'download all' leaves it out for 30 days (an answer dated after now, from a
      wrong clock, counts as not asked), and 'download --retry' asks again. No lock is held
      while covers download: other shells save meanwhile.
      """,
    examples: ["download", "download all", "download 3; wait", "download 1-3 5", "download --retry all"],
    arguments: [.album])

  let choice: AlbumChoice
  /// `--retry`: ask the archive (or the server) again for covers it had none of in the last
  /// 30 days.
  let retry: Bool

  init(arguments: [Word]) throws(CommandError) {
    (choice, retry) = try AlbumChoice.parse(arguments, option: "--retry")
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    guard library.fetchesCovers else { throw CommandError("cover downloads are off in this shell") }
    // The library pages through the albums and counts; the shell says what it did.
    let indices = choice.all ? nil : try choice.indices(in: library)
    let tally = try library.requestCovers(
      ofAlbumsAt: indices, retry: retry, shouldStop: environment.cancellation.check(),
      expecting: { environment.coverStatus?.expect($0) })
    // The album named alone, when it has no cover URL.
    if indices?.count == 1, let lacking = tally.lacking {
      let title = "\"\(TextSanitizer.escaped(lacking.title))\""
      throw CommandError(
        lacking.isFromMusicFolder
          ? "\(title) has no art in its files or folder and no MusicBrainz id to look it up by (set a cover with "
            + "'edit cover=URL')"
          : "\(title) has no cover URL (set one with 'edit cover=URL')")
    }
    var parts: [String] = []
    if tally.started > 0 { parts.append("downloading \(Library.counted(tally.started, "cover"))") }
    if tally.cached > 0 { parts.append("\(tally.cached) already cached") }
    if tally.local > 0 { parts.append("reading \(Library.counted(tally.local, "local cover")) (no download)") }
    if tally.withoutCover > 0 { parts.append("\(albumCount(tally.withoutCover)) without a cover URL") }
    if tally.withoutArt > 0 {
      parts.append("\(albumCount(tally.withoutArt)) with no art and no MusicBrainz id to look it up by")
    }
    for (count, place) in [(tally.none.inArchive, "in the Cover Art Archive"), (tally.none.onServer, "on the server")]
    where count > 0 {
      parts.append(
        "\(albumCount(count)) \(count == 1 ? "has" : "have") none \(place) (asked in the last 30 days; "
          + "'download --retry' asks again)")
    }
    if tally.stopped { parts.append("stopped by a signal before the rest were asked for") }
    if let (setupProblem, notAsked) = tally.setupProblem {
      // Said once, as the command's failure; the other covers asked for go on.
      throw CommandError(
        setupProblem + " (\(albumCount(notAsked)) not asked for"
          + (parts.isEmpty ? ")" : "; " + parts.joined(separator: ", ") + ")"))
    }
    return .lines([parts.isEmpty ? "nothing to download" : parts.joined(separator: ", ")])
  }
}
