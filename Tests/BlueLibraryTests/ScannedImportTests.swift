import AlbumModel
import Foundation
import MusicFolder
import Testing

@testable import BlueLibrary

/// A folder's scan goes into the library through the one importer of every source (issue
/// 47, item 1: ``AlbumStore/importAlbums``, which a server's listing goes through too):
/// every field of every file is stored as the scan read it, in the album the scan put it
/// in, the albums in the scan's order — on a first import and on one that reads every file
/// again.
@Suite struct ScannedImportTests {
  /// `albums` albums of `tracks` tracks each under `root`, every field of every file set,
  /// and set differently from file to file (pictures, change times and inodes known or not,
  /// discs, ratings, favourites, texts beyond ASCII).
  static func scan(albums: Int, tracks: Int, root: String) -> [(key: String, album: MusicAlbum)] {
    (0..<albums).map { number in
      let folder = "\(root)/Artist \(number % 7)/Album \(number) ∕ Été"
      var album = MusicAlbum(
        key: "", title: "Album \(number) ∕ Été", artist: "Artist \(number % 7)", year: 1960 + number % 60,
        genre: ["Rock", "Jazz", ""][number % 3], trackCount: tracks, duration: Double(tracks) * 1.5,
        folder: folder, cover: number % 2 == 0 ? .file(folder + "/cover.jpg") : nil)
      album.musicBrainzAlbumID = number % 4 == 0 ? "mbid-\(number)" : nil
      album.tracks = (0..<tracks).map { index in
        let serial = number * tracks + index
        let tags = TrackTags(
          album: album.title, artist: index % 5 == 0 ? "Guest \(index)" : album.artist,
          albumArtist: number % 2 == 0 ? album.artist : nil, title: "Song \(index + 1)",
          trackNumber: index % 9 == 8 ? nil : index + 1, date: "\(1960 + number % 60)-05-21", genre: album.genre,
          discNumber: index < tracks / 2 ? 1 : 2, musicBrainzTrackID: "track-\(serial)",
          musicBrainzAlbumID: album.musicBrainzAlbumID, musicBrainzReleaseGroupID: number % 4 == 0 ? "g\(number)" : nil,
          format: ["MP3", "FLAC", "Opus"][serial % 3], bitrate: 128 + serial % 200,
          duration: 1.5 + Double(index) / 1000,
          hasPicture: serial % 3 == 0, pictureMimeType: serial % 6 == 0 ? "image/png" : nil,
          rating: serial % 4 == 0 ? 1 + serial % 5 : nil, favourite: serial % 7 == 0, sampleRate: 44_100 + serial % 2,
          composer: serial % 2 == 0 ? "Composer \(serial)" : nil)
        return MusicTrack(
          path: folder + String(format: "/%03d Song.flac", index + 1), size: 1_000_000 + Int64(serial),
          modified: 1_700_000_000_000_000_000 + Int64(serial),
          changed: serial % 5 == 0 ? -1 : 1_700_000_001 + Int64(serial),
          inode: serial % 5 == 0 ? -1 : 50_000 + Int64(serial), disc: index < tracks / 2 ? 1 : 2, tags: tags)
      }
      album.key = MusicAlbum.key(folder: folder, artist: album.artist, title: album.title)
      return (album.key, album)
    }
  }

  /// Imports `scanned` into `store` (the folder `root`, whose tracks the library held as
  /// `stored`), as `Library` does.
  private func importScan(
    _ scanned: [(key: String, album: MusicAlbum)], root: String, into store: AlbumStore,
    stored: AlbumStore.StoredTracks = AlbumStore.StoredTracks()
  ) throws -> SourceImport {
    let paths = Set(scanned.flatMap { $0.album.tracks.map(\.path) })
    return try store.importAlbums(
      .scanned(
        AlbumStore.ScannedAlbums(
          albums: scanned, stored: stored, opened: paths, unreadable: [],
          seen: .folder(fingerprint: "walk \(paths.count)", skipped: []))),
      root: root, summary: { "import: \($0.added) added, \($0.updated) updated" },
      origin: ChangeOrigin(session: "test", selection: nil))
  }

  /// Whether `store` holds `scanned`'s albums, in its order, each with its tracks as read.
  private func holds(_ scanned: [(key: String, album: MusicAlbum)], _ store: AlbumStore) throws {
    let stored = try store.albums(in: 0..<scanned.count)
    #expect(stored.map(\.sourceKey) == scanned.map(\.key))
    for (album, (key, music)) in zip(stored, scanned) {
      let expected = Album(music: music, key: key)
      #expect(album.hasSameFields(as: expected), "\(album) against \(expected)")
    }
    for (key, album) in scanned {
      #expect(try store.storedMusicTracks(forKey: key) == album.tracks, "\(key)")
    }
  }

  @Test(arguments: [(3, 4), (103, 11)])
  func everyFieldOfEveryFileIsStoredAsTheScanReadIt(albums: Int, tracks: Int) throws {
    let store = AlbumStore.inMemory(seed: [])
    let root = "/music/staged"
    // A first import.
    let scanned = Self.scan(albums: albums, tracks: tracks, root: root)
    let first = try importScan(scanned, root: root, into: store)
    #expect(first.added == albums && first.summary == "import: \(albums) added, 0 updated")
    try holds(scanned, store)
    #expect(try store.source(root)?.fingerprint == "walk \(albums * tracks)")

    // Every file changed since and read again: each track written over its row.
    var again = scanned
    for album in again.indices {
      for track in again[album].album.tracks.indices {
        again[album].album.tracks[track].modified += 1_000
        again[album].album.tracks[track].size += 1
        again[album].album.tracks[track].tags.composer = "Composer \(album)-\(track)"
        let picture = !again[album].album.tracks[track].tags.hasPicture
        again[album].album.tracks[track].tags.hasPicture = picture
        again[album].album.tracks[track].tags.pictureMimeType = picture ? "image/jpeg" : nil
      }
    }
    let second = try importScan(again, root: root, into: store, stored: try store.storedTracks(under: root))
    #expect(second.added == 0)
    try holds(again, store)
  }
}
