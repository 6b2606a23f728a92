import AlbumModel
import BlueCovers
import BlueSystem
import BlueText
import Dispatch
import FoundationEssentials
internal import MusicFolder
import MusicSource
import Synchronization

// A source of albums (MusicSource: an MPD server): its tracks, listed a window at a time,
// staged in the library connection's temporary tables, grouped as a music folder's scan
// groups files and brought in by the one importer of every source (`AlbumStore.importAlbums`,
// a folder's scan's too), so the source's albums are albums like any other, whatever their
// number; the source followed as it changes; the marks it shares kept there.
extension Library {
  /// What bringing the library in step with its source did: the one result of every
  /// source's import.
  package typealias SourceSync = SourceImport

  /// Brings the library in step with its ``source`` through the one importer of every
  /// source (``importSource(_:named:withDeleted:progress:isCancelled:)``), as one change
  /// (one step `undo` takes back) when albums changed: albums not seen before are appended, albums seen before
  /// (the same folder on the server, album artist and title) are updated in place, and the
  /// fields you edited, and the albums you deleted, stay as you left them, as after an
  /// import of a music folder — but the rating and favourite mark, which are the server's
  /// (its stickers), unless this library changed one the server has not taken yet. Those
  /// go first: a mark this library changed that a stopped bluelib had not sent is sent now
  /// (``SourceSync/notices`` says so). The selection stays.
  ///
  /// What it holds in memory does not grow with the songs: they are staged as they come.
  ///
  /// Nothing is listed when the server's database has the version the last sync saw; nothing
  /// is written when its songs are the very ones listed last time. Otherwise only the songs
  /// whose file time or tags changed, or whose place in their album did, are written.
  ///
  /// - Throws: ``LibraryError/server(_:)`` when the server cannot answer (nothing changed
  ///   then), or a store error.
  @discardableResult
  package func sync() throws(LibraryError) -> SourceSync {
    try sync(sendingWaitingMarks: true)
  }

  /// ``sync()``; without `sendingWaitingMarks`, the marks waiting for the server are left
  /// waiting (a sync that follows the source while this process runs: they are the
  /// shell's own, on their way — the source told of the first of them, a `rate all` sends
  /// the rest — and the listing keeps them as the library has them).
  func sync(sendingWaitingMarks: Bool) throws(LibraryError) -> SourceSync {
    guard let source else { return SourceSync() }
    return try importSource(
      source, named: source.name, withDeleted: false, sendingWaitingMarks: sendingWaitingMarks, progress: nil,
      isCancelled: { false })
  }

  /// ``sync()`` with `source` on the library file at `path`, opened for it: for a thread of
  /// its own (the one that follows the source) beside the shell's library, which sees the
  /// change as another shell's (``noticeChangesElsewhere()``).
  package static func sync(
    libraryAt path: String, source: any MusicSource, cancellation: Cancellation = .never
  ) throws(LibraryError) -> SourceSync {
    let library = try Library(store: AlbumStore.open(path: path, seed: [], cancellation: cancellation), source: source)
    return try library.sync(sendingWaitingMarks: false)
  }

  /// Takes the marks the ``source`` keeps (``MusicSource/marks()``: a rating another client
  /// of it set) without listing its tracks: the albums whose marks differ change, as one
  /// step (``SourceSync/updated``, ``SourceSync/summary``), but those whose mark this library
  /// changed and the source has not confirmed. The record of the last sync stays as it is:
  /// the next start lists the tracks again, as after any change of the marks.
  ///
  /// - Throws: ``LibraryError/server(_:)`` when the source cannot answer, or a store error.
  package func syncMarks() throws(LibraryError) -> SourceSync {
    guard let server = source else { return SourceSync() }
    endCommand()
    let marks: [String: TrackMarks]?
    do throws(SourceError) {
      marks = try server.marks()
    } catch {
      throw .server(error.description)
    }
    guard let marks else { return SourceSync() }
    let name = server.name
    var result = SourceSync()
    let step = try change { (origin) throws(LibraryError) in
      try store.takeSourceMarks(
        marks, root: server.root,
        summary: { count in
          result.updated = count
          return "sync with \(name): " + Self.counts(added: 0, updated: count, moved: 0, unchanged: 0)
        }, origin: origin)
    }
    result.step = step
    return result
  }

