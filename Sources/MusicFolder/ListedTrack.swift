import BlueSystem

/// A track another program listed rather than a walk found: a song of a music server's
/// database, with the tags the server read and its path under a root of the caller's
/// (`mpd://127.0.0.1:6600/Artist/Album/01 Intro.flac`).
package struct ListedTrack: Sendable, Hashable {
  /// Its path: the root, a slash, then its place on the server.
  package var path: String
  /// Its file's modification time (nanoseconds since 1970), as the server says.
  package var modified: Int64
  /// Its tags.
  package var tags: TrackTags

  /// A listed track with every field given.
  package init(path: String, modified: Int64, tags: TrackTags) {
    self.path = path
    self.modified = modified
    self.tags = tags
  }
}

extension MusicFolderScanner {
  /// The version of the rules that read and group tracks: a new version groups differently,
  /// so what an earlier grouping built is to be built again.
  package static var groupingRulesVersion: Int { FolderWalk.rulesVersion }

  /// The albums of `tracks`, grouped exactly as a scan groups the files of a folder
  /// (``AlbumGrouping``: album tag within a folder, album artist, discs in sibling folders,
  /// compilations), in the same order: by folder in tree order, then title.
  ///
  /// A listed track's folder is its path up to the last slash. No folder has a cover image
  /// and no track a picture, as far as the grouping knows: the server has them, and the
  /// caller says where its covers come from.
  package static func albums(listed tracks: [ListedTrack]) -> [MusicAlbum] {
    if let album = oneAlbum(listed: tracks) { return [album] }
    // Folders in tree order (each before its subfolders, names sorted), as a walk lists
    // them, and each folder's tracks by name.
    let (split, order) =
      tracks.allSatisfy { $0.path.utf8.allSatisfy { $0 < 0x80 } } ? asciiOrder(tracks) : textOrder(tracks)
    var folders: [FolderWalk.Folder] = []
    var grouped: [AlbumGrouping.Track] = []
    grouped.reserveCapacity(tracks.count)
    for index in order {
      let folder = String(split[index].folder)
      if folders.last?.path != folder { folders.append(FolderWalk.Folder(path: folder, coverImage: nil)) }
      var file = FolderWalk.File(path: tracks[index].path, name: String(split[index].name), folder: folders.count - 1)
      file.size = 0
      file.modified = tracks[index].modified
      grouped.append(AlbumGrouping.Track(file: file, tags: tracks[index].tags))
    }
    return AlbumGrouping.albums(folders: folders, tracks: grouped)
  }

  /// The album of `tracks` when the rules can make only one of them: all in one folder (the
  /// same bytes), all with one album tag or none, at most one album-artist tag among them.
  /// Their one group of step 1, built as every group is
  /// (``AlbumGrouping/album(of:tracks:folders:coverImages:)``), without the tables and the
  /// sorting that tell several folders' groups apart: a server's songs are grouped one
  /// (folder above, title) at a time, and most such clusters are one album. Nil otherwise.
  private static func oneAlbum(listed tracks: [ListedTrack]) -> MusicAlbum? {
    guard let first = tracks.first else { return nil }
    let album = first.tags.album
    var albumArtist = first.tags.albumArtist
    for track in tracks.dropFirst() {
      guard track.tags.album == album else { return nil }
      guard let tagged = track.tags.albumArtist else { continue }
      if albumArtist == nil {
        albumArtist = tagged
      } else if tagged != albumArtist {
        return nil
      }
    }
    let folder = folderAndName(of: first.path).folder
    var grouped: [AlbumGrouping.Track] = []
    grouped.reserveCapacity(tracks.count)
    for track in tracks {
      let place = folderAndName(of: track.path)
      guard sameBytes(place.folder, folder) else { return nil }
      var file = FolderWalk.File(path: track.path, name: String(place.name), folder: 0)
      file.size = 0
      file.modified = track.modified
      grouped.append(AlbumGrouping.Track(file: file, tags: track.tags))
    }
    let path = String(folder)
    let group = AlbumGrouping.Group(
      title: album ?? AlbumGrouping.lastPart(of: path), artist: AlbumGrouping.albumArtist(of: tracks.map(\.tags)),
      folders: [0], tracks: Array(grouped.indices), year: nil)
    return AlbumGrouping.album(
      of: group, tracks: grouped, folders: [FolderWalk.Folder(path: path, coverImage: nil)], coverImages: [:])
  }

  /// `path` up to its last slash, and what follows it (the folder `""` without one): found
  /// from the bytes where every slash is a character of its own (``slashesStandAlone(_:)``),
  /// as walking its characters would find it.
  private static func folderAndName(of path: String) -> (folder: Substring, name: Substring) {
    if slashesStandAlone(path) {
      guard let index = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", path[...]) }
      return (path[..<index], path[path.utf8.index(after: index)...])
    }
    guard let index = path.lastIndex(of: "/") else { return ("", path[...]) }
    return (path[..<index], path[path.index(after: index)...])
  }

