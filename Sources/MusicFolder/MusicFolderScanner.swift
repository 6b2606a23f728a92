internal import CTagLib
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scans a music folder: finds its audio files, reads their tags with TagLib and groups the
/// tracks into albums.
///
/// ```swift
/// let scan = try MusicFolderScanner().scan("/home/me/Music") { progress in
///   print("\(progress.filesScanned) files, \(progress.albumsFound) albums")
/// }
/// for album in scan.albums { print(album.title, album.trackCount, album.duration) }
/// ```
///
/// Audio files are recognised by their extension: TagLib's own list (``audioExtensions``);
/// anything else is ignored, apart from cover images (`cover`, `folder`, `album` or `front`
/// with `.jpg`, `.jpeg` or `.png`, any case). Files with such an extension but no readable
/// audio (empty, corrupt, or not the format their name says) are skipped and listed in the
/// result. A file an earlier scan read (``MusicTrack``, given by an ``EarlierScan``) whose
/// size, modification and change times and inode have not changed is not opened again: its
/// tags are taken as known.
package struct MusicFolderScanner: Sendable {
  /// The extensions of the files read as audio (lowercase; matched in any case): those of
  /// TagLib's `FileRef::defaultFileExtensions()`.
  package static let audioExtensions: Set<String> = FolderWalk.audioExtensions

  /// How many files are read at once (at least 1): the calling thread and `workers - 1` more.
  package var workers: Int
  /// The least time between two progress reports.
  package var progressInterval: Duration

  /// A scanner reading with `workers` threads and reporting progress at most every
  /// `progressInterval`.
  package init(workers: Int = 2, progressInterval: Duration = .milliseconds(100)) {
    self.workers = workers
    self.progressInterval = progressInterval
  }

  /// Scans `folder` and everything under it.
  ///
  /// - Parameters:
  ///   - folder: the folder to scan; symbolic links in it are followed, each folder is
  ///     entered once.
  ///   - progress: told how far the scan has got, at most every ``progressInterval``, and
  ///     once more when it is done (with the exact album count).
  ///   - isCancelled: asked between files and folders; when it says true (or the current
  ///     task is cancelled) the scan stops and throws ``MusicFolderError/cancelled``.
  ///   - earlier: what an earlier scan of the folder found (nil: nothing is known, every
  ///     file is read): when it saw the same ``MusicFolderScan/fingerprint``, no file is read
  ///     and the result says ``MusicFolderScan/isUnchanged``; otherwise a file whose size,
  ///     modification and change times and inode match its track there (``FileStamp``) is
  ///     not opened.
  /// - Important: `progress`, `isCancelled` and `earlier` are called on the calling thread
  ///   only; the other workers never call them.
  /// - Throws: ``MusicFolderError`` when `folder` is not a directory that can be listed, or
  ///   on cancellation. Files and subfolders that cannot be read are skipped, not errors.
  package func scan(
    _ folder: String, progress: ((MusicScanProgress) -> Void)? = nil, isCancelled: () -> Bool = { false },
    earlier: (any EarlierScan)? = nil
  ) throws(MusicFolderError) -> MusicFolderScan {
    var info = stat()
    guard stat(folder, &info) == 0 else { throw .cannotOpen(folder, errno: errno) }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(folder) }
    // TagLib is loaded here, at the first scan (ctaglib.h): without it, every file would
    // look like no audio.
    if let reason = ctl_unavailable() { throw .tagLibUnavailable(String(cString: reason)) }
    guard let resolved = realpath(folder, nil) else { throw .cannotOpen(folder, errno: errno) }
    let root = String(cString: resolved)
    free(resolved)

    let clock = ContinuousClock()
    var lastReport = clock.now
    func due() -> Bool {
      guard progress != nil, clock.now - lastReport >= progressInterval else { return false }
      lastReport = clock.now
      return true
    }
    let walk = try self.walk(root) { (filesFound: Int) throws(MusicFolderError) in
      if isCancelled() || Task.isCancelled { throw .cancelled }
      if due() { progress?(MusicScanProgress(filesFound: filesFound, filesScanned: 0, albumsFound: 0)) }
    }
    if isCancelled() || Task.isCancelled { throw .cancelled }
    let fingerprint = walk.fingerprint
    if let earlier, earlier.sawFingerprint(fingerprint, of: root) {
      var scan = MusicFolderScan(folder: root, albums: [], skipped: [], filesScanned: walk.files.count)
      scan.fingerprint = fingerprint
      scan.isUnchanged = true
      // What the earlier scan skipped is the caller's: the walk's stamps tell it their sizes
      // and times (``MusicFolderScan/stamps(of:)``).
      scan.walked = (walk.files, walk.unreadableFolders.map { ($0.path, $0.stamp) })
      scan.unreadableFolders = walk.unreadableFolders.map(\.path)
      return scan
    }

    let reading = Reading(files: walk.files, known: earlier?.takeTracks(under: root) ?? [:])
    let helpers = DispatchGroup()
    for _ in 1..<max(1, workers) {
      DispatchQueue.global().async(group: helpers) {
        var outcomes: [(Int, Outcome)] = []
        var lastAlbum: Reading.AlbumSeen?
        while reading.readNext(into: &outcomes, lastAlbum: &lastAlbum) {}
        reading.finish(outcomes)
      }
    }
    var outcomes: [(Int, Outcome)] = []
    var lastAlbum: Reading.AlbumSeen?
    var cancelled = false
    while true {
      if isCancelled() || Task.isCancelled {
        reading.stop()
        cancelled = true
        break
      }
      if due() { progress?(reading.progress) }
      guard reading.readNext(into: &outcomes, lastAlbum: &lastAlbum) else { break }
    }
    helpers.wait()
    reading.forgetKnown()
    if cancelled { throw .cancelled }
    reading.finish(outcomes)

    // Each with the size and times the walk read (none for a name that could not be read).
    var skipped = walk.unreadableFolders.map {
      SkippedFile(path: $0.path, reason: .cannotOpen(errno: $0.errno), stamp: $0.stamp)
    }
    skipped += walk.skippedNames.map { SkippedFile(path: $0.path, reason: $0.reason) }
    // The tracks live only while they are grouped: a scan of 20,000 files holds one copy
    // of their tags at a time.
    let albums = { () -> [MusicAlbum] in
      var tracks: [AlbumGrouping.Track] = []
      // Room for every file at once: grown by doubling, the list of 20,000 tracks (about 500
      // bytes each) was once 24 MB, old and new copies together, at the scan's peak.
      tracks.reserveCapacity(walk.files.count)
      reading.forEachOutcome { index, outcome in
        switch outcome {
        case .track(let tags, let size, let modified):
          var file = walk.files[index]
          (file.size, file.modified) = (size, modified)
          tracks.append(AlbumGrouping.Track(file: file, tags: tags))
        case .skipped(let reason):
          let file = walk.files[index]
          skipped.append(SkippedFile(path: file.path, reason: reason, stamp: file.stamp))
        }
      }
      return AlbumGrouping.albums(folders: walk.folders, tracks: tracks)
    }()
    skipped.sort { $0.path < $1.path }
    progress?(
      MusicScanProgress(filesFound: walk.files.count, filesScanned: walk.files.count, albumsFound: albums.count))
    var scan = MusicFolderScan(folder: root, albums: albums, skipped: skipped, filesScanned: walk.files.count)
    scan.openedFiles = reading.openedPaths()
    scan.unreadableFolders = walk.unreadableFolders.map(\.path)
    scan.fingerprint = fingerprint
    return scan
  }
}

