import AlbumModel
internal import BlueSQL

/// An album as a logged step recorded it: a `change_album` row.
struct AlbumImage {
  /// Which side of the step the row shows.
  enum Side: String {
    case before, after
  }

  /// The album's fields, id and position as recorded.
  var album: Album
  /// The id of the album just before it then, nil when it was the first.
  var previousID: Int64?
  /// The id of the album just after it then, nil when it was the last.
  var nextID: Int64?
  /// The `step` value the album carried then.
  var step: Int64?
  /// When the album entered the library (nil: before the field existed).
  var added: Int64?

  /// The album's id as recorded (a recorded album always has one).
  var id: Int64 { album.id ?? 0 }

  /// The columns ``init(row:)`` reads, in order.
  static let selection =
    "album_id, title, artist, genre, year, coverUrl, position, prev_id, next_id, step, tracks, duration, folder, source_key, added, "
    + "rating, fav"

  init(row: Row) {
    album = Album(
      id: row[0], title: row[1], artist: row[2], genre: row[3], year: row[4], coverURL: row[5], position: row[6],
      tracks: row[10], duration: row[11], folder: row[12], rating: row[15], favourite: row[16])
    album.sourceKey = row[13]
    previousID = row[7]
    nextID = row[8]
    step = row[9]
    added = row[14]
  }
}
