import AlbumModel
import MusicSource
import Testing

@testable import BlueLibrary

/// The one importer of every source (``Library/importSource(_:named:withDeleted:progress:isCancelled:)``)
/// with a source that lists its songs, as a music server does (issue 47, item 1): what a
/// music folder's import had alone — a progress report, a cancellation that changes
/// nothing — a listing has too.
@Suite struct SourceImportTests {
  /// Three albums of two songs each, listed two songs at a time.
  private static let songs = (1...3).flatMap { album in
    (1...2).map { number in
      var song = SourceTrack(uri: "Artist/Album \(album)/0\(number).flac", modified: 1_700_000_000, duration: 60)
      song.album = "Album \(album)"
      song.artist = "Artist"
      song.title = "Song \(number)"
      song.track = number
      return song
    }
  }

  @Test func aListedSourceReportsHowFarItGotAndComesInAsOneStep() throws {
    let source = ListedSource(Self.songs)
    let library = Library.inMemory(seed: [], source: source)
    var told: [Int] = []
    let result = try library.importSource(source, progress: { told.append($0.filesScanned) })
    #expect(told == [2, 4, 6])
    #expect(result.added == 3 && result.tracks == 6 && result.albums == 3 && result.listed)
    #expect(result.summary == "sync with Test at 127.0.0.1: 3 added")
    #expect(try library.allAlbums().map(\.title) == ["Album 1", "Album 2", "Album 3"])
  }

  @Test func aListingCancelledChangesNothing() throws {
    let source = ListedSource(Self.songs)
    let library = Library.inMemory(seed: [], source: source)
    var asked = 0
    #expect(throws: LibraryError.cancelled) {
      try library.importSource(
        source,
        isCancelled: {
          asked += 1
          return asked > 1
        })
    }
    #expect(try library.count() == 0)
    #expect(try library.importSource(source).added == 3)
  }
}

/// A music server in process: it lists `songs`, two at a time.
private final class ListedSource: MusicSource {
  let name = "Test at 127.0.0.1"
  let root = "test://127.0.0.1"
  let libraryName = "test-127.0.0.1"
  let songs: [SourceTrack]

  init(_ songs: [SourceTrack]) {
    self.songs = songs
  }

  func fingerprint() throws(SourceError) -> String { "1" }

  func listTracks(_ receive: (SourceListing) -> Bool) throws(SourceError) {
    for start in stride(from: 0, to: songs.count, by: 2) {
      guard receive(.tracks(Array(songs[start..<min(start + 2, songs.count)]))) else { return }
    }
  }

  func coverURL(ofTrack path: String) -> String { "" }
  func setEventHandler(_ handler: @escaping @Sendable (SourceEvent) -> Void) {}
  func startFollowing() {}

  func share(_ mark: SharedMark, onTracks paths: [String]) throws(SourceError) {
    throw SourceError("keeps no marks", refused: true)
  }
}
