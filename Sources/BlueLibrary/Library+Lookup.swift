import AlbumModel
import BlueCovers
import Foundation
import Synchronization

/// What `lookup` found for a run of albums.
public struct LookupOutcome: Sendable {
  /// The albums given a release group, with it (stored as one undoable step).
  public var found: [(album: Album, candidate: MusicBrainzSearch.Candidate)] = []
  /// The albums with several possible release groups, or none clearly theirs.
  public var unclear: [(album: Album, candidates: [MusicBrainzSearch.Candidate])] = []
  /// The albums MusicBrainz has nothing like.
  public var notFound: [Album] = []
  /// The albums whose search failed, and why.
  public var failed: [(album: Album, reason: String)] = []
  /// Whether a signal stopped the run before every album was asked about.
  public var stopped = false
  /// The step's summary, when albums were given ids.
  public var step: String?
}

extension Library {
  /// Whether `album` is one `lookup` asks about: it has a title and artist, no MusicBrainz
  /// id (from its files, or a `caa:` cover) and no cover of any kind.
  public func needsLookup(_ album: Album) -> Bool {
    !album.title.isEmpty && !album.artist.isEmpty && album.coverURL.isEmpty
  }

  /// Asks MusicBrainz about each of `albums` in turn (at most one request a second), and
  /// gives each clear match its release group as its cover (`caa:release-group/ID`, which
  /// `download` fetches from the Cover Art Archive), all in one undoable step. `progress` is
  /// called before each album (its 0-based place and the count); `shouldStop` between them,
  /// and while a request waits: a stop keeps what was found.
  ///
  /// - Important: Blocks the calling thread (not one of Swift's cooperative pool).
  public func lookUp(
    _ albums: [Album], timeout: Duration, progress: (Int, Int, Album) -> Void = { _, _, _ in },
    shouldStop: () -> Bool = { false }
  ) throws(LibraryError) -> LookupOutcome {
    guard let search = musicBrainz else { throw .database("MusicBrainz look-ups are off in this library") }
    var outcome = LookupOutcome()
    for (place, album) in albums.enumerated() {
      if shouldStop() {
        outcome.stopped = true
        break
      }
      progress(place, albums.count, album)
      let answer = Self.blocking(shouldStop: shouldStop) { () async throws(CoverFailure) in
        try await search.candidates(title: album.title, artist: album.artist, timeout: timeout)
      }
      switch answer {
      case nil:
        outcome.stopped = true
      case .failure(let failure):
        outcome.failed.append((album, failure.description))
      case .success(let candidates):
        switch MusicBrainzSearch.match(title: album.title, artist: album.artist, year: album.year, in: candidates) {
        case .clear(let candidate): outcome.found.append((album, candidate))
        case .unclear(let candidates): outcome.unclear.append((album, candidates))
        case .none: outcome.notFound.append(album)
        }
      }
      if outcome.stopped { break }
    }
    guard !outcome.found.isEmpty else { return outcome }
    let edited = outcome.found.map { album, candidate in
      var changed = album
      changed.coverURL = "caa:release-group/" + candidate.id
      return changed
    }
    try edit(edited)
    outcome.step = try changeLog(limit: 1).first?.summary
    return outcome
  }

  /// `work`'s result, waited for on this thread; nil when `shouldStop` said so first (the
  /// work is cancelled then).
  private static func blocking<T: Sendable>(
    shouldStop: () -> Bool, _ work: @escaping @Sendable () async throws(CoverFailure) -> T
  ) -> Result<T, CoverFailure>? {
    let result = Mutex<Result<T, CoverFailure>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let task = Task.detached {
      do throws(CoverFailure) {
        let value = try await work()
        result.withLock { $0 = .success(value) }
      } catch {
        result.withLock { $0 = .failure(error) }
      }
      done.signal()
    }
    while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
      if shouldStop() {
        task.cancel()
        return nil
      }
    }
    return result.withLock { $0 }
  }
}
