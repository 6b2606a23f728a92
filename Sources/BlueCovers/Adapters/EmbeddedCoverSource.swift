import FoundationEssentials
internal import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fetches pictures embedded in audio files: `embedded:file:///path/track.mp3` (ID3 APIC,
/// FLAC PICTURE, MP4 covr, Vorbis/Opus METADATA_BLOCK_PICTURE), read with TagLib through
/// MusicFolder. The URLs are those ``LocalCover`` gives albums imported from a folder.
///
/// The path must be absolute, as for ``FileCoverSource``. TagLib reads the picture whole,
/// so the size cap is checked on what it read; the read runs on a Dispatch worker (file
/// I/O blocks) and the deadline is checked once it returns.
struct EmbeddedCoverSource: CoverSource {
  /// `["embedded"]`.
  let schemes: Set<String> = [LocalCover.embeddedScheme]

  /// Creates the source.
  init() {}

  /// The embedded picture's bytes.
  func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    let path = try Self.path(of: url)
    let deadline = ContinuousClock.now.advanced(by: limits.timeout)
    let result = await BlockingRead.run { Self.read(path, limits: limits) }
    if Task.isCancelled { throw .cancelled }
    if ContinuousClock.now >= deadline { throw limits.timedOut }
    return try result.get()
  }

  /// The embedded picture's bytes, read on the calling thread.
  func fetchBlocking(_ url: String, limits: CoverLimits) throws(CoverFailure) -> Data? {
    try Self.read(try Self.path(of: url), limits: limits).get()
  }

  /// The absolute path of the track an `embedded:` URL names.
  static func path(of url: String) throws(CoverFailure) -> String {
    let prefix = LocalCover.embeddedScheme + ":"
    guard url.utf8.count > prefix.utf8.count, url.lowercased().hasPrefix(prefix) else { throw .unsupportedURL(url) }
    do {
      return try FileCoverSource.path(of: String(url.dropFirst(prefix.count)))
    } catch {
      throw .unsupportedURL(url)
    }
  }

  private static func read(_ path: String, limits: CoverLimits) -> Result<Data, CoverFailure> {
    var info = stat()
    guard stat(path, &info) == 0 else {
      return .failure(errno == ENOENT || errno == ENOTDIR ? .noSuchFile(path) : .unreadableFile("cannot open \(path)"))
    }
    guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadableFile("\(path) is not a regular file")) }
    do throws(MusicFolderError) {
      return .success(Data(try MusicCover.embedded(track: path, mimeType: "").bytes(limit: limits.maxBytes)))
    } catch {
      switch error {
      case .coverTooLarge: return .failure(limits.tooLarge)
      case .noPicture: return .failure(.unreadableFile("\(path) embeds no picture"))
      case .cannotOpen(_, let code) where code == ENOENT: return .failure(.noSuchFile(path))
      default: return .failure(.unreadableFile(error.description))
      }
    }
  }
}
