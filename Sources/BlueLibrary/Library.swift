/// The facade the shell talks to: the album store, the cover loader and the selection
/// (the memento).
///
/// One instance is built at start-up and passed down — no global `shared` — so tests
/// build their own over ``AlbumStore/inMemory(seed:)``.
///
/// The selection (0-based, nil when the library is empty) lives in memory and is
/// persisted by ``saveSelection()``, which the shell calls after each command before it
/// waits for input and at exit; a library change persists it in the change's own
/// transaction. That keeps 100,000 piped `scroll right` commands from being 100,000
/// SQLite transactions while a person's every command is still saved.
public final class Library {
  /// The storage.
  public let store: AlbumStore
  /// Cover downloads and their cache (nil: this library does not fetch covers).
  public let covers: CoverLoader?
  /// The current album's 0-based index.
  public private(set) var selection: Int?
  private var savedSelection: Int?
  private var cachedCount: Int?

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

  /// The selected album, or nil when the library is empty.
  public func selectedAlbum() throws(LibraryError) -> Album? {
    guard let selection else { return nil }
    return try store.album(at: selection)
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

  // MARK: - Changes (each one transaction, selection included)

  /// Inserts `album` at `index` and selects it.
  @discardableResult
  public func insert(_ album: Album, at index: Int) throws(LibraryError) -> Album {
    try change(selecting: index) { () throws(LibraryError) in
      try store.insert(album, at: index, selecting: index)
    }
  }

  /// Replaces the stored album with the same id, selecting `selecting` (default: unchanged).
  @discardableResult
  public func update(_ album: Album, selecting: Int? = nil) throws(LibraryError) -> Album {
    try change(selecting: selecting ?? selection) { () throws(LibraryError) in
      try store.update(album, selecting: selecting ?? selection)
    }
  }

  /// Deletes the album at `index`. Deleting the current album leaves the selection at that
  /// place (clamped), as the original app's `reloadScroller` does; deleting another one
  /// keeps the current album selected.
  @discardableResult
  public func delete(at index: Int) throws(LibraryError) -> Album {
    let count = try count()
    let current = selection ?? index
    let kept = index < current ? current - 1 : current
    let next: Int? = count <= 1 ? nil : min(kept, count - 2)
    return try change(selecting: next) { () throws(LibraryError) in
      try store.delete(at: index, selecting: next)
    }
  }

  /// Moves the album at `from` to `to` and selects it there.
  public func move(from: Int, to: Int) throws(LibraryError) {
    try change(selecting: to) { () throws(LibraryError) in
      try store.move(from: from, to: to, selecting: to)
    }
  }

  /// Appends `albums` (all or nothing); returns their 0-based range.
  @discardableResult
  public func append(_ albums: [Album]) throws(LibraryError) -> Range<Int> {
    let keep = selection ?? 0
    return try change(selecting: keep) { () throws(LibraryError) in
      try store.append(albums, selecting: keep)
    }
  }

  /// Removes the last `n` albums (undo of an import), selecting `selecting` (default: the
  /// current album, clamped to what is left).
  public func removeLast(_ n: Int, selecting: Int? = nil) throws(LibraryError) {
    let count = try count()
    let target = (selecting ?? selection).map { min($0, max(0, count - n - 1)) }
    try change(selecting: target) { () throws(LibraryError) in
      try store.removeLast(n, selecting: target)
    }
  }

  /// Replaces every album; returns the old ones (for undo).
  @discardableResult
  public func replaceAll(with albums: [Album], selecting: Int?) throws(LibraryError) -> [Album] {
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
}
