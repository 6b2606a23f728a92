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
    // Runs of indices: all of them (never one index each), or those named (the current album).
    var runs: [Range<Int>] = []
    if choice.all {
      runs = [0..<(try library.count())]
    } else {
      for index in try choice.indices(in: library) {
        if let last = runs.last, last.upperBound == index {
          runs[runs.count - 1] = last.lowerBound..<index + 1
        } else {
          runs.append(index..<index + 1)
        }
      }
    }
    let single = !choice.all && runs.count == 1 && runs[0].count == 1
    var started = 0
    var cached = 0
    var local = 0
    // Counts, not titles: `download all` on a million albums without covers keeps no list.
    var withoutCover = 0
    // Albums of a music folder with no art of their own and no MusicBrainz id to ask the
    // Cover Art Archive by.
    var withoutArt = 0
    // The album named alone, when it has no cover URL.
    var lacking: Album?
    // Albums whose cover's source cannot ask (a bad BLUELIB_COVERART_URL), and why.
    var notAsked = 0
    var setupProblem: String?
    // Covers the archive (or the server) said it had none of in the last 30 days, not
    // asked again.
    let noneInArchive = retry || !choice.all ? [] : try library.coversNotInArchive()
    var none = 0
    var noneOnServer = 0
    // Page through the store: `download all` on a huge library never loads it whole.
    // A signal (Ctrl-C, SIGTERM, SIGHUP) stops the requests between pages: on a million
    // albums they take seconds, and the shell must leave within one.
    var stopped = false
    let shouldStop = environment.cancellation.check()
    pages: for indices in runs {
      var start = indices.lowerBound
      while start < indices.upperBound {
        if shouldStop() {
          stopped = true
          break pages
        }
        let end = min(start + 1000, indices.upperBound)
        // Several albums go to the loader as a batch, asked for as slots free up: a
        // million of them cost some 90 bytes each, not a job and a state each.
        var batch = CoverBatch()
        var startedHere = 0
        for album in try library.albums(in: start..<end) {
          guard !album.coverURL.isEmpty else {
            if album.isFromMusicFolder { withoutArt += 1 } else { withoutCover += 1 }
            lacking = album
            continue
          }
          if let problem = library.coverSetupProblem(of: album) {
            notAsked += 1
            setupProblem = problem
            continue
          }
          if noneInArchive.contains(album.coverURL) {
            if album.coverURL.hasPrefix("caa:") { none += 1 } else { noneOnServer += 1 }
            continue
          }
          let isCached = library.coverIsCached(album)
          // A picture in the album's files or folder is read, not downloaded (already, or
          // now): its status line only when it cannot be read.
          if LocalCover.isLocal(album.coverURL) {
            local += 1
          } else if isCached {
            cached += 1
          } else {
            started += 1
            startedHere += 1
          }
          if single {
            // Told before it is asked for, so its outcome cannot come first.
            environment.coverStatus?.expect(startedHere)
            library.requestCover(of: album)
          } else {
            batch.append(album.coverURL, albumTitle: album.title, order: album.position)
          }
        }
        if !single { environment.coverStatus?.expect(startedHere) }
        library.requestCovers(batch)
        start = end
      }
    }
    if single, let lacking {
      let title = "\"\(TextSanitizer.escaped(lacking.title))\""
      throw CommandError(
        lacking.isFromMusicFolder
          ? "\(title) has no art in its files or folder and no MusicBrainz id to look it up by (set a cover with "
            + "'edit cover=URL')"
          : "\(title) has no cover URL (set one with 'edit cover=URL')")
    }
    var parts: [String] = []
    if started > 0 { parts.append("downloading \(Library.counted(started, "cover"))") }
    if cached > 0 { parts.append("\(cached) already cached") }
    if local > 0 { parts.append("reading \(Library.counted(local, "local cover")) (no download)") }
    if withoutCover > 0 { parts.append("\(albumCount(withoutCover)) without a cover URL") }
    if withoutArt > 0 { parts.append("\(albumCount(withoutArt)) with no art and no MusicBrainz id to look it up by") }
    if none > 0 {
      parts.append(
        "\(albumCount(none)) \(none == 1 ? "has" : "have") none in the Cover Art Archive (asked in the last 30 days; "
          + "'download --retry' asks again)")
    }
    if noneOnServer > 0 {
      parts.append(
        "\(albumCount(noneOnServer)) \(noneOnServer == 1 ? "has" : "have") none on the server (asked in the last 30 "
          + "days; 'download --retry' asks again)")
    }
    if stopped { parts.append("stopped by a signal before the rest were asked for") }
    if let setupProblem {
      // Said once, as the command's failure; the other covers asked for go on.
      throw CommandError(
        setupProblem + " (\(albumCount(notAsked)) not asked for"
          + (parts.isEmpty ? ")" : "; " + parts.joined(separator: ", ") + ")"))
    }
    return .lines([parts.isEmpty ? "nothing to download" : parts.joined(separator: ", ")])
  }
}
