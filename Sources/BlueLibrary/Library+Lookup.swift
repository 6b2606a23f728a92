import AlbumModel
import BlueCovers
import Dispatch
import FoundationEssentials
import Synchronization

/// The albums a `lookup` run asks about, chosen before the first request: their ids in the
/// order they are asked (read a page at a time and kept as ids, 8 bytes an album: never
/// the albums themselves), and how many others were left out, and why.
package struct LookupPlan: Sendable {
  /// The albums to ask about, by id.
  package var ids: [Int64] = []
  /// Albums MusicBrainz had nothing like when asked in the last 30 days (``Library/lookupNoneStands``;
  /// `lookup all` only, and not with `--retry`).
  package var remembered = 0
  /// Albums with a cover or a MusicBrainz id, or no title or artist to look them up by.
  package var leftAlone = 0
}

/// One album's answer, as ``Library/lookUp(_:timeout:progress:shouldStop:report:)`` reports it.
package enum LookupAnswer: Sendable {
  /// The album was given the candidate's release group (the album as stored now).
  case found(Album, MusicBrainzSearch.Candidate)
  /// Several candidates might be the album, or none clearly: the closest, to choose from.
  case unclear(Album, [MusicBrainzSearch.Candidate])
  /// Nothing like it: remembered (``Library/lookupNoneStands``), listed by `find lookup:none`.
  case notFound(Album)
  /// MusicBrainz could not be asked about it, and why.
  case failed(Album, reason: String)
}

/// What a `lookup` run did, in numbers (each album's answer was reported as it came).
package struct LookupOutcome: Sendable {
  package var found = 0
  package var unclear = 0
  package var notFound = 0
  package var failed = 0
  /// The reason of the first failure, for a run in which nothing else happened.
  package var firstFailure: String?
  /// Albums of the plan changed since (a cover given, a title edited, deleted in another
  /// shell): not asked about, or not given what was found for them.
  package var changedSince = 0
  /// Albums of the plan not asked about: the run stopped first.
  package var notAsked = 0
  /// Whether a signal stopped the run.
  package var stopped = false
  /// Why the run gave up: the last of ``Library/lookupFailuresInARow`` failures in a row
  /// (MusicBrainz unreachable, a dead mirror).
  package var gaveUp: String?
  /// The undo step's summary, when albums were given release groups.
  package var step: String?

  /// The albums MusicBrainz was asked about.
  package var asked: Int { found + unclear + notFound + failed }
}

extension Library {
  /// How long MusicBrainz's "nothing like it" stands before `lookup all` asks again: 30 days.
  package static let lookupNoneStands: Int64 = 30 * 86_400

  /// After this many failures in a row a run gives up: MusicBrainz cannot be reached.
  package static let lookupFailuresInARow = 3

  /// Whether `album` is one `lookup` asks about: it has a title and artist, no MusicBrainz
  /// id (from its files, or a `caa:` cover) and no cover of any kind.
  package func needsLookup(_ album: Album) -> Bool {
    !album.title.isEmpty && !album.artist.isEmpty && album.coverURL.isEmpty
  }

  /// The albums a `lookup` run asks about: with `all`, every album of the view (or the
  /// library) that needs it (``needsLookup(_:)``) and, unless `retry`, whose title and
  /// artist MusicBrainz had nothing like in the last 30 days as of `now` (seconds since
  /// 1970; a date after `now` counts as not asked); else the albums at `indices`, asked
  /// about whatever was answered before.
  package func lookupPlan(
    all: Bool, indices: [Int] = [], retry: Bool = false, now: Int64 = Int64(Date().timeIntervalSince1970)
  ) throws(LibraryError) -> LookupPlan {
    let since = all && !retry ? now - Self.lookupNoneStands : nil
    if all {
      // The view's ids as they are now: each album found changes the view (`find
      // art:none` loses it), not the run.
      return try store.lookupPlan(among: view?.ids, missesSince: since, now: now)
    }
    var ids: [Int64] = []
    for index in indices {
      if let id = try album(at: index).id { ids.append(id) }
    }
    return try store.lookupPlan(among: ids, missesSince: since, now: now)
  }

