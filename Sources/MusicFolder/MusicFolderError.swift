import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a music-folder scan, or reading an album's cover, failed.
package enum MusicFolderError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The folder to scan is not a directory.
  case notADirectory(String)
  /// A file or folder could not be opened; `errno` says why.
  case cannotOpen(String, errno: Int32)
  /// The scan was cancelled (the caller's closure or the task said so) before it finished.
  case cancelled
  /// The track a cover was found in no longer embeds a picture.
  case noPicture(String)
  /// A cover is larger than the limit it was read with.
  case coverTooLarge(String, limit: Int)
  /// TagLib's plug-in could not be loaded: why, naming the file.
  case tagLibUnavailable(String)

  package var description: String {
    switch self {
    case .notADirectory(let path):
      return "'\(path)' is not a directory"
    case .cannotOpen(let path, let code):
      return "cannot open '\(path)': \(SystemError.reason(code))"
    case .cancelled:
      return "the scan was cancelled"
    case .noPicture(let path):
      return "'\(path)' embeds no picture any more"
    case .coverTooLarge(let path, let limit):
      return "the cover in '\(path)' is larger than \(limit / (1 << 20)) MiB"
    case .tagLibUnavailable(let reason):
      return "cannot read tags: \(reason)"
    }
  }
}
