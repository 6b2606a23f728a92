import AlbumModel
import Foundation
internal import MusicFolder

// A music server's database as a source of albums: its songs grouped as a music folder's
// import groups files, stored by the same path (`AlbumStore.importFolder` and
// `writeTracks`), so the server's albums are albums like any other.
extension Library {
  /// What bringing the library in step with a server did.
  public struct ServerSync: Sendable, Equatable {
    /// Whether the songs were listed: false when the server's database had not changed
    /// since the last sync (its version was the same), so nothing was asked or read.
    public var listed = false
    /// The server's albums and songs, when listed.
    public var albums = 0
    public var tracks = 0
    public var added = 0
    public var updated = 0
    public var moved = 0
    public var unchanged = 0
    /// Albums none of whose songs the server has any more (they stay, `missing:true`).
    public var gone = 0
    /// Albums you deleted from the library, which a sync leaves out.
    public var leftOut = 0
    /// The step `undo` takes back, nil when no album changed.
    public var summary: String?

    /// Whether any album was added, updated, moved or gone.
    public var changedAlbums: Bool { added + updated + moved + gone > 0 }
  }

  /// The key of the state row that remembers the last sync with the server at `root`, as a
  /// folder's last scan is remembered: the database's version, a newline, and the
  /// fingerprint of the songs it listed.
  static func syncKey(_ root: String) -> String { "scan " + root }

