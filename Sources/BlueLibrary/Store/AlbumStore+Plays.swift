import AlbumModel
internal import BlueSQL

// Each album's play count and when it was last played (`album_play`), beside the albums,
// not in the undo log: playing is not a change to undo.
extension AlbumStore {
  /// Counts each of the albums `ids` as played once more, at `time` (seconds since 1970);
  /// albums deleted since are skipped.
  func notePlayed(_ ids: [Int64], at time: Int64) throws(LibraryError) {
    guard !ids.isEmpty else { return }
    try changing { db in
      for id in ids {
        try db.execute(
          sql: """
            INSERT INTO album_play (album_id, played, last_played)
            SELECT id, 1, ?2 FROM album WHERE id = ?1
            ON CONFLICT (album_id) DO UPDATE SET played = played + 1, last_played = excluded.last_played
            """, arguments: [id, time])
      }
    }
  }

  /// How often the album `id` was played and when last (0 and nil: never).
  func plays(ofAlbumID id: Int64) throws(LibraryError) -> (count: Int, last: Int64?) {
    try reading { db in
      let row = try Row.fetchOne(
        db, sql: "SELECT played, last_played FROM album_play WHERE album_id = ?", arguments: [id])
      return (row?[0] ?? 0, row?[1])
    }
  }
}
