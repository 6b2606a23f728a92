import Foundation

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
public final class Library {
  let store: AlbumStore
  let covers: CoverLoader?
  /// The current album's 0-based index.
  public private(set) var selection: Int?
  private var savedSelection: Int?
  private var cachedCount: Int?
  private var journal = UndoJournal()

  /// Wraps `store` (and `covers`), reading the saved selection (clamped to the library).
  public init(store: AlbumStore, covers: CoverLoader? = nil) throws(LibraryError) {
    self.store = store
    self.covers = covers
    let count = try store.count()
    cachedCount = count
    let saved = try store.selectedIndex()
    selection = count == 0 ? nil : min(max(saved ?? 0, 0), count - 1)
    savedSelection = saved
  }

  /// Opens (or creates, seeded with the default catalogue) the library file at `path`.
  public static func open(path: String, covers: CoverLoader? = nil) throws(LibraryError) -> Library {
    try Library(store: AlbumStore.open(path: path), covers: covers)
  }

  /// A library in memory holding `albums` (the default catalogue unless told), for tests.
  public static func inMemory(
    seed albums: [Album] = DefaultCatalogue.albums, covers: CoverLoader? = nil
  ) -> Library {
    do {
      return try Library(store: .inMemory(seed: albums), covers: covers)
    } catch {
      preconditionFailure("cannot read an in-memory library: \(error)")
    }
  }

  /// The library file, or nil for an in-memory library.
  public var path: String? { store.path }

  // MARK: - Reading

  /// The number of albums (cached; every change through the facade refreshes it).
  public func count() throws(LibraryError) -> Int {
    if let cachedCount { return cachedCount }
    let count = try store.count()
    cachedCount = count
    return count
  }

  /// The album at a 0-based index.
  public func album(at index: Int) throws(LibraryError) -> Album {
    try store.album(at: index)
  }

  /// The albums at the 0-based `range`, in order: one query for a page of the viewport.
  public func albums(in range: Range<Int>) throws(LibraryError) -> [Album] {
    try store.albums(in: range)
  }

  /// Every album in order (for `export`).
  public func allAlbums() throws(LibraryError) -> [Album] {
    try store.all()
  }

  /// The selected album, or nil when the library is empty.
  public func selectedAlbum() throws(LibraryError) -> Album? {
    guard let selection else { return nil }
    return try store.album(at: selection)
  }

  /// The albums matching `query` from index `start`, at most `limit` (see ``AlbumStore/search(_:from:limit:)``).
  public func search(_ query: String, from start: Int = 0, limit: Int? = nil) throws(LibraryError) -> [Album] {
    try store.search(query, from: start, limit: limit)
  }

  /// The index of the first album titled `title` (exactly, else ignoring case).
  public func firstIndex(ofTitle title: String) throws(LibraryError) -> Int? {
    try store.firstIndex(ofTitle: title)
  }

  /// Distinct titles starting with `prefix` (ignoring case), for tab completion.
  public func titles(withPrefix prefix: String, limit: Int) throws(LibraryError) -> [String] {
    try store.titles(withPrefix: prefix, limit: limit)
  }

  // MARK: - Selection (memento)

  /// Selects the album at `index` (clamped); not a library change, not undoable.
  public func select(_ index: Int) {
    let count = cachedCount ?? 0
    selection = count == 0 ? nil : min(max(index, 0), count - 1)
  }

  /// Writes the selection to the store if it changed since the last save.
  public func saveSelection() throws(LibraryError) {
    guard selection != savedSelection else { return }
    try store.setSelectedIndex(selection)
    savedSelection = selection
  }

  // MARK: - Changes (each one transaction, selection included, and one undo step)

  /// Adds `album` after the current one (first in an empty library) and selects it;
  /// returns it as stored and its index.
  @discardableResult
  public func add(_ album: Album) throws(LibraryError) -> (album: Album, index: Int) {
    let previous = selection
    let index = previous.map { $0 + 1 } ?? 0
    let stored = try insert(album, at: index)
    journal.record(
      summary: "add " + Self.quoted(album.title),
      undo: { [unowned self] () throws(LibraryError) in
        _ = try self.delete(at: index, selecting: previous)
      },
      redo: { [unowned self] () throws(LibraryError) in _ = try self.insert(album, at: index) })
    return (stored, index)
  }

