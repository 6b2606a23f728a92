import AlbumModel
import BlueCovers
import BluePlayback
import BlueSystem
import FoundationEssentials
package import MusicFolder
import MusicSource

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `import DIR` and the covers it brings: local files read into the cover cache when first
// needed, never through `download`.
extension Library {
  // MARK: - Import of a music folder

  /// Scans the music folder at `path` (tags read with TagLib, tracks grouped into albums:
  /// see MusicFolder) and brings its albums into the library as one change, through the one
  /// importer of every source (``importSource(_:named:withDeleted:progress:isCancelled:)``,
  /// the folder as a ``MusicFolderSource``): albums not imported before are appended, albums
  /// imported before from the same folder (same album artist and title) are updated in place
  /// when their tags changed. When nothing changed, nothing is written and no step is
  /// logged. The selection stays.
  ///
  /// - Parameters:
  ///   - name: how the step's summary names the folder (as the user typed it).
  ///   - withDeleted: bring back the albums you deleted from the library, which an import
  ///     otherwise leaves out (``SourceImport/leftOut``).
  ///   - progress: told how far the scan has got, about ten times a second, on this thread.
  ///   - isCancelled: asked between files; when it says true the scan stops and
  ///     ``LibraryError/cancelled`` is thrown, with nothing changed.
  /// - Throws: ``LibraryError/cannotScan(path:reason:)`` when `path` is not a folder that
  ///   can be listed, ``LibraryError/cancelled``, or a store error (nothing changed then).
  @discardableResult
  package func importFolder(
    _ path: String, named name: String, withDeleted: Bool = false, progress: ((MusicScanProgress) -> Void)? = nil,
    isCancelled: () -> Bool = { false }
  ) throws(LibraryError) -> FolderImport {
    try importSource(
      MusicFolderSource(path), named: name, withDeleted: withDeleted, progress: progress, isCancelled: isCancelled)
  }

  /// The audio format the first bytes of the file at `path` announce (`FLAC`), or nil: an
  /// audio file given to `import` is named as one rather than read as CSV.
  package static func audioFormat(ofFileAt path: String) -> String? {
    TrackTags.audioFormat(ofFileAt: path)
  }

  /// `2 added, 1 updated, 1 moved, 9 unchanged, 1 left out, 1 gone`, leaving out the counts
  /// that are 0.
  package static func counts(
    added: Int, updated: Int, moved: Int = 0, unchanged: Int, leftOut: Int = 0, gone: Int = 0
  ) -> String {
    let parts = [
      (added, "added"), (updated, "updated"), (moved, "moved"), (unchanged, "unchanged"), (leftOut, "left out"),
      (gone, "gone"),
    ].filter { $0.0 > 0 }
    return parts.isEmpty ? "nothing" : parts.map { "\(grouped($0.0)) \($0.1)" }.joined(separator: ", ")
  }

  // MARK: - Local covers

  /// Forgets the cached copy of each of `albums`' local covers whose file changed since it
  /// was read (a new `cover.jpg`, a retagged track), so the next card or `cover` reads it
  /// again. One `stat` per album, two for a cached cover.
  func refreshLocalCovers(of albums: [Album]) {
    guard let covers else { return }
    for album in albums where !album.coverURL.isEmpty {
      guard let cached = covers.cache.modificationTime(for: album.coverURL),
        let file = try? LocalCover.path(of: album.coverURL)
      else { continue }
      guard let stamp = FileStamp(path: file) else { continue }
      if stamp.modified > cached || stamp.changed / 1_000_000_000 > cached / 1_000_000_000 {
        covers.forget(album.coverURL)
        try? store.forgetCachedCover(album.coverURL)
      }
    }
  }

  /// The bytes of `album`'s cover if it is local (``LocalCover``: an image beside the
  /// tracks or a picture embedded in one) and can be read: from the cover cache, or read
  /// now through its cover source (checked and cached like a download, but without a
  /// status line) and recorded as cached. Nil for other covers, and for a local cover
  /// that cannot be read (its state then says why: ``coverState(of:)``).
  ///
  /// - Important: Blocks while it reads the file (milliseconds for a local file).
  package func loadLocalCover(of album: Album) -> Data? {
    guard let covers, !album.coverURL.isEmpty, LocalCover.isLocal(album.coverURL) else { return nil }
    if let data = cachedCover(of: album) { return data }
    guard covers.fetchNow(album.coverURL) == .cached else { return nil }
    try? store.recordCachedCover(album.coverURL)
    return covers.cache.cachedData(for: album.coverURL)
  }
}

// MARK: - Tracks

