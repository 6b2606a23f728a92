import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Files

/// The text of the file at `path` (decoded as UTF-8), or nil when it does not exist.
package func fileContents(_ path: String) -> String? {
  FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

/// Writes `text` to `path`, replacing what was there.
package func writeFile(_ path: String, _ text: String) throws {
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// Whether anything exists at `path`.
package func fileExists(_ path: String) -> Bool {
  var info = stat()
  return stat(path, &info) == 0
}

/// The permission bits of the file at `path`.
package func permissions(of path: String) throws(SystemCallError) -> mode_t {
  var info = stat()
  guard stat(path, &info) == 0 else { throw SystemCallError(errno: errno, call: "stat") }
  return info.st_mode & 0o777
}

// MARK: - Pipes

/// A new pipe's two ends; the caller closes them.
package func makePipe() throws(SystemCallError) -> (read: Int32, write: Int32) {
  var fds: [Int32] = [0, 0]
  guard pipe(&fds) == 0 else { throw SystemCallError(errno: errno, call: "pipe") }
  return (fds[0], fds[1])
}