  /// Asks MusicBrainz about each album of `plan` in turn (at most one request a second) and
  /// reports each answer: a clear match is given its release group as its cover
  /// (`caa:release-group/ID`, which `download` fetches from the Cover Art Archive) and
  /// committed at once, every album found in one undo step that grows as they are found;
  /// "nothing like it" is remembered for 30 days (``lookupNoneStands``). `progress` is
  /// called before each album (its 0-based place and the count); `shouldStop` between
  /// them, and while a request waits: a stop keeps what was found.
  ///
  /// No lock is held while MusicBrainz is waited for: the command's read snapshot is ended
  /// first, and each answer is written in a short transaction of its own, so other shells
  /// save meanwhile and a `kill -9` keeps what was found so far.
  ///
  /// A failure is reported once the run goes on past it; after ``lookupFailuresInARow``
  /// failures in a row the run gives up (``LookupOutcome/gaveUp``), those failures not
  /// reported one by one.
  ///
  /// - Important: Blocks the calling thread (not one of Swift's cooperative pool).
  package func lookUp(
    _ plan: LookupPlan, timeout: Duration, progress: (Int, Int, Album) -> Void = { _, _, _ in },
    shouldStop: () -> Bool = { false }, report: (LookupAnswer) throws(LibraryError) -> Void = { _ in }
  ) throws(LibraryError) -> LookupOutcome {
    guard let search = musicBrainz else { throw .database("MusicBrainz look-ups are off in this library") }
    endCommand()
    var outcome = LookupOutcome()
    var step: Int64?
    var failures: [LookupAnswer] = []
    albums: for (place, id) in plan.ids.enumerated() {
      if shouldStop() {
        outcome.stopped = true
        outcome.notAsked = plan.ids.count - place
        break
      }
      // Read again now: another shell may have given it a cover, or deleted it.
      guard let album = try store.album(id: id), needsLookup(album) else {
        outcome.changedSince += 1
        continue
      }
      progress(place, plan.ids.count, album)
      let answer = Self.blocking(shouldStop: shouldStop) { () async throws(CoverFailure) in
        try await search.candidates(title: album.title, artist: album.artist, timeout: timeout)
      }
      guard let answer else {
        outcome.stopped = true
        outcome.notAsked = plan.ids.count - place
        break
      }
      let candidates: [MusicBrainzSearch.Candidate]
      switch answer {
      case .failure(let failure):
        outcome.failed += 1
        outcome.firstFailure = outcome.firstFailure ?? failure.description
        failures.append(.failed(album, reason: failure.description))
        if failures.count >= Self.lookupFailuresInARow {
          outcome.gaveUp = failure.description
          outcome.notAsked = plan.ids.count - place - 1
          failures = []
          break albums
        }
        continue
      case .success(let found):
        candidates = found
      }
      for failure in failures { try report(failure) }
      failures = []
      switch MusicBrainzSearch.match(title: album.title, artist: album.artist, year: album.year, in: candidates) {
      case .clear(let candidate):
        let url = "caa:release-group/" + candidate.id
        let write = try change { (origin) throws(LibraryError) in
          try store.recordLookupFound(
            id: id, title: album.title, artist: album.artist, coverURL: url, extending: step, origin: origin)
        }
        guard case .written(let written) = write else {
          outcome.changedSince += 1
          continue
        }
        step = written
        outcome.found += 1
        var stored = album
        stored.coverURL = url
        try report(.found(stored, candidate))
      case .unclear(let shown):
        if try store.lookupFoundNothing(title: album.title, artist: album.artist) {
          try store.forgetLookupNotFound(title: album.title, artist: album.artist)
        }
        outcome.unclear += 1
        try report(.unclear(album, shown))
      case .none:
        try store.recordLookupNotFound(
          title: album.title, artist: album.artist, at: Int64(Date().timeIntervalSince1970))
        outcome.notFound += 1
        try report(.notFound(album))
      }
    }
    if outcome.gaveUp == nil {
      for failure in failures { try report(failure) }
    }
    if let step { outcome.step = try store.stepSummary(step) }
    return outcome
  }

  /// The index `album` (as read) has in the view, or in the library without one; nil when
  /// the view does not hold it.
  package func index(of album: Album) -> Int? {
    guard let view else { return album.position }
    guard let id = album.id else { return nil }
    return view.ids.firstIndex(of: id)
  }

  /// Whether MusicBrainz had nothing like `album` (its title and artist) when last asked,
  /// and it has no cover: `find lookup:none`, `list -f '$lookup'`.
  package func lookupFoundNothing(for album: Album) throws(LibraryError) -> Bool {
    guard album.coverURL.isEmpty else { return false }
    return try store.lookupFoundNothing(title: album.title, artist: album.artist)
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