extension Library {
  /// The tracks of `album` as its files said at the last import of its music folder, with
  /// its discs and MusicBrainz ids; nil for an album that did not come from a music folder.
  /// An album a source listed without its tracks (a Subsonic server's) has them asked for
  /// now, the first time, and kept (``MusicSource/tracks(ofAlbum:)``): the network is waited
  /// for before the library file is written, and no change is logged.
  ///
  /// - Throws: ``LibraryError/server(_:)`` when the source cannot give them.
  package func tracklist(of album: Album) throws(LibraryError) -> Tracklist? {
    guard let key = album.sourceKey else { return nil }
    let stored = try store.tracklist(forKey: key)
    guard let source, stored?.tracks.isEmpty ?? true, (album.tracks ?? 0) > 0, let folder = album.folder,
      folder.hasPrefix(source.root + "/")
    else { return stored }
    let root = source.root
    let songs: [SourceTrack]
    do throws(SourceError) {
      songs = try source.tracks(ofAlbum: String(folder.dropFirst(root.count + 1)))
    } catch {
      throw .server(error.description)
    }
    guard !songs.isEmpty else { return stored }
    try store.keepFetchedTracks(
      songs.map { song in
        MusicTrack(
          path: root + "/" + song.path, size: 0, modified: song.modified &* 1_000_000_000, disc: song.disc,
          tags: song.tags)
      }, forKey: key)
    return try store.tracklist(forKey: key)
  }

  /// The tracks of `album` the library holds (``tracklist(of:)``), none asked of a source.
  package func storedTracklist(of album: Album) throws(LibraryError) -> Tracklist? {
    guard let key = album.sourceKey else { return nil }
    return try store.tracklist(forKey: key)
  }

  /// The tracks of `album` to play, in album order, with what a now-playing line shows; empty
  /// for an album that did not come from a music folder.
  package func playableTracks(of album: Album) throws(LibraryError) -> [Player.Track] {
    guard let tracklist = try tracklist(of: album) else { return [] }
    return tracklist.tracks.map { track in
      Player.Track(
        albumID: album.id, album: album.title, artist: album.artist, discs: tracklist.discs, disc: track.disc,
        number: track.number, title: track.displayTitle, duration: track.duration, path: track.path,
        trackArtist: track.artist, coverURL: album.coverURL,
        musicBrainz: Player.MusicBrainzIDs(
          recording: track.musicBrainzTrackID, release: tracklist.musicBrainzAlbumID,
          releaseGroup: tracklist.musicBrainzReleaseGroupID))
    }
  }

  /// What a playlist file (M3U, M3U8, PLS: ``PlaylistFile``) lists that the library holds.
  package struct PlaylistTracks: Sendable {
    /// The tracks of the library it lists, in its order.
    package var tracks: [Player.Track]
    /// The entries that are no track of the library, as it lists them (resolved), in order.
    package var missing: [String]
    /// How many entries it lists.
    package var count: Int
  }

  /// The tracks of the library the playlist at `path` lists, and the entries it does not
  /// hold (found by the file's path as given, else with its symbolic links resolved).
  ///
  /// - Throws: ``LibraryError/cannotRead(path:reason:)`` for a playlist that cannot be read
  ///   or lists nothing, or a store error.
  package func playlistTracks(at path: String) throws(LibraryError) -> PlaylistTracks {
    let entries = try PlaylistFile.entries(at: path)
    var real: [String: String] = [:]
    var albums = try store.albumsOfTracks(at: entries)
    for entry in entries where albums[entry] == nil && entry.hasPrefix("/") {
      guard let resolved = realpath(entry, nil) else { continue }
      real[entry] = String(cString: resolved)
      free(resolved)
    }
    if !real.isEmpty {
      let found = try store.albumsOfTracks(at: Array(real.values))
      for (entry, resolved) in real { albums[entry] = found[resolved] }
    }
    var tracksOf: [Int64: [Player.Track]] = [:]
    var result = PlaylistTracks(tracks: [], missing: [], count: entries.count)
    for entry in entries {
      let file = real[entry] ?? entry
      guard let album = albums[entry], let id = album.id else {
        result.missing.append(entry)
        continue
      }
      if tracksOf[id] == nil { tracksOf[id] = try playableTracks(of: album) }
      guard let track = tracksOf[id]?.first(where: { $0.path == file }) else {
        result.missing.append(entry)
        continue
      }
      result.tracks.append(track)
    }
    return result
  }

  /// `tracks` with each track whose file is gone found again in the library: a queue made
  /// before its albums' folders moved (and were imported again) plays from the new places.
  /// A track is matched by its album, disc, number and title; one not found stays as it was.
  package func refound(_ tracks: [Player.Track]) -> [Player.Track] {
    var albums: [Int64: [Player.Track]] = [:]
    return tracks.map { track in
      guard access(track.path, F_OK) != 0, let id = track.albumID else { return track }
      if albums[id] == nil {
        albums[id] = (try? store.album(id: id)).flatMap { $0 }.flatMap { try? playableTracks(of: $0) } ?? []
      }
      return albums[id]?.first {
        $0.disc == track.disc && $0.number == track.number && $0.title == track.title && $0.path != track.path
      } ?? track
    }
  }

  /// `album` as its files said at the last import of its folder (title, artist, genre, year,
  /// cover, as the scan built it): a field of `album` that differs was edited, and an
  /// import keeps it. Nil for an album that did not come from a scan.
  package func filesSay(of album: Album) throws(LibraryError) -> Album? {
    guard let key = album.sourceKey else { return nil }
    return try store.scannedAlbum(forKey: key)
  }

  /// The tracks of `album` with every tag they were read with, for `export`; nil for an
  /// album without a track list.
  func musicTracks(of album: Album) throws(LibraryError) -> [MusicTrack]? {
    guard let key = album.sourceKey else { return nil }
    let tracks = try store.storedMusicTracks(forKey: key)
    return tracks.isEmpty ? nil : tracks
  }
}
