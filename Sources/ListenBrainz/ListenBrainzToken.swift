import BlueSystem
import BlueText
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user's ListenBrainz token: `BLUELIB_LISTENBRAINZ_TOKEN`, else the file
/// `listenbrainz token TOKEN` keeps in bluelib's home (mode 0600: the user's alone). Never
/// shown whole: ``masked(_:)``.
package enum ListenBrainzToken {
  /// Where a token comes from.
  package enum Origin: Sendable, Equatable {
    case environment
    case file
  }

  /// The token and where it comes from; nil when none is set. The file is read only when
  /// the environment has none (one `open` that finds nothing when no token was ever kept).
  package static func current(environment: [String: String], file: String) -> (token: String, origin: Origin)? {
    if let token = environment["BLUELIB_LISTENBRAINZ_TOKEN"], let clean = cleaned(token) {
      return (clean, .environment)
    }
    return read(file).map { ($0, .file) }
  }

  /// The token kept in `file`, nil when there is none (or what it holds is not a token).
  package static func read(_ file: String) -> String? {
    do throws(SystemError) {
      let fd = try syscall("open") { open(file, O_RDONLY | O_CLOEXEC) }
      defer { close(fd) }
      return cleaned(String(decoding: try readToEnd(fd, atMost: 4096), as: UTF8.self))
    } catch {
      return nil
    }
  }

  /// Keeps `token` in `file`, readable and writable by the user alone (its folder made if
  /// need be); throws why it could not.
  package static func save(_ token: String, to file: String) throws(AtomicFileError) {
    if let slash = file.lastIndex(of: "/"), slash != file.startIndex {
      makeDirectories(String(file[..<slash]))
    }
    try AtomicFile.write(Array((token + "\n").utf8), to: file, mode: 0o600, keepingExistingMode: false)
  }

  /// Removes the kept token; false when there was none.
  @discardableResult
  package static func forget(_ file: String) -> Bool {
    unlink(file) == 0
  }

  /// `token` without the blanks around it when it can be a token (1 to 200 printable ASCII
  /// characters, no space); nil otherwise.
  package static func cleaned(_ token: String) -> String? {
    let trimmed = token.trimming(.whitespacesAndNewlines)
    guard (1...200).contains(trimmed.utf8.count), trimmed.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      return nil
    }
    return trimmed
  }

  /// `…c3d4`: the last four characters (of a token of 12 or more), enough to tell two apart.
  package static func masked(_ token: String) -> String {
    token.count >= 12 ? "…" + token.suffix(4) : "…"
  }

  private static func makeDirectories(_ path: String) {
    var partial = ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      partial += "/" + component
      mkdir(path.hasPrefix("/") ? partial : String(partial.dropFirst()), 0o700)
    }
  }
}
