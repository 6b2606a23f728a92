/// What the cover loader reports to its subscribers (the original app's KVO role).
///
/// `albums` holds the titles of every album whose request joined this download, in
/// request order, so each requester can be told the outcome.
public enum CoverEvent: Equatable, Sendable {
  /// The download waits for a free slot.
  case queued(url: String, albums: [String])
  /// The download started.
  case started(url: String, albums: [String])
  /// The cover is in the cache: fetched now, or found there (`fromCache`, nothing fetched).
  case finished(url: String, albums: [String], bytes: Int, seconds: Double, fromCache: Bool)
  /// The download failed or was cancelled; requesting the URL again retries.
  case failed(url: String, albums: [String], CoverFailure)

  /// The cover URL the event is about.
  public var url: String {
    switch self {
    case .queued(let url, _), .started(let url, _), .failed(let url, _, _): url
    case .finished(let url, _, _, _, _): url
    }
  }

  /// The titles of the albums that asked for this cover.
  public var albums: [String] {
    switch self {
    case .queued(_, let albums), .started(_, let albums), .failed(_, let albums, _): albums
    case .finished(_, let albums, _, _, _): albums
    }
  }

  /// Whether this is the last event of a download (finished or failed).
  public var isTerminal: Bool {
    switch self {
    case .queued, .started: false
    case .finished, .failed: true
    }
  }
}