extension MusicFolderScanner {
  /// The fingerprint a scan of `folder` would have (``MusicFolderScan/fingerprint``): the
  /// walk's, no file read.
  ///
  /// - Throws: ``MusicFolderError`` when `folder` is not a directory that can be listed.
  package func fingerprint(of folder: String) throws(MusicFolderError) -> String {
    guard let resolved = realpath(folder, nil) else { throw .cannotOpen(folder, errno: errno) }
    let root = String(cString: resolved)
    free(resolved)
    return try walk(root) { (_: Int) throws(MusicFolderError) in }.fingerprint
  }

  /// The walk of the folder at `root` (its real path), with each file's size and times.
  private func walk(
    _ root: String, beforeFolder: (_ filesFound: Int) throws(MusicFolderError) -> Void
  ) throws(MusicFolderError) -> FolderWalk {
    var walk = try FolderWalk.walk(root, beforeFolder: beforeFolder)
    walk.readSizesAndTimes(workers: workers)
    return walk
  }
}

// MARK: - Reading

/// What reading one audio file gave.
private enum Outcome: Sendable {
  /// Its tags, and the file's size and modification time (as ``FolderWalk/File`` has them).
  case track(TrackTags, size: Int64, modified: Int64)
  case skipped(SkippedFile.Reason)

