/// Builds albums from the tracks of a walk, by the rules of the music-folder import:
///
/// 1. Within a folder, tracks with the same album tag form a group; tracks without one form
///    a group titled with the folder's name. A group whose tracks carry two or more
///    different album-artist tags is split by that tag (two albums of one title loose in a
///    folder).
/// 2. A group's album artist is its album-artist tag (the most common one), else the artist
///    all its tracks share, else "Various Artists".
/// 3. Groups with the same album artist and title in sibling folders merge when they look
///    like the discs of one album (`CD1/` and `CD2/`), unless their years are both known and
///    differ (two "Greatest Hits" of the same artist in `Greatest Hits (1990)/` and
///    `… (2005)/`). They look like discs when their disc tags differ; without disc tags,
///    when both folder names carry a disc number (`CD1`, `Disc 2`, `The Wall - disc 3`), or
///    when no track number or title repeats between them (numbered on across discs).
///    Otherwise they are copies — the album in `flac/` and `mp3/`, an original and a
///    remaster — and stay two albums, each with its own tracks.
enum AlbumGrouping {
  /// A track that TagLib read, and where it was found.
  struct Track {
    var file: FolderWalk.File
    var tags: TrackTags
  }

  /// The album artist of a group whose tracks have different artists and no album-artist tag.
  static let variousArtists = "Various Artists"

  /// The albums of `tracks` (in walk order), ordered by folder and then title.
  static func albums(folders: [FolderWalk.Folder], tracks: [Track]) -> [MusicAlbum] {
    let groups = merged(groups(folders: folders, tracks: tracks), folders: folders, tracks: tracks)
    var coverImages: [String: String] = [:]
    for folder in folders {
      if let image = folder.coverImage { coverImages[folder.path] = image }
    }
    let albums = groups.map { album(of: $0, tracks: tracks, folders: folders, coverImages: coverImages) }
    // Each folder split once, not in every comparison.
    let paths = albums.map { $0.folder.split(separator: "/") }
    return albums.indices.sorted { left, right in
      if paths[left] != paths[right] { return paths[left].lexicographicallyPrecedes(paths[right]) }
      if albums[left].title != albums[right].title { return albums[left].title < albums[right].title }
      return albums[left].artist < albums[right].artist
    }.map { albums[$0] }
  }

  // MARK: - Groups

  /// Tracks that make one album: one group, or groups merged across disc folders.
  struct Group {
    var title: String
    var artist: String
    /// The folders its tracks are in, in walk order (more than one once merged).
    var folders: [Int]
    /// Indices into the tracks, in walk order.
    var tracks: [Int]
    var year: Int?
  }

  /// Step 1 and 2: the groups of each folder, in walk order.
  static func groups(folders: [FolderWalk.Folder], tracks: [Track]) -> [Group] {
    var groups: [Group] = []
    var start = 0
    while start < tracks.count {
      let folder = tracks[start].file.folder
      var end = start
      while end < tracks.count && tracks[end].file.folder == folder { end += 1 }

      var byAlbum: [String?: [Int]] = [:]
      var albumOrder: [String?] = []
      for index in start..<end {
        let album = tracks[index].tags.album
        if byAlbum[album] == nil { albumOrder.append(album) }
        byAlbum[album, default: []].append(index)
      }
      let folderName = Self.lastPart(of: folders[folder].path)
      for album in albumOrder {
        let members = byAlbum[album]!
        let albumArtists = Set(members.compactMap { tracks[$0].tags.albumArtist })
        let parts: [[Int]]
        if albumArtists.count > 1 {
          var byArtist: [String?: [Int]] = [:]
          var artistOrder: [String?] = []
          for index in members {
            let artist = tracks[index].tags.albumArtist
            if byArtist[artist] == nil { artistOrder.append(artist) }
            byArtist[artist, default: []].append(index)
          }
          parts = artistOrder.map { byArtist[$0]! }
        } else {
          parts = [members]
        }
        for part in parts {
          groups.append(
            Group(
              title: album ?? folderName, artist: albumArtist(of: part.map { tracks[$0].tags }), folders: [folder],
              tracks: part, year: mostCommon(part.compactMap { tracks[$0].tags.year }, tieBreak: <)))
        }
      }
      start = end
    }
    return groups
  }

