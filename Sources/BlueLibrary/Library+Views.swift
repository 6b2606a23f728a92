import AlbumModel
import FoundationEssentials

/// A view: the albums a query matches, in its order. The scroller, the indices every verb
/// takes and `all` mean the view's albums while it is shown (the original app's adapter
/// lesson: the data source changes, the scroller does not).
///
/// The view holds the matching albums' ids (8 bytes each), read once by `find` and again
/// only when the library changed (this shell's change, or another's seen by
/// ``Library/noticeChangesElsewhere()``), so scrolling and tapping read only the visible albums.
package struct AlbumView: Sendable {
  /// The query that made the view.
  package let query: AlbumQuery
  /// The ids of its albums, in its order.
  let ids: [Int64]

  /// How many albums the view has.
  package var count: Int { ids.count }
}

/// A view saved under a name (`view save`), as `view list` shows it.
package struct SavedView: Sendable {
  /// What can be done with it now.
  package enum State: Sendable {
    /// Its query, read.
    case usable(AlbumQuery)
    /// Its words as typed hold a regular expression while ICU cannot be loaded (`why`): the
    /// view is kept, and can be used where ICU loads.
    case needsICU(text: String, why: String)
    /// A stored query this build does not read (a field a later build renamed).
    case invalid
  }

  package let name: String
  package let state: State
}

/// One album of a listing: its id and its index in the current view (or library).
package struct ListedAlbum: Sendable, Equatable {
  package let id: Int64
  /// The 0-based index `tap` and `delete` take for it; nil when the caller reads the
  /// album's library position instead (no view).
  package let index: Int?
}

extension Library {
  /// Shows the albums `query` matches, in its order (`find QUERY`), selecting the first;
  /// nil or a query that neither filters nor sorts shows the whole library again, keeping
  /// the current album. The view is remembered in the library file for the next start.
  /// Returns how many albums the view has.
  @discardableResult
  package func show(_ query: AlbumQuery?) throws(LibraryError) -> Int {
    let selectedID = try selectedAlbum()?.id
    if let query, !query.isEverything {
      let ids = try store.albumIDs(matching: query)
      view = AlbumView(query: query, ids: ids)
      selection = ids.isEmpty ? nil : 0
    } else {
      view = nil
      let position = try selectedID.flatMap { id throws(LibraryError) in try store.album(id: id)?.position }
      let count = try libraryCount()
      selection = count == 0 ? nil : min(max(position ?? selection ?? 0, 0), count - 1)
    }
    let position = try selectedPosition()
    try store.setCurrentView(view.map(\.query.storedText), selection: position)
    savedSelection = position
    return try count()
  }

  /// The ids of the albums `query` matches in the whole library, in its order.
  package func albumIDs(matching query: AlbumQuery) throws(LibraryError) -> [Int64] {
    try store.albumIDs(matching: query)
  }

  /// `query` within the current view: the albums `list QUERY`, `stats`, `export FILE QUERY`
  /// and `all` act on (the view's sort unless `query` has its own).
  package func scope(_ query: AlbumQuery?) -> AlbumQuery {
    guard let view else { return query ?? .all }
    return query.map { view.query.narrowed(by: $0) } ?? view.query
  }

  /// The albums of the current view (or library) that `query` matches, in its order (else
  /// the view's), with the indices verbs take for them.
  package func listing(_ query: AlbumQuery?) throws(LibraryError) -> [ListedAlbum] {
    let ids = try store.albumIDs(matching: scope(query))
    guard let view else { return ids.map { ListedAlbum(id: $0, index: nil) } }
    if query == nil { return ids.enumerated().map { ListedAlbum(id: $0.element, index: $0.offset) } }
    let wanted = Set(ids)
    var indexOf: [Int64: Int] = [:]
    indexOf.reserveCapacity(ids.count)
    for (index, id) in view.ids.enumerated() where wanted.contains(id) { indexOf[id] = index }
    return ids.compactMap { id in indexOf[id].map { ListedAlbum(id: id, index: $0) } }
  }

  /// The index of the first album of the view (or library) whose `field` sorts under
  /// `prefix`: a text's ``CollationKey`` starts with the prefix's, so `scroll to R` lands on
  /// `Røyksopp` and never on `Greatest Hits`; a number's digits start with it (`scroll to
  /// '19'` in a view by year). Nil when none does.
  package func firstIndex(of field: QueryField, sortingUnder prefix: String) throws(LibraryError) -> Int? {
    guard let view else {
      guard let id = try store.albumIDs(of: field, sortingUnder: prefix, limit: 1).first else { return nil }
      return try store.album(id: id)?.position
    }
    let ids = Set(try store.albumIDs(of: field, sortingUnder: prefix, limit: nil))
    return view.ids.firstIndex(where: ids.contains)
  }

  /// The albums with `ids`, in that order (a page of a ``listing(_:)``).
  package func albums(ids: some Collection<Int64>) throws(LibraryError) -> [Album] {
    try store.albums(ids: ids)
  }

