import FoundationEssentials
import Synchronization

/// Fetches covers from the Cover Art Archive by MusicBrainz id: `caa:release/MBID`, with
/// `?release-group=RGID` when the album's tags name its release group too (or
/// `caa:release-group/RGID` alone).
///
/// As the archive documents it (https://musicbrainz.org/doc/Cover_Art_Archive/API): `GET
/// {base}/release/{mbid}/front-500` answers with a redirect to the image (followed within
/// http and https only, by ``HTTPCoverSource``), or 404 when the release has no front
/// cover; then `{base}/release-group/{rgid}/front-500` is asked. Each request names
/// bluelib, its version and a contact in its `User-Agent`. The archive and archive.org have
/// no rate limit (metabrainz/artwork-redirect has no limiter; Picard sets its per-host
/// delay to 0 for both), so requests are not spaced out: as many run as `--downloads`
/// allows, and a host that answers 503 or 429 is given room by every request at once
/// (``HostBackoff``, honouring `Retry-After`).
package final class CoverArtArchiveSource: CoverSource {
  /// `["caa"]`.
  package let schemes: Set<String> = ["caa"]

  /// The archive, unless `BLUELIB_COVERART_URL` names a mirror.
  package static let defaultBase = "https://coverartarchive.org"

  private let base: String
  private let http: HTTPCoverSource
  /// Why `base` cannot be asked (`BLUELIB_COVERART_URL 'http://' is not an http(s) URL with a
  /// host`), or nil: checked once, so a bad mirror is one line, not each album's failure.
  package let setupProblem: String?

  /// A source asking `base` (no trailing slash needed).
  package init(base: String = CoverArtArchiveSource.defaultBase, userAgent: String) {
    self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    http = HTTPCoverSource(userAgent: userAgent)
    setupProblem = Self.problem(withBase: base)
  }

  /// Why `base` is not where an archive can answer: not an http or https URL with a host,
  /// or a port out of range.
  static func problem(withBase base: String) -> String? {
    let shown = "BLUELIB_COVERART_URL '\(base.count > 80 ? base.prefix(79) + "…" : base)'"
    guard let target = HTTPTarget(base), target.scheme == "http" || target.scheme == "https" else {
      return "\(shown) is not an http(s) URL with a host"
    }
    if let reason = target.portProblem { return "\(shown): \(reason)" }
    return nil
  }

  package func shutDown() { http.shutDown() }

  /// The timeout covers the whole download, every request and wait, as it does for one URL.
  package func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    if let setupProblem { throw .downloadFailed(setupProblem) }
    let ids = try Self.ids(of: url)
    let deadline = ContinuousClock.now + limits.timeout
    if let release = ids.release,
      let data = try await front(of: "release/" + release, limits: limits, deadline: deadline)
    {
      return data
    }
    if let group = ids.group,
      let data = try await front(of: "release-group/" + group, limits: limits, deadline: deadline)
    {
      return data
    }
    throw .notInArchive(release: ids.release, group: ids.group)
  }

  /// The front cover of `path` (`release/MBID`), nil when the archive has none (404).
  private func front(
    of path: String, limits: CoverLimits, deadline: ContinuousClock.Instant
  ) async throws(CoverFailure) -> Data? {
    let left = ContinuousClock.now.duration(to: deadline)
    guard left > .zero else { throw limits.timedOut }
    do {
      return try await http.fetch(
        "\(base)/\(path)/front-500", limits: CoverLimits(timeout: left, maxBytes: limits.maxBytes))
    } catch {
      switch error {
      case .httpStatus(404): return nil
      // The whole download's timeout, not what was left of it.
      case .timedOut: throw limits.timedOut
      default: throw error
      }
    }
  }

  // MARK: - URLs

  /// The cover URL of an album whose tags give these MusicBrainz ids; nil without a valid one.
  package static func url(release: String?, group: String?) -> String? {
    let release = release.flatMap { isMBID($0) ? $0.lowercased() : nil }
    let group = group.flatMap { isMBID($0) ? $0.lowercased() : nil }
    switch (release, group) {
    case (let release?, let group?): return "caa:release/\(release)?release-group=\(group)"
    case (let release?, nil): return "caa:release/\(release)"
    case (nil, let group?): return "caa:release-group/\(group)"
    case (nil, nil): return nil
    }
  }

  /// The ids a `caa:` URL names.
  package static func ids(of url: String) throws(CoverFailure) -> (release: String?, group: String?) {
    // Most URLs are no archive's: answered without a lowercased copy (`show` asks each time).
    var text = url
    let archive = text.withUTF8 {
      $0.count > 4 && $0[0] | 0x20 == 0x63 && $0[1] | 0x20 == 0x61 && $0[2] | 0x20 == 0x61 && $0[3] == 0x3A
    }
    guard archive else { throw .unsupportedURL(url) }
    let lowered = url.lowercased()
    for (prefix, isRelease) in [("caa:release/", true), ("caa:release-group/", false)] where lowered.hasPrefix(prefix) {
      let rest = lowered.dropFirst(prefix.count).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
      let first = String(rest[0])
      guard isMBID(first) else { break }
      if !isRelease {
        guard rest.count == 1 else { break }
        return (nil, first)
      }
      guard rest.count == 2 else { return (first, nil) }
      let query = rest[1]
      guard query.hasPrefix("release-group="), isMBID(String(query.dropFirst("release-group=".count))) else { break }
      return (first, String(query.dropFirst("release-group=".count)))
    }
    throw .unsupportedURL(url)
  }

  /// Whether `text` is a MusicBrainz id: a UUID, 8-4-4-4-12 hexadecimal digits.
  static func isMBID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        let lower = byte | 0x20
        guard (byte >= 0x30 && byte <= 0x39) || (lower >= 0x61 && lower <= 0x66) else { return false }
      }
    }
    return true
  }

  /// `Cover Art Archive (release MBID)`, as `show` names such a cover; nil for another URL.
  package static func shortDescription(of url: String) -> String? {
    guard let ids = try? ids(of: url) else { return nil }
    if let release = ids.release { return "Cover Art Archive (release \(release))" }
    return ids.group.map { "Cover Art Archive (release group \($0))" }
  }
}