  /// Stores `album`'s fields over the album with the same id; the selection stays.
  /// Returns the album before and after.
  @discardableResult
  public func edit(_ album: Album) throws(LibraryError) -> (before: Album, after: Album) {
    guard let id = album.id else { throw .database("cannot update an album that was never stored") }
    let before = try store.album(at: album.position)
    guard before.id == id else { throw .noAlbumWithID(id) }
    let previous = selection
    let after = try update(album, selecting: previous)
    journal.record(
      summary: "edit " + Self.quoted(after.title),
      undo: { [unowned self] () throws(LibraryError) in _ = try self.update(before, selecting: previous) },
      redo: { [unowned self] () throws(LibraryError) in _ = try self.update(after, selecting: previous) })
    return (before, after)
  }

  /// Deletes the album at `index`. Deleting the current album leaves the selection at that
  /// place (clamped), as the original app's `reloadScroller` does; deleting another one
  /// keeps the current album selected. Returns the deleted album.
  @discardableResult
  public func delete(at index: Int) throws(LibraryError) -> Album {
    let removed = try delete(at: index, selecting: nil)
    journal.record(
      summary: "delete " + Self.quoted(removed.title),
      undo: { [unowned self] () throws(LibraryError) in _ = try self.insert(removed, at: index) },
      redo: { [unowned self] () throws(LibraryError) in _ = try self.delete(at: index, selecting: nil) })
    return removed
  }

  /// Moves the album at `from` to `to` and selects it there; returns the album.
  @discardableResult
  public func move(from: Int, to: Int) throws(LibraryError) -> Album {
    let album = try store.album(at: from)
    let previous = selection
    try move(from, to)
    journal.record(
      summary: "move " + Self.quoted(album.title),
      undo: { [unowned self] () throws(LibraryError) in
        try self.move(to, from)
        if let previous { self.select(previous) }
      },
      redo: { [unowned self] () throws(LibraryError) in try self.move(from, to) })
    return album
  }

  /// Appends `albums` (all or nothing); returns their 0-based range. The selection stays.
  @discardableResult
  public func importAlbums(_ albums: [Album]) throws(LibraryError) -> Range<Int> {
    let previous = selection
    let range = try append(albums)
    journal.record(
      summary: "import of " + Self.albumCount(range.count),
      undo: { [unowned self] () throws(LibraryError) in try self.removeLast(range.count, selecting: previous) },
      redo: { [unowned self] () throws(LibraryError) in _ = try self.append(albums) })
    return range
  }

  /// Replaces every album with the default catalogue and selects the first; returns how
  /// many albums were replaced.
  @discardableResult
  public func reset() throws(LibraryError) -> Int {
    let previous = selection
    let old = try replaceAll(with: DefaultCatalogue.albums, selecting: 0)
    journal.record(
      summary: "reset",
      undo: { [unowned self] () throws(LibraryError) in _ = try self.replaceAll(with: old, selecting: previous) },
      redo: { [unowned self] () throws(LibraryError) in
        _ = try self.replaceAll(with: DefaultCatalogue.albums, selecting: 0)
      })
    return old.count
  }

  // MARK: - Undo and redo

  /// Takes back the latest change and returns what it was (`delete "American Pie"`), or
  /// nil when there is nothing to undo.
  public func undo() throws(LibraryError) -> String? {
    try journal.undo()
  }

  /// Re-applies the latest undone change and returns what it was, or nil when there is
  /// nothing to redo.
  public func redo() throws(LibraryError) -> String? {
    try journal.redo()
  }

  // MARK: - Covers

  /// Whether this library fetches covers (false in tests built without a loader).
  public var fetchesCovers: Bool { covers != nil }

  /// The state of the cover at `url` now (`.none` without a loader).
  public func coverState(of url: String) -> CoverState {
    covers?.currentState(of: url) ?? .none
  }

  /// The cached bytes of the cover at `url`, if it was downloaded.
  public func cachedCover(for url: String) -> Data? {
    covers?.cache.cachedData(for: url)
  }

  /// Asks for the cover of `album` in the background; returns its state right after.
  @discardableResult
  public func requestCover(of album: Album) -> CoverState {
    guard let covers, !album.coverURL.isEmpty else { return .none }
    return covers.request(album.coverURL, albumTitle: album.title)
  }

  /// The covers queued or downloading now.
  public func pendingCovers() -> [PendingCover] {
    covers?.pendingSnapshot() ?? []
  }

  /// True when no download is running or waiting to report.
  public var coversAreIdle: Bool { covers?.isIdle ?? true }

  /// Blocks until pending downloads finish, `timeout` seconds pass (false) or
  /// `shouldCancel` says so (false).
  public func waitForCovers(timeout: Double? = nil, shouldCancel: () -> Bool = { false }) -> Bool {
    covers?.waitForPendingBlocking(timeout: timeout, shouldCancel: shouldCancel) ?? true
  }

