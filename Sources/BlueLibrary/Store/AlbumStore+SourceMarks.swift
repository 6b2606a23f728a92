import AlbumModel
internal import BlueSQL
import MusicSource

// The marks a source shares (ratings and favourite marks: MPD's stickers), taken from the
// source alone, without listing its tracks: when another client of it changed them, an open
// library takes the new ones at once (`idle sticker`) for the cost of a pass over the
// source's tracks in the library.
extension AlbumStore {
  /// Takes, in one transaction, the marks `marks` (by the track's place under `root`: the
  /// path without `root/`) give the albums of the source at `root`: an album's rating is the
  /// one all its tracks have (none unless they agree), it is a favourite when every track is,
  /// as a listing takes them. Only albums whose marks differ from those the library last had
  /// from the source are looked at, and of those only the ones whose marks differ now are
  /// changed, as one step summed up by `summary` (given their number); an album whose mark
  /// waits for the source (``pendingMarks()``) keeps the library's. Returns the step, nil when
  /// no album changed.
  func takeSourceMarks(
    _ marks: [String: TrackMarks], root: String, summary: (Int) -> String, origin: ChangeOrigin
  ) throws(LibraryError) -> ChangeStep? {
    try changing { db in
      let pending = try Self.pendingAlbumKeys(db)
      let paths = Self.pathRange(under: root)
      let prefix = root.utf8.count + 1
      // The source's albums, a track at a time in album order, with what the library last
      // had from the source for each.
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT t.album_key, t.path, f.rating, f.fav FROM track t JOIN folder_album f ON f.key = t.album_key
          WHERE t.path > ? AND t.path < ? ORDER BY t.album_key
          """, arguments: [paths.low, paths.high])
      var differing: [(key: String, rating: Int?, favourite: Bool)] = []
      var current: (key: String, rating: Int?, agree: Bool, favourite: Bool, had: (Int?, Bool))?
      func finish() {
        guard let album = current, !pending.contains(album.key) else { return }
        let rating = album.agree ? album.rating : nil
        if rating != album.had.0 || album.favourite != album.had.1 {
          differing.append((album.key, rating, album.favourite))
        }
      }
      while let row = try rows.next() {
        let key: String = row[0]
        let path: String = row[1]
        let mark = marks[String(decoding: path.utf8.dropFirst(prefix), as: UTF8.self)]
        if current?.key != key {
          finish()
          let had: Int? = row[3]
          current = (key, mark?.rating, true, mark?.favourite ?? false, (row[2], had == 1))
        } else {
          current!.agree = current!.agree && current!.rating == mark?.rating
          current!.favourite = current!.favourite && mark?.favourite == true
        }
      }
      finish()
      guard !differing.isEmpty else { return nil }
      let find = "SELECT \(Album.selection) FROM album WHERE source_key = ? ORDER BY position LIMIT 1"
      let update = try db.cachedStatement(sql: "UPDATE folder_album SET rating = ?, fav = ? WHERE key = ?")
      var step: Int64?
      var changed = 0
      for (key, rating, favourite) in differing {
        try update.execute(arguments: [rating, favourite ? 1 : 0, key])
        guard var album = try Album.fetchOne(db, sql: find, arguments: [key]), let id = album.id,
          album.rating != rating || album.favourite != favourite
        else { continue }
        album.rating = rating
        album.favourite = favourite
        let begun = try step ?? Self.beginStep(.import, summary: "", origin: origin, db)
        step = begun
        try Self.appendImage(id, as: .before, of: begun, db)
        try Self.writeFields(of: album, to: id, step: begun, db)
        try Self.appendImage(id, as: .after, of: begun, db)
        changed += 1
      }
      guard let step else { return nil }
      try db.execute(sql: "UPDATE change SET summary = ? WHERE id = ?", arguments: [summary(changed), step])
      try Self.finishStep(step, selecting: origin.selection, db)
      return try Self.changeStep(step, db)
    }
  }
}
