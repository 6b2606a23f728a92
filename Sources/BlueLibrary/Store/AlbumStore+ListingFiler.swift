import AlbumModel
import Dispatch
internal import MusicFolder
import MusicSource
import Synchronization

extension AlbumStore {
  /// Stages a listing's windows of songs on a thread of its own, in the order they were
  /// handed over, while the source reads and parses the next window: the two took turns on
  /// one core before (the parse was an eighth of a first sync, the staging and grouping
  /// half). The songs are made ready and grouped as they come (``ListingGrouper``) on the
  /// thread that hands them over; the staging's thread writes the songs and the albums.
  ///
  /// At most two windows wait to be staged: the thread that hands them over waits for room,
  /// so what a listing holds stays a few windows, whatever the source's size. A failure
  /// stops the staging; ``file(_:)`` then says so and ``finish()`` throws it.
  ///
  /// - Important: One thread hands windows over and calls ``finish()``: the grouper and the
  ///   count of songs handed over are that thread's. What the staging holds (its albums'
  ///   writer, its counts, its failure) is touched only by the filer's queue, which
  ///   ``finish()`` waits for before reading it.
  final class ListingFiler: @unchecked Sendable {
    private let store: AlbumStore
    private let root: String
    private let grouping: Bool
    private let queue = DispatchQueue(label: "bluelib.listing.filer")
    private let room = DispatchSemaphore(value: 2)
    private let pending = DispatchGroup()

    // The handing thread's.
    /// The grouping of the songs as they come (a new one when the listing starts again).
    private var grouper: ListingGrouper
    /// The songs handed over since the listing (last) started: the next takes the row after.
    private var handed: Int64 = 0

    // The queue's.
    private var staging: BuiltStaging
    /// How many songs were staged (new paths: a song listed twice counts once).
    private var staged = 0
    /// Whether every album of the listing was staged as the songs came (``finish()``).
    private var allWritten = false
    private var failure: LibraryError?
    private let failed = Atomic<Bool>(false)
    /// Set by the queue when a song did not get the row foreseen: the grouper gives up too
    /// (one set before a listing started again and read after only makes it group after).
    private let stoppedWriting = Atomic<Bool>(false)

    /// A filer of the listing of the source whose root is `root`, into staging tables
    /// ``AlbumStore/beginListing()`` made; `grouping`: whether the songs are grouped as they come.
    init(store: AlbumStore, root: String, grouping: Bool) {
      self.store = store
      self.root = root
      self.grouping = grouping
      grouper = ListingGrouper(grouping: grouping)
      staging = BuiltStaging(grouping: grouping)
    }

    /// Hands `songs` over to be staged after those handed over before, grouping them on this
    /// thread; waits while two windows wait. False once a window failed (nothing more is staged).
    func file(_ songs: [SourceTrack]) -> Bool {
      if failed.load(ordering: .acquiring) { return false }
      if grouper.isGrouping && stoppedWriting.load(ordering: .relaxed) { grouper.giveUp() }
      let window = AlbumStore.window(of: songs, root: root, firstRow: handed + 1)
      handed += Int64(songs.count)
      grouper.take(window.songs)
      let grouped = grouper.takeGrouped()
      return run { filer throws(LibraryError) in
        filer.staged += try filer.store.stage(window, grouped: grouped, into: &filer.staging)
        if !filer.staging.isWriting { filer.stoppedWriting.store(true, ordering: .relaxed) }
      }
    }

    /// Hands `albums` (listed without their tracks) over to be staged, as ``file(_:)`` does songs.
    func file(_ albums: [SourceAlbum]) -> Bool {
      run { filer throws(LibraryError) in
        filer.staged += try filer.store.stageAlbums(albums, root: filer.root)
      }
    }

    /// Forgets what was staged, after what waits (a listing that starts again).
    func startAgain() -> Bool {
      grouper = ListingGrouper(grouping: grouping)
      handed = 0
      return run { filer throws(LibraryError) in
        try filer.store.beginListing()
        // The old writer's statements let go with the database's lock held.
        try filer.store.reading { _ in filer.staging = BuiltStaging(grouping: filer.grouping) }
        filer.staged = 0
        filer.stoppedWriting.store(false, ordering: .relaxed)
      }
    }

    /// Groups what the grouper still holds and waits until every window handed over is
    /// staged; the songs staged and whether the albums of every one were staged as they came
    /// (else ``AlbumStore/groupListing(grouped:)`` groups them), or the failure that stopped
    /// the staging.
    func finish() throws(LibraryError) -> (staged: Int, grouped: Bool) {
      grouper.finish()
      let grouped = grouper.takeGrouped()
      _ = run { filer throws(LibraryError) in
        filer.allWritten = try filer.store.finishStaging(grouped, &filer.staging)
      }
      pending.wait()
      if let failure { throw failure }
      return (staged, allWritten)
    }

    /// Waits until every window handed over is staged, whatever happened, and lets go of the
    /// staging's statements with the database's lock held (a failed or stopped listing
    /// leaves its writer: the filer itself may be let go last by its queue's thread).
    func waitUntilDone() {
      pending.wait()
      try? store.reading { _ in staging = BuiltStaging(grouping: false) }
    }

    private func run(_ work: @escaping @Sendable (ListingFiler) throws(LibraryError) -> Void) -> Bool {
      if failed.load(ordering: .acquiring) { return false }
      room.wait()
      pending.enter()
      queue.async { [self] in
        defer {
          room.signal()
          pending.leave()
        }
        guard failure == nil else { return }
        do throws(LibraryError) {
          try work(self)
        } catch {
          failure = error
          failed.store(true, ordering: .releasing)
        }
      }
      return true
    }
  }
}
