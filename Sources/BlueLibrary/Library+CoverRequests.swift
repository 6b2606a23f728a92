import AlbumModel
import BlueCovers

// `download`: the covers of the albums asked for, requested a page of the library at a time
// and counted, for the shell to say.
extension Library {
  /// What asking for covers did (``requestCovers(ofAlbumsAt:retry:shouldStop:expecting:)``),
  /// counted: counts, not titles (`download all` on a million albums without covers keeps no
  /// list).
  package struct CoverRequests: Sendable {
    /// Covers asked for, to download.
    package var started = 0
    /// Covers in the cover cache already.
    package var cached = 0
    /// Covers in the albums' files or folders: read, not downloaded.
    package var local = 0
    /// Albums without a cover URL.
    package var withoutCover = 0
    /// Albums of a music folder with no art of their own and no MusicBrainz id to ask the
    /// Cover Art Archive by.
    package var withoutArt = 0
    /// The last album without a cover URL (the album named alone: why it has none).
    package var lacking: Album?
    /// Covers the Cover Art Archive, or the music server, said it had none of in the last
    /// 30 days: not asked again.
    package var none: (inArchive: Int, onServer: Int) = (0, 0)
    /// Why the covers of some albums cannot be asked for as covers are set up (a bad
    /// BLUELIB_COVERART_URL), and how many albums were not asked for.
    package var setupProblem: (reason: String, albums: Int)?
    /// Whether a signal stopped the requests before the rest were asked for.
    package var stopped = false
  }

  /// Asks in the background for the covers of the albums at `indices` (nil: every album of
  /// the view), a page of the library at a time, so `download all` on a huge library never
  /// loads it whole; several at once go to the loader as a batch (a million of them cost
  /// some 90 bytes each, not a job and a state each), one alone as itself. A cover in the
  /// cache, or in the album's own files (read, not downloaded), or one the archive (or the
  /// server) had none of in the last 30 days (unless `retry`, or albums were named), is
  /// counted, not asked for.
  ///
  /// - Parameters:
  ///   - shouldStop: asked between pages: a signal stops the requests (on a million albums
  ///     they take seconds, and the shell must leave within one).
  ///   - expecting: told, before they are asked for, how many downloads a page starts, so
  ///     that whoever reports their outcomes waits for them.
  package func requestCovers(
    ofAlbumsAt indices: [Int]?, retry: Bool, shouldStop: () -> Bool, expecting: (Int) -> Void
  ) throws(LibraryError) -> CoverRequests {
    // Runs of indices: all of them (never one index each), or those named.
    var runs: [Range<Int>] = []
    if let indices {
      for index in indices {
        if let last = runs.last, last.upperBound == index {
          runs[runs.count - 1] = last.lowerBound..<index + 1
        } else {
          runs.append(index..<index + 1)
        }
      }
    } else {
      runs = [0..<(try count())]
    }
    let single = indices?.count == 1
    let noneInArchive = retry || indices != nil ? [] : try coversNotInArchive()
    var tally = CoverRequests()
    pages: for indices in runs {
      var start = indices.lowerBound
      while start < indices.upperBound {
        if shouldStop() {
          tally.stopped = true
          break pages
        }
        let end = min(start + 1000, indices.upperBound)
        var batch = CoverBatch()
        var startedHere = 0
        for album in try albums(in: start..<end) {
          guard !album.coverURL.isEmpty else {
            if album.isFromMusicFolder { tally.withoutArt += 1 } else { tally.withoutCover += 1 }
            tally.lacking = album
            continue
          }
          if let problem = coverSetupProblem(of: album) {
            tally.setupProblem = (problem, (tally.setupProblem?.albums ?? 0) + 1)
            continue
          }
          if noneInArchive.contains(album.coverURL) {
            if album.coverURL.hasPrefix("caa:") { tally.none.inArchive += 1 } else { tally.none.onServer += 1 }
            continue
          }
          // A picture in the album's files or folder is read, not downloaded (already, or
          // now): its status line only when it cannot be read.
          if LocalCover.isLocal(album.coverURL) {
            tally.local += 1
          } else if coverIsCached(album) {
            tally.cached += 1
          } else {
            tally.started += 1
            startedHere += 1
          }
          if single {
            // Told before it is asked for, so its outcome cannot come first.
            expecting(startedHere)
            requestCover(of: album)
          } else {
            batch.append(album.coverURL, albumTitle: album.title, order: album.position)
          }
        }
        if !single { expecting(startedHere) }
        requestCovers(batch)
        start = end
      }
    }
    return tally
  }
}
