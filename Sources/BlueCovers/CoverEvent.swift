/// An album asking for a cover: its title, and where it stands (its 0-based position in the
/// library), which orders the status lines; `Int.max` when it has no place.
package struct CoverRequester: Hashable, Sendable {
  /// The album's title.
  package let title: String
  /// Where the album stands.
  package let order: Int
  /// Whether it asks for a card that shows the album, not for `download`: its outcome is
  /// shown by the card, with no status line.
  package let forCard: Bool

  /// The album `title` standing at `order`; `forCard` when a card asks.
  package init(title: String, order: Int = .max, forCard: Bool = false) {
    self.title = title
    self.order = order
    self.forCard = forCard
  }
}

/// What the cover loader reports to its subscribers (the original app's KVO role).
///
/// `albums` holds every album whose request joined this download (its title and place),
/// in request order, so each requester can be told the outcome where it stands: the event
/// carries all a requester needs.
package enum CoverEvent: Equatable, Sendable {
  /// The download waits for a free slot.
  case queued(url: String, albums: [CoverRequester])
  /// The download started.
  case started(url: String, albums: [CoverRequester])
  /// The cover is in the cache: fetched now, or found there (`fromCache`, nothing fetched).
  case finished(url: String, albums: [CoverRequester], bytes: Int, seconds: Double, fromCache: Bool)
  /// The download failed or was cancelled; requesting the URL again retries.
  case failed(url: String, albums: [CoverRequester], CoverFailure)

  /// The cover URL the event is about.
  package var url: String {
    switch self {
    case .queued(let url, _), .started(let url, _), .failed(let url, _, _): url
    case .finished(let url, _, _, _, _): url
    }
  }

  /// The titles of the albums that asked for this cover.
  package var albums: [CoverRequester] {
    switch self {
    case .queued(_, let albums), .started(_, let albums), .failed(_, let albums, _): albums
    case .finished(_, let albums, _, _, _): albums
    }
  }

  /// Whether this is the last event of a download (finished or failed).
  package var isTerminal: Bool {
    switch self {
    case .queued, .started: false
    case .finished, .failed: true
    }
  }
}