  /// ``syncMarks()`` with `source` on the library file at `path`, opened for it (as
  /// ``sync(libraryAt:source:)``).
  package static func syncMarks(
    libraryAt path: String, source: any MusicSource, cancellation: Cancellation = .never
  ) throws(LibraryError) -> SourceSync {
    let library = try Library(store: AlbumStore.open(path: path, seed: [], cancellation: cancellation), source: source)
    return try library.syncMarks()
  }

  /// What following the source tells: what it says (a connection that came back), and what
  /// each sync after one of its changes did, or why it failed. Words are the source's own:
  /// whoever prints them escapes them.
  package enum SourceReport: Sendable, Equatable {
    /// A line of the source's: `MPD at 127.0.0.1:6600 is back; reconnected`.
    case notice(String)
    /// A sync after a change of the source, and what it did (its ``SourceSync/notices``).
    case synced(SourceSync)
    /// A sync after a change of the source failed.
    case failed(String)
  }

  /// Follows the ``source``: what it says is reported, and — with `changes`, at a
  /// terminal — each change of what it lists is synced into the library file, one sync at a
  /// time, on a thread of the library's own (with a connection of its own to the file,
  /// which this library then sees as another shell's change), and reported. `report` is
  /// called on those threads: it must only pass the report on (to the terminal's owner).
  package func follow(changes: Bool, report: @escaping @Sendable (SourceReport) -> Void) {
    guard let source else { return }
    let (path, cancellation) = (store.path, store.statementStop.cancellation)
    let (pending, pendingMarks) = (SyncRequest(), SyncRequest())
    /// Runs `sync` on the queue of syncs, unless one waits there already.
    @Sendable func queue(
      _ request: SyncRequest, _ sync: @escaping @Sendable (String) throws(LibraryError) -> SourceSync
    ) {
      // One sync at a time; changes during one make one more after it.
      guard request.request() else { return }
      Self.syncQueue.async {
        request.start()
        do {
          guard let path else { throw LibraryError.database("a library in memory cannot follow its source") }
          report(.synced(try sync(path)))
        } catch {
          report(.failed(String(describing: error)))
        }
      }
    }
    source.setEventHandler { event in
      switch event {
      case .notice(let line):
        report(.notice(line))
      case .databaseChanged:
        queue(pending) { path throws(LibraryError) in
          try Library.sync(libraryAt: path, source: source, cancellation: cancellation)
        }
      case .marksChanged:
        // A rating another client set: taken without listing the tracks (this shell's own
        // rating comes back too, and changes nothing).
        queue(pendingMarks) { path throws(LibraryError) in
          try Library.syncMarks(libraryAt: path, source: source, cancellation: cancellation)
        }
      }
    }
    if changes { source.startFollowing() }
  }

  /// Where the syncs that follow a source run, one at a time.
  private static let syncQueue = DispatchQueue(label: "bluelib.source.sync")

  /// Whether a sync waits to start: a change while one waits needs no other.
  private final class SyncRequest: Sendable {
    private let waiting = Atomic<Bool>(false)
    /// True when no sync was waiting (one is to be started).
    func request() -> Bool { !waiting.exchange(true, ordering: .acquiringAndReleasing) }
    /// The waiting sync starts: a change from now on needs another.
    func start() { waiting.store(false, ordering: .releasing) }
  }

  /// Asks the ``source``, for the cards that show `albums`, for the covers of those of its
  /// albums that are neither cached, nor failed in this session, nor known to be none (it
  /// had none in the last 30 days, ``noCoverStands``): in the background, a few at a time as
  /// the loader's slots allow, with no status line (``CoverRequester/forCard``); a cover
  /// `download` fetches already is joined. Returns the URLs on their way, for the cards to be
  /// drawn again once they are in. Nothing without a source: a library of this machine's
  /// folders reads its covers on the spot (``loadLocalCover(of:)``).
  package func requestCardCovers(of albums: [Album]) -> [String] {
    guard let covers, let source else { return [] }
    let prefix = source.root + "/"
    var wanted = albums.filter { album in
      guard album.coverURL.hasPrefix(prefix) else { return false }
      let state = coverState(of: album)
      return state == .none || state.isPending
    }
    guard !wanted.isEmpty else { return [] }
    let now = Int64(Date().timeIntervalSince1970)
    if let none = try? store.noCovers(among: wanted.map(\.coverURL), since: now - Self.noCoverStands, now: now),
      !none.isEmpty
    {
      wanted.removeAll { none.contains($0.coverURL) }
    }
    for album in wanted {
      covers.request(album.coverURL, for: CoverRequester(title: album.title, order: album.position, forCard: true))
    }
    return wanted.map(\.coverURL).filter(coverIsPending)
  }