  /// Reads `file` with TagLib.
  init(reading file: FolderWalk.File) {
    switch TrackTags.read(file.path) {
    case .track(let tags):
      self = .track(tags, size: file.size, modified: file.modified)
    case .cannotOpen(let code):
      self = .skipped(.cannotOpen(errno: code))
    case .noAudio:
      // Empty as the walk found it, which the skipped file's stamp says too.
      self = .skipped(file.size == 0 ? .empty : .noAudio)
    case .notRegularFile:
      self = .skipped(.notRegularFile)
    case .metadataTooLarge(let bytes):
      self = .skipped(.metadataTooLarge(bytes: bytes))
    }
  }
}

/// The files of one scan, shared by its workers: each takes the next unread file until none
/// is left, and hands in what it read at the end.
private final class Reading: Sendable {
  /// An album tag in a folder, the unit of the progress report's album estimate.
  struct AlbumSeen: Hashable {
    var folder: Int
    var album: String?
  }

  let files: [FolderWalk.File]
  /// The tracks an earlier scan read, by path; let go once every file is read.
  nonisolated(unsafe) private(set) var known: [String: MusicTrack]
  /// The indices of the files that were opened (not known unchanged), per worker.
  private let opened = Mutex<[Int]>([])
  private let next = Atomic<Int>(0)
  private let finished = Atomic<Int>(0)
  private let stopped = Atomic<Bool>(false)
  private let albumsSeen = Mutex<Set<AlbumSeen>>([])
  private let handedIn = Mutex<[(Int, Outcome)]>([])

  init(files: [FolderWalk.File], known: [String: MusicTrack]) {
    self.files = files
    self.known = known
    // Every worker's outcomes end up here: room for all of them, so none is copied twice.
    handedIn.withLock { $0.reserveCapacity(files.count) }
  }

  /// Reads the next unread file into `outcomes`; false when none is left or the scan stopped.
  /// `lastAlbum` is the caller's own memory of the album it last noted, so that the shared
  /// set is locked once per album and worker rather than once per file.
  func readNext(into outcomes: inout [(Int, Outcome)], lastAlbum: inout AlbumSeen?) -> Bool {
    guard !stopped.load(ordering: .relaxed) else { return false }
    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
    guard index < files.count else { return false }
    let file = files[index]
    let outcome: Outcome
    if let track = known[file.path], file.size >= 0, track.size == file.size, track.modified == file.modified,
      track.changed == file.changed, track.inode == file.inode
    {
      outcome = .track(track.tags, size: file.size, modified: file.modified)
    } else {
      opened.withLock { $0.append(index) }
      outcome = Outcome(reading: file)
    }
    if case .track(let tags, _, _) = outcome {
      let album = AlbumSeen(folder: files[index].folder, album: tags.album)
      if album != lastAlbum {
        lastAlbum = album
        albumsSeen.withLock { _ = $0.insert(album) }
      }
    }
    outcomes.append((index, outcome))
    finished.wrappingAdd(1, ordering: .relaxed)
    return true
  }

  /// Lets the known tracks go: call when no worker reads any more (their tags live on in the
  /// outcomes that took them).
  func forgetKnown() { known = [:] }

  /// Stops the other workers after the file each is reading.
  func stop() { stopped.store(true, ordering: .relaxed) }

  /// Hands in one worker's outcomes.
  func finish(_ outcomes: [(Int, Outcome)]) {
    handedIn.withLock { $0.append(contentsOf: outcomes) }
  }

  /// Where the reading is.
  var progress: MusicScanProgress {
    MusicScanProgress(
      filesFound: files.count, filesScanned: finished.load(ordering: .relaxed),
      albumsFound: albumsSeen.withLock { $0.count })
  }

  /// The paths of the files that were opened.
  func openedPaths() -> Set<String> {
    opened.withLock { Set($0.map { files[$0].path }) }
  }

  /// Every file's outcome, in file order, once all workers have handed theirs in.
  /// Takes them: the workers' lists are emptied, so a large scan holds one copy, and each
  /// outcome is handed over where it lies (not copied into an array in file order first).
  func forEachOutcome(_ body: (_ index: Int, _ outcome: Outcome) -> Void) {
    let all = handedIn.withLock { handedIn in
      defer { handedIn = [] }
      return handedIn
    }
    var place = [Int](repeating: -1, count: files.count)
    for (slot, (index, _)) in all.enumerated() { place[index] = slot }
    for index in place.indices { body(index, all[place[index]].1) }
  }
}
