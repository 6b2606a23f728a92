import AlbumModel
import BlueSystem
internal import MusicFolder
import MusicSource

// The one way albums come in from a source of them — a music folder of this machine, a
// music server — whatever the source: what the last import of it saw is asked first (the
// `source` table: a source as it was then is not read again), then its tracks are read or
// listed, grouped into albums by the music folder's rules (``AlbumGrouping``), keyed (the
// later of two albums with one key gets a suffix), and stored as one change (one step
// `undo` takes back; your edits and deletions stand). What it did is one ``SourceImport``.
//
// A source lists its tracks (``MusicSource/listTracks(_:)``: a server's, a window at a
// time, staged in the library connection's temporary tables and grouped there, so what an
// import holds does not grow with them), or, where it offers it, is scanned
// (a music folder, ``MusicFolderSource``: its files the library may have read before, whose
// folders' cover images and files' pictures make its albums' covers, and which reports the
// files it passed over and how far it has got). Either way the store's one importer
// (``AlbumStore/importAlbums``) takes the albums: a listing's from the staging, a scan's
// from memory, each album by the same code.
extension Library {
  /// Brings the albums of `source` into the library as one change (``SourceImport``):
  /// albums not seen before are appended, albums seen before (the same folder, album artist
  /// and title) are updated in place when they changed, the fields you edited and the
  /// albums you deleted stay as you left them (`withDeleted` brings such albums back from a
  /// music folder). When nothing changed, nothing is written and no step is logged. The
  /// selection stays (into an empty library, the first album becomes current).
  ///
  /// - Parameters:
  ///   - name: how the step's summary names the source (a folder as the user typed it);
  ///     the source's ``MusicSource/name`` by default.
  ///   - progress: told how far the scan or the listing has got, on this thread.
  ///   - isCancelled: asked between files (windows of a listing); when it says true the
  ///     import stops and ``LibraryError/cancelled`` is thrown, with nothing changed.
  /// - Throws: ``LibraryError/cannotScan(path:reason:)`` when a folder cannot be listed,
  ///   ``LibraryError/server(_:)`` when a server cannot answer, ``LibraryError/cancelled``,
  ///   or a store error (nothing changed then).
  @discardableResult
  package func importSource(
    _ source: any MusicSource, named name: String? = nil, withDeleted: Bool = false,
    progress: ((SourceProgress) -> Void)? = nil, isCancelled: () -> Bool = { false }
  ) throws(LibraryError) -> SourceImport {
    try importSource(
      source, named: name ?? source.name, withDeleted: withDeleted, sendingWaitingMarks: true, progress: progress,
      isCancelled: isCancelled)
  }

  /// ``importSource(_:named:withDeleted:progress:isCancelled:)``; without
  /// `sendingWaitingMarks`, the marks waiting for the source are left waiting (a sync that
  /// follows the source while this process runs: they are the shell's own, on their way).
  func importSource(
    _ source: any MusicSource, named name: String, withDeleted: Bool, sendingWaitingMarks: Bool,
    progress: ((SourceProgress) -> Void)?, isCancelled: () -> Bool
  ) throws(LibraryError) -> SourceImport {
    // No read transaction may stay open across a scan or a listing of seconds: it would
    // keep other shells from committing for that long.
    endCommand()
    // Marks this library changed that the source has not confirmed go first: the listing
    // would take the source's instead.
    let notices = sendingWaitingMarks && source === self.source ? try finishPendingShares() : []
    // A class's cast, not a protocol's: the runtime would look the conformance up through
    // every conformance of the binary (a quarter of a million instructions per import).
    let scanned = source as? MusicFolderSource
    let verb = scanned == nil ? "sync with" : "import from"
    let summary = { (outcome: SourceImport) in
      "\(verb) \(name): "
        + Self.counts(added: outcome.added, updated: outcome.updated, moved: outcome.moved, unchanged: 0)
        + (outcome.samplesLeft > 0 ? ", " + AlbumStore.inPlaceOfSamples(outcome.samplesLeft) : "")
    }
    var result: SourceImport
    if let scanned {
      result = try importScan(
        of: scanned, summary: summary, withDeleted: withDeleted, progress: progress, isCancelled: isCancelled)
    } else {
      result = try importListing(of: source, summary: summary, progress: progress, isCancelled: isCancelled)
    }
    result.notices = notices
    // Into an empty library: the first album becomes current, as the viewport shows it.
    if selection == nil, (try? count()) ?? 0 > 0 { select(0) }
    return result
  }

