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
/// result. A file a scan before read (``MusicTrack``, given as `known`) whose size and
/// modification time have not changed is not opened again: its tags are taken as known.
public struct MusicFolderScanner: Sendable {
  /// The extensions of the files read as audio (lowercase; matched in any case): those of
  /// TagLib's `FileRef::defaultFileExtensions()`.
  public static let audioExtensions: Set<String> = FolderWalk.audioExtensions

  /// How many files are read at once (at least 1): the calling thread and `workers - 1` more.
  public var workers: Int
  /// The least time between two progress reports.
  public var progressInterval: Duration

  /// A scanner reading with `workers` threads and reporting progress at most every
  /// `progressInterval`.
  public init(workers: Int = 2, progressInterval: Duration = .milliseconds(100)) {
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
  ///   - known: given the folder's real path, the tracks read by an earlier scan under it,
  ///     by path; a file whose size and modification time match its entry is not opened.
  /// - Important: `progress` and `isCancelled` are called on the calling thread only; the
  ///   other workers never call them.
  /// - Throws: ``MusicFolderError`` when `folder` is not a directory that can be listed, or
  ///   on cancellation. Files and subfolders that cannot be read are skipped, not errors.
  public func scan(
    _ folder: String, progress: ((MusicScanProgress) -> Void)? = nil, isCancelled: () -> Bool = { false },
    known: (_ root: String) -> [String: MusicTrack] = { _ in [:] }
  ) throws(MusicFolderError) -> MusicFolderScan {
    var info = stat()
    guard stat(folder, &info) == 0 else { throw .cannotOpen(folder, errno: errno) }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(folder) }
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
    let walk = try FolderWalk.walk(root) { (filesFound: Int) throws(MusicFolderError) in
      if isCancelled() || Task.isCancelled { throw .cancelled }
      if due() { progress?(MusicScanProgress(filesFound: filesFound, filesScanned: 0, albumsFound: 0)) }
    }

    let reading = Reading(files: walk.files, known: known(root))
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
    if cancelled { throw .cancelled }
    reading.finish(outcomes)

    var tracks: [AlbumGrouping.Track] = []
    var skipped = walk.unreadableFolders.map { SkippedFile(path: $0.path, reason: .cannotOpen(errno: $0.errno)) }
    skipped += walk.skippedNames.map { SkippedFile(path: $0.path, reason: $0.reason) }
    for (index, outcome) in reading.outcomes().enumerated() {
      switch outcome {
      case .track(let tags): tracks.append(AlbumGrouping.Track(file: walk.files[index], tags: tags))
      case .skipped(let reason): skipped.append(SkippedFile(path: walk.files[index].path, reason: reason))
      }
    }
    skipped.sort { $0.path < $1.path }
    let albums = AlbumGrouping.albums(folders: walk.folders, tracks: tracks)
    progress?(
      MusicScanProgress(filesFound: walk.files.count, filesScanned: walk.files.count, albumsFound: albums.count))
    var scan = MusicFolderScan(folder: root, albums: albums, skipped: skipped, filesScanned: walk.files.count)
    scan.filesOpened = reading.opened.load(ordering: .relaxed)
    scan.unreadableFolders = walk.unreadableFolders.map(\.path)
    return scan
  }
}

// MARK: - Reading

/// What reading one audio file gave.
private enum Outcome: Sendable {
  case track(TrackTags)
  case skipped(SkippedFile.Reason)

  /// Reads `file` with TagLib.
  init(reading file: FolderWalk.File) {
    switch TrackTags.read(file.path) {
    case .track(let tags):
      self = .track(tags)
    case .cannotOpen(let code):
      self = .skipped(.cannotOpen(errno: code))
    case .noAudio:
      var info = stat()
      let isEmpty = stat(file.path, &info) == 0 && info.st_size == 0
      self = .skipped(isEmpty ? .empty : .noAudio)
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
  /// The tracks an earlier scan read, by path.
  let known: [String: MusicTrack]
  /// How many files were opened (not known unchanged).
  let opened = Atomic<Int>(0)
  private let next = Atomic<Int>(0)
  private let finished = Atomic<Int>(0)
  private let stopped = Atomic<Bool>(false)
  private let albumsSeen = Mutex<Set<AlbumSeen>>([])
  private let handedIn = Mutex<[(Int, Outcome)]>([])

  init(files: [FolderWalk.File], known: [String: MusicTrack]) {
    self.files = files
    self.known = known
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
    if let track = known[file.path], track.size == file.size, track.modified == file.modified, file.size >= 0 {
      outcome = .track(track.tags)
    } else {
      opened.wrappingAdd(1, ordering: .relaxed)
      outcome = Outcome(reading: file)
    }
    if case .track(let tags) = outcome {
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

  /// Every file's outcome, in file order, once all workers have handed theirs in.
  func outcomes() -> [Outcome] {
    handedIn.withLock { handedIn in
      var ordered = [Outcome?](repeating: nil, count: files.count)
      for (index, outcome) in handedIn { ordered[index] = outcome }
      return ordered.map { $0! }
    }
  }
}
