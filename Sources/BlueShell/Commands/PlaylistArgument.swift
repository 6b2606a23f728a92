import BlueLibrary
import BluePlayback
import BlueSystem
import FoundationEssentials

/// A playlist file (M3U, M3U8, PLS) typed to `play` or `queue`: one word ending in `.m3u`,
/// `.m3u8` or `.pls`.
struct PlaylistArgument {
  /// The file, absolute (`~/` is the home folder; a relative path is the working folder's).
  let path: String

  /// The playlist `arguments` name, nil when they name none.
  init?(_ arguments: [Word], environment: [String: String] = ProcessInfo.processInfo.environment) {
    guard arguments.count == 1, PlaylistFile.isPlaylist(arguments[0].text) else { return nil }
    var path = arguments[0].text
    if path.hasPrefix("~/"), let home = environment["HOME"] { path = home + path.dropFirst() }
    if !path.hasPrefix("/") { path = FileManager.default.currentDirectoryPath + "/" + path }
    self.path = path
  }

  /// The file's name, as messages say it.
  var name: String { PlayError.fileName(path) }

  /// The line naming once the entries of the playlist `chosen` (``Library/tracksToPlay(_:)``)
  /// that the library does not hold (`3 of 12 tracks are not in the library: a.flac, b.flac,
  /// …`), nil when it holds them all.
  func missingLine(_ chosen: Library.TracksToPlay) -> String? {
    guard !chosen.missing.isEmpty else { return nil }
    let verb = chosen.missing.count == 1 ? "is" : "are"
    return "\(chosen.missing.count) of \(Library.counted(chosen.listed, "track")) \(verb) not in the library: "
      + PlayError.fileNames(chosen.missing)
  }
}
