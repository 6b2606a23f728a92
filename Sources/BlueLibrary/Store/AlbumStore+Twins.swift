import AlbumModel
internal import BlueSQL

// Albums that share an artist and a title (a release as FLAC and as MP3 in two folders), and
// what tells them apart (issue 50, item 4); and whether an album has a duplicate.
extension AlbumStore {
  /// One album of a group of twins as the store reads it: its id, the artist and title it is
  /// grouped by (folded as SQLite's `lower()` folds), its folder, and its tracks' formats.
  struct TwinRow {
    var id: Int64
    var artist: String
    var title: String
    var folder: String
    var formats: [String]
  }

  /// The columns of a ``TwinRow``, of `album a`.
  private static let twinColumns = """
    a.id, lower(a.artist), lower(a.title), IFNULL(a.folder, ''),
    (SELECT group_concat(DISTINCT format) FROM track WHERE album_key = a.source_key)
    """

  private static func twinRows(_ db: Database, sql: String, arguments: StatementArguments) throws -> [TwinRow] {
    try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
      let formats: String? = row[4]
      return TwinRow(
        id: row[0], artist: row[1], title: row[2], folder: row[3],
        formats: formats.map { $0.split(separator: ",").map(String.init) } ?? [])
    }
  }

  /// Every album from a source (a music folder, a server) that shares its artist and title
  /// with another one, with what tells them apart: what a `list` reads once. Albums without a
  /// source have no folder or format to tell them by, and are left out; so a library of none
  /// (an imported archive) reads an empty index and nothing else.
  func twins() throws(LibraryError) -> [Int64: TwinLabel] {
    try reading { db in
      TwinLabel.labels(
        of: try Self.twinRows(
          db,
          sql: """
            SELECT \(Self.twinColumns) FROM album a INDEXED BY album_source_key
            WHERE a.source_key IS NOT NULL AND (lower(a.artist), lower(a.title)) IN (
              SELECT lower(artist), lower(title) FROM album INDEXED BY album_source_key WHERE source_key IS NOT NULL
              GROUP BY 1, 2 HAVING count(*) > 1)
            """, arguments: []))
    }
  }

  /// What tells the album `id` from the albums that share its artist and title; nil when none
  /// does (or it has no source): one look-up in the artist index, for a card or `show`.
  func twinLabel(ofAlbumID id: Int64, artist: String, title: String) throws(LibraryError) -> TwinLabel? {
    try reading { db in
      let rows = try Self.twinRows(
        db,
        sql: """
          SELECT \(Self.twinColumns) FROM album a
          WHERE lower(a.artist) = lower(?) AND lower(a.title) = lower(?) AND a.source_key IS NOT NULL
          """, arguments: [artist, title])
      return TwinLabel.labels(of: rows)[id]
    }
  }

  /// Whether another album is the same release as the album `id` (``QueryField/duplicate``):
  /// the same artist, title and number of tracks, or the same MusicBrainz album id.
  func isDuplicate(albumID id: Int64) throws(LibraryError) -> Bool {
    try reading { db in
      try Bool.fetchOne(
        db,
        sql: """
          SELECT EXISTS (SELECT 1 FROM album d WHERE lower(d.artist) = lower(a.artist)
              AND lower(d.title) = lower(a.title) AND d.tracks IS a.tracks AND d.id <> a.id)
            OR EXISTS (SELECT 1 FROM folder_album f JOIN album d ON d.source_key = f.key
              WHERE f.mb_albumid = (SELECT mb_albumid FROM folder_album WHERE key = a.source_key) AND d.id <> a.id)
          FROM album a WHERE a.id = ?
          """, arguments: [id]) ?? false
    }
  }
}

/// What tells an album from the others that share its artist and title: its format when no
/// other of them has it (`FLAC`), else where it is (`MP3 in Jazz/Kind of Blue (2)`: as many of
/// its folder's last names as tell it from theirs).
package struct TwinLabel: Sendable, Equatable {
  /// `FLAC`, `MP3 in Jazz/Kind of Blue (2)`.
  package var text: String
  /// Whether the albums it shares its artist and title with are of more than one format: a
  /// release as FLAC and as MP3, which a listing of duplicates marks.
  package var isFormatTwin: Bool

  /// The label of each album of `rows` that shares its artist and title with another one.
  static func labels(of rows: [AlbumStore.TwinRow]) -> [Int64: TwinLabel] {
    var groups: [String: [AlbumStore.TwinRow]] = [:]
    for row in rows { groups[row.artist + "\u{0}" + row.title, default: []].append(row) }
    var labels: [Int64: TwinLabel] = [:]
    for group in groups.values where group.count > 1 {
      let formats = group.map { Set($0.formats).sorted().joined(separator: "+") }
      var counts: [String: Int] = [:]
      for format in formats { counts[format, default: 0] += 1 }
      let isFormatTwin = counts.count > 1
      let folders = group.map { $0.folder.split(separator: "/").map(String.init) }
      for (index, row) in group.enumerated() {
        let format = formats[index]
        if !format.isEmpty, counts[format] == 1 {
          labels[row.id] = TwinLabel(text: format, isFormatTwin: isFormatTwin)
          continue
        }
        // Told apart from those of its format: the others' format says the rest.
        let same = group.indices.filter { formats[$0] == format }.map { folders[$0] }
        let place = distinguishingTail(of: folders[index], among: same)
        labels[row.id] = TwinLabel(
          text: format.isEmpty ? "in " + place : format + " in " + place, isFormatTwin: isFormatTwin)
      }
    }
    return labels
  }

  /// The fewest last names of `folder` that no other of `folders` ends with (all of them
  /// when another is the same folder).
  private static func distinguishingTail(of folder: [String], among folders: [[String]]) -> String {
    guard !folder.isEmpty else { return "?" }
    for count in 1...folder.count {
      let tail = folder.suffix(count)
      let shared = folders.filter { $0.count >= count && $0.suffix(count) == tail }.count
      if shared <= 1 { return tail.joined(separator: "/") }
    }
    return folder.joined(separator: "/")
  }
}
