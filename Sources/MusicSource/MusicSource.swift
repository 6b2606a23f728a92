/// A source of albums, below the library: something that lists music tracks, each with a
/// stamp that says when it changed, or albums without their tracks (whose tracks it gives
/// when asked), and a fingerprint that changes whenever what it lists does; and, where it
/// can, that shares marks (ratings, favourites) with every other library of it, gives covers
/// and plays. An MPD server (`MPDClient`, and Mopidy through it) lists tracks; a Subsonic
/// server (`SubsonicClient`) lists albums (``SourceListing/albums(_:)``): asking it for
/// every album's tracks would cost a request an album; a music folder of this machine
/// (`MusicFolderSource`, in MusicFolder) lists its files' tracks, and offers the library
/// more (a scan that reads only the files changed since the last one,
/// groups them with its folders' cover images, and reports the files it skipped and how far
/// it has got). The library imports every source through one importer (what the last import
/// saw asked first; the tracks grouped into albums as a music folder's files are; keyed,
/// stored: views, queries, sort, stats, completion and undo of local edits work as on local
/// albums; one result), and follows the source as it changes; the executable hands it the
/// implementation, as it hands the player its audio engine.
///
/// This module knows no library, no store and no terminal: a source depends on it (and on
/// BlueCovers and BluePlayback for its covers and its player), never on BlueLibrary.
///
/// - Important: Every method may be called from any thread, and may block on the network
///   (each request within the source's timeout).
package protocol MusicSource: AnyObject, Sendable {
  /// How lines name it: `MPD at 127.0.0.1:6600`.
  var name: String { get }
  /// What the folders and track paths of its albums start with, a slash after it:
  /// `mpd://127.0.0.1:6600` (a track is `mpd://127.0.0.1:6600/Artist/Album/01.flac`).
  var root: String { get }
  /// The name of its library file under the home, without a slash: `mpd-127.0.0.1:6600`.
  var libraryName: String { get }
  /// A token that changes whenever what it lists changes (MPD: the time of its database's
  /// last update and its song count); the library lists nothing while it is the one of the
  /// last sync.
  func fingerprint() throws(SourceError) -> String
  /// Told, before the first ``fingerprint()`` of a sync, the fingerprint the last sync of
  /// this library saw (nil: none), so what it learnt then (a Subsonic server's way to
  /// authenticate) is not learnt again. The default: nothing.
  func recall(lastFingerprint: String?)
  /// Lists every track, a window of a few thousand at a time, in the source's order:
  /// `receive` is given each window as it arrives, so whoever syncs holds one window, not
  /// the source. When the source changed during the listing, it is listed again from the
  /// start, `receive` told so first (``SourceListing/again``). Each track carries the marks
  /// the source keeps for it (``SourceTrack/rating``). A `receive` that returns false stops
  /// the listing (the call then returns without an error).
  func listTracks(_ receive: (SourceListing) -> Bool) throws(SourceError)
  /// The tracks of the album it listed as `album` (its ``SourceAlbum/path``), in album
  /// order, each filed below that path: asked when the library first needs them (`show`,
  /// `play`), and kept. A source that lists tracks is never asked (the default: none).
  func tracks(ofAlbum album: String) throws(SourceError) -> [SourceTrack]
  /// The cover URL of the album whose first track is filed at `path` (its
  /// ``SourceTrack/path``): what the source's `CoverSource` reads.
  func coverURL(ofTrack path: String) -> String
  /// Sets what is told of the source, on a thread of its own: lines to show (the connection
  /// came back), and (once ``startFollowing()`` was called) that what it lists changed.
  func setEventHandler(_ handler: @escaping @Sendable (SourceEvent) -> Void)
  /// Starts listening for changes (and keeps doing so until the process ends), so a library
  /// open during an update follows it.
  func startFollowing()
  /// Keeps `mark` on the tracks filed at `paths` (their ``SourceTrack/path``; for an album
  /// listed without its tracks whose tracks the library has not asked for, the album's
  /// ``SourceAlbum/path``), where every
  /// client of the source sees it (MPD: stickers), so another library of the same source
  /// reads it at its next sync
  /// (``SourceTrack/rating``, ``SourceTrack/favourite``): what the source keeps is the
  /// album's mark in every library of it. A source that keeps no marks throws an error that
  /// says so, ``SourceError/refused``.
  func share(_ mark: SharedMark, onTracks paths: [String]) throws(SourceError)
  /// The marks it keeps (``share(_:onTracks:)``) of every track that has one, by the track's
  /// place; nil when it keeps none (MPD without a sticker database). Read when they changed
  /// (``SourceEvent/marksChanged``): a library takes them without listing the tracks.
  func marks() throws(SourceError) -> [String: TrackMarks]?
}

