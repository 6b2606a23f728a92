import CoverArt
import Foundation
import MusicFolder

/// The audio formats with a committed fixture: about a second of silence, untagged
/// (Tests/Fixtures/music, made by make-fixtures.sh).
package enum AudioFormat: String, CaseIterable, Sendable, CustomStringConvertible {
  case mp3, flac, m4a, ogg, opus

  /// Where the fixtures are.
  package static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/music").path

  /// The untagged fixture of this format.
  package var fixture: String { Self.fixtures + "/silence." + rawValue }

  package var description: String { rawValue }
}

/// A music folder made for one test: copies of the silent fixtures tagged through TagLib,
/// cover images, and whatever other files a case needs.
package struct MusicFolderFixture {
  /// The temporary directory the folder lives in, when the fixture made its own.
  private let temporary: TemporaryDirectory?
  /// The folder (its real path, as scans and the library report folders).
  package let root: String

  /// A folder `Music` in a temporary directory of its own, removed with the fixture.
  package init() throws {
    let temporary = try TemporaryDirectory()
    self.temporary = temporary
    root = try Self.makeFolder(in: URL(fileURLWithPath: temporary.path))
  }

  /// A folder `Music` inside `parent`.
  package init(in parent: URL) throws {
    temporary = nil
    root = try Self.makeFolder(in: parent)
  }

  private static func makeFolder(in parent: URL) throws -> String {
    let music = parent.appendingPathComponent("Music")
    try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
    return music.resolvingSymlinksInPath().path
  }

  /// `root/relative`.
  package func path(_ relative: String) -> String { root + "/" + relative }

  /// Copies the fixture of the extension of `relative` there (`.mp4` and `.aac` are the
  /// M4A one) and writes `edit` into the copy; returns its path.
  @discardableResult
  package func track(_ relative: String, _ edit: TagEdit = TagEdit()) throws -> String {
    let fileExtension = (relative as NSString).pathExtension.lowercased()
    let name = fileExtension == "mp4" || fileExtension == "aac" ? "m4a" : fileExtension
    let destination = path(relative)
    try makeParent(of: destination)
    try FileManager.default.copyItem(atPath: AudioFormat.fixtures + "/silence." + name, toPath: destination)
    try edit.write(to: destination)
    return destination
  }

  /// Writes `bytes` to `root/relative`; returns its path.
  @discardableResult
  package func file(_ relative: String, _ bytes: [UInt8]) throws -> String {
    let destination = path(relative)
    try makeParent(of: destination)
    try Data(bytes).write(to: URL(fileURLWithPath: destination))
    return destination
  }

  /// A symbolic link at `root/relative` pointing to `target` (as given: relative or absolute).
  package func symlink(_ relative: String, to target: String) throws {
    try makeParent(of: path(relative))
    try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: target)
  }

  private func makeParent(of path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
  }
}

/// Small real images to embed and to put beside tracks, one colour each, so a test can tell
/// which one a cover is.
package enum TestPicture {
  package static func jpeg(_ color: RGB) -> [UInt8] {
    ImageEncoder.jpeg(RGBImage(width: 16, height: 16, filledWith: color))
  }

  package static func png(_ color: RGB) -> [UInt8] {
    ImageEncoder.png(RGBImage(width: 16, height: 16, filledWith: color))
  }

  /// The colour of the middle pixel of a decoded cover.
  package static func color(of bytes: [UInt8]) throws -> RGB {
    let image = try ImageDecoder.decode(bytes)
    let index = ((image.height / 2) * image.width + image.width / 2) * 3
    return RGB(image.pixels[index], image.pixels[index + 1], image.pixels[index + 2])
  }

  /// Whether two colours are the same but for JPEG's rounding.
  package static func close(_ a: RGB, _ b: RGB) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= 8 && abs(Int(a.green) - Int(b.green)) <= 8 && abs(Int(a.blue) - Int(b.blue)) <= 8
  }

  package static let red = RGB(220, 30, 30)
  package static let green = RGB(30, 200, 60)
  package static let blue = RGB(40, 60, 210)
  package static let yellow = RGB(230, 210, 40)
}