  /// The name the grouping gives the folder `folder` (an album without an album tag is
  /// titled so): its last part that is not empty, `/` when none is.
  package static func folderName(_ folder: Substring) -> String {
    AlbumGrouping.lastPart(of: folder)
  }

  /// Whether `one` and `other` are the same bytes (not only canonically equivalent), compared
  /// in place: the generic comparison of two UTF-8 views cost a fifth of ``oneAlbum(listed:)``.
  private static func sameBytes(_ one: Substring, _ other: Substring) -> Bool {
    guard one.utf8.count == other.utf8.count else { return false }
    let compared = one.utf8.withContiguousStorageIfAvailable { mine in
      other.utf8.withContiguousStorageIfAvailable { theirs in mine.starts(withBytes: theirs) }
    }
    return (compared ?? nil) ?? one.utf8.elementsEqual(other.utf8)
  }

  /// Each track's folder and name, and the tracks' order (``albums(listed:)``), the paths
  /// compared as texts.
  private static func textOrder(_ tracks: [ListedTrack]) -> ([(folder: Substring, name: Substring)], [Int]) {
    let split = tracks.map { folderAndName(of: $0.path) }
    let components: [[Substring]]
    if tracks.allSatisfy({ slashesStandAlone($0.path) }) {
      // Each slash a character of its own: the parts found from the bytes, as the
      // characters would give them (walking a path's characters was two thirds of this).
      let slash = UInt8(ascii: "/")
      components = split.map { part in
        var parts: [Substring] = []
        var start = part.folder.startIndex
        var index = start
        let utf8 = part.folder.utf8
        while index < utf8.endIndex {
          if utf8[index] == slash {
            parts.append(part.folder[start..<index])
            start = utf8.index(after: index)
          }
          index = utf8.index(after: index)
        }
        parts.append(part.folder[start...])
        return parts
      }
    } else {
      components = split.map { $0.folder.split(separator: "/", omittingEmptySubsequences: false) }
    }
    let order = tracks.indices.sorted { left, right in
      if split[left].folder != split[right].folder {
        return components[left].lexicographicallyPrecedes(components[right])
      }
      return split[left].name < split[right].name
    }
    return (split, order)
  }

  /// Whether every slash of `path` is a character of its own, so that its parts split at
  /// its slash bytes are the parts split at its slash characters: the scalar before each
  /// is below U+0600 (no prepended mark, U+0600 and above, holds on to what follows it)
  /// and the one after below U+0300 (no combining mark, joiner or spacing mark, U+0300 and
  /// above, extends it).
  package static func slashesStandAlone(_ path: String) -> Bool {
    var path = path
    return path.withUTF8 { bytes in
      for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
        if index + 1 < bytes.count, bytes[index + 1] >= 0xCC { return false }
        // The lead byte of the scalar before (a two-byte one's below 0xD8 is below U+0600).
        var lead = index - 1
        while lead >= 0, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        if lead >= 0, bytes[lead] >= 0xD8 { return false }
      }
      return true
    }
  }

  /// ``textOrder(_:)`` of paths all ASCII, from their bytes: the same order (a text of
  /// ASCII compares as its bytes; the folders' parts compare in turn as a slash that ranks
  /// below every other byte, and the end of a folder below a slash, make them), without a
  /// `Character` of them — walking a path's characters was most of a server's grouping.
  private static func asciiOrder(_ tracks: [ListedTrack]) -> ([(folder: Substring, name: Substring)], [Int]) {
    let slash = UInt8(ascii: "/")
    var split: [(folder: Substring, name: Substring)] = []
    var keys: [(folder: [UInt8], name: [UInt8])] = []
    split.reserveCapacity(tracks.count)
    keys.reserveCapacity(tracks.count)
    for track in tracks {
      let path = track.path
      let bytes = Array(path.utf8)
      guard let last = bytes.lastIndex(of: slash) else {
        split.append(("", path[...]))
        keys.append(([], bytes))
        continue
      }
      let index = path.utf8.index(path.startIndex, offsetBy: last)
      split.append((path[..<index], path[path.utf8.index(after: index)...]))
      keys.append((Array(bytes[..<last]), Array(bytes[(last + 1)...])))
    }
    func rank(_ bytes: [UInt8], _ index: Int) -> Int {
      guard index < bytes.count else { return 0 }
      return bytes[index] == slash ? 1 : Int(bytes[index]) + 2
    }
    let order = tracks.indices.sorted { left, right in
      let (one, other) = (keys[left].folder, keys[right].folder)
      if one != other {
        var index = 0
        while true {
          let (mine, theirs) = (rank(one, index), rank(other, index))
          if mine != theirs { return mine < theirs }
          index += 1
        }
      }
      return keys[left].name.lexicographicallyPrecedes(keys[right].name)
    }
    return (split, order)
  }
}