  /// Whether the cover at `url` is queued or downloading now.
  package func coverIsPending(_ url: String) -> Bool {
    guard let covers else { return false }
    return covers.sessionState(of: url)?.isPending ?? covers.isWaitingInBatch(url)
  }

  /// What the source said of the latest change it was told of (`rate`, `fav`, their undo),
  /// when it did not take it all — the change stands in this library — once.
  package func takeSourceNote() -> String? {
    defer { sourceNote = nil }
    return sourceNote
  }

  /// Whether `album` came from a music server rather than a folder of this machine: its
  /// folder is not a path (`mpd://127.0.0.1:6600/Artist/Album`). The name of that server,
  /// as far as the folder says, or nil.
  static func server(of album: Album) -> String? {
    guard let folder = album.folder, !folder.hasPrefix("/"), let scheme = folder.firstRange(of: "://") else {
      return nil
    }
    let rest = folder[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" }
    let kind = folder[..<scheme.lowerBound].uppercased()
    return "\(kind) at \(authority.percentDecoded ?? String(authority))"
  }

}

/// 16 hex digits (64-bit FNV-1a) of every song's place, time, length, tags and marks, in the
/// order listed, after the grouping rules' version, and of their count: the same fingerprint,
/// the same albums. Mixed a song at a time, as the songs are listed.
struct SongFingerprint {
  private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

  init() {
    mix("rules \(MusicFolderScanner.groupingRulesVersion)")
  }