  // MARK: - A source scanned

  /// The scan of `source` (a music folder), its albums keyed and stored: those of the last
  /// scan, which saw these very files, when the walk finds them as it did (nothing read).
  private func importScan(
    of source: MusicFolderSource, summary: (SourceImport) -> String, withDeleted: Bool,
    progress: ((SourceProgress) -> Void)?, isCancelled: () -> Bool
  ) throws(LibraryError) -> SourceImport {
    let path = source.location
    let scan: MusicFolderScan
    // What the last scan of the folder found, as the library file has it.
    let earlier = AlbumStore.StoredScan(store)
    do {
      scan = try source.scan(progress: progress, isCancelled: isCancelled, earlier: earlier)
    } catch {
      switch error {
      case .cancelled: throw .cancelled
      case .notADirectory: throw .cannotScan(path: path, reason: "not a directory")
      case .cannotOpen(_, let code): throw .cannotScan(path: path, reason: SystemError.reason(code))
      default: throw .cannotScan(path: path, reason: error.description)
      }
    }
    if isCancelled() { throw .cancelled }
    let albums: [Album]
    let skipped: [SourceImport.Skipped]
    var outcome: SourceImport
    // The folders the scan could not list: among the skipped files, they may hide albums.
    let unlistable = Set(scan.unreadableFolders)
    if scan.isUnchanged {
      // Nothing read: the albums and skipped files of the last scan, which saw these files.
      albums = try store.lastScannedAlbums(under: scan.folder)
      skipped = earlier.unchangedSkipped.map {
        SourceImport.Skipped(path: $0.path, reason: $0.reason, isFolder: unlistable.contains($0.path))
      }
      // Their sizes and times as the walk found them (the fingerprint says: as then).
      let stamps = scan.stamps(of: skipped.map(\.path))
      let remembered = AlbumStore.SkippedFiles(
        root: scan.folder, files: skipped.map { ($0.path, $0.reason, stamps[$0.path]) })
      outcome = try change { (origin) throws(LibraryError) in
        try store.importAlbums(
          .asBefore(albums), root: scan.folder, summary: summary, origin: origin, withDeleted: withDeleted,
          skipped: remembered)
      }
    } else {
      let keyed = Self.keyed(scan.albums)
      albums = keyed.map { Album(music: $0.album, key: $0.key) }
      skipped = scan.skipped.map {
        SourceImport.Skipped(path: $0.path, reason: $0.reason.description, isFolder: unlistable.contains($0.path))
      }
      let remembered = AlbumStore.SkippedFiles(
        root: scan.folder, files: scan.skipped.map { ($0.path, $0.reason.description, $0.stamp) })
      let scanned = AlbumStore.ScannedAlbums(
        albums: keyed, stored: earlier.stored, opened: scan.openedFiles, unreadable: scan.unreadableFolders,
        seen: .folder(fingerprint: scan.fingerprint, skipped: skipped))
      outcome = try change { (origin) throws(LibraryError) in
        try store.importAlbums(
          .scanned(scanned), root: scan.folder, summary: summary, origin: origin, withDeleted: withDeleted,
          skipped: remembered)
      }
      outcome.listed = true
    }
    refreshLocalCovers(of: albums)
    outcome.folder = scan.folder
    outcome.albums = albums.count
    outcome.tracks = albums.reduce(0) { $0 + ($1.tracks ?? 0) }
    outcome.filesOpened = scan.filesOpened
    outcome.skipped = skipped
    return outcome
  }

  /// `albums` with their keys: two albums of one scan never share a key (one title in two
  /// letter cases, loose in the folder that also holds a merged multi-disc album): the
  /// later one gets a suffix, the same on every scan (as ``AlbumStore/groupListing(grouped:)``
  /// keys a listing's).
  private static func keyed(_ albums: [MusicAlbum]) -> [(key: String, album: MusicAlbum)] {
    var keys: Set<String> = []
    return albums.map { album in
      var key = album.key
      var copy = 1
      while !keys.insert(key).inserted {
        copy += 1
        key = album.key + "\u{1F}\(copy)"
      }
      return (key: key, album: album)
    }
  }

  // MARK: - A source listed

