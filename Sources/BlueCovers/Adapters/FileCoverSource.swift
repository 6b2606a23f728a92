import FoundationEssentials

/// Fetches `file:` cover URLs (`file:///path/cover.png`, `file:/path/cover.png`) from disk.
///
/// The path must be absolute; a host other than `localhost` is refused, as is
/// anything but a regular file.
package struct FileCoverSource: CoverSource {
  /// `["file"]`.
  package let schemes: Set<String> = ["file"]

  /// Creates the source.
  package init() {}

  /// The file's bytes.
  package func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    let path = try Self.path(of: url)
    return try await CoverFileReader.read(path: path, name: path, limits: limits)
  }

  /// The file's bytes, read on the calling thread.
  package func fetchBlocking(_ url: String, limits: CoverLimits) throws(CoverFailure) -> Data? {
    let path = try Self.path(of: url)
    return try CoverFileReader.readBlocking(path: path, name: path, limits: limits)
  }

  /// The absolute, percent-decoded path a `file:` URL names.
  static func path(of url: String) throws(CoverFailure) -> String {
    guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "file",
      parsed.host.map({ $0.isEmpty || $0.lowercased() == "localhost" }) ?? true
    else {
      throw .unsupportedURL(url)
    }
    let path = parsed.path
    guard path.hasPrefix("/") else { throw .unsupportedURL(url) }
    return path
  }
}
