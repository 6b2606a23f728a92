import Foundation

/// A file's bytes and modification time, to prove that something left the file alone.
package struct FileSnapshot: Equatable, Sendable {
  /// The file's contents.
  package let bytes: Data
  /// The file's modification time.
  package let modified: Date

  /// Reads the file at `path`.
  package init(_ path: String) throws {
    bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
  }
}
