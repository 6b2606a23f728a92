import BlueSystem
internal import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an ``AudioEngine`` will not be handed a track's file, found just before it is queued.
package enum TrackProblem: Sendable, Equatable, CustomStringConvertible {
  /// Nothing at its path: moved, deleted, or on a disk not mounted.
  case gone
  /// Its path is not an absolute path (a URL, an mpv protocol, a relative name).
  case notLocal
  /// A FIFO, a device, a socket or a directory: reading one could block for good, or
  /// play what is not a file of the library.
  case notRegularFile
  /// It does not start as files of its format do (a playlist put in its place).
  case noAudio
  /// It cannot be opened (`errno`).
  case cannotOpen(errno: Int32)

  package var description: String {
    switch self {
    case .gone: "no such file"
    case .notLocal: "not a local file"
    case .notRegularFile: "not a regular file"
    case .noAudio: "no readable audio"
    case .cannotOpen(let code): SystemError.reason(code)
    }
  }

  /// Why the file at `path` is not a local audio file an engine may open, or nil when it
  /// may be one: `path` is absolute, the file opens without waiting (a FIFO is not waited
  /// for), is a regular file, and starts as files of its extension's format start (the
  /// scanner's check, so a playlist named `.mp3` is refused before mpv would follow it).
  package static func ofLocalFile(at path: String) -> TrackProblem? {
    guard path.hasPrefix("/"), !path.utf8.contains(0) else { return .notLocal }
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else {
      let code = errno
      return code == ENOENT || code == ENOTDIR ? .gone : .cannotOpen(errno: code)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .notRegularFile }
    return TrackTags.mayHoldAudio(path) ? nil : .noAudio
  }
}