  /// The last part of `path` that is not empty (its last of `split(separator: "/")`), `/`
  /// when none is: found from its end, not by splitting all of it (a fifth of the grouping
  /// of a server's songs).
  static func lastPart(of path: some StringProtocol) -> String {
    var end = path.endIndex
    while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
    guard end > path.startIndex else { return "/" }
    let start = path[..<end].lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    return String(path[start..<end])
  }

  /// Rule 2.
  static func albumArtist(of tags: [TrackTags]) -> String {
    if let tagged = mostCommon(tags.compactMap(\.albumArtist), tieBreak: { _, _ in false }) { return tagged }
    let artists = Set(tags.compactMap(\.artist))
    if artists.count == 1 { return artists.first! }
    return artists.isEmpty ? "" : variousArtists
  }

  /// Step 3: groups in sibling folders with the same album artist and title (and no
  /// conflicting years) merged when they look like discs, in the order of their first group.
  static func merged(_ groups: [Group], folders: [FolderWalk.Folder], tracks: [Track]) -> [Group] {
    struct Key: Hashable {
      var parent: Substring
      var artist: String
      var title: String
    }
    var result: [Group] = []
    var candidates: [Key: [Int]] = [:]  // indices into `result`
    for group in groups {
      let path = folders[group.folders[0]].path
      guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else {
        result.append(group)
        continue
      }
      let key = Key(parent: path[..<slash], artist: group.artist, title: group.title)
      let match = candidates[key, default: []].first { index in
        let other = result[index]
        return !other.folders.contains(group.folders[0])
          && (other.year == nil || group.year == nil || other.year == group.year)
          && looksLikeDiscs(other, group, folders: folders, tracks: tracks)
      }
      if let match {
        result[match].folders.append(contentsOf: group.folders)
        result[match].tracks.append(contentsOf: group.tracks)
        result[match].year = result[match].year ?? group.year
      } else {
        candidates[key, default: []].append(result.count)
        result.append(group)
      }
    }
    return result
  }

  /// Whether `group` is another disc of `album` (the group or groups merged so far), not a
  /// copy of it (rule 3).
  static func looksLikeDiscs(_ album: Group, _ group: Group, folders: [FolderWalk.Folder], tracks: [Track]) -> Bool {
    let albumDiscs = Set(album.tracks.compactMap { tracks[$0].tags.discNumber })
    let groupDiscs = Set(group.tracks.compactMap { tracks[$0].tags.discNumber })
    if !albumDiscs.isEmpty && !groupDiscs.isEmpty { return albumDiscs.isDisjoint(with: groupDiscs) }
    let albumFolderDiscs = album.folders.map { discNumber(inFolderName: folders[$0].path) }
    if let groupDisc = discNumber(inFolderName: folders[group.folders[0]].path),
      albumFolderDiscs.allSatisfy({ $0 != nil && $0 != groupDisc })
    {
      return true
    }
    let albumNumbers = Set(album.tracks.compactMap { tracks[$0].tags.trackNumber })
    if group.tracks.contains(where: { tracks[$0].tags.trackNumber.map(albumNumbers.contains) == true }) {
      return false
    }
    let albumTitles = Set(album.tracks.compactMap { tracks[$0].tags.title?.lowercased() })
    return !group.tracks.contains { tracks[$0].tags.title.map { albumTitles.contains($0.lowercased()) } == true }
  }

