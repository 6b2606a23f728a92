import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh, empty directory under the system temp dir, removed when the last reference goes.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let store = try AlbumStore(path: directory.file("library.sqlite"))
/// ```
package final class TemporaryDirectory: Sendable {
  /// The directory's absolute path.
  package let path: String

  /// Creates the directory (`mkdtemp`, so no two tests share one).
  package init() throws(SystemCallError) {
    let pattern = (NSTemporaryDirectory() as NSString).appendingPathComponent("bluelib-tests.XXXXXX")
    var template = Array(pattern.utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard created != nil else { throw SystemCallError(errno: errno, call: "mkdtemp") }
    path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `path/name`.
  package func file(_ name: String) -> String { path + "/" + name }
}

/// Runs `body` with the path of a fresh, empty directory that is removed afterwards, whatever happens.
package func withTemporaryDirectory<Result>(_ body: (String) throws -> Result) throws -> Result {
  let directory = try TemporaryDirectory()
  return try withExtendedLifetime(directory) { try body(directory.path) }
}