  /// Brings the library in step with `server`'s database, as one change (one step `undo`
  /// takes back) when albums changed: albums not seen before are appended, albums seen before
  /// (the same folder on the server, album artist and title) are updated in place, and the
  /// fields you edited, and the albums you deleted, stay as you left them, as after an
  /// import of a music folder. The selection stays.
  ///
  /// Nothing is listed when the server's database has the version the last sync saw; nothing
  /// is written when its songs are the very ones listed last time. Otherwise only the songs
  /// whose file time or tags changed, or whose place in their album did, are written.
  ///
  /// - Throws: ``LibraryError/server(_:)`` when the server cannot answer (nothing changed
  ///   then), or a store error.
  @discardableResult
  public func sync(with server: any MusicServer) throws(LibraryError) -> ServerSync {
    endCommand()
    let root = server.root
    let version: String
    do throws(ServerError) {
      version = try server.databaseVersion()
    } catch {
      throw .server(error.description)
    }
    let last = try store.stateText(Self.syncKey(root))
    let lastVersion = last.map { String($0.prefix { $0 != "\n" }) }
    if lastVersion == version { return ServerSync() }

    // The songs are staged as they come, a window at a time, in the library connection's
    // temporary tables, and grouped and stored from there: what a sync holds in memory does
    // not grow with the server's database.
    try store.beginListing()
    defer { store.endListing() }
    var fingerprint = SongFingerprint()
    var staged = 0
    var failure: LibraryError?
    do throws(ServerError) {
      try server.listSongs { listing in
        do throws(LibraryError) {
          switch listing {
          case .again:
            fingerprint = SongFingerprint()
            staged = 0
            try store.beginListing()
          case .songs(let songs):
            for song in songs { fingerprint.mix(song) }
            staged += try store.stage(
              songs.map { song in
                ListedTrack(path: root + "/" + song.uri, modified: song.modified &* 1_000_000_000, tags: song.tags)
              })
          }
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
    var result = ServerSync()
    result.listed = true
    result.tracks = staged
    let record = version + "\n" + fingerprint.hex(songs: staged)
    if let last, last.hasSuffix("\n" + fingerprint.hex(songs: staged)) {
      // The very songs of the last sync: its albums stand.
      try store.setStateText(Self.syncKey(root), record)
      result.albums = try store.scannedAlbumCount(under: root)
      result.unchanged = result.albums
      return result
    }

    result.albums = try store.groupListing()
    let name = server.name
    let outcome = try change { (origin) throws(LibraryError) in
      try store.importListing(
        root: root,
        summary: { outcome in
          "sync with \(name): "
            + Self.counts(added: outcome.added, updated: outcome.updated, moved: outcome.moved, unchanged: 0)
        },
        origin: origin, record: record,
        cover: { album in
          // The server's cover for each album: its first song's picture, else its folder's.
          guard let first = album.tracks.first?.path, first.hasPrefix(root + "/") else { return nil }
          return server.coverURL(ofSong: String(first.dropFirst(root.count + 1)))
        })
    }
    if selection == nil, (try? count()) ?? 0 > 0 { select(0) }
    result.added = outcome.added
    result.updated = outcome.updated
    result.moved = outcome.moved
    result.unchanged = outcome.unchanged
    result.gone = outcome.gone
    result.leftOut = outcome.leftOut
    result.summary = outcome.step?.summary
    return result
  }

  /// ``sync(with:)`` on the library file at `path`, opened for it: for a thread of its own
  /// (the server's listener) beside the shell's library, which sees the change as another
  /// shell's (``noticeChangesElsewhere()``).
  public static func sync(libraryAt path: String, with server: any MusicServer) throws(LibraryError) -> ServerSync {
    let library = try Library(store: AlbumStore.open(path: path, seed: []))
    return try library.sync(with: server)
  }

  /// Whether `album` came from a music server rather than a folder of this machine: its
  /// folder is not a path (`mpd://127.0.0.1:6600/Artist/Album`). The name of that server,
  /// as far as the folder says, or nil.
  static func server(of album: Album) -> String? {
    guard let folder = album.folder, !folder.hasPrefix("/"), let scheme = folder.range(of: "://") else { return nil }
    let rest = folder[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" }
    let kind = folder[..<scheme.lowerBound].uppercased()
    return "\(kind) at \(authority.removingPercentEncoding ?? String(authority))"
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
    for byte in (text ?? "\u{0}").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    hash = (hash ^ 0xFF) &* 0x100_0000_01b3
  }

  mutating func mix(_ song: ServerSong) {
    mix(song.uri)
    mix(
      "\(song.modified) \(song.duration) \(song.track ?? -1) \(song.disc ?? -1) \(song.rating ?? 0) \(song.favourite)")
    for tag in [
      song.album, song.artist, song.albumArtist, song.title, song.date, song.genre, song.musicBrainzTrackID,
      song.musicBrainzAlbumID, song.musicBrainzReleaseGroupID,
    ] {
      mix(tag)
    }
  }

  /// The fingerprint of the songs mixed, `songs` of them.
  func hex(songs: Int) -> String {
    var copy = self
    copy.mix("songs \(songs)")
    let hex = String(copy.hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

extension ServerSong {
  /// The tags as a music-folder track has them; the format is the file's extension.
  var tags: TrackTags {
    let name = uri.split(separator: "/").last ?? ""
    let format = name.contains(".") ? String(name.split(separator: ".").last ?? "").uppercased() : ""
    return TrackTags(
      album: Self.trimmed(album), artist: Self.trimmed(artist), albumArtist: Self.trimmed(albumArtist),
      title: Self.trimmed(title), trackNumber: track, date: Self.trimmed(date), genre: Self.trimmed(genre),
      discNumber: disc, musicBrainzTrackID: musicBrainzTrackID, musicBrainzAlbumID: musicBrainzAlbumID,
      musicBrainzReleaseGroupID: musicBrainzReleaseGroupID, format: format, duration: duration, rating: rating,
      favourite: favourite)
  }

  /// `text` without blanks around it; nil when nothing is left (as TagLib's tags are read).
  private static func trimmed(_ text: String?) -> String? {
    guard let text else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    return trimmed.isEmpty ? nil : trimmed
  }
}

extension Library {
  /// After `undo` or `redo` of the edit `step`: the ratings and favourite marks it changed,
  /// as they stand now, kept on the server too (as `rate` and `fav` keep them).
  func shareMarks(changedBy step: ChangeStep) throws(LibraryError) {
    guard server != nil else { return }
    let (rated, favoured) = try store.marksChanged(by: step.id)
    let ratedAlbums = try store.albums(ids: rated)
    for stars in Set(ratedAlbums.map(\.rating)) {
      try share(.rating(stars), of: ratedAlbums.filter { $0.rating == stars })
    }
    let favouredAlbums = try store.albums(ids: favoured)
    for favourite in [true, false] {
      try share(.favourite(favourite), of: favouredAlbums.filter { $0.favourite == favourite })
    }
  }

  /// Keeps `mark` of `albums` that came from ``server`` on the server too (on each of their
  /// songs), so another library of that server sees it; albums of this machine are left
  /// alone. The library's own change is made before: when the server cannot take the mark,
  /// it stands, and the error says why the server did not.
  func share(_ mark: SharedMark, of albums: [Album]) throws(LibraryError) {
    guard let server else { return }
    let prefix = server.root + "/"
    var uris: [String] = []
    for album in albums where album.folder?.hasPrefix(prefix) == true {
      guard let tracklist = try tracklist(of: album) else { continue }
      uris += tracklist.tracks.map(\.path).filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
    guard !uris.isEmpty else { return }
    do throws(ServerError) {
      try server.share(mark, onSongs: uris)
    } catch {
      throw .server(error.description + " (kept in this library only)")
    }
  }
}
