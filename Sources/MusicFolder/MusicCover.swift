import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an album's cover is. A scan only notes where: the bytes are read when asked for,
/// so that a scan of thousands of albums does not hold thousands of pictures.
package enum MusicCover: Sendable, Hashable {
  /// A picture embedded in the audio file at `track`, of the given MIME type (empty when
  /// the file does not say).
  case embedded(track: String, mimeType: String)
  /// An image file beside the tracks (`cover.jpg`, `Folder.png`, `front.jpeg`…).
  case file(String)

  /// The largest cover ``bytes(limit:)`` reads by default, as for downloaded covers.
  package static let defaultLimit = 10 << 20

  /// The file the cover is in.
  package var path: String {
    switch self {
    case .embedded(let track, _): return track
    case .file(let path): return path
    }
  }

  /// Reads the cover's bytes (from the audio file's tags, or the image file).
  /// - Throws: ``MusicFolderError`` when the file cannot be read, no longer embeds a
  ///   picture, or holds one larger than `limit` bytes.
  package func bytes(limit: Int = defaultLimit) throws(MusicFolderError) -> [UInt8] {
    switch self {
    case .embedded(let track, _):
      guard let picture = try TrackTags.picture(track, limit: limit) else { throw .noPicture(track) }
      return picture.bytes
    case .file(let path):
      return try Self.readFile(path, limit: limit)
    }
  }

  private static func readFile(_ path: String, limit: Int) throws(MusicFolderError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotOpen(path, errno: errno) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count: Int
      do throws(SystemError) {
        count = try syscall("read") { chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) } }
      } catch {
        throw .cannotOpen(path, errno: error.errno)
      }
      if count == 0 { return bytes }
      guard bytes.count + count <= limit else { throw .coverTooLarge(path, limit: limit) }
      bytes.append(contentsOf: chunk[..<count])
    }
  }
}