  /// The listing of `source` (a music server), staged a window at a time, grouped and
  /// keyed there, and stored: nothing listed while the source's fingerprint is the one the
  /// last sync saw, nothing written when its tracks are the very ones listed then.
  private func importListing(
    of source: any MusicSource, summary: (SourceImport) -> String, progress: ((SourceProgress) -> Void)?,
    isCancelled: () -> Bool
  ) throws(LibraryError) -> SourceImport {
    let root = source.root
    let version: String
    // What the last sync saw: nothing is listed while the source's fingerprint is the one
    // it saw (and the source takes back what it learnt then).
    let last = try store.source(root).flatMap { $0.kind == .server ? $0 : nil }
    source.recall(lastFingerprint: last?.fingerprint)
    do throws(SourceError) {
      version = try source.fingerprint()
    } catch {
      throw .server(error.description)
    }
    var result = SourceImport()
    result.folder = root
    if let last, last.fingerprint == version { return result }

    // The songs are staged as they come, a window at a time, in the library connection's
    // temporary tables, and grouped and stored from there: what a sync holds in memory does
    // not grow with the server's database.
    try store.beginListing()
    defer { store.endListing() }
    // A first sync groups the songs as they come where the source lists them in its
    // folders' order (``AlbumStore/ListingGrouper``); a later one may find the very songs
    // of the last, which need no grouping, and groups after the listing. The staging runs
    // on a thread of its own while the source reads the next window (``AlbumStore/ListingFiler``).
    let filer = AlbumStore.ListingFiler(store: store, root: root, grouping: last == nil)
    defer { filer.waitUntilDone() }
    var fingerprint = SongFingerprint()
    /// The songs listed so far (a song listed twice counts twice here, once when staged).
    var listedSoFar = 0
    /// The tracks of the albums listed without them, as their lists count them.
    var listedSongs = 0
    var marksKept = true
    var failure: LibraryError?
    do throws(SourceError) {
      try source.listTracks { listing in
        do throws(LibraryError) {
          if isCancelled() { throw .cancelled }
          let handed: Bool
          switch listing {
          case .withoutMarks:
            marksKept = false
            handed = true
          case .again:
            fingerprint = SongFingerprint()
            listedSoFar = 0
            listedSongs = 0
            handed = filer.startAgain()
          case .tracks(let songs):
            for song in songs { fingerprint.mix(song) }
            listedSoFar += songs.count
            handed = filer.file(songs)
          case .albums(let albums):
            // Albums without their tracks: staged as they are, their tracks asked for when
            // needed (``tracklist(of:)``).
            for album in albums { fingerprint.mix(album) }
            listedSongs += albums.reduce(0) { $0 + max(0, min($1.trackCount, 1 << 20)) }
            listedSoFar += albums.count
            handed = filer.file(albums)
          }
          // A window that failed to be staged stops the listing (``finish()`` says why).
          guard handed else { return false }
          // How far the listing got (the staging, on its own thread, is a window or two behind).
          let found = listedSoFar + listedSongs
          progress?(SourceProgress(filesFound: found, filesScanned: found, albumsFound: 0))
          return true
        } catch {
          failure = error
          return false
        }
      }
    } catch {
      throw .server(error.description)
    }
    if let failure { throw failure }
    let (staged, grouped) = try filer.finish()
    result.listed = true
    result.tracks = staged + listedSongs
    let listed = fingerprint.hex(songs: staged)
    if let last, last.listed == listed {
      // The very songs of the last sync: its albums stand.
      try store.recordSync(of: root, fingerprint: version, listed: listed)
      result.albums = try store.scannedAlbumCount(under: root)
      result.unchanged = result.albums
      return result
    }

    let albums = try store.groupListing(grouped: grouped)
    var outcome = try change { (origin) throws(LibraryError) in
      try store.importAlbums(
        .listed(seen: .server(fingerprint: version, listed: listed)), root: root, summary: summary, origin: origin,
        marksFollowSource: marksKept,
        cover: { first in
          // The server's cover for each album: its first song's picture, else its folder's.
          guard first.hasPrefix(root + "/") else { return nil }
          return source.coverURL(ofTrack: String(first.dropFirst(root.count + 1)))
        })
    }
    outcome.folder = root
    outcome.listed = true
    outcome.albums = albums
    outcome.tracks = result.tracks
    return outcome
  }
}