  /// Figures over the albums of `query` within the current view.
  package func statistics(_ query: AlbumQuery?) throws(LibraryError) -> LibraryStatistics {
    try store.statistics(scope(query))
  }

  /// When the album entered the library (seconds since 1970).
  package func addedTime(of album: Album) throws(LibraryError) -> Int64? {
    guard let id = album.id else { return nil }
    return try store.addedTime(ofAlbumID: id)
  }

  /// Distinct values of `field` starting with `prefix`, for completion.
  package func values(of field: QueryField, withPrefix prefix: String, limit: Int) throws(LibraryError) -> [String] {
    try store.values(of: field, withPrefix: prefix, limit: limit)
  }

  /// Deletes every album of the view (or the library) as one undoable step; returns how many.
  @discardableResult
  package func deleteAll() throws(LibraryError) -> Int {
    let ids: [Int64]
    if let view { ids = view.ids } else { ids = try store.albumIDs(matching: .all) }
    guard !ids.isEmpty else { return 0 }
    return try change { (origin) throws(LibraryError) in
      try store.delete(ids: ids, selecting: nil, origin: origin).albums.count
    }
  }

  // MARK: - Saved views

  /// The saved views, by name, each with its query, or why it cannot be used.
  package func savedViews() throws(LibraryError) -> [SavedView] {
    try store.savedViews().map { stored in
      do throws(LibraryError) {
        return SavedView(
          name: stored.name, state: .usable(try AlbumQuery(storedText: stored.query, savedViews: savedViewWords)))
      } catch .patternsNeedICU(_, let why) {
        return SavedView(name: stored.name, state: .needsICU(text: Self.typed(stored.query), why: why))
      } catch {
        return SavedView(name: stored.name, state: .invalid)
      }
    }
  }

  /// A stored query's words as typed (`title::^The year+`), else the stored text.
  private static func typed(_ stored: String) -> String {
    (try? AlbumQuery.words(storedText: stored)).map { AlbumQuery.all.withWords($0).text } ?? stored
  }

  /// The query saved as `name`.
  package func savedView(_ name: String) throws(LibraryError) -> AlbumQuery {
    try AlbumQuery(words: savedViewWords(name), savedViews: savedViewWords)
  }

  /// The words of the view saved as `name`.
  package func savedViewWords(_ name: String) throws(LibraryError) -> [String] {
    guard let stored = try store.savedView(name) else {
      throw .noView(name: name, known: try store.savedViews().map(\.name))
    }
    return try AlbumQuery.words(storedText: stored)
  }

  /// Parses `words` as a query, `@NAME` standing for the view saved as NAME.
  package func query(_ words: [String]) throws(LibraryError) -> AlbumQuery {
    try AlbumQuery(words: words, savedViews: savedViewWords)
  }

  /// Saves `query` as `name`; returns whether a view of that name was replaced.
  ///
  /// The new words are read as they will be, with themselves in place of `@name`: a view
  /// that would reach itself (`view save a @b` where `b` is `@a`) is refused, and so is one
  /// that would expand past ``AlbumQuery/maximumTerms``, or a change that would break
  /// another saved view that works now. Nothing is saved then, and the old query stays.
  @discardableResult
  package func saveView(_ name: String, query: AlbumQuery) throws(LibraryError) -> Bool {
    let words = query.words
    let withNew: AlbumQuery.SavedViews = { [self] (other: String) throws(LibraryError) -> [String] in
      other == name ? words : try savedViewWords(other)
    }
    if let circle = try circle(from: name, through: withNew) {
      throw .viewRefersToItself(name: name, circle: circle)
    }
    _ = try AlbumQuery(words: words, savedViews: withNew)
    for other in try store.savedViews() where other.name != name {
      guard let otherWords = try? AlbumQuery.words(storedText: other.query),
        (try? AlbumQuery(words: otherWords, savedViews: savedViewWords)) != nil
      else { continue }
      do {
        _ = try AlbumQuery(words: otherWords, savedViews: withNew)
      } catch {
        throw .viewWouldBreak(name: name, other: other.name, reason: error.description)
      }
    }
    return try store.saveView(name, query: query.storedText)
  }

  /// The views `@name` would pass through to reach itself, `name` first and last, when its
  /// words (as `views` gives them) reach it again; nil when they do not. Each view is looked
  /// into once, however often it is named.
  private func circle(from name: String, through views: AlbumQuery.SavedViews) throws(LibraryError) -> [String]? {
    var seen: Set<String> = []
    var path: [String] = []
    func visit(_ view: String) throws(LibraryError) -> Bool {
      path.append(view)
      for word in (try? views(view)) ?? [] {
        guard let next = AlbumQuery.viewName(word) else { continue }
        if next == name { return true }
        if seen.insert(next).inserted, try visit(next) { return true }
      }
      path.removeLast()
      return false
    }
    return try visit(name) ? path + [name] : nil
  }

  /// Deletes the saved view `name`.
  package func deleteView(_ name: String) throws(LibraryError) {
    guard try store.deleteView(name) != nil else {
      throw .noView(name: name, known: try store.savedViews().map(\.name))
    }
  }