  private mutating func mix(_ text: String?) {
    var text = text ?? "\u{0}"
    // Over the string's contiguous bytes: its UTF-8 view, walked a byte at a time, cost
    // three times as much.
    var hash = self.hash
    text.withUTF8 { bytes in
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    self.hash = (hash ^ 0xFF) &* 0x100_0000_01b3
  }

  /// Mixes the eight bytes of `number`.
  private mutating func mix(number: UInt64) {
    var rest = number
    for _ in 0..<8 {
      hash = (hash ^ (rest & 0xFF)) &* 0x100_0000_01b3
      rest >>= 8
    }
  }

  mutating func mix(_ song: SourceTrack) {
    mix(song.uri)
    // The numbers as their bytes: a text of them (a Double's description above all) cost a
    // tenth of a sync's listing.
    mix(number: UInt64(bitPattern: song.modified))
    mix(number: song.duration.bitPattern)
    mix(number: UInt64(bitPattern: Int64(song.track ?? -1)))
    mix(number: UInt64(bitPattern: Int64(song.disc ?? -1)))
    mix(number: UInt64(bitPattern: Int64(song.rating ?? 0)))
    mix(number: song.favourite ? 1 : 0)
    mix(number: UInt64(bitPattern: Int64(song.bitrate)))
    mix(number: UInt64(bitPattern: Int64(song.sampleRate)))
    // One by one: an array of them was an allocation a song.
    mix(song.album)
    mix(song.artist)
    mix(song.albumArtist)
    mix(song.title)
    mix(song.date)
    mix(song.genre)
    mix(song.musicBrainzTrackID)
    mix(song.musicBrainzAlbumID)
    mix(song.musicBrainzReleaseGroupID)
    mix(song.composer)
    mix(song.format)
  }

  mutating func mix(_ album: SourceAlbum) {
    mix(album.path)
    mix(
      "album \(album.modified) \(album.duration) \(album.trackCount) \(album.year ?? -1) \(album.rating ?? 0) "
        + "\(album.ratingKnown) \(album.favourite) \(album.plays ?? -1) \(album.lastPlayed ?? -1)")
    for text in [album.title, album.artist, album.genre, album.coverURL, album.musicBrainzAlbumID] { mix(text) }
  }

  /// The fingerprint of the songs mixed, `songs` of them.
  func hex(songs: Int) -> String {
    var copy = self
    copy.mix("songs \(songs)")
    let hex = String(copy.hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

extension SourceTrack {
  /// The tags as a music-folder track has them; the format is the one the server names, else
  /// the file's extension (`FLAC`).
  var tags: TrackTags {
    let format = self.format.map { $0.uppercased() } ?? Self.format(ofURI: uri)
    return TrackTags(
      album: Self.trimmed(album), artist: Self.trimmed(artist), albumArtist: Self.trimmed(albumArtist),
      title: Self.trimmed(title), trackNumber: track, date: Self.trimmed(date), genre: Self.trimmed(genre),
      discNumber: disc, musicBrainzTrackID: musicBrainzTrackID, musicBrainzAlbumID: musicBrainzAlbumID,
      musicBrainzReleaseGroupID: musicBrainzReleaseGroupID, format: format, bitrate: max(bitrate, 0),
      duration: duration, rating: rating, favourite: favourite, sampleRate: max(sampleRate, 0),
      composer: Self.trimmed(composer))
  }

  /// The extension of the last part of `uri` that is not empty, upper-cased (`FLAC`): the
  /// last part of its name that is not empty, after a dot; empty without a dot. Read from
  /// the bytes: splitting the URI made two arrays a song.
  static func format(ofURI uri: String) -> String {
    let slash = UInt8(ascii: "/")
    let dot = UInt8(ascii: ".")
    var uri = uri
    return uri.withUTF8 { bytes in
      var end = bytes.count
      while end > 0, bytes[end - 1] == slash { end -= 1 }
      var start = end
      while start > 0, bytes[start - 1] != slash { start -= 1 }
      guard bytes[start..<end].contains(dot) else { return "" }
      while end > start, bytes[end - 1] == dot { end -= 1 }
      var from = end
      while from > start, bytes[from - 1] != dot { from -= 1 }
      let name = UnsafeBufferPointer(rebasing: bytes[from..<end])
      // An ASCII extension upper-cased as bytes; any other as a text.
      guard name.allSatisfy({ $0 < 0x80 }) else { return String(decoding: name, as: UTF8.self).uppercased() }
      return String(unsafeUninitializedCapacity: name.count) { buffer in
        for (index, byte) in name.enumerated() {
          buffer[index] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
        }
        return name.count
      }
    }
  }

  /// `text` without blanks around it; nil when nothing is left (as TagLib's tags are read).
  private static func trimmed(_ text: String?) -> String? {
    guard let text else { return nil }
    // Most tags start and end with an ASCII byte that is no blank: taken as they are.
    if let first = text.utf8.first, let last = text.utf8.last, first < 0x80, last < 0x80, first != 0x20,
      first != 0x09, last != 0x20, last != 0x09
    {
      return text
    }
    // Most tags have no blank at either end: Foundation's trimming bridged each one (a
    // seventh of a sync's time).
    func isBlank(_ scalar: Unicode.Scalar?) -> Bool {
      scalar.map {
        $0.isASCII ? $0 == " " || $0 == "\t" : $0.properties.generalCategory == .spaceSeparator
      } ?? true
    }
    if !isBlank(text.unicodeScalars.first), !isBlank(text.unicodeScalars.last) { return text }
    let trimmed = text.trimming(.whitespaces)
    return trimmed.isEmpty ? nil : trimmed
  }
}

extension Library {
  /// `albums` (those changed by `rate` or `fav`) stored as one step summed up by `summary`,
  /// with `mark` of those that came from ``source`` noted as waiting for it, in the same
  /// transaction (``share(_:of:)`` sends it).
  func edit(_ albums: [Album], summary: String, sharing mark: SharedMark) throws(LibraryError) -> [Album] {
    let keys = source.map { server in Self.sharedKeys(of: albums, on: server) } ?? []
    return try change { (origin) throws(LibraryError) in
      try store.edit(albums, summary: summary, pending: keys.isEmpty ? nil : (mark.pending, keys), origin: origin)
        .after
    }
  }

  /// The source keys of those of `albums` that came from `server`.
  private static func sharedKeys(of albums: [Album], on server: any MusicSource) -> [String] {
    albums.compactMap { album in album.folder?.hasPrefix(server.root + "/") == true ? album.sourceKey : nil }
  }

  /// After `undo` or `redo` of the edit `step`: the ratings and favourite marks it changed,
  /// as they stand now, kept on the server too (as `rate` and `fav` keep them).
  func shareMarks(changedBy step: ChangeStep) throws(LibraryError) {
    guard let server = source else { return }
    let (rated, favoured) = try store.marksChanged(by: step.id)
    let ratedAlbums = try store.albums(ids: rated)
    let favouredAlbums = try store.albums(ids: favoured)
    try store.notePending(.rating, of: Self.sharedKeys(of: ratedAlbums, on: server))
    try store.notePending(.fav, of: Self.sharedKeys(of: favouredAlbums, on: server))
    for stars in Set(ratedAlbums.map(\.rating)) {
      share(.rating(stars), of: ratedAlbums.filter { $0.rating == stars })
    }
    for favourite in [true, false] {
      share(.favourite(favourite), of: favouredAlbums.filter { $0.favourite == favourite })
    }
  }

  /// Keeps `mark` of `albums` that came from ``source`` there too (on each of their
  /// tracks), so another library of that source sees it; albums of this machine are left
  /// alone. The library's own change is made before, with the mark noted as waiting for the
  /// source: once the source took it, it no longer waits, and the source's word for those
  /// albums is that mark. When the source cannot be reached, the mark stands here, still
  /// waiting (the next sync sends it); when it refuses the mark (MPD without a sticker
  /// database, Mopidy), the mark is kept in this library only: either is a note of the
  /// change (``takeSourceNote()``), not an error — the change stands.
  func share(_ mark: SharedMark, of albums: [Album]) {
    do throws(LibraryError) {
      try send(mark, of: albums)
    } catch {
      sourceNote = sourceNote ?? error.description
    }
  }

  /// ``share(_:of:)``, throwing what the source said.
  private func send(_ mark: SharedMark, of albums: [Album]) throws(LibraryError) {
    guard let server = source else { return }
    let prefix = server.root + "/"
    var uris: [String] = []
    var keys: [String] = []
    for album in albums where album.folder?.hasPrefix(prefix) == true {
      guard let tracklist = try storedTracklist(of: album), let folder = album.folder else { continue }
      let tracks = tracklist.tracks.map(\.path).filter { $0.hasPrefix(prefix) }.map {
        String($0.dropFirst(prefix.count))
      }
      // An album listed without its tracks, whose tracks were never asked for: its folder
      // stands for them (the source finds them from it), rather than a request for them.
      uris += tracks.isEmpty && (album.tracks ?? 0) > 0 ? [String(folder.dropFirst(prefix.count))] : tracks
      if let key = album.sourceKey { keys.append(key) }
    }
    guard !uris.isEmpty else {
      try store.forgetPending(mark.pending, of: keys)
      return
    }
    do throws(SourceError) {
      try server.share(mark, onTracks: uris)
    } catch  where error.refused {
      try store.forgetPending(mark.pending, of: keys)
      throw .server(error.description + " (kept in this library only)")
    } catch {
      throw .server(error.description + " (kept in this library; sent to the server at the next start)")
    }
    try store.confirmShared(mark.pending, value: mark.value, of: keys, forgettingSyncOf: server.root)
  }

  /// Sends to the ``source`` the marks this library changed that it has not confirmed (a
  /// bluelib stopped before it could: `kill -9` during `rate all`), as they stand now. Returns a
  /// line for the user when there were any: sent, or why not (they wait for the next start).
  func finishPendingShares() throws(LibraryError) -> [String] {
    guard let server = source else { return [] }
    let pending = try store.pendingMarks()
    guard !pending.isEmpty else { return [] }
    var sent = 0
    var waiting = 0
    var reason: String?
    for (kind, keys) in pending.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let albums = try store.albums(sourceKeys: keys)
      // The keys of albums no longer in the library wait for nothing.
      let found = Set(albums.compactMap(\.sourceKey))
      try store.forgetPending(kind, of: keys.filter { !found.contains($0) })
      let marks: [SharedMark] =
        kind == .rating
        ? Set(albums.map(\.rating)).sorted { ($0 ?? 0) < ($1 ?? 0) }.map { .rating($0) }
        : [.favourite(true), .favourite(false)]
      for mark in marks {
        let some = albums.filter { mark == .rating($0.rating) || mark == .favourite($0.favourite) }
        guard !some.isEmpty else { continue }
        do throws(LibraryError) {
          try send(mark, of: some)
          sent += some.count
        } catch {
          waiting += some.count
          reason = reason ?? error.description
        }
      }
    }
    let what =
      pending.keys.count == 2
      ? "ratings and favourite marks" : pending.keys.first == .rating ? "ratings" : "favourite marks"
    var notices: [String] = []
    if sent > 0 {
      notices.append(
        "sent to \(server.name) the \(what) of \(Self.albumCount(sent)) that had not reached it")
    }
    if waiting > 0, let reason {
      notices.append("the \(what) of \(Self.albumCount(waiting)) are not on the server yet: \(reason)")
    }
    return notices
  }

}

extension SharedMark {
  /// The store's name for this kind of mark.
  var pending: AlbumStore.PendingMark {
    if case .rating = self { .rating } else { .fav }
  }

  /// The value a `folder_album` row keeps for it.
  var value: Int? {
    switch self {
    case .rating(let stars): stars
    case .favourite(let favourite): favourite ? 1 : 0
    }
  }
}
