#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paths as text, as NSString's path methods treated them, without Foundation (issue 47):
/// nothing here asks the file system.
package enum PathText {
  /// The folder of `path`, as NSString's `deletingLastPathComponent`: runs of slashes are one,
  /// a trailing slash is dropped, the folder of `/a` is `/`, of a bare name `""`.
  package static func directory(of path: String) -> String {
    var fixed = String.UnicodeScalarView()
    for scalar in path.unicodeScalars where !(scalar == "/" && fixed.last == "/") { fixed.append(scalar) }
    if fixed.count > 1 && fixed.last == "/" { fixed.removeLast() }
    guard fixed.count > 1, let slash = fixed.lastIndex(of: "/") else { return fixed.first == "/" ? "/" : "" }
    return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
  }

  /// `path` with `.` and empty components dropped and each `..` taking the component before
  /// it away, as NSString's `standardizingPath` for a path without symbolic links: `/a/./b/../c/`
  /// is `/a/c`. A relative path stays relative (a leading `..` is kept).
  package static func standardized(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else if part == "..", absolute {
        continue
      } else {
        parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
  }
}

/// The bytes of the file at `path`, at most `limit` + 1 of them (so a caller sees a file past
/// its limit); throws what the system said (`no such file or directory`).
package func readFile(atPath path: String, atMost limit: Int = .max) throws(SystemError) -> [UInt8] {
  let descriptor = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC) }
  defer { close(descriptor) }
  return try readToEnd(descriptor, atMost: limit == .max ? .max : limit + 1)
}