  /// Cancels every pending download.
  public func cancelCovers() {
    covers?.cancelAll()
  }

  /// Calls `handler` (on the loader's executor) for every cover event until unsubscribed.
  public func observeCovers(_ handler: @escaping @Sendable (CoverEvent) -> Void) -> SubscriptionToken? {
    covers?.subscribe(handler)
  }

  /// Stops the calls of a ``observeCovers(_:)`` subscription.
  public func stopObservingCovers(_ token: SubscriptionToken) {
    covers?.unsubscribe(token)
  }

  // MARK: - The store's changes, keeping the cached count and selection in step

  private func insert(_ album: Album, at index: Int) throws(LibraryError) -> Album {
    try change(selecting: index) { () throws(LibraryError) in
      try store.insert(album, at: index, selecting: index)
    }
  }

  private func update(_ album: Album, selecting: Int?) throws(LibraryError) -> Album {
    try change(selecting: selecting) { () throws(LibraryError) in
      try store.update(album, selecting: selecting)
    }
  }

  /// Deletes at `index`, selecting `selecting`, or by default the place the original app
  /// leaves selected.
  private func delete(at index: Int, selecting: Int?) throws(LibraryError) -> Album {
    let count = try count()
    let next: Int?
    if let selecting {
      next = selecting
    } else {
      let current = selection ?? index
      let kept = index < current ? current - 1 : current
      next = count <= 1 ? nil : min(kept, count - 2)
    }
    return try change(selecting: next) { () throws(LibraryError) in
      try store.delete(at: index, selecting: next)
    }
  }

  private func move(_ from: Int, _ to: Int) throws(LibraryError) {
    try change(selecting: to) { () throws(LibraryError) in
      try store.move(from: from, to: to, selecting: to)
    }
  }

  private func append(_ albums: [Album]) throws(LibraryError) -> Range<Int> {
    let keep = selection ?? 0
    return try change(selecting: keep) { () throws(LibraryError) in
      try store.append(albums, selecting: keep)
    }
  }

  private func removeLast(_ n: Int, selecting: Int?) throws(LibraryError) {
    let count = try count()
    let target = (selecting ?? selection).map { min($0, max(0, count - n - 1)) }
    try change(selecting: target) { () throws(LibraryError) in
      try store.removeLast(n, selecting: target)
    }
  }

  private func replaceAll(with albums: [Album], selecting: Int?) throws(LibraryError) -> [Album] {
    try change(selecting: selecting) { () throws(LibraryError) in
      try store.replaceAll(with: albums, selecting: selecting)
    }
  }

  /// Runs a store change and refreshes the cached count and selection from what the
  /// store now holds (it clamps the selection in the same transaction).
  private func change<T>(
    selecting: Int?, _ body: () throws(LibraryError) -> T
  ) throws(LibraryError) -> T {
    cachedCount = nil
    let result: T
    do {
      result = try body()
    } catch {
      _ = try? count()
      throw error
    }
    let count = try count()
    let stored = try store.selectedIndex()
    selection = count == 0 ? nil : stored.map { min(max($0, 0), count - 1) } ?? selecting
    savedSelection = stored
    return result
  }

  /// `"title"` for undo summaries (the shell escapes control characters when it prints).
  static func quoted(_ title: String) -> String { "\"" + title + "\"" }

  /// `N album(s)`.
  public static func albumCount(_ count: Int) -> String {
    count == 1 ? "1 album" : "\(count) albums"
  }
}

/// The changes `undo` and `redo` step through, newest last; a new change clears redo.
private struct UndoJournal {
  struct Entry {
    let summary: String
    let undo: () throws(LibraryError) -> Void
    let redo: () throws(LibraryError) -> Void
  }

  private var undoable: [Entry] = []
  private var redoable: [Entry] = []
  private let limit = 1000

  mutating func record(
    summary: String, undo: @escaping () throws(LibraryError) -> Void,
    redo: @escaping () throws(LibraryError) -> Void
  ) {
    undoable.append(Entry(summary: summary, undo: undo, redo: redo))
    redoable.removeAll()
    if undoable.count > limit { undoable.removeFirst(undoable.count - limit) }
  }

  mutating func undo() throws(LibraryError) -> String? {
    guard let entry = undoable.last else { return nil }
    try entry.undo()
    undoable.removeLast()
    redoable.append(entry)
    return entry.summary
  }

  mutating func redo() throws(LibraryError) -> String? {
    guard let entry = redoable.last else { return nil }
    try entry.redo()
    redoable.removeLast()
    undoable.append(entry)
    return entry.summary
  }
}
