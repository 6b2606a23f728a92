/// Where one cover URL stands, as `list`, `show` and the viewport's cards show it.
package enum CoverState: Equatable, Sendable {
  /// Never requested in this session and not in the cache.
  case none
  /// On the album's own files or folder (a music folder's picture, ``LocalCover``) and not
  /// read yet: it is read when a card or `cover` needs it, never downloaded.
  case local
  /// Waiting for a free download slot.
  case queued
  /// Being fetched now.
  case downloading
  /// In the disk cache, ready to show.
  case cached
  /// The last attempt failed; requesting it again retries.
  case failed(CoverFailure)

  /// Whether the cover is queued or downloading (the card shows a spinner).
  package var isPending: Bool {
    switch self {
    case .queued, .downloading: true
    case .none, .local, .cached, .failed: false
    }
  }
}
