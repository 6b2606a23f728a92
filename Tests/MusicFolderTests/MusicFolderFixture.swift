import CoverArt
import Foundation
import MusicFolder
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The audio formats with a committed fixture: one second of silence, untagged
/// (Tests/Fixtures/music, made by make-fixtures.sh).
enum AudioFormat: String, CaseIterable, Sendable, CustomStringConvertible {
  case mp3, flac, m4a, ogg, opus

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/music").path

  /// The untagged fixture of this format.
  var fixture: String { Self.fixtures + "/silence." + rawValue }

  var description: String { rawValue }
}

/// A music folder built for one test in a fresh temporary directory: copies of the fixtures
/// tagged through TagLib, and whatever other files the case needs.
final class MusicFolderFixture {
  private let temporary: TemporaryDirectory
  /// The folder to scan (its real path, as the scan reports folders).
  let root: String

  init() throws {
    temporary = try TemporaryDirectory()
    let music = temporary.file("Music")
    try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
    root = URL(fileURLWithPath: music).resolvingSymlinksInPath().path
  }

  /// `root/relative`.
  func path(_ relative: String) -> String { root + "/" + relative }

  /// Copies the fixture of the extension of `relative` there and writes `edit` into the copy.
  @discardableResult
  func track(_ relative: String, _ edit: TagEdit = TagEdit()) throws -> String {
    let fileExtension = (relative as NSString).pathExtension.lowercased()
    let format = AudioFormat(rawValue: fileExtension == "mp4" || fileExtension == "aac" ? "m4a" : fileExtension)!
    let destination = path(relative)
    try makeParent(of: destination)
    try FileManager.default.copyItem(atPath: format.fixture, toPath: destination)
    try edit.write(to: destination)
    return destination
  }

  /// Writes `bytes` to `root/relative`.
  @discardableResult
  func file(_ relative: String, _ bytes: [UInt8]) throws -> String {
    let destination = path(relative)
    try makeParent(of: destination)
    try Data(bytes).write(to: URL(fileURLWithPath: destination))
    return destination
  }

  /// A symbolic link at `root/relative` pointing to `target` (as given: relative or absolute).
  func symlink(_ relative: String, to target: String) throws {
    try makeParent(of: path(relative))
    try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: target)
  }

  /// Scans the root with two workers.
  func scan() throws -> MusicFolderScan {
    try MusicFolderScanner().scan(root)
  }

  private func makeParent(of path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
  }
}

/// Small real images to embed and to put beside tracks, one colour each, so a test can tell
/// which one a cover is.
enum TestPicture {
  static func jpeg(_ color: RGB) -> [UInt8] { ImageEncoder.jpeg(RGBImage(width: 16, height: 16, filledWith: color)) }
  static func png(_ color: RGB) -> [UInt8] { ImageEncoder.png(RGBImage(width: 16, height: 16, filledWith: color)) }

  /// The colour of the middle pixel of a decoded cover.
  static func color(of bytes: [UInt8]) throws -> RGB {
    let image = try ImageDecoder.decode(bytes)
    let index = ((image.height / 2) * image.width + image.width / 2) * 3
    return RGB(image.pixels[index], image.pixels[index + 1], image.pixels[index + 2])
  }

  /// Whether two colours are the same but for JPEG's rounding.
  static func close(_ a: RGB, _ b: RGB) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= 8 && abs(Int(a.green) - Int(b.green)) <= 8 && abs(Int(a.blue) - Int(b.blue)) <= 8
  }

  static let red = RGB(220, 30, 30)
  static let green = RGB(30, 200, 60)
  static let blue = RGB(40, 60, 210)
  static let yellow = RGB(230, 210, 40)
}

extension MusicFolderScan {
  /// The album titled `title` (by `artist`, when given); nil when there is none.
  func album(_ title: String, by artist: String? = nil) -> MusicAlbum? {
    albums.first { $0.title == title && (artist == nil || $0.artist == artist) }
  }
}
