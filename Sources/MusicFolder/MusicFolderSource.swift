import MusicSource

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A music folder of this machine as a source of albums (`import DIR`): an adapter like a
/// music server's (``MusicSource``), its fingerprint the walk's (paths, sizes, times, cover
/// images), its tracks listed with the tags TagLib reads. It keeps no marks of its own (a
/// rating stays in the library), is not followed, and its covers are its albums' own (the
/// scan's ``MusicAlbum/cover``).
///
/// A library's importer scans it rather than lists it (``scan(progress:isCancelled:earlier:)``):
/// its files may have been read before (``EarlierScan``: the library's record of the last
/// scan, so only the files changed since are read), what only its walk sees (a folder's
/// cover image, a file's picture) makes its albums' covers, and it reports the files it
/// passed over and how far it has got. A server's adapter has none of that, and is listed.
package final class MusicFolderSource: MusicSource {
  /// The folder as it was given (`~/Music` expanded): what messages name.
  package let location: String
  private let scanner: MusicFolderScanner

  /// The music folder at `path`, read by `scanner`.
  package init(_ path: String, scanner: MusicFolderScanner = MusicFolderScanner()) {
    location = path
    self.scanner = scanner
  }

  package var name: String { "folder \(location)" }

  /// Its real path (symbolic links resolved), which its albums' folders start with; the path
  /// as given when it cannot be resolved.
  package var root: String {
    guard let resolved = realpath(location, nil) else { return location }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  package var libraryName: String {
    "folder" + root.map { $0 == "/" ? "-" : $0 }
  }

  /// Scans it (``MusicFolderScanner/scan(_:progress:isCancelled:earlier:)``).
  package func scan(
    progress: ((SourceProgress) -> Void)?, isCancelled: () -> Bool, earlier: (any EarlierScan)?
  ) throws(MusicFolderError) -> MusicFolderScan {
    try scanner.scan(location, progress: progress, isCancelled: isCancelled, earlier: earlier)
  }

  /// The walk's fingerprint (``MusicFolderScan/fingerprint``): no file is read.
  package func fingerprint() throws(SourceError) -> String {
    do throws(MusicFolderError) {
      return try scanner.fingerprint(of: location)
    } catch {
      throw SourceError(error.description)
    }
  }

  /// Every track of a scan of it, a window at a time, filed below its ``root``.
  package func listTracks(_ receive: (SourceListing) -> Bool) throws(SourceError) {
    let scan: MusicFolderScan
    do throws(MusicFolderError) {
      scan = try self.scan(progress: nil, isCancelled: { false }, earlier: nil)
    } catch {
      throw SourceError(error.description)
    }
    var window: [SourceTrack] = []
    for track in scan.albums.lazy.flatMap(\.tracks) where track.path.hasPrefix(scan.folder + "/") {
      window.append(SourceTrack(track, place: String(track.path.dropFirst(scan.folder.count + 1))))
      if window.count == Self.window {
        guard receive(.tracks(window)) else { return }
        window.removeAll(keepingCapacity: true)
      }
    }
    if !window.isEmpty { _ = receive(.tracks(window)) }
  }

  /// How many tracks ``listTracks(_:)`` hands on at a time.
  private static let window = 4096

  /// None: a folder's covers are its albums' own (``MusicAlbum/cover``), read from its files.
  package func coverURL(ofTrack path: String) -> String { "" }

  /// Nothing is told of a folder: it is scanned when imported.
  package func setEventHandler(_ handler: @escaping @Sendable (SourceEvent) -> Void) {}

  package func startFollowing() {}

  /// A folder keeps no marks but in its files' tags, which only `write` changes.
  package func share(_ mark: SharedMark, onTracks paths: [String]) throws(SourceError) {
    throw SourceError("a music folder keeps marks in the library only", refused: true)
  }
}

extension SourceTrack {
  /// `track` of a scan, filed at `place` below the folder's root.
  init(_ track: MusicTrack, place: String) {
    self.init(uri: place, modified: track.modified / 1_000_000_000, duration: track.tags.duration)
    let tags = track.tags
    album = tags.album
    artist = tags.artist
    albumArtist = tags.albumArtist
    title = tags.title
    self.track = tags.trackNumber
    disc = tags.discNumber
    date = tags.date
    genre = tags.genre
    musicBrainzTrackID = tags.musicBrainzTrackID
    musicBrainzAlbumID = tags.musicBrainzAlbumID
    musicBrainzReleaseGroupID = tags.musicBrainzReleaseGroupID
    rating = tags.rating
    favourite = tags.favourite
  }
}
