import Foundation

/// A file's bytes and modification time, to prove that something left the file alone.
public struct FileSnapshot: Equatable, Sendable {
  /// The file's contents.
  public let bytes: Data
  /// The file's modification time.
  public let modified: Date

  /// Reads the file at `path`.
  public init(_ path: String) throws {
    bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
  }
}
