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

/// The names in the folder at `path` (not `.` and `..`), in the order the system lists them;
/// nil when it cannot be read (missing, not a folder, no permission). What FileManager's
/// `contentsOfDirectory` answered, without the cost of the error it makes for a missing
/// folder (a start asks the cover cache, which a new home does not have yet).
package func directoryEntries(atPath path: String) -> [String]? {
  guard let directory = opendir(path) else { return nil }
  defer { closedir(directory) }
  var names: [String] = []
  while let entry = readdir(directory) {
    // Read in place: the record may end before d_name's 256 bytes do (a copy of the whole
    // field read past the system's buffer).
    let name = withUnsafePointer(to: &entry.pointee.d_name) {
      $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names
}

extension UnsafeBufferPointer<UInt8> {
  /// Whether these bytes begin with those of `prefix` — byte for byte, not by canonical
  /// equivalence as texts compare — with `memcmp`: a generic walk of two collections of
  /// bytes cost a tenth of a server's first sync, where paths and folders are compared.
  package func starts(withBytes prefix: UnsafeBufferPointer<UInt8>) -> Bool {
    guard prefix.count <= count else { return false }
    guard let base = baseAddress, let other = prefix.baseAddress, !prefix.isEmpty else { return true }
    return memcmp(base, other, prefix.count) == 0
  }
}
