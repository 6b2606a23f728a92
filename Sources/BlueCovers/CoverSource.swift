import FoundationEssentials

/// An adapter that fetches cover bytes for the URLs of some schemes.
///
/// The loader picks the source by the URL's scheme, so a new kind of URL is a new
/// source passed to ``CoverLoader/init(cache:sources:maxConcurrent:timeout:maxBytes:)``,
/// not a change to the loader. The loader checks that the bytes are an image and
/// caches them; a source only fetches.
///
/// - Important: `fetch` is called from many tasks at once and must honour task
///   cancellation (throw ``CoverFailure/cancelled``), `limits.timeout` (throw
///   ``CoverFailure/timedOut(seconds:)``) and `limits.maxBytes` (stop reading past it
///   and throw ``CoverFailure/tooLarge(maxBytes:)``).
package protocol CoverSource: Sendable {
  /// The lowercase URL schemes this source fetches, such as `["http", "https"]`.
  var schemes: Set<String> { get }

  /// The bytes at `url`, within `limits`.
  func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data

  /// Releases what the source keeps between fetches (connections, threads), once the
  /// loader is done with it; fetches after it fail. The default has nothing to release.
  func shutDown()

  /// The bytes at `url`, read on the calling thread, for a source whose reading blocks
  /// anyway (a local file): nil when the source has no such way (the default), and the
  /// loader's ``CoverLoader/fetchNow(_:)`` then waits for ``fetch(_:limits:)``.
  func fetchBlocking(_ url: String, limits: CoverLimits) throws(CoverFailure) -> Data?

  /// Why the source cannot fetch anything as it is set up (a mirror's address that is not
  /// a URL), said once instead of as every cover's failure; nil (the default) when it can.
  var setupProblem: String? { get }
}

extension CoverSource {
  /// Nothing to release.
  package func shutDown() {}

  /// No blocking way.
  package func fetchBlocking(_ url: String, limits: CoverLimits) throws(CoverFailure) -> Data? { nil }

  /// Nothing to set up wrong.
  package var setupProblem: String? { nil }
}

/// The lowercase scheme of `url` (the letters before the first `:`), or nil if it has none.
func coverURLScheme(_ url: String) -> String? {
  guard let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
  let scheme = url.utf8[..<colon]
  guard let first = scheme.first, isASCIILetter(first),
    scheme.allSatisfy({ isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
  else { return nil }
  return String(decoding: scheme, as: UTF8.self).lowercased()
}

private func isASCIILetter(_ byte: UInt8) -> Bool {
  (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
}