extension MusicSource {
  /// A source that keeps no marks of its own.
  package func marks() throws(SourceError) -> [String: TrackMarks]? { nil }

  /// A source that learns nothing it could be told.
  package func recall(lastFingerprint: String?) {}

  /// A source that lists tracks: its albums are never without them.
  package func tracks(ofAlbum album: String) throws(SourceError) -> [SourceTrack] { [] }
}

/// How far an import of a source has got, as its progress callback is told: a music
/// folder's scan (files found, files read, albums found so far), a server's listing (tracks
/// listed, in both counts).
package struct SourceProgress: Sendable, Equatable {
  /// Audio files (by their extension) found so far; final once the folders are all listed.
  package var filesFound: Int
  /// Audio files read so far.
  package var filesScanned: Int
  /// Albums found so far: an estimate during the scan (discs that will be merged count
  /// apart), exact in the last report.
  package var albumsFound: Int

  /// A progress report with every field given.
  package init(filesFound: Int, filesScanned: Int, albumsFound: Int) {
    (self.filesFound, self.filesScanned, self.albumsFound) = (filesFound, filesScanned, albumsFound)
  }
}

/// The marks a source keeps for one track (``MusicSource/marks()``).
package struct TrackMarks: Sendable, Equatable {
  /// The stars, 1 to 5; nil for none.
  package var rating: Int?
  /// Whether it is a favourite.
  package var favourite: Bool

  package init(rating: Int?, favourite: Bool) {
    self.rating = rating
    self.favourite = favourite
  }
}

/// What ``MusicSource/listTracks(_:)`` hands on.
package enum SourceListing: Sendable, Equatable {
  /// The next tracks, in the source's order.
  case tracks([SourceTrack])
  /// The next albums, in the source's order, without their tracks
  /// (``MusicSource/tracks(ofAlbum:)`` gives them).
  case albums([SourceAlbum])
  /// The database changed while it was listed: the songs handed on so far are to be
  /// forgotten, and the listing starts again.
  case again
  /// Told before the songs: the server keeps no marks (MPD without a `sticker_file`), so the
  /// songs' ratings and favourite marks say nothing, and the library's stand.
  case withoutMarks
}

/// What a library keeps on a music server's songs rather than only in its own file.
package enum SharedMark: Sendable, Equatable {
  /// The stars, 1 to 5; nil for none.
  case rating(Int?)
  /// Whether the song is a favourite.
  case favourite(Bool)
}

/// What a ``MusicSource`` tells its event handler.
package enum SourceEvent: Sendable, Equatable {
  /// The database changed (an update on the server ended): sync again.
  case databaseChanged
  /// The marks it keeps changed (a rating another client, or this one, set): take them
  /// (``MusicSource/marks()``).
  case marksChanged
  /// A line for the shell to show above its prompt: the connection, lost (the server
  /// restarted), is back; a request made in the background failed.
  case notice(String)
}

/// Where a source's events go, kept in its locked state: the handler the library sets, and
/// the notices said before there was one (a sync before the shell set its own), handed to it
/// when it is set.
package struct SourceEventOutlet: Sendable {
  /// The handler, once set.
  package private(set) var handler: (@Sendable (SourceEvent) -> Void)?
  private var pending: [String] = []

  package init() {}

  /// Sets `handler`; returns the notices kept for it, to hand it outside the lock.
  package mutating func set(_ handler: @escaping @Sendable (SourceEvent) -> Void) -> [String] {
    self.handler = handler
    defer { pending = [] }
    return pending
  }

  /// The handler to tell the notice `line`; without one, `line` is kept for it (eight at most).
  package mutating func handler(forNotice line: String) -> (@Sendable (SourceEvent) -> Void)? {
    if handler == nil && pending.count < 8 { pending.append(line) }
    return handler
  }
}