  // MARK: - Keeping the view in step

  /// Why the view was dropped since the last call (see ``droppedView``), once.
  package func takeDroppedView() -> String? {
    defer { droppedView = nil }
    return droppedView
  }

  /// Reads the view the last session showed (the memento) and selects the saved album in it.
  ///
  /// A view that no longer parses (a field a later build renamed) is dropped quietly. One
  /// with a regular expression while ICU cannot be loaded is not shown but kept, for a start
  /// where ICU loads, with ``droppedView`` saying so. One that fails to run — a regular
  /// expression too slow for an album that came in since, a saved view it names that grew
  /// past the limits — is dropped, with the library shown whole and ``droppedView`` saying
  /// why: a start must never hang on the memento.
  func restoreView(selectedPosition position: Int?) throws(LibraryError) {
    guard let stored = try store.currentViewQuery() else { return }
    let query: AlbumQuery
    let ids: [Int64]
    do throws(LibraryError) {
      let parsed: AlbumQuery
      do throws(LibraryError) {
        parsed = try AlbumQuery(storedText: stored, savedViews: savedViewWords)
      } catch .patternsNeedICU(_, let why) {
        droppedView =
          "the view of the last session ('find \(Self.typed(stored))') is kept but not shown: "
          + LibraryError.patternsNeedICU(why)
        return
      } catch {
        return
      }
      guard !parsed.isEverything else { return }
      query = parsed
      ids = try store.albumIDs(matching: query)
    } catch .cancelled {
      throw .cancelled
    } catch {
      droppedView = "the view of the last session ('find \(Self.typed(stored))') was dropped: \(error)"
      try store.setCurrentView(nil, selection: position)
      return
    }
    let selectedID = try position.flatMap { position throws(LibraryError) in try store.albumID(atPosition: position) }
    view = AlbumView(query: query, ids: ids)
    selection = view.flatMap { view in
      selectedID.flatMap { view.ids.firstIndex(of: $0) } ?? (view.ids.isEmpty ? nil : 0)
    }
  }

  /// Reads the view's albums again after a change, keeping `selectedID` selected when it is
  /// still in the view, else the same index (clamped). When `previous` (the album selected
  /// before the change) has left the view, the same index is kept whatever `selectedID` is.
  ///
  /// A view whose query fails to run now (a regular expression too slow for an album that
  /// came in) is dropped, the whole library shown with the same album selected, and
  /// ``droppedView`` says why: the change that brought the album stands.
  func refreshView(keeping selectedID: Int64?, unlessGone previous: Int64? = nil) throws(LibraryError) {
    guard let current = view else { return }
    let ids: [Int64]
    do throws(LibraryError) {
      ids = try store.albumIDs(matching: current.query)
    } catch .cancelled {
      throw .cancelled
    } catch {
      view = nil
      droppedView = "the view '\(current.query.text)' was dropped: \(error); showing the whole library"
      let position = try selectedID.flatMap { id throws(LibraryError) in try store.album(id: id)?.position }
      let count = try libraryCount()
      selection = count == 0 ? nil : min(max(position ?? 0, 0), count - 1)
      try store.setCurrentView(nil, selection: selection)
      savedSelection = selection
      return
    }
    view = AlbumView(query: current.query, ids: ids)
    if let previous, !ids.contains(previous) {
      selection = ids.isEmpty ? nil : min(max(selection ?? 0, 0), ids.count - 1)
    } else if let selectedID, let index = ids.firstIndex(of: selectedID) {
      selection = index
    } else {
      selection = ids.isEmpty ? nil : min(max(selection ?? 0, 0), ids.count - 1)
    }
  }

  /// The library position the first of `moved` (view indices) must land at for it to
  /// stand at view index `index` once the block is moved: just before the album that will
  /// follow it in the view (after the view's last album for the end), counted without the
  /// moved albums. Moving is refused in a sorted view, whose order is not the library's.
  func libraryPosition(forMoveTo index: Int, moving moved: [Int]) throws(LibraryError) -> Int {
    guard let view else { return index }
    if !view.query.sort.isEmpty { throw .sortedView(view.query.text) }
    let movedIDs = Set(moved.compactMap { view.ids.indices.contains($0) ? view.ids[$0] : nil })
    let remaining = view.ids.filter { !movedIDs.contains($0) }
    var movedPositions: [Int] = []
    for id in movedIDs {
      if let position = try store.album(id: id)?.position { movedPositions.append(position) }
    }
    func positionWithoutBlock(_ id: Int64) throws(LibraryError) -> Int {
      guard let position = try store.album(id: id)?.position else { throw .noAlbumWithID(id) }
      return position - movedPositions.filter { $0 < position }.count
    }
    if remaining.isEmpty { return movedPositions.min() ?? 0 }
    if index < remaining.count { return try positionWithoutBlock(remaining[max(0, index)]) }
    return try positionWithoutBlock(remaining[remaining.count - 1]) + 1
  }
}
