import AlbumModel
import BlueCovers
import BlueSystem
import FoundationEssentials
import MusicSource
import Synchronization

/// The facade the shell talks to: the only door to the album store, the cover loader and
/// the selection (the memento).
///
/// One instance is built at start-up and passed down — no global `shared` — so tests
/// build their own over ``AlbumStore/inMemory(seed:)``.
///
/// The selection (0-based, nil when the library is empty) lives in memory and is
/// persisted by ``saveSelection()``, which the shell calls after each command before it
/// waits for input and at exit; a library change persists it in the change's own
/// transaction. That keeps 100,000 piped `scroll right` commands from being 100,000
/// SQLite transactions while a person's every command is still saved.
///
/// - Important: Not thread-safe: the shell's thread owns it (the store and the cover
///   loader it wraps are safe from any thread).
package final class Library {
  let store: AlbumStore
  let covers: CoverLoader?
  /// MusicBrainz's search for `lookup`, when this library may ask it (set by ``open(path:covers:)``).
  package internal(set) var musicBrainz: MusicBrainzSearch?
  /// The current album's 0-based index (in the view, when there is one).
  package internal(set) var selection: Int?
  /// The library position of the selection as last stored.
  var savedSelection: Int?
  /// The current view (`find QUERY`): the albums the scroller, the indices and `all` mean;
  /// nil for the whole library in library order. See Library+Views.swift.
  package internal(set) var view: AlbumView? {
    didSet { viewChanges &+= 1 }
  }
  /// How often the view was set: a new view, or the same one read again.
  private(set) var viewChanges = 0
  /// What the albums' numbers are and what the user saw them be (Library+Numbering.swift).
  var numberingState = NumberingState()
  /// The albums the last ``albums(in:)`` read, while nothing changed since (no change
  /// through this store, no commit by another shell noticed — ``noticeChangesElsewhere()``,
  /// as for the count —, the same view): the row of cards after a `scroll right` reads the
  /// one album it does not hold, not the whole row again.
  private var recentAlbums: RecentAlbums?

  private struct RecentAlbums {
    var writes: Int
    var dataVersion: Int
    var viewChanges: Int
    var start: Int
    var albums: [Album]
  }
  /// Why the view was dropped — the last session's at start, or the current one after a
  /// change — because its query failed to run, or why the last session's is kept but not
  /// shown (ICU missing); for the shell to say once (``takeDroppedView()``); nil when nothing
  /// was dropped.
  var droppedView: String?
  private var cachedCount: Int?
  /// SQLite's `data_version` when this library last looked (see ``noticeChangesElsewhere()``).
  private(set) var dataVersion: Int?
  /// This shell's name in the undo log: `undo` takes back its own changes first.
  package let session: String
  /// The subscription that records landed covers in the library.
  private var coverRecording: SubscriptionToken?
  /// The source whose albums this library holds (`--mpd`: an MPD server), given when it is
  /// opened, or nil (a library of this machine's files): ``sync()`` brings the library in
  /// step with it, ``follow(changes:report:)`` follows it, and `rate`, `fav` and `unfav` of
  /// its albums are kept there too (``share(_:of:)``).
  package let source: (any MusicSource)?
  /// What the source said of the latest change it was told of, when it did not take it all
  /// (``takeSourceNote()``).
  var sourceNote: String?
  /// Set when a cover lands: a view by `art` may have to drop or take albums.
  private let coversLanded = LandedFlag()

  /// A flag the cover loader's thread sets and the library's owner takes.
  private final class LandedFlag: Sendable {
    private let state = Atomic<Bool>(false)
    func set() { state.store(true, ordering: .relaxed) }
    /// Whether it was set since the last take.
    func take() -> Bool { state.exchange(false, ordering: .relaxed) }
  }

  /// Wraps `store` (and `covers`), reading the saved selection (clamped to the library).
  ///
  /// With a loader, every cover that lands in the cache (downloaded, or found there) is
  /// recorded in the library, and the covers already in the cache are recorded once when
  /// the library asks for it (a library from before version 3 of the schema).
  package init(
    store: AlbumStore, covers: CoverLoader? = nil, source: (any MusicSource)? = nil, session: String = UUID().uuidString
  ) throws(LibraryError) {
    self.store = store
    self.covers = covers
    self.source = source
    self.session = session
    if let covers {
      if try store.coverScanPending() {
        // Nothing cached, nothing to look for: no pass over the albums.
        let cached = covers.cache.entryNames()
        try store.recordCoversInCache(cached.isEmpty ? nil : { url in cached.contains(CoverCache.fileName(for: url)) })
      }
      // The covers of the source's albums (`mpd://HOST:PORT/…`), which it may have none of.
      let sourcePrefix = source.map { $0.root + "/" }
      coverRecording = covers.subscribe(outcomesOnly: true) { [store, coversLanded] event in
        switch event {
        case .finished(let url, _, _, _, let fromCache):
          try? store.recordCachedCover(url)
          if !fromCache && (url.hasPrefix("caa:") || sourcePrefix.map(url.hasPrefix) == true) {
            try? store.forgetNoCover(url)
          }
          coversLanded.set()
        case .failed(let url, _, .notInArchive), .failed(let url, _, .noneOnServer):
          // "None" is an answer, the archive's or the server's: `download all` does not ask
          // again for 30 days.
          try? store.recordNoCover(url, at: Int64(Date().timeIntervalSince1970))
        default:
          break
        }
      }
    }
    let count = try store.count()
    cachedCount = count
    let saved = try store.selectedIndex()
    selection = count == 0 ? nil : min(max(saved ?? 0, 0), count - 1)
    savedSelection = saved
    try restoreView(selectedPosition: saved)
    dataVersion = try store.dataVersion()
    restoreListing()
  }

  deinit {
    if let coverRecording { covers?.unsubscribe(coverRecording) }
  }

  /// Opens (or creates, seeded with the default catalogue) the library file at `path`.
  package static func open(path: String, covers: CoverLoader? = nil) throws(LibraryError) -> Library {
    try Library(store: AlbumStore.open(path: path), covers: covers)
  }

  /// Opens (or creates, seeded with `seed`: the default catalogue unless told) the library
  /// file at `path`, fetching covers as `settings` say: the library builds its cover cache
  /// and loader. With a `source`, the library holds that source's albums (``sync()``). Its
  /// statements stop when `cancellation` says so (the run's token).
  package static func open(
    path: String, covers settings: CoverSettings, seed: [Album] = DefaultCatalogue.albums,
    source: (any MusicSource)? = nil, cancellation: Cancellation = .never
  ) throws(LibraryError) -> Library {
    let library = try Library(
      store: AlbumStore.open(path: path, seed: seed, cancellation: cancellation),
      covers: CoverLoader(settings: settings),
      source: source)
    library.musicBrainz = MusicBrainzSearch(base: settings.musicBrainzBase, userAgent: settings.userAgent)
    return library
  }

  /// A library in memory holding `albums` (the default catalogue unless told), for tests;
  /// with a `source`, of that source's albums (``sync()``).
  package static func inMemory(
    seed albums: [Album] = DefaultCatalogue.albums, covers: CoverLoader? = nil, source: (any MusicSource)? = nil
  ) -> Library {
    do {
      return try Library(store: .inMemory(seed: albums), covers: covers, source: source)
    } catch {
      preconditionFailure("cannot read an in-memory library: \(error)")
    }
  }

  // MARK: - Reading

  /// The number of albums (cached; every change through the facade refreshes it).
  package func count() throws(LibraryError) -> Int {
    if let view { return view.ids.count }
    return try libraryCount()
  }

  /// The number of albums in the library, whatever the view.
  package func libraryCount() throws(LibraryError) -> Int {
    if let cachedCount { return cachedCount }
    let count = try store.count()
    cachedCount = count
    return count
  }

  /// What the indices verbs take reach, for messages about a missing album: `the library has
  /// 5`, `the view 'sun' has 2`, `the view 'zzz' is empty` (`count` is ``count()``'s).
  package func extent(_ count: Int) -> String {
    LibraryError.size(count, view: view?.query.text)
  }

  /// The album at a 0-based index.
  package func album(at index: Int) throws(LibraryError) -> Album {
    guard let view else { return try store.album(at: index) }
    guard view.ids.indices.contains(index), let album = try store.album(id: view.ids[index]) else {
      throw .noAlbum(index: index, count: view.ids.count, view: view.query.text)
    }
    return album
  }

  /// The albums at the 0-based `range`, in order: one query for a page of the viewport.
  package func albums(in range: Range<Int>) throws(LibraryError) -> [Album] {
    let writes = store.writeCount.load(ordering: .relaxed)
    let version = dataVersion ?? -1
    // Taken out, so that its array, which nothing else holds between two drawings, changes
    // in place: a scroll drops one album, reads one and keeps the four others where they are.
    if var recent = recentAlbums.take(), recent.writes == writes, recent.dataVersion == version,
      recent.viewChanges == viewChanges
    {
      let common = range.clamped(to: recent.start..<(recent.start + recent.albums.count))
      // The rest from the library; on any error, the whole range again, for its message.
      func read(_ part: Range<Int>) throws(LibraryError) -> [Album] { part.isEmpty ? [] : try readAlbums(in: part) }
      if !common.isEmpty, let before = try? read(range.lowerBound..<common.lowerBound),
        let after = try? read(common.upperBound..<range.upperBound)
      {
        recent.albums.removeSubrange((common.upperBound - recent.start)...)
        recent.albums.removeSubrange(..<(common.lowerBound - recent.start))
        recent.albums.insert(contentsOf: before, at: 0)
        recent.albums.append(contentsOf: after)
        recent.start = range.lowerBound
        recentAlbums = recent
        return recent.albums
      }
    }
    let read = try readAlbums(in: range)
    recentAlbums = RecentAlbums(
      writes: writes, dataVersion: version, viewChanges: viewChanges, start: range.lowerBound, albums: read)
    return read
  }

  /// ``albums(in:)`` read from the store (or the view's ids).
  private func readAlbums(in range: Range<Int>) throws(LibraryError) -> [Album] {
    guard let view else { return try store.albums(in: range) }
    guard range.lowerBound >= 0, range.upperBound <= view.ids.count else {
      throw .noAlbums(range: range, count: view.ids.count, view: view.query.text)
    }
    return try store.albums(ids: view.ids[range])
  }

  /// The library file and SQLite's files beside it (journal, WAL, shared memory): what
  /// an `export` must never replace. Empty for a library in memory.
  package var files: [String] {
    guard let path = store.path else { return [] }
    return [path, path + "-journal", path + "-wal", path + "-shm"]
  }

  /// Whether any album has a music-folder field (tracks, length, folder): the CSV of
  /// `export` then has those columns.
  package func hasMusicFields() throws(LibraryError) -> Bool {
    try store.hasMusicFields()
  }

  /// Every album in order (for `export`).
  package func allAlbums() throws(LibraryError) -> [Album] {
    try store.all()
  }

  /// The selected album, or nil when the library is empty.
  package func selectedAlbum() throws(LibraryError) -> Album? {
    guard let selection else { return nil }
    return try album(at: selection)
  }

  /// The albums matching `query` from index `start`, at most `limit` (see ``AlbumStore/search(_:from:limit:)``).
  package func search(_ query: String, from start: Int = 0, limit: Int? = nil) throws(LibraryError) -> [Album] {
    try store.search(query, from: start, limit: limit)
  }

  /// The indices of the albums titled `title` (exactly, else ignoring case), at most `limit`.
  package func indices(ofTitle title: String, limit: Int) throws(LibraryError) -> [Int] {
    guard let view else { return try store.indices(ofTitle: title, limit: limit) }
    // Exactly within the view, else ignoring case within the view: one pass over its ids.
    let titled = try store.albumIDs(titled: title)
    for ids in [titled.exact, titled.ignoringCase] where !ids.isEmpty {
      var found: [Int] = []
      for (index, id) in view.ids.enumerated() where ids.contains(id) {
        found.append(index)
        if found.count == limit { break }
      }
      if !found.isEmpty { return found }
    }
    return []
  }

  /// Whether an album of the whole library (whatever the view) is titled `title`, exactly
  /// or ignoring case.
  package func hasAlbum(titled title: String) throws(LibraryError) -> Bool {
    let titled = try store.albumIDs(titled: title)
    return !titled.exact.isEmpty || !titled.ignoringCase.isEmpty
  }

  /// Distinct titles starting with `prefix` (ignoring case), for tab completion: those of
  /// the view, in its order when it sorts, else alphabetical.
  package func titles(withPrefix prefix: String, limit: Int) throws(LibraryError) -> [String] {
    try store.titles(withPrefix: prefix, limit: limit, in: view?.query)
  }

  /// The titles the first of `prefixes` starts (as ``titles(withPrefix:limit:)``) and its
  /// place among them, in one read: a title typed as several words.
  package func titles(withFirstOf prefixes: [String], limit: Int) throws(LibraryError) -> (
    index: Int, titles: [String]
  )? {
    try store.titles(withFirstOf: prefixes, limit: limit, in: view?.query)
  }

  // MARK: - Selection (memento)

  /// Selects the album at `index` (clamped); not a library change, not undoable.
  package func select(_ index: Int) {
    let count = view?.ids.count ?? cachedCount ?? 0
    selection = count == 0 ? nil : min(max(index, 0), count - 1)
  }

  /// Writes the selection (the selected album's library position) to the store if it
  /// changed since the last save.
  package func saveSelection() throws(LibraryError) {
    let position = try selectedPosition()
    guard position != savedSelection else { return }
    try store.setSelectedIndex(position)
    savedSelection = position
  }

  /// The library position of the selected album.
  func selectedPosition() throws(LibraryError) -> Int? {
    guard view != nil else { return selection }
    return try selectedAlbum()?.position
  }

  // MARK: - Changes (each one transaction: the albums, the selection and the undo log)

  /// Adds `album` after the current one (first in an empty library) and selects it;
  /// returns it as stored and its index.
  @discardableResult
  package func add(_ album: Album) throws(LibraryError) -> (album: Album, index: Int) {
    let index = try selectedPosition().map { $0 + 1 } ?? 0
    let stored = try change { (origin) throws(LibraryError) in try store.add(album, at: index, origin: origin).album }
    return (stored, index)
  }

  /// Stores `album`'s fields over the album with the same id; the selection stays.
  /// Returns the album before and after.
  @discardableResult
  package func edit(_ album: Album) throws(LibraryError) -> (before: Album, after: Album) {
    try change { (origin) throws(LibraryError) in
      let (before, after, _) = try store.edit(album, origin: origin)
      return (before, after)
    }
  }

  /// Writes `albums` (each stored, at most once) as one undoable step; returns them as
  /// stored now. The current album stays current. `summary` names the step for `undo`
  /// (`edit "X"` or `edit of 3 albums` by default).
  @discardableResult
  package func edit(_ albums: [Album], summary: String? = nil) throws(LibraryError) -> [Album] {
    try change { (origin) throws(LibraryError) in try store.edit(albums, summary: summary, origin: origin).after }
  }

  /// Gives the albums at `indices` (0-based, each once) `stars` (1 to 5; nil clears the
  /// rating), as one undoable step; returns the albums it changed, as stored now (none when
  /// each already had that rating: no step then).
  @discardableResult
  package func rate(at indices: [Int], stars: Int?) throws(LibraryError) -> [Album] {
    let changed = try albums(at: indices, setting: \.rating, to: stars)
    guard let named = Self.named(changed) else { return [] }
    let summary = stars.map { "rate \(named) \(Self.counted($0, "star"))" } ?? "clear the rating of \(named)"
    let edited = try edit(changed, summary: summary, sharing: .rating(stars))
    share(.rating(stars), of: edited)
    return edited
  }

  /// Marks the albums at `indices` (0-based, each once) favourites (or, with `favourite`
  /// false, no longer), as one undoable step; returns the albums it changed, as stored now
  /// (none when each already was: no step then).
  @discardableResult
  package func setFavourite(at indices: [Int], _ favourite: Bool) throws(LibraryError) -> [Album] {
    let changed = try albums(at: indices, setting: \.favourite, to: favourite)
    guard let named = Self.named(changed) else { return [] }
    let edited = try edit(changed, summary: (favourite ? "fav " : "unfav ") + named, sharing: .favourite(favourite))
    share(.favourite(favourite), of: edited)
    return edited
  }

  /// The albums at `indices` whose `field` is not `value` yet, with `value` set: the ones
  /// a `rate` or `fav` changes.
  private func albums<Value: Equatable>(
    at indices: [Int], setting field: WritableKeyPath<Album, Value>, to value: Value
  ) throws(LibraryError) -> [Album] {
    var changed: [Album] = []
    for index in indices {
      var album = try self.album(at: index)
      guard album[keyPath: field] != value else { continue }
      album[keyPath: field] = value
      changed.append(album)
    }
    return changed
  }

  /// `"Title"` of one album, `N albums` of more, as a step's summary names them; nil for none.
  private static func named(_ albums: [Album]) -> String? {
    guard let first = albums.first else { return nil }
    return albums.count == 1 ? "\"" + first.title + "\"" : albumCount(albums.count)
  }

  /// Deletes the album at `index`. Deleting the current album leaves the selection at that
  /// place (clamped), as the original app's `reloadScroller` does; deleting another one
  /// keeps the current album selected. Returns the deleted album.
  @discardableResult
  package func delete(at index: Int) throws(LibraryError) -> Album {
    let album = try self.album(at: index)
    guard let id = album.id else { throw .noAlbumWithID(-1) }
    return try change { (origin) throws(LibraryError) in
      try store.delete(id: id, selecting: nil, origin: origin).album
    }
  }

  /// Deletes the albums at `indices` (0-based, each once) as one undoable step; returns
  /// how many went and the first three in library order.
  @discardableResult
  package func delete(at indices: [Int]) throws(LibraryError) -> DeletedAlbums {
    var ids: [Int64] = []
    for index in Set(indices) {
      guard let id = try album(at: index).id else { throw .noAlbumWithID(-1) }
      ids.append(id)
    }
    return try change { (origin) throws(LibraryError) in
      try store.delete(ids: ids, selecting: nil, origin: origin).albums
    }
  }

  /// Moves the albums at `indices` (0-based, each once) as one block, in library order, so
  /// the first lands at `to`, as one undoable step; selects it. Returns them in order.
  @discardableResult
  package func move(from indices: [Int], to: Int) throws(LibraryError) -> [Album] {
    let unique = Set(indices).sorted()
    if unique.count == 1 { return [try move(from: unique[0], to: to)] }
    let to = try libraryPosition(forMoveTo: to, moving: unique)
    var ids: [Int64] = []
    for index in unique {
      guard let id = try album(at: index).id else { throw .noAlbumWithID(-1) }
      ids.append(id)
    }
    return try change { (origin) throws(LibraryError) in try store.move(ids: ids, to: to, origin: origin).albums }
  }

  /// Moves the album at `from` to `to` and selects it there; returns the album.
  @discardableResult
  package func move(from: Int, to: Int) throws(LibraryError) -> Album {
    let to = try libraryPosition(forMoveTo: to, moving: [from])
    let album = try self.album(at: from)
    guard let id = album.id else { throw .noAlbumWithID(-1) }
    return try change { (origin) throws(LibraryError) in try store.move(id: id, to: to, origin: origin).album }
  }

  /// Appends the albums of the JSON or CSV file at `path`, all or nothing, streaming it
  /// (see ``AlbumStore/importAlbums(fromFile:origin:)``); returns their 0-based range and
  /// the CSV header's columns that were skipped. The selection stays. `isCancelled` is asked
  /// as the file is read: true rolls it back and throws ``LibraryError/cancelled``.
  /// Into a library of the untouched sample albums, they leave in the same step (and the
  /// first album imported is selected): `samplesLeft` says how many.
  @discardableResult
  package func importAlbums(
    fromFile path: String, isCancelled: (() -> Bool)? = nil
  ) throws(LibraryError) -> (range: Range<Int>, ignoredColumns: [String], samplesLeft: Int) {
    let imported = try change { (origin) throws(LibraryError) in
      try store.importAlbums(fromFile: path, origin: origin, isCancelled: isCancelled)
    }
    // Into an empty library: the first album becomes current, as the viewport shows it.
    if selection == nil, !imported.range.isEmpty { select(0) }
    return (imported.range, imported.ignoredColumns, imported.samplesLeft)
  }

  /// Appends `albums` (all or nothing); returns their 0-based range. The selection stays.
  ///
  /// An album with a folder (exported after `import DIR`) gets the source key a scan of
  /// that folder gives it, so importing the folder again updates it rather than adding it twice.
  @discardableResult
  package func importAlbums(_ albums: [Album]) throws(LibraryError) -> Range<Int> {
    var albums = albums
    if albums.contains(where: { $0.folder != nil }) {
      for index in albums.indices {
        if let folder = albums[index].folder, albums[index].sourceKey == nil {
          albums[index].sourceKey = Album.sourceKey(
            folder: folder, artist: albums[index].artist, title: albums[index].title)
        }
      }
    }
    let range = try change { (origin) throws(LibraryError) in try store.importAlbums(albums, origin: origin).range }
    if selection == nil, !range.isEmpty { select(0) }
    return range
  }

  /// Replaces every album with the default catalogue and selects the first; returns how
  /// many albums were replaced.
  @discardableResult
  package func reset() throws(LibraryError) -> Int {
    try change { (origin) throws(LibraryError) in
      try store.reset(to: DefaultCatalogue.albums, origin: origin).removed
    }
  }

  // MARK: - Undo and redo (the log in the library file)

  /// Takes back this shell's latest standing change or, in a shell that has made none,
  /// the library's latest, and returns what it was (`delete "American Pie"`); nil when
  /// there is nothing to undo.
  ///
  /// - Throws: ``LibraryError/changedSince(title:undoing:)`` or
  ///   ``LibraryError/deletedSince(title:undoing:)`` when an album the step touched was
  ///   changed since (by any shell); nothing is changed then.
  package func undo() throws(LibraryError) -> String? {
    try replay(undoing: true)
  }

  /// Makes again the latest undone change (this shell's first), returning what it was;
  /// nil when there is nothing to redo.
  package func redo() throws(LibraryError) -> String? {
    try replay(undoing: false)
  }

  /// Undoes (`undoing`) or redoes the step the log picks, then brings its files and shared
  /// marks in step with it; returns what it was, nil when there is none.
  private func replay(undoing: Bool) throws(LibraryError) -> String? {
    _ = try finishInterruptedWrites()
    do {
      let step = try change { (_) throws(LibraryError) in
        try (undoing ? store.undo(session: session) : store.redo(session: session)).step
      }
      // A write's files are written back after the step is committed with its journal.
      if step.kind == .write { try finishJournal(of: step, undoing: undoing) }
      if step.kind == .edit { try shareMarks(changedBy: step) }
      return step.summary
    } catch .nothingToUndo, .nothingToRedo {
      return nil
    }
  }

  /// The latest `limit` steps of the undo log, newest first.
  package func changeLog(limit: Int) throws(LibraryError) -> [ChangeStep] {
    try store.changeLog(limit: limit)
  }

  // MARK: - Fresh reads

  /// Lets a command's reads share one read transaction until ``endCommand()`` (see
  /// ``AlbumStore/beginSnapshot()``); a change ends it early.
  package func beginCommand() {
    store.beginSnapshot()
  }

  /// Ends what ``beginCommand()`` started: call before waiting for anything (the pager,
  /// input); ``waitForCovers(timeout:shouldCancel:)`` ends it itself.
  package func endCommand() {
    store.endSnapshot()
  }

  /// Forgets what this library has cached (the count) when another shell committed to
  /// the file since it last looked, so counts, indices and the scroller are never stale.
  /// A view by `art` (`find art:url`) is also made again when covers landed since: a cover
  /// in the cache changes an album's art without changing the album.
  package func noticeChangesElsewhere() throws(LibraryError) {
    let version = try store.dataVersion()
    let artChanged = coversLanded.take() && view.map(\.query.readsArt) == true
    guard version != dataVersion || artChanged else { return }
    dataVersion = version
    cachedCount = nil
    if view != nil {
      let selectedID = try? selectedAlbum()?.id
      try refreshView(keeping: selectedID)
      return
    }
    let count = try count()
    selection = count == 0 ? nil : min(max(selection ?? 0, 0), count - 1)
  }

  // MARK: - Covers

  /// How long one download (or one MusicBrainz look-up) may take: `--download-timeout`.
  package var downloadTimeout: Duration { covers?.limits.timeout ?? .seconds(15) }

  /// Whether this library fetches covers (false in tests built without a loader).
  package var fetchesCovers: Bool { covers != nil }

  /// The state of `album`'s cover now: what this session asked for, else what the library
  /// recorded (``Album/coverCached``), else `.local` for a cover on the album's own files or
  /// folder, `.queued` for one to download that waits in a batch (`download all`), and
  /// `.none` for one to download (the same without a loader). Never a look in the cache,
  /// so drawing a row of cards or listing a million albums costs no file probe per album.
  package func coverState(of album: Album) -> CoverState {
    var url = album.coverURL
    return url.withUTF8 { coverState(ofURL: $0, cached: album.coverCached) }
  }

  /// ``coverState(of:)`` for a row of `list`: its cover URL as bytes and whether the
  /// library records it as cached. No `String` unless downloads ran in this session.
  package func coverState(ofURL url: UnsafeBufferPointer<UInt8>, cached: Bool) -> CoverState {
    guard !url.isEmpty else { return .none }
    let untouched: CoverState = LocalCover.isLocal(url) ? .local : .none
    guard let covers else { return untouched }
    guard covers.hasSessionStates else { return cached ? .cached : untouched }
    let text = String(decoding: url, as: UTF8.self)
    if let state = covers.sessionState(of: text) { return state }
    if cached { return .cached }
    return untouched == .none && covers.isWaitingInBatch(text) ? .queued : untouched
  }

  /// Hands `body` the albums from index `start` on, in order, straight from the library
  /// file, until it returns false (see ``AlbumStore/forEachListRow(from:_:)``).
  package func forEachListRow(from start: Int, _ body: (AlbumListRow) throws -> Bool) throws(LibraryError) {
    try store.forEachListRow(from: start, body)
  }

  /// The disk cache of covers (nil when covers are off): what the desktop's player widget
  /// is pointed at (MPRIS's `mpris:artUrl`).
  package var coverCache: CoverCache? { covers?.cache }

  /// The cached bytes of `album`'s cover, if it was downloaded. A cover the library
  /// recorded as cached whose file is gone (a cleared cache) is forgotten, so it shows
  /// as not downloaded from then on.
  package func cachedCover(of album: Album) -> Data? {
    guard let covers, !album.coverURL.isEmpty else { return nil }
    if let data = covers.cache.cachedData(for: album.coverURL) { return data }
    if album.coverCached { try? store.forgetCachedCover(album.coverURL) }
    return nil
  }

  /// Asks for the cover of `album` in the background; returns its state right after.
  @discardableResult
  package func requestCover(of album: Album) -> CoverState {
    guard let covers, !album.coverURL.isEmpty else { return .none }
    return covers.request(album.coverURL, for: CoverRequester(title: album.title, order: album.position))
  }

  /// How long an answer of "none" from the Cover Art Archive (or a music server) stands
  /// before `download all` asks again: 30 days.
  package static let noCoverStands: Int64 = 30 * 86_400

  /// The cover URLs the Cover Art Archive, or the music server (`mpd://…`: no picture in
  /// the song, no cover file in its folder), had none of when asked in the last 30 days
  /// (``noCoverStands``), as of `now` (seconds since 1970); an answer dated after `now`
  /// counts as not asked.
  package func coversNotInArchive(asOf now: Int64 = Int64(Date().timeIntervalSince1970)) throws(LibraryError)
    -> Set<String>
  {
    try store.noCovers(since: now - Self.noCoverStands, now: now)
  }

  /// Why `album`'s cover cannot be asked for as covers are set up (a bad
  /// `BLUELIB_COVERART_URL`), or nil.
  package func coverSetupProblem(of album: Album) -> String? {
    guard let covers, !album.coverURL.isEmpty else { return nil }
    return covers.setupProblem(for: album.coverURL)
  }

  /// Asks for the covers of `batch` in the background, a few at a time as slots free up
  /// (``CoverLoader/request(_:)``).
  package func requestCovers(_ batch: CoverBatch) {
    covers?.request(batch)
  }

  /// Whether the cover of `album` is in the cover cache now (one `stat`).
  package func coverIsCached(_ album: Album) -> Bool {
    guard let covers, !album.coverURL.isEmpty else { return false }
    return covers.cache.contains(album.coverURL)
  }

  /// The first `limit` covers queued or downloading now, running ones first.
  package func pendingCovers(limit: Int = .max) -> [PendingCover] {
    covers?.pendingSnapshot(limit: limit) ?? []
  }

  /// How many covers are queued or downloading now (no list made: a million is a count).
  package var pendingCoverCount: Int { covers?.unsettledCount ?? 0 }

  /// True when no download is running or waiting to report.
  package var coversAreIdle: Bool { covers?.isIdle ?? true }

  /// Blocks until the pending downloads have all reported (`.done`) or `timeout` seconds
  /// pass (`.timedOut`, the downloads go on), or cancels them when `stop` says so
  /// (`.cancelled`): the one policy for `wait` and for the shell's wait as it leaves.
  ///
  /// `stop` is asked once at the start and whenever `wakingOn` is readable (the shell's
  /// wake-up pipe: a signal, a status line); it must drain that descriptor. On ``CoverWaitStop/cancel``
  /// every pending download is cancelled, and the cancellations are waited for (at most
  /// `drain` seconds) so their status lines are out before this returns; on
  /// ``CoverWaitStop/cancelQuietly`` they are dropped without a word (leaving on a signal).
  package func waitForCovers(
    timeout: Double? = nil, drain: Double = 1, wakingOn descriptor: Int32? = nil,
    stop: () -> CoverWaitStop? = { nil }
  ) -> CoverWaitEnd {
    endCommand()
    guard let covers else { return .done }
    var stopping: CoverWaitStop?
    let done = covers.waitUntilIdle(timeout: timeout, wakingOn: descriptor) {
      stopping = stop()
      return stopping != nil
    }
    if done { return .done }
    switch stopping {
    case nil:
      return .timedOut
    case .cancelQuietly:
      covers.cancelAll(reporting: false)
    case .cancel:
      covers.cancelAll()
      _ = covers.waitUntilIdle(timeout: drain)
    }
    return .cancelled
  }

  /// Cancels pending downloads, without a word, and waits until each has ended: the last
  /// thing a session leaving normally does with its covers (the process then exits with
  /// the HTTP client's thread: nothing of it needs winding down).
  package func cancelCoversAndWait() {
    covers?.cancelAndWait(reporting: false)
  }

  /// Cancels pending downloads, waits for them to end, and releases the cover sources'
  /// connections and threads: for a library closed in a process that goes on.
  package func shutDownCovers() {
    covers?.shutDown()
  }

  /// Calls `handler` (on the loader's delivery queue) for every cover event until unsubscribed.
  package func observeCovers(
    outcomesOnly: Bool = false, _ handler: @escaping @Sendable (CoverEvent) -> Void
  ) -> SubscriptionToken? {
    covers?.subscribe(outcomesOnly: outcomesOnly, handler)
  }

  /// Stops the calls of a ``observeCovers(_:)`` subscription.
  package func stopObservingCovers(_ token: SubscriptionToken) {
    covers?.unsubscribe(token)
  }

  // MARK: - Keeping the cached count and selection in step

  /// Runs a logged store change made by this shell from its current selection, then
  /// refreshes the cached count and the selection from what the store now holds (the
  /// change wrote the selection in its own transaction).
  func change<T>(_ body: (ChangeOrigin) throws(LibraryError) -> T) throws(LibraryError) -> T {
    // In a view, the album selected before, read once: its library position is the change's
    // origin, and if the change removed it (a delete, an edit that took it out of the view),
    // the card that slides into its place is selected, as the store does in library order.
    let selected = view == nil ? nil : try selectedAlbum()
    let selectedBefore = selected?.id
    let origin = ChangeOrigin(session: session, selection: view == nil ? selection : selected?.position)
    cachedCount = nil
    let result: T
    do {
      result = try body(origin)
    } catch {
      _ = try? count()
      throw error
    }
    let count = try count()
    let stored = try store.selectedIndex()
    savedSelection = stored
    if view != nil {
      let storeSelected = try stored.flatMap { position throws(LibraryError) in try store.albumID(atPosition: position)
      }
      try refreshView(keeping: storeSelected, unlessGone: selectedBefore)
      return result
    }
    selection = count == 0 ? nil : stored.map { min(max($0, 0), count - 1) } ?? selection.map { min($0, count - 1) }
    return result
  }

  /// `N album(s)`, with thousands separators: `1 album`, `20,164 albums`.
  package static func albumCount(_ count: Int) -> String {
    counted(count, "album")
  }

  /// `count` and the noun, plural unless it is 1, with thousands separators: `1 track`,
  /// `20,164 tracks`. Every count the shell prints is written this way.
  package static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    Counting.counted(count, noun, plural: plural)
  }

  /// `20,000`: digits in groups of three.
  package static func grouped(_ number: Int) -> String {
    Counting.grouped(number)
  }
}
