import Foundation
import GRDB
import Testing

@testable import BlueLibrary

/// A fresh directory under the system temp dir, removed when the test is done.
final class TemporaryDirectory {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "bluelib-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `path/name`.
  func file(_ name: String) -> String { path + "/" + name }
}

extension AlbumStore {
  /// The `position` column as stored, in position order.
  func storedPositions() throws -> [Int] {
    try queue.read { db in try Int.fetchAll(db, sql: "SELECT position FROM album ORDER BY position") }
  }

  /// The titles in position order.
  func titles() throws -> [String] {
    try all().map(\.title)
  }

  /// SQLite's plan for `sql`, one detail line each.
  func queryPlan(_ sql: String) throws -> [String] {
    try queue.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] } }
  }
}

/// An album with just a title and a year, for tests that only need distinct albums.
func album(_ title: String, year: Int? = nil) -> Album {
  Album(title: title, artist: "Artist of \(title)", genre: "Test", year: year, coverURL: "")
}

/// The albums without their store-assigned id and position, for comparing content.
func content(_ albums: [Album]) -> [Album] {
  albums.map { Album(title: $0.title, artist: $0.artist, genre: $0.genre, year: $0.year, coverURL: $0.coverURL) }
}

/// A file's bytes and modification time, to prove a failed open left it alone.
struct FileSnapshot: Equatable {
  let bytes: Data
  let modified: Date

  init(_ path: String) throws {
    bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
  }
}

/// The error thrown by `body`, or nil when it threw none.
func libraryError<T>(_ body: () throws(LibraryError) -> T) -> LibraryError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}