/// Why a server could not answer, as one line naming it: `MPD at 127.0.0.1:6601: connection
/// refused`.
package struct SourceError: Error, Equatable, Sendable, CustomStringConvertible {
  package var description: String
  /// Whether the server answered and refused (MPD's `ACK`), rather than could not be
  /// reached: asking again will not change its answer.
  package var refused: Bool

  package init(_ description: String, refused: Bool = false) {
    self.description = description
    self.refused = refused
  }

  /// Two errors are the same when they say the same.
  package static func == (one: SourceError, other: SourceError) -> Bool { one.description == other.description }
}

/// One song of a server's database: its place there, its file's time and length, and its tags.
package struct SourceTrack: Sendable, Equatable {
  /// Its place on the server (MPD's URI): `Artist/Album/01 Intro.flac`, Mopidy's
  /// `local:track:Artist/Album/01%20Intro.flac`.
  package var uri: String
  /// Where the library files it, below the source's root: its folder is its album's. The
  /// ``uri`` as a user reads it: MPD's as it is, Mopidy's percent-decoded
  /// (`local:track:Artist/Album/01 Intro.flac`). The source finds the song again from it.
  package var path: String
  /// Its file's modification time, in seconds since 1970.
  package var modified: Int64
  /// Its length in seconds.
  package var duration: Double
  package var album: String?
  package var artist: String?
  package var albumArtist: String?
  package var title: String?
  /// The leading number of its track tag (`3/12` → 3).
  package var track: Int?
  /// The leading number of its disc tag.
  package var disc: Int?
  package var date: String?
  package var genre: String?
  package var musicBrainzTrackID: String?
  package var musicBrainzAlbumID: String?
  package var musicBrainzReleaseGroupID: String?
  /// The stars, 1 to 5, the server keeps for the song (``MusicSource/share(rating:favourite:onTracks:)``).
  package var rating: Int?
  /// Whether the server keeps the song marked as a favourite.
  package var favourite = false
  /// Its composer tag.
  package var composer: String?
  /// Its format's name as the server says it (Subsonic's `suffix`: `flac`); nil: the file
  /// name's extension.
  package var format: String?
  /// Its bitrate in kb/s and sample rate in Hz, where the server says them (Subsonic's
  /// `bitRate`, `samplingRate`; MPD's `Format`); 0 when it does not.
  package var bitrate = 0
  package var sampleRate = 0

  /// A song with its place, time and length; the tags are set one by one.
  package init(uri: String, modified: Int64 = 0, duration: Double = 0) {
    self.uri = uri
    self.path = uri
    self.modified = modified
    self.duration = duration
  }
}

/// One album of a source that lists albums rather than tracks (``SourceListing/albums(_:)``):
/// what its list of albums says of it, its tracks left for when they are needed.
package struct SourceAlbum: Sendable, Equatable {
  /// Where the library files it, below the source's root: its folder. The source finds the
  /// album again from it (a Subsonic server: its album id); its tracks are filed below it.
  package var path: String
  package var title: String
  package var artist: String
  package var year: Int?
  package var genre: String?
  /// Its number of tracks and its length in seconds, as its list says.
  package var trackCount: Int
  package var duration: Double
  /// A stamp that changes when its tracks do (when it was added or changed), 0 when unknown.
  package var modified: Int64 = 0
  /// Its cover's URL, read by the source's `CoverSource`; nil for none.
  package var coverURL: String?
  package var musicBrainzAlbumID: String?
  /// The stars, 1 to 5, the source keeps for it; nil for none. Said only when
  /// ``ratingKnown``: a source that rates songs only does not say it in its list of albums,
  /// and the library's rating of the album then stands.
  package var rating: Int?
  package var ratingKnown = false
  /// Whether the source keeps it marked as a favourite.
  package var favourite = false
  /// How often it was played, as the source counts; nil when it does not say.
  package var plays: Int?
  /// When it was last played (seconds since 1970), as the source says; nil when it does not.
  package var lastPlayed: Int64?

  /// An album filed at `path` with its title and artist; the rest is set one by one.
  package init(path: String, title: String, artist: String, trackCount: Int = 0, duration: Double = 0) {
    self.path = path
    self.title = title
    self.artist = artist
    self.trackCount = trackCount
    self.duration = duration
  }
}
