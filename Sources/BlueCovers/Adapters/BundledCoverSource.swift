import FoundationEssentials

/// Fetches the covers that ship with the program: `bluelib:covers/NAME.png`.
///
/// They are drawn by `Bundled/make-covers.py` and compiled into the program
/// (`BundledCoverImages.swift`), so the default catalogue works offline and a binary copied
/// anywhere still has them. They go through the same asynchronous pipeline as any cover.
package struct BundledCoverSource: CoverSource {
  /// `["bluelib"]`.
  package let schemes: Set<String> = ["bluelib"]

  private let directory: URL?

  /// Creates the source over the covers compiled into the program.
  package init() {
    directory = nil
  }

  /// Creates the source over another directory of covers (`bluelib:covers/NAME` is `directory/NAME`).
  package init(directory: URL) {
    self.directory = directory
  }

  /// The bundled file's bytes.
  package func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    let name = try Self.fileName(of: url)
    if let directory {
      let path = directory.appendingPathComponent(name).path
      return try await CoverFileReader.read(path: path, name: url, limits: limits)
    }
    guard let text = BundledCoverImages.base64[name], let data = Data(base64Encoded: text) else {
      throw .noSuchFile(url)
    }
    guard data.count <= limits.maxBytes else { throw limits.tooLarge }
    return data
  }

  /// `NAME` of `bluelib:covers/NAME`: one plain file name, no way out of the directory.
  static func fileName(of url: String) throws(CoverFailure) -> String {
    let prefix = "bluelib:covers/"
    guard url.count > prefix.count, url.lowercased().hasPrefix(prefix) else { throw .unsupportedURL(url) }
    let name = String(url.dropFirst(prefix.count))
    let allowed = name.utf8.allSatisfy { byte in
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
    guard allowed, !name.hasPrefix(".") else { throw .unsupportedURL(url) }
    return name
  }
}
