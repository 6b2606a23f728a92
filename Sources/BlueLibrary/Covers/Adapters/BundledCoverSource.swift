import Foundation

/// Fetches the covers that ship with the program: `bluelib:covers/NAME.png`.
///
/// They are package resources (`Covers/Bundled/covers`), drawn by
/// `Covers/Bundled/make-covers.py`, so the default catalogue works offline.
public struct BundledCoverSource: CoverSource {
  /// `["bluelib"]`.
  public let schemes: Set<String> = ["bluelib"]

  private let directory: URL?

  /// Creates the source over the package's bundled covers.
  public init() {
    directory = BundledCovers.directory
  }

  /// Creates the source over another directory of covers (`bluelib:covers/NAME` is `directory/NAME`).
  public init(directory: URL) {
    self.directory = directory
  }

  /// The bundled file's bytes.
  public func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    let name = try Self.fileName(of: url)
    guard let directory else { throw .noSuchFile(url) }
    let path = directory.appendingPathComponent(name).path
    return try await CoverFileReader.read(path: path, name: url, limits: limits)
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

/// Where the bundled covers are.
enum BundledCovers {
  /// The resource directory holding the bundled PNGs, or nil when the resource bundle is missing.
  static let directory: URL? = {
    // `Bundle.module` traps (fatalError) when its resource bundle is neither next to
    // the executable nor at the build path it was compiled with, as for a binary
    // copied away from its build. It looks next to the executable first, so touch it
    // only when a resource bundle of this module is there: a missing bundle then
    // means a failed cover, not a crashed shell.
    guard resourceBundleIsNextToExecutable else { return nil }
    return Bundle.module.url(forResource: "covers", withExtension: nil)
  }()

  /// Whether a `*_BlueLibrary.resources` directory sits beside the executable.
  private static var resourceBundleIsNextToExecutable: Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: Bundle.main.bundleURL.path)) ?? []
    return names.contains { $0.hasSuffix("_BlueLibrary.resources") || $0.hasSuffix("_BlueLibrary.bundle") }
  }
}