  /// The disc number a folder's name ends in — `CD1`, `cd 2`, `Disc 3`, `The Wall - Disk 4`,
  /// `(CD 2)`, `[disc2]` — or nil when it ends in none.
  ///
  /// Read from the name's UTF-8 bytes backwards: walked as reversed characters, the first
  /// look at a name cost as much as reading a small file's tags (the generic code's types
  /// made at run time).
  static func discNumber(inFolderName path: String) -> Int? {
    let bytes = Array(path.utf8)
    let start = (bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
    var end = bytes.count
    while end > start, [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: " ")].contains(bytes[end - 1]) { end -= 1 }
    let digitsEnd = end
    while end > start, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end - 1]) { end -= 1 }
    guard (1...3).contains(digitsEnd - end) else { return nil }
    let number = bytes[end..<digitsEnd].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    while end > start, " -_.".utf8.contains(bytes[end - 1]) { end -= 1 }
    // `disc`, `disk` or `cd` in any case, after no letter.
    let lowered = bytes[start..<end].map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    guard let word = ["disc", "disk", "cd"].first(where: { lowered.suffix($0.utf8.count).elementsEqual($0.utf8) })
    else {
      return nil
    }
    let before = String(decoding: lowered.dropLast(word.utf8.count), as: UTF8.self).last
    return before.map { !$0.isLetter } ?? true ? number : nil
  }

  // MARK: - Albums

  static func album(
    of group: Group, tracks: [Track], folders: [FolderWalk.Folder], coverImages: [String: String]
  ) -> MusicAlbum {
    // Disc (its tag, else its disc folder's place), disc folder in walk order, then track
    // number (tracks without one last), then file name.
    // A disc folder named for its disc (`CD2`) is that disc; else its place among them.
    let named = group.folders.map { discNumber(inFolderName: folders[$0].path) }
    let foldersNameDiscs = named.allSatisfy { $0 != nil } && Set(named).count == named.count
    let discs = group.tracks.map { index -> Int? in
      let track = tracks[index]
      if let disc = track.tags.discNumber { return disc }
      guard group.folders.count > 1, let place = group.folders.firstIndex(of: track.file.folder) else { return nil }
      return foldersNameDiscs ? named[place] : place + 1
    }
    // The fields compared, not the tracks (whose copies would retain a dozen strings each).
    let keys = group.tracks.map { (folder: tracks[$0].file.folder, number: tracks[$0].tags.trackNumber) }
    let ordered = group.tracks.indices.sorted { left, right in
      // A track without a disc tag is on disc 1 (a strict order: nil and 1 are one disc).
      let (leftDisc, rightDisc) = (discs[left] ?? 1, discs[right] ?? 1)
      if leftDisc != rightDisc { return leftDisc < rightDisc }
      if keys[left].folder != keys[right].folder { return keys[left].folder < keys[right].folder }
      if keys[left].number != keys[right].number {
        return (keys[left].number ?? .max) < (keys[right].number ?? .max)
      }
      return tracks[group.tracks[left]].file.name < tracks[group.tracks[right]].file.name
    }.map { (disc: discs[$0], track: tracks[group.tracks[$0]]) }

    let memberPaths = group.folders.map { folders[$0].path }
    let folder: String
    if memberPaths.count == 1 {
      folder = memberPaths[0]
    } else {
      let first = memberPaths[0]
      folder = String(first[..<first.lastIndex(of: "/")!])
    }

    var cover: MusicCover?
    if let pictured = ordered.first(where: { $0.track.tags.hasPicture })?.track {
      cover = .embedded(track: pictured.file.path, mimeType: pictured.tags.pictureMimeType ?? "")
    } else if let image = ([folder] + memberPaths).lazy.compactMap({ coverImages[$0] }).first {
      cover = .file(image)
    }

    let tags = ordered.map(\.track.tags)
    var album = MusicAlbum(
      key: MusicAlbum.key(folder: folder, artist: group.artist, title: group.title),
      title: group.title, artist: group.artist,
      year: mostCommon(tags.compactMap(\.year), tieBreak: <),
      genre: mostCommon(tags.compactMap(\.genre), tieBreak: { _, _ in false }) ?? "",
      trackCount: ordered.count, duration: tags.reduce(0) { $0 + $1.duration }, folder: folder, cover: cover)
    album.tracks = ordered.map { disc, track in
      MusicTrack(
        path: track.file.path, size: track.file.size, modified: track.file.modified, changed: track.file.changed,
        inode: track.file.inode, disc: disc, tags: track.tags)
    }
    album.musicBrainzAlbumID = mostCommon(tags.compactMap(\.musicBrainzAlbumID), tieBreak: { _, _ in false })
    album.musicBrainzReleaseGroupID = mostCommon(
      tags.compactMap(\.musicBrainzReleaseGroupID), tieBreak: { _, _ in false })
    return album
  }

  /// The value that occurs most often in `values`; among equally common ones, the one
  /// `tieBreak` orders first, else the one seen first.
  static func mostCommon<Value: Hashable>(_ values: [Value], tieBreak: (Value, Value) -> Bool) -> Value? {
    var counts: [Value: Int] = [:]
    var order: [Value] = []
    for value in values {
      if counts[value] == nil { order.append(value) }
      counts[value, default: 0] += 1
    }
    var best: (value: Value, count: Int)?
    for value in order {
      let count = counts[value]!
      guard let current = best else {
        best = (value, count)
        continue
      }
      if count > current.count || (count == current.count && tieBreak(value, current.value)) {
        best = (value, count)
      }
    }
    return best?.value
  }
}
