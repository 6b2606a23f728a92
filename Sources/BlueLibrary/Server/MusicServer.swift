import BlueCovers

/// A music server whose database is a source of albums (MPD): the library file of that
/// server follows it, grouped as a music folder's import groups its files, so views,
/// queries, sort, stats, completion and undo of local edits work as on local albums.
///
/// The library layer knows only this protocol; the executable hands it the implementation
/// (`MPDClient`'s), as it hands the player its audio engine.
///
/// - Important: Every method may be called from any thread, and may block on the network
///   (each request within the server's timeout).
public protocol MusicServer: AnyObject, Sendable {
  /// How lines name it: `MPD at 127.0.0.1:6600`.
  var name: String { get }
  /// What the folders and track paths of its albums start with, a slash after it:
  /// `mpd://127.0.0.1:6600` (a track is `mpd://127.0.0.1:6600/Artist/Album/01.flac`).
  var root: String { get }
  /// The name of its library file under the home, without a slash: `mpd-127.0.0.1:6600`.
  var libraryName: String { get }
  /// A token that changes whenever its database changes (MPD: the time of its last update).
  func databaseVersion() throws(ServerError) -> String
  /// Lists every song of its database, a window of a few thousand at a time, in the
  /// database's order: `receive` is given each window as it arrives, so whoever syncs holds
  /// one window, not the database. When the database changed during the listing, it is
  /// listed again from the start, `receive` told so first (``ServerListing/again``). Each
  /// song carries the marks the server keeps for it (``ServerSong/rating``). A `receive`
  /// that returns false stops the listing (the call then returns without an error).
  func listSongs(_ receive: (ServerListing) -> Bool) throws(ServerError)
  /// The cover URL of the album whose first song is `uri` (its place on the server): what
  /// the server's ``CoverSource`` reads.
  func coverURL(ofSong uri: String) -> String
  /// Sets what is told of the server, on a thread of its own: lines to show (the connection
  /// came back), and (once ``startFollowing()`` was called) that its database changed.
  func setEventHandler(_ handler: @escaping @Sendable (ServerEvent) -> Void)
  /// Starts listening for changes of the database (and keeps doing so until the process
  /// ends), so a library open during an update follows it.
  func startFollowing()
  /// Keeps `mark` on the songs `uris`, where every client of the server sees it (MPD:
  /// stickers), so another library of the same server reads it at its next sync
  /// (``ServerSong/rating``, ``ServerSong/favourite``): what the server keeps is the album's
  /// mark in every library of it.
  func share(_ mark: SharedMark, onSongs uris: [String]) throws(ServerError)
}

/// What ``MusicServer/listSongs(_:)`` hands on.
public enum ServerListing: Sendable, Equatable {
  /// The next songs, in the database's order.
  case songs([ServerSong])
  /// The database changed while it was listed: the songs handed on so far are to be
  /// forgotten, and the listing starts again.
  case again
  /// Told before the songs: the server keeps no marks (MPD without a `sticker_file`), so the
  /// songs' ratings and favourite marks say nothing, and the library's stand.
  case withoutMarks
}

/// What a library keeps on a music server's songs rather than only in its own file.
public enum SharedMark: Sendable, Equatable {
  /// The stars, 1 to 5; nil for none.
  case rating(Int?)
  /// Whether the song is a favourite.
  case favourite(Bool)
}

/// What a ``MusicServer`` tells its event handler.
public enum ServerEvent: Sendable, Equatable {
  /// The database changed (an update on the server ended): sync again.
  case databaseChanged
  /// A line for the shell to show above its prompt: the connection, lost (the server
  /// restarted), is back; a request made in the background failed.
  case notice(String)
}

/// Why a server could not answer, as one line naming it: `MPD at 127.0.0.1:6601: connection
/// refused`.
public struct ServerError: Error, Equatable, Sendable, CustomStringConvertible {
  public var description: String
  /// Whether the server answered and refused (MPD's `ACK`), rather than could not be
  /// reached: asking again will not change its answer.
  public var refused: Bool

  public init(_ description: String, refused: Bool = false) {
    self.description = description
    self.refused = refused
  }

  /// Two errors are the same when they say the same.
  public static func == (one: ServerError, other: ServerError) -> Bool { one.description == other.description }
}

/// One song of a server's database: its place there, its file's time and length, and its tags.
public struct ServerSong: Sendable, Equatable {
  /// Its place on the server (MPD's URI): `Artist/Album/01 Intro.flac`.
  public var uri: String
  /// Its file's modification time, in seconds since 1970.
  public var modified: Int64
  /// Its length in seconds.
  public var duration: Double
  public var album: String?
  public var artist: String?
  public var albumArtist: String?
  public var title: String?
  /// The leading number of its track tag (`3/12` → 3).
  public var track: Int?
  /// The leading number of its disc tag.
  public var disc: Int?
  public var date: String?
  public var genre: String?
  public var musicBrainzTrackID: String?
  public var musicBrainzAlbumID: String?
  public var musicBrainzReleaseGroupID: String?
  /// The stars, 1 to 5, the server keeps for the song (``MusicServer/share(rating:favourite:onSongs:)``).
  public var rating: Int?
  /// Whether the server keeps the song marked as a favourite.
  public var favourite = false

  /// A song with its place, time and length; the tags are set one by one.
  public init(uri: String, modified: Int64 = 0, duration: Double = 0) {
    self.uri = uri
    self.modified = modified
    self.duration = duration
  }
}
