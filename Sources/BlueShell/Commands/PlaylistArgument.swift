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
  var name: String { TextSanitizer.escaped(String(path.split(separator: "/").last ?? Substring(path))) }

  /// The tracks of the library it lists, and the line naming the entries it does not hold
  /// once (`3 of 12 tracks are not in the library: a.flac, b.flac, …`), nil when it holds
  /// them all. Throws when it holds none of them.
  func tracks(in library: Library) throws -> (tracks: [Player.Track], missing: String?) {
    let found = try library.playlistTracks(at: path)
    let names = found.missing.map { entry in
      TextSanitizer.escaped(String(entry.split(separator: "/").last ?? Substring(entry)))
    }
    let listed = names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", …" : "")
    guard !found.tracks.isEmpty else {
      throw CommandError(
        "none of the \(Library.counted(found.count, "track")) of \(name) is in the library: \(listed)")
    }
    guard !names.isEmpty else { return (found.tracks, nil) }
    let verb = names.count == 1 ? "is" : "are"
    return (
      found.tracks,
      "\(names.count) of \(Library.counted(found.count, "track")) \(verb) not in the library: \(listed)"
    )
  }
}
