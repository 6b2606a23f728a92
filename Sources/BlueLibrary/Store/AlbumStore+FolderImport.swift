import AlbumModel
internal import BlueSQL
internal import MusicFolder

// How an import takes each album a source built (a folder's scan, a server's listing):
// the stored album with its key updated in place, your edits kept, your deletions left
// out (``AlbumStore/importAlbums(_:root:summary:origin:withDeleted:marksFollowSource:skipped:cover:)``).
extension SourceImport {
  /// Names `album` among the changes of `kind`, when fewer than a few are named.
  mutating func name(_ kind: Change.Kind, _ album: Album, _ detail: String? = nil) {
    guard named.lazy.filter({ $0.kind == kind }).count < Self.namedPerKind else { return }
    let name = album.artist.isEmpty ? album.title : album.title + " — " + album.artist
    named.append(Change(kind: kind, album: name, detail: detail))
  }
}

extension AlbumStore {
  /// What an import does with one album a scan built.
  enum ScannedAlbumTaking {
    /// Left out: you deleted it from the library.
    case left
    /// Appended (`returns`: an album you deleted, brought back).
    case added(returns: Bool)
    /// The stored album it is, as it is.
    case unchanged
    /// The stored album `id` it is, to be stored as `album` (the scan's, with your edits).
    case updated(id: Int64, album: Album)
  }

  /// How an import takes `scanned` (an album a scan built, its source key `key`; `old`, the
  /// key it had before it moved), counted and named in `outcome`: the stored album with that
  /// key (the first one in order, unless an album of this import took it: `matched`) is
  /// updated in place, keeping the fields you edited since the scan built `filesSaid` (but
  /// those in `following`, which are the source's); an album you deleted is left out unless
  /// `withDeleted`; any other is added.
  static func takeScanned(
    _ scanned: Album, key: String?, old: String?, filesSaid: Album?, following: Set<AlbumField> = [],
    partlyGone: (gone: Int, before: Int)?, withDeleted: Bool, matched: inout Set<Int64>,
    outcome: inout SourceImport, _ db: Database
  ) throws -> ScannedAlbumTaking {
    try scanned.validate()
    // The first by position, without ordering them: `ORDER BY position LIMIT 1` made SQLite
    // a temporary B-tree for each album taken (a fiftieth of a server's first sync).
    let find = """
      SELECT \(Album.selection) FROM album
      WHERE source_key = ?1 AND position = (SELECT min(position) FROM album WHERE source_key = ?1)
      """
    guard let key, let stored = try Album.fetchOne(db, sql: find, arguments: [old ?? key]),
      let id = stored.id, matched.insert(id).inserted
    else {
      var returns = false
      if let key,
        try Bool.fetchOne(
          db.cachedStatement(sql: "SELECT left_out FROM folder_album WHERE key = ?"), arguments: [key]) == true
      {
        guard withDeleted else {
          outcome.leftOut += 1
          outcome.name(.leftOut, scanned)
          return .left
        }
        returns = true
      }
      outcome.name(.added, scanned)
      return .added(returns: returns)
    }
    let album = filesSaid.map { scanned.keepingEdits(of: stored, filesSaid: $0, following: following) } ?? scanned
    if let partlyGone {
      outcome.partlyGone += 1
      outcome.name(.partlyGone, album, "\(partlyGone.gone) of \(Library.counted(partlyGone.before, "file"))")
    }
    if stored.hasSameFields(as: album) {
      outcome.unchanged += 1
      return .unchanged
    } else if old != nil && stored.folder != album.folder {
      outcome.moved += 1
      outcome.name(.moved, album, stored.folder)
    } else {
      outcome.updated += 1
      let fields = album.changedFields(comparedWith: stored)
      outcome.name(.updated, album, fields.isEmpty ? nil : fields.joined(separator: ", "))
    }
    return .updated(id: id, album: album)
  }
}

extension Album {
  /// This album (as a scan built it now) with each field of `stored` that differs from what
  /// the files said before (`filesSaid`): the fields the user edited, but those the source
  /// says (`following`: a server's marks, which are every library's of that server).
  func keepingEdits(of stored: Album, filesSaid before: Album, following: Set<AlbumField> = []) -> Album {
    var album = self
    for field in AlbumField.allCases
    where !following.contains(field) && field.value(in: stored) != field.value(in: before) {
      album.set(field, to: stored)
    }
    return album
  }

  /// The fields ``AlbumField`` names that differ between this album and `other`.
  package func editedFields(comparedWith other: Album) -> [AlbumField] {
    AlbumField.allCases.filter { $0.value(in: self) != $0.value(in: other) }
  }

  /// This album with `fields` set to `filesSay`'s: what `unedit` stores.
  package func followingFiles(_ filesSay: Album, in fields: [AlbumField]) -> Album {
    var album = self
    for field in fields { album.set(field, to: filesSay) }
    return album
  }

  /// Sets `field` to `other`'s (no check: `other` is a stored or scanned album).
  private mutating func set(_ field: AlbumField, to other: Album) {
    switch field {
    case .title: title = other.title
    case .artist: artist = other.artist
    case .genre: genre = other.genre
    case .year: year = other.year
    case .cover: coverURL = other.coverURL
    case .rating: rating = other.rating
    case .fav: favourite = other.favourite
    }
  }

  /// The names of the fields an import writes that differ from `other`'s: `genre, year`,
  /// `tracks`, `folder`.
  func changedFields(comparedWith other: Album) -> [String] {
    editedFields(comparedWith: other).map(\.rawValue)
      + [
        (tracks != other.tracks, "tracks"), (!Self.sameLength(duration, other.duration), "length"),
        (folder != other.folder, "folder"),
      ].filter(\.0).map(\.1)
  }

  /// Whether two albums' lengths are the same to the millisecond the tracks' lengths are read
  /// to: a sum of the same lengths in another order (a track renumbered) may differ in its
  /// last bit, which is no change.
  static func sameLength(_ one: Double?, _ other: Double?) -> Bool {
    guard let one, let other else { return one == nil && other == nil }
    return abs(one - other) < 0.0005
  }

  /// Whether every field an import writes is the same in both: title, artist, genre, year,
  /// cover, rating, favourite mark, the music-folder fields and the source key (not the id,
  /// position or cache state).
  func hasSameFields(as other: Album) -> Bool {
    title == other.title && artist == other.artist && genre == other.genre && year == other.year
      && coverURL == other.coverURL && tracks == other.tracks && Self.sameLength(duration, other.duration)
      && folder == other.folder
      && sourceKey == other.sourceKey && rating == other.rating && favourite == other.favourite
  }
}

extension AlbumStore {
  /// The tracks stored under the source key `key`, with every tag they were read with.
  func storedMusicTracks(forKey key: String) throws(LibraryError) -> [MusicTrack] {
    try reading { db in try Self.musicTracks(forKey: key, db) }
  }
}
