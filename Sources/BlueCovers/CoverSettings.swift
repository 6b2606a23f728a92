import FoundationEssentials

/// How a library fetches covers: where they are cached, how many downloads run at once,
/// how long and how big each may be, who is asking, and what makes fetched bytes a cover.
/// The library (`Library.open(path:covers:)`) builds the cache and the loader from them.
package struct CoverSettings: Sendable {
  /// The cover cache's directory (made when the first cover lands).
  package var directory: String
  /// The most downloads running at once.
  package var downloadsAtOnce = 6
  /// How long one download may take.
  package var timeout: Duration = .seconds(15)
  /// The largest cover accepted, in bytes.
  package var maxBytes = 10 << 20
  /// The User-Agent every request names.
  package var userAgent = "bluelib"
  /// Where the Cover Art Archive (or a mirror of it) answers.
  package var coverArtBase = CoverArtArchiveSource.defaultBase
  /// Where MusicBrainz's web service (or a mirror of it) answers `lookup`.
  package var musicBrainzBase = MusicBrainzSearch.defaultBase
  /// Sources of further schemes, beside the standard ones (a music server's `mpd:` covers).
  package var additionalSources: [any CoverSource] = []
  /// Why fetched bytes are not a usable image (they do not decode), or nil: what enters
  /// the cache must draw.
  package var validate: @Sendable (Data) -> String? = { _ in nil }

  /// Settings caching covers in `directory`, the others at their defaults.
  package init(directory: String) {
    self.directory = directory
  }
}

extension CoverLoader {
  /// A loader with the standard sources over the cache in `settings.directory` (what a
  /// kill -9 in the middle of a download left there is removed at the first store).
  package convenience init(settings: CoverSettings) {
    let cache = CoverCache(directory: settings.directory)
    self.init(
      cache: cache,
      sources: CoverLoader.standardSources(userAgent: settings.userAgent, coverArtBase: settings.coverArtBase)
        + settings.additionalSources,
      maxConcurrent: settings.downloadsAtOnce, timeout: settings.timeout, maxBytes: settings.maxBytes,
      validate: settings.validate)
  }
}
